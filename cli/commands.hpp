// The subcommands: one options struct and one function each, one file each.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "checker/check_model.hpp"
#include "cli/common.hpp"
#include "cli/engines.hpp"

namespace CLI {
class App;
}

namespace nnref {

struct RunOptions {
  std::string model;
  std::vector<std::string> inputs;  // "X.npy" or "name=X.npy"
  std::string output;               // ".npy" (one output) or ".npz"
  std::vector<std::string> dims;    // NAME=SIZE: input extents other than the declared ones
  std::string precision;            // f32 | f64 | mp | interval | envelope; empty: f64 (oracle) or f32 (fast)
  EngineChoice engine;              // oracle | fast
  std::string radius_output;        // interval, envelope: where to write each output's radii
  std::string runtime_precision = "f32";  // envelope: f32 | f16 | bf16
  double ulps = 4;                  // envelope: the transcendentals' allowance
  int64_t max_memory = kDefaultMaxMemory;
  bool quiet = false;
  std::string sknd_kernels = "native";  // NNEF 2.0: native | lowered (every operator from its @lower body)
};
int run_command(const RunOptions& o, std::ostream& out, std::ostream& err);

struct ConformOptions {
  std::string model;
  std::vector<std::string> inputs;  // as for run
  std::string actual;               // Y.npy (one output) or Y.npz keyed by output name
  std::string intermediates;        // I.npz: the runtime's values of intermediate ONNX values (cut points)
  EngineChoice engine{"", 1, ""};   // instead of --actual: one of nnref's engines (f32 | fast)
  std::string runtime_precision = "f32";
  double ulps = 4;
  std::string format = "text";      // text | json
  int64_t max_memory = kDefaultMaxMemory;
  std::vector<std::string> dims;    // as for run
  bool inconclusive_ok = false;     // exit 0 for an inconclusive verdict
  bool exact = false;               // the exact value's enclosure always, not only where the verdict needs it
  bool skip_exact = false;          // the envelope's verdict alone, without the exact value's enclosure
};
int conform_command(const ConformOptions& o, std::ostream& out, std::ostream& err);

struct BenchOptions {
  std::string model;
  std::vector<std::string> inputs;  // as for run; none: deterministic random inputs of the declared shapes
  EngineChoice engine;              // oracle | fast
  int repeat = 20;                  // timed runs, after one warm-up run
  std::string format = "text";      // text | json
  int64_t max_memory = kDefaultMaxMemory;
};
int bench_command(const BenchOptions& o, std::ostream& out, std::ostream& err);

struct CheckOptions {
  std::string model;
  int64_t max_memory = kDefaultMaxMemory;
  std::vector<std::string> dims;     // NAME=LO..HI
  std::vector<std::string> assumes;  // EXPR
  std::string format = "text";       // text | json | sarif
  std::string explain;               // a code: print what it means and stop
  unsigned solver_budget = kDefaultSolverBudget;  // Z3 resource units per solver call (--timeout-ms sets it too)
  unsigned deadline_s = 0;           // wall-clock limit on the whole check, in seconds (0: none)
  bool audit_stdlib = false;         // audit nnref's SkriptND standard library instead of a model
};
int check_command(const CheckOptions& o, std::ostream& out, std::ostream& err);
// The findings of a check (without --explain or --deadline), or of a load that failed before one
// could run (model_read false, the load's diagnostics); an error for a malformed --dim.
Result<CheckReport> check_findings(const CheckOptions& o);

struct InspectOptions {
  std::string model;
  std::vector<std::string> dims;  // NAME=SIZE: input extents other than the declared ones, as for run
  std::string precision = "f64";  // f32 | f64 | mp: the bytes per element of the memory column
};
int inspect_command(const InspectOptions& o, std::ostream& out, std::ostream& err);

struct InitWeightsOptions {
  std::string model;
  uint64_t seed = 0;
  std::string out;  // a directory, or a file ending .npz; empty: where the model's config says
  int64_t max_memory = kDefaultMaxMemory;  // bounds the parameters held while writing them
};
int init_weights_command(const InitWeightsOptions& o, std::ostream& out, std::ostream& err);

struct ConvertOptions {
  std::string model;
  std::string to;                  // a writer's name (formats/writers.hpp): nnef | onnx
  std::string out;                 // what the writer writes: a folder (nnef) or a file (onnx)
  std::vector<std::string> dims;   // NAME=SIZE: input extents to write instead of the declared ones
  int64_t max_memory = kDefaultMaxMemory;
};
int convert_command(const ConvertOptions& o, std::ostream& out, std::ostream& err);

struct FuzzOptions {
  uint64_t seed = 0;
  std::string time;                  // a duration (10m, 1h30m): judge models until it has passed
  int64_t count = 0;                 // or: the campaign's models start .. start + count - 1
  int64_t start = 0;                 // the campaign's first model
  std::string shard = "0/1";         // i/n: the models k ≡ i (mod n)
  std::vector<std::string> engines;  // oracle | fast | hw; none given: all three (none with --runtime)
  std::vector<std::string> ops;      // the generator's ops; none given: all it knows
  int max_nodes = 10;
  std::string runtime;               // an external runtime: 'CMD {model} {input} {output}'
  std::string runtime_format;        // the format it reads; empty: a reproducer's preferred format
  double timeout = 60;               // seconds per subject and model
  int shrink_attempts = 200;         // rebuilds tried while shrinking a failure
  bool no_isolation = false;         // judge in this process: a crash ends the campaign
  std::string out;                   // the campaign's folder
  int64_t max_memory = kDefaultMaxMemory;
};
int fuzz_command(const FuzzOptions& o, std::ostream& out, std::ostream& err);

struct SuiteOptions {
  std::vector<std::string> sources;  // model files (inputs beside them) and ONNX backend test folders
  std::string out;                   // the suite's folder
  std::string runtime_precision = "f32";
  double ulps = 4;
  std::string shard = "0/1";         // i/n: the cases k ≡ i (mod n), in the arguments' order
  int64_t max_memory = kDefaultMaxMemory;
  std::string version;               // nnref's, for the manifest
};
int suite_command(const SuiteOptions& o, std::ostream& out, std::ostream& err);

// nnref nac compile | dump | verify (cli/nac_command.cpp): adds the subcommand to `app`; the function
// returned runs it after parsing, or returns -1 when `nac` was not given.
std::function<int(std::ostream&, std::ostream&)> add_nac_command(CLI::App& app);
// nnref hw run (cli/hw_command.cpp), the same way.
std::function<int(std::ostream&, std::ostream&)> add_hw_command(CLI::App& app);

}  // namespace nnref
