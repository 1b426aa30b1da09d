// The judgement of one model by `nnref fuzz`: each subject (one of nnref's float32 engines, or an
// external runtime run as a command) answers on the model's input, and its answer is judged with
// the float32 envelope exactly as `nnref conform` judges (enclose_outputs, judge_outputs). A subject
// that gives no answer (an engine's error on a model the checker accepts, a runtime's non-zero exit,
// timeout or unreadable output) fails too.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/engines.hpp"
#include "cli/verdict.hpp"
#include "formats/model.hpp"
#include "spec/host_tensor.hpp"

namespace nnref {

// `command` with {model}, {input} and {output} replaced by paths; the model is written in `format`
// (cli/model_files.hpp), the input as .npy (one input) or .npz keyed by input name, and the runtime
// writes {output}, an .npz keyed by output name (or an .npy, for a model with one output).
// The exit code by which a runtime's command says it does not run a model (an op or a kernel it
// lacks): no answer, and no failure either; the campaign counts the model as declined.
inline constexpr int kRuntimeDeclines = 77;

struct ExternalRuntime {
  std::string command;
  std::string format = "nac";
  double timeout_seconds = 60;
};

struct Subject {
  std::string name;  // the engine's name (oracle, fast, hw), or "runtime"
  EngineChoice engine;
  std::optional<ExternalRuntime> runtime;
};

// A runtime run's files, relative to the folder they are in, and the model as read back from its
// file: the names of its inputs and outputs are the file's.
struct RuntimeFiles {
  std::filesystem::path model, input, output = "output-runtime.npz", log = "runtime.log";
  Model written;
};

// The runtime model every answer is judged with: conform's default (float32, 4 ulps).
RuntimeModel float32_runtime();

struct SubjectJudgement {
  std::string subject;
  std::optional<NamedTensors> outputs;  // absent when the subject gave no answer
  std::string error;                    // why it gave none
  std::vector<OutputVerdict> verdicts;
  bool skipped = false;                 // the runtime's format cannot express the model: not asked
  bool declined = false;                // the runtime said it does not run the model (kRuntimeDeclines)
  bool failed() const { return !skipped && !declined && (!outputs || !none_outside(verdicts)); }
};

// The subject's answer on `m` and `inputs`, judged against `enclosures` (of the same model and
// inputs). A runtime's files are written in `work_dir`, which exists.
SubjectJudgement judge_subject(const Subject& s, const Model& m, const std::vector<HostTensor>& inputs,
                               const Enclosures& enclosures, const std::filesystem::path& work_dir,
                               int64_t max_memory);

// Writes the model in `format` and its input for the runtime in `dir`, which exists.
Result<RuntimeFiles> write_runtime_files(const std::string& format, const Model& m,
                                           const std::vector<HostTensor>& inputs, const std::filesystem::path& dir,
                                           int64_t max_memory);

// The runtime's command with {model}, {input} and {output} replaced by the files' paths, each
// shell-quoted after `folder`, shell text naming their folder with a trailing '/' ("'/tmp/w'/",
// "\"$here\"/").
std::string runtime_command(const ExternalRuntime& r, const RuntimeFiles& f, const std::string& folder);

std::string shell_quoted(const std::string& arg);

// The model's inputs named as its graph's inputs.
NamedTensors named_inputs(const Graph& g, const std::vector<HostTensor>& inputs);

// Which subjects fail on a model: their names, "envelope" when nnref cannot enclose the model's
// outputs, or a note on how the process judging it ended (a signal, a timeout), which fails them all;
// which were not asked, the model being one their format cannot express; and which declined it.
struct ModelOutcome {
  std::vector<std::string> failing, skipped, declined;
  std::string note;
  bool failed() const { return !failing.empty(); }
};

// The model judged by each subject, in this process, or (isolated) in a child process given
// `seconds`, so that a subject's crash or hang is a failure found, not the end of the campaign.
ModelOutcome judge_model(const Model& m, const std::vector<HostTensor>& inputs, const std::vector<Subject>& subjects,
                         const std::filesystem::path& work_dir, int64_t max_memory);
ModelOutcome judge_model_isolated(const Model& m, const std::vector<HostTensor>& inputs,
                                  const std::vector<Subject>& subjects, const std::filesystem::path& work_dir,
                                  int64_t max_memory, double seconds);

// "== fast ==" and conform's verdict lines, or why there was no answer.
void print_judgement(std::ostream& out, const SubjectJudgement& j);

}  // namespace nnref
