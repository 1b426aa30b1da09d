#include "cli/fuzz_judge.hpp"

#include <ostream>
#include <sstream>

#include "cli/common.hpp"
#include "cli/deadline.hpp"
#include "cli/model_files.hpp"
#include "cli/shell_command.hpp"
#include "formats/tensor_files/npy.hpp"

namespace nnref {

namespace {

namespace fs = std::filesystem;

std::string diagnostic_text(const Diagnostic& d) { return "error[" + d.code + "]: " + d.message; }

SubjectJudgement no_answer(const std::string& subject, std::string why) {
  SubjectJudgement j;
  j.subject = subject;
  j.error = std::move(why);
  return j;
}

SubjectJudgement judged(const std::string& subject, NamedTensors outputs, const Enclosures& enclosures) {
  SubjectJudgement j;
  j.subject = subject;
  j.verdicts = judge_outputs(enclosures, outputs);
  j.outputs = std::move(outputs);
  return j;
}

SubjectJudgement judge_runtime(const ExternalRuntime& r, const Model& m, const std::vector<HostTensor>& inputs,
                               const Enclosures& enclosures, const fs::path& dir, int64_t max_memory) {
  auto files = write_runtime_files(r.format, m, inputs, dir, max_memory);
  if (!files) {
    SubjectJudgement j = no_answer("runtime", "the model could not be written for it: " + diagnostic_text(files.error()));
    j.skipped = files.error().code == "convert.unexpressible";
    return j;
  }
  std::error_code ignored;
  fs::remove(dir / files->output, ignored);  // an answer left by an earlier run is no answer
  const ChildEnd run = run_shell(runtime_command(r, *files, shell_quoted(dir.string()) + "/"), r.timeout_seconds, (dir / files->log).string());
  if (run.end == ChildEnd::End::Exited && run.code == kRuntimeDeclines) {
    SubjectJudgement j = no_answer("runtime", "the runtime declines the model (exit code " + std::to_string(kRuntimeDeclines) +
                                                  "; its output: " + (dir / files->log).string() + ")");
    j.declined = true;
    return j;
  }
  if (!run.succeeded())
    return no_answer("runtime", "the runtime's command " + run.describe() + " (its output: " + (dir / files->log).string() + ")");
  auto actual = read_actual((dir / files->output).string(), files->written, enclosures.shapes());
  if (!actual) return no_answer("runtime", "its output cannot be read: " + diagnostic_text(actual.error()));
  return judged("runtime", std::move(actual).value(), enclosures);
}

}  // namespace

std::string shell_quoted(const std::string& arg) {
  std::string q = "'";
  for (char ch : arg) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

RuntimeModel float32_runtime() { return *runtime_model("f32"); }

NamedTensors named_inputs(const Graph& g, const std::vector<HostTensor>& inputs) {
  NamedTensors named;
  const auto ids = g.input_ids();
  for (size_t k = 0; k < ids.size() && k < inputs.size(); ++k)
    named.emplace_back(g.nodes[static_cast<size_t>(ids[k])].name, inputs[k]);
  return named;
}

Result<RuntimeFiles> write_runtime_files(const std::string& format, const Model& m,
                                           const std::vector<HostTensor>& inputs, const fs::path& dir,
                                           int64_t max_memory) {
  auto path = write_model_file(m, format, dir);
  if (!path) return std::move(path).error();
  LoadResult loaded = load_model(path->string(), LoadOptions{WeightsPolicy::Required, max_memory});
  if (loaded.has_errors() || !loaded.model) {
    for (const Diagnostic& d : loaded.diagnostics)
      if (d.severity == Severity::Error) return d;
    return make_error("io.read", "the model written to '" + path->string() + "' cannot be read back");
  }
  RuntimeFiles f;
  f.model = path->lexically_relative(dir);
  f.written = std::move(*loaded.model);
  const NamedTensors named = named_inputs(f.written.graph, inputs);
  f.input = named.size() == 1 ? "input.npy" : "input.npz";
  Status written = named.size() == 1 ? write_npy((dir / f.input).string(), named[0].second)
                                     : write_npz((dir / f.input).string(), named);
  if (!written) return std::move(written).error();
  return f;
}

std::string runtime_command(const ExternalRuntime& r, const RuntimeFiles& f, const std::string& folder) {
  std::string command;
  for (size_t pos = 0; pos < r.command.size();) {
    const size_t open = r.command.find('{', pos);
    const size_t close = open == std::string::npos ? open : r.command.find('}', open);
    if (close == std::string::npos) {
      command += r.command.substr(pos);
      break;
    }
    const std::string field = r.command.substr(open + 1, close - open - 1);
    const fs::path* file = field == "model" ? &f.model : field == "input" ? &f.input : field == "output" ? &f.output : nullptr;
    command += r.command.substr(pos, open - pos);
    command += file ? folder + shell_quoted(file->string()) : r.command.substr(open, close - open + 1);
    pos = close + 1;
  }
  return command;
}

SubjectJudgement judge_subject(const Subject& s, const Model& m, const std::vector<HostTensor>& inputs,
                               const Enclosures& enclosures, const fs::path& work_dir, int64_t max_memory) {
  if (s.runtime) return judge_runtime(*s.runtime, m, inputs, enclosures, work_dir, max_memory);
  auto outputs = run_float32(m, inputs, max_memory, s.engine);
  if (!outputs) return no_answer(s.name, "the engine refused a model the checker accepts: " + diagnostic_text(outputs.error()));
  return judged(s.name, named_outputs(m.graph, *outputs), enclosures);
}

ModelOutcome judge_model(const Model& m, const std::vector<HostTensor>& inputs, const std::vector<Subject>& subjects,
                         const fs::path& work_dir, int64_t max_memory) {
  ModelOutcome outcome;
  auto enclosures = enclose_outputs(m, inputs, float32_runtime(), max_memory);
  if (!enclosures) {
    outcome.failing = {"envelope"};
    outcome.note = diagnostic_text(enclosures.error());
    return outcome;
  }
  for (const Subject& s : subjects) {
    const SubjectJudgement j = judge_subject(s, m, inputs, *enclosures, work_dir, max_memory);
    if (j.failed()) outcome.failing.push_back(s.name);
    if (j.skipped) outcome.skipped.push_back(s.name);
    if (j.declined) outcome.declined.push_back(s.name);
  }
  return outcome;
}

ModelOutcome judge_model_isolated(const Model& m, const std::vector<HostTensor>& inputs,
                                  const std::vector<Subject>& subjects, const fs::path& work_dir, int64_t max_memory,
                                  double seconds) {
  const ChildEnd child = run_in_child(seconds, [&](std::ostream& out, std::ostream&) {
    const ModelOutcome outcome = judge_model(m, inputs, subjects, work_dir, max_memory);
    for (const std::string& name : outcome.failing) out << "fails " << name << "\n";
    for (const std::string& name : outcome.skipped) out << "skipped " << name << "\n";
    for (const std::string& name : outcome.declined) out << "declined " << name << "\n";
    return outcome.failed() ? 1 : 0;
  });
  ModelOutcome outcome;
  if (child.end == ChildEnd::End::Exited && child.code <= 1) {
    std::istringstream lines(child.out);
    for (std::string what, name; lines >> what >> name;)
      (what == "fails" ? outcome.failing : what == "skipped" ? outcome.skipped : outcome.declined).push_back(name);
    return outcome;
  }
  for (const Subject& s : subjects) outcome.failing.push_back(s.name);
  outcome.note = "the process judging it: " + child.describe();
  return outcome;
}

void print_judgement(std::ostream& out, const SubjectJudgement& j) {
  out << "== " << j.subject << ": " << (j.skipped ? "not asked" : j.declined ? "declined" : j.failed() ? "FAILS" : "conforms") << " ==\n";
  if (!j.outputs) out << j.error << "\n";
  else print_verdicts(out, j.verdicts, float32_runtime());
}

}  // namespace nnref
