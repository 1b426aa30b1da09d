#include "cli/app.hpp"

#include <CLI/CLI.hpp>
#include <ostream>

#include "checker/check_model.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/manual.hpp"
#include "cli/model_files.hpp"
#include "formats/writers.hpp"
#include "properties/generate.hpp"

namespace nnref {

namespace {

void add_max_memory(CLI::App* cmd, int64_t& target) {
  cmd->add_option("--max-memory", target, "memory budget for tensors, in bytes (suffixes K, M, G: 512M, 4G)")
      ->transform(CLI::AsSizeValue(false))
      ->capture_default_str();
}

void add_precision(CLI::App* cmd, std::string& target, const std::string& what) {
  cmd->add_option("--precision", target, what)
      ->check(CLI::IsMember({"f32", "f64", "mp", "interval", "envelope"}))
      ->capture_default_str();
}

void add_runtime_model(CLI::App* cmd, std::string& precision, double& ulps) {
  cmd->add_option("--runtime-precision", precision, "the runtime judged computes in f32, f16 or bf16")
      ->check(CLI::IsMember({"f32", "f16", "bf16"}))
      ->capture_default_str();
  cmd->add_option("--ulps", ulps, "error allowance of exp, log, tanh, sigmoid, rsqrt, ..., in units in the last place")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
}

// --engine with the given names, and the fast path's --threads and --target.
CLI::Option* add_engine(CLI::App* cmd, EngineChoice& target, const std::vector<std::string>& names,
                        const std::string& what) {
  auto* engine = cmd->add_option("--engine", target.engine, what)->check(CLI::IsMember(names));
  cmd->add_option("--threads", target.threads, "fast path: threads (results are the same for every count)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--target", target.target, "fast path: force a Highway target (AVX3, AVX2, SSE4, ...)");
  return engine;
}

}  // namespace

int run_app(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"nnref: a reference interpreter for neural-network model files"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "nnref " NNREF_VERSION);

  RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "evaluate a model on inputs with the reference oracle");
  run_cmd->add_option("model", run.model, "model file (.nnl)")->required();
  // No --input for a model without inputs (its value is its constants); otherwise input.count says what is missing.
  run_cmd->add_option("--input,-i", run.inputs, "input tensor: X.npy, or NAME=X.npy for a named input");
  run_cmd->add_option("--dim", run.dims,
                      "run at another size: NAME=SIZE for an input extent, as check names them (batch=8, input.0=128)");
  run_cmd->add_option("--output,-o", run.output, "where to write the outputs: Y.npy (one output) or Y.npz");
  add_precision(run_cmd, run.precision,
                "f32 (float), f64 (double, the default), mp (50 decimal digits), interval (rigorous enclosures, "
                "their midpoints written) or envelope (every correct runtime's answer, its midpoints written)");
  add_engine(run_cmd, run.engine, {"oracle", "fast", "hw"},
             "oracle (the reference, the default), fast (the Highway fast path, float32) or hw (the NAC hardware "
             "model at its default config, float32)")
      ->capture_default_str();
  run_cmd->add_option("--radius-output", run.radius_output,
                      "interval, envelope: write each output element's radius here (.npy or .npz)");
  add_runtime_model(run_cmd, run.runtime_precision, run.ulps);
  add_max_memory(run_cmd, run.max_memory);
  run_cmd->add_flag("--quiet,-q", run.quiet, "print nothing but diagnostics");
  run_cmd
      ->add_option("--sknd-kernels", run.sknd_kernels,
                   "NNEF 2.0: native (standard operators as nnref's ops where mapped, the default) or lowered "
                   "(every standard operator with a @lower body run from it)")
      ->check(CLI::IsMember({"native", "lowered"}))
      ->capture_default_str();

  CheckOptions check;
  auto* check_cmd =
      app.add_subcommand("check", "check syntax, structure, shapes and the binding of every parameter");
  check_cmd->add_option("model", check.model, "model file (.nnl)");
  add_max_memory(check_cmd, check.max_memory);
  check_cmd->add_option("--dim", check.dims, "let an input extent range over LO..HI: batch=1..64, input.0=1..512");
  check_cmd->add_option("--assume", check.assumes, "assume a relation of sizes: 'input.0 % 32 == 0'");
  check_cmd->add_option("--format", check.format, "text, json or sarif")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->capture_default_str();
  check_cmd->add_option("--explain", check.explain, "print what an obligation code means, and stop");
  check_cmd->add_flag("--audit-stdlib", check.audit_stdlib,
                      "prove, for every operator of nnref's SkriptND standard library and every size, what its "
                      "assertions imply (docs/nnef2.md), and stop");
  auto* budget = check_cmd->add_option("--solver-budget", check.solver_budget,
                                       "Z3 resource units per solver call (deterministic)")
                     ->check(CLI::Range(1u, UINT32_MAX))
                     ->capture_default_str();
  check_cmd
      ->add_option_function<unsigned>(
          "--timeout-ms", [&check](unsigned ms) { check.solver_budget = solver_budget_for_ms(ms); },
          "the older spelling of --solver-budget: N sets 25 N units (not a time limit)")
      ->check(CLI::Range(1u, 3600000u))
      ->excludes(budget);
  check_cmd->add_option("--deadline", check.deadline_s,
                        "wall-clock limit on the whole check, in seconds; when it passes the check is unknown")
      ->check(CLI::Range(1u, 86400u));

  ConformOptions conform;
  auto* conform_cmd =
      app.add_subcommand("conform", "judge another runtime's output: inside the proved envelope of every correct answer?");
  conform_cmd->add_option("model", conform.model, "model file (.nnl)")->required();
  conform_cmd->add_option("--input,-i", conform.inputs, "input tensor: X.npy, or NAME=X.npy for a named input");
  auto* actual = conform_cmd->add_option("--actual", conform.actual,
                                         "the runtime's output: Y.npy (one output) or Y.npz keyed by output name");
  conform_cmd
      ->add_option("--intermediates", conform.intermediates,
                   "the runtime's intermediate values, I.npz keyed by ONNX value or SkriptND component name: each is "
                   "judged against its op's envelope, then taken as the value downstream")
      ->needs(actual);
  add_engine(conform_cmd, conform.engine, {"f32", "fast", "hw"},
             "judge one of nnref's own engines instead: f32 (the oracle in float) or fast (the fast path), at their own "
             "values of every intermediate, or hw (the NAC hardware model), at its outputs")
      ->excludes(actual);
  add_runtime_model(conform_cmd, conform.runtime_precision, conform.ulps);
  conform_cmd->add_option("--dim", conform.dims,
                          "judge at another size: NAME=SIZE for an input extent, as check names them (batch=16)");
  auto* exact = conform_cmd->add_flag(
      "--exact", conform.exact,
      "enclose the exact value (MPFR intervals: 15-25 times the verdict's time on a deep model) and show it beside "
      "each worst element; without it, it is enclosed only when the verdict needs it (an envelope side past the "
      "largest finite number)");
  conform_cmd
      ->add_flag("--skip-exact", conform.skip_exact,
                 "never enclose the exact value, not even where the verdict needs it: a side past the largest finite "
                 "number is then not judged")
      ->excludes(exact);
  conform_cmd->add_flag("--inconclusive-ok", conform.inconclusive_ok,
                        "exit 0, not 3, when nothing lies outside but some element could not be judged");
  conform_cmd->add_option("--format", conform.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  add_max_memory(conform_cmd, conform.max_memory);

  BenchOptions bench;
  auto* bench_cmd = app.add_subcommand("bench", "time a model on one of nnref's float32 engines");
  bench_cmd->add_option("model", bench.model, "model file (.nnl)")->required();
  bench_cmd->add_option("--input,-i", bench.inputs,
                        "input tensor: X.npy, or NAME=X.npy (default: random inputs of the declared shapes)");
  add_engine(bench_cmd, bench.engine, {"oracle", "fast"}, "oracle (the reference in float) or fast (the fast path)")
      ->capture_default_str();
  bench_cmd->add_option("--repeat", bench.repeat, "timed runs, after one warm-up run")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  bench_cmd->add_option("--format", bench.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  add_max_memory(bench_cmd, bench.max_memory);

  InspectOptions inspect;
  auto* inspect_cmd = app.add_subcommand("inspect", "list every node with its shape, parameters, MACs and memory");
  inspect_cmd->add_option("model", inspect.model, "model file (.nnl)")->required();
  inspect_cmd->add_option("--dim", inspect.dims,
                          "list at another size: NAME=SIZE for an input extent, as run names them (batch=8, N=4)");
  add_precision(inspect_cmd, inspect.precision, "the precision whose bytes per element the memory column counts");

  InitWeightsOptions init;
  auto* init_cmd = app.add_subcommand("init-weights", "write deterministic random weights of the right shapes");
  init_cmd->add_option("model", init.model, "model file (.nnl)")->required();
  init_cmd->add_option("--seed", init.seed, "random seed")->capture_default_str();
  init_cmd->add_option("--out", init.out,
                       "a directory (one .npy per parameter) or a .npz file; default: where the model's config says");
  add_max_memory(init_cmd, init.max_memory);

  ConvertOptions convert;
  auto* convert_cmd = app.add_subcommand("convert", "write a model in another format (every op with the same formula)");
  convert_cmd->add_option("model", convert.model, "model file or folder (.nnl, NNEF folder, NNEF 2.0 folder or .sknd, .onnx, .nac)")->required();
  std::vector<std::string> formats;
  std::string targets;
  for (const Writer& w : writers()) {
    formats.emplace_back(w.name);
    targets += (targets.empty() ? "" : "; ") + std::string(w.name) + ": " + std::string(w.target);
  }
  convert_cmd->add_option("out", convert.out, "where to write: " + targets)->required();
  convert_cmd->add_option("--to", convert.to, "the format to write")->required()->check(CLI::IsMember(formats));
  convert_cmd->add_option("--dim", convert.dims, "write another input extent: NAME=SIZE, as run names them (batch=8)");
  add_max_memory(convert_cmd, convert.max_memory);

  FuzzOptions fuzz;
  auto* fuzz_cmd = app.add_subcommand(
      "fuzz", "judge generated models on nnref's engines or another runtime; shrink and keep each failure");
  fuzz_cmd->add_option("--seed", fuzz.seed, "the campaign's seed: the same seed gives the same models")->required();
  auto* fuzz_time = fuzz_cmd->add_option("--time", fuzz.time, "judge models until this long has passed: 90s, 10m, 1h30m");
  fuzz_cmd->add_option("--count", fuzz.count, "judge the campaign's models START .. START+N-1 (this shard's share of them)")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))
      ->excludes(fuzz_time);
  fuzz_cmd->add_option("--start", fuzz.start, "the campaign's first model (regenerate model K alone: --start K --count 1)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 40))
      ->capture_default_str();
  fuzz_cmd->add_option("--shard", fuzz.shard, "i/n: judge the models k with k % n == i, so that n shards share a campaign")
      ->capture_default_str();
  fuzz_cmd->add_option("--engines", fuzz.engines, "nnref's engines to judge, comma-separated (default: oracle,fast,hw; "
                                                  "none with --runtime)")
      ->delimiter(',')
      ->check(CLI::IsMember({"oracle", "fast", "hw"}));
  fuzz_cmd->add_option("--ops", fuzz.ops, "the ops models are made of, comma-separated, or composites such as "
                                          "layer_norm_decomposed (default: every op and composite the generator builds)")
      ->delimiter(',')
      ->check(CLI::IsMember([] {
        std::vector<std::string> names = properties::generated_op_names();
        for (const std::string& c : properties::generated_composite_names()) names.push_back(c);
        return names;
      }()));
  fuzz_cmd->add_option("--max-nodes", fuzz.max_nodes, "op nodes per model at most")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  fuzz_cmd->add_option("--runtime", fuzz.runtime,
                       "judge another runtime: a shell command with {model}, {input} (.npy, .npz for several inputs) "
                       "and {output} (.npz keyed by output name, which it writes)");
  fuzz_cmd->add_option("--runtime-format", fuzz.runtime_format,
                       "the format --runtime reads the model in (default: " + reproducer_formats().front() + ")")
      ->check(CLI::IsMember(model_file_formats()));
  fuzz_cmd->add_option("--timeout", fuzz.timeout, "seconds each engine or runtime run may take on a model before it fails")
      ->check(CLI::Range(0.1, 86400.0))
      ->capture_default_str();
  fuzz_cmd->add_option("--shrink-attempts", fuzz.shrink_attempts, "models rebuilt at most while shrinking a failure")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  fuzz_cmd->add_flag("--no-isolation", fuzz.no_isolation,
                     "judge in this process, not a child per model: for a debugger; a crash ends the campaign");
  fuzz_cmd->add_option("--out", fuzz.out, "the campaign's folder: reproducers and summary-I-of-N.json")->required();
  add_max_memory(fuzz_cmd, fuzz.max_memory);

  SuiteOptions suite;
  suite.version = NNREF_VERSION;
  auto* suite_cmd = app.add_subcommand(
      "suite", "write a certified conformance suite: per case the model, its inputs, the exact value's enclosure and "
               "the envelope of every correct answer, for scripts/judge_suite.py");
  suite_cmd->add_option("sources", suite.sources,
                        "model files, each with input.npy (or input.npz) beside it, and ONNX backend test folders "
                        "(model.onnx, test_data_set_*/input_*.pb: one case per data set)")
      ->required();
  suite_cmd->add_option("--out", suite.out, "the suite's folder: a folder per case and manifest.json")->required();
  add_runtime_model(suite_cmd, suite.runtime_precision, suite.ulps);
  suite_cmd->add_option("--shard", suite.shard, "i/n: write the cases k with k % n == i (manifest-i-of-n.json)")
      ->capture_default_str();
  add_max_memory(suite_cmd, suite.max_memory);

  auto run_nac = add_nac_command(app);
  auto run_hw = add_hw_command(app);
  // Hidden (no group): the man page and the bash completion, written from this app so that they
  // cannot drift from --help (cli/manual.hpp; the build writes build/nnref.1 with them).
  app.add_flag_callback("--man-page", [&app, &out] {
       out << man_page(app, NNREF_VERSION);
       throw CLI::Success();
     })->group("");
  app.add_flag_callback("--bash-completion", [&app, &out] {
       out << bash_completion(app);
       throw CLI::Success();
     })->group("");

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e, out, err);
    return code == 0 ? kExitOk : kExitUsage;
  }
  // An exception that escapes a command is a bug in nnref: a located internal error, never a signal.
  try {
    if (run_cmd->parsed()) return run_command(run, out, err);
    if (check_cmd->parsed()) return check_command(check, out, err);
    if (conform_cmd->parsed()) return conform_command(conform, out, err);
    if (inspect_cmd->parsed()) return inspect_command(inspect, out, err);
    if (bench_cmd->parsed()) return bench_command(bench, out, err);
    if (convert_cmd->parsed()) return convert_command(convert, out, err);
    if (fuzz_cmd->parsed()) return fuzz_command(fuzz, out, err);
    if (suite_cmd->parsed()) return suite_command(suite, out, err);
    if (int code = run_nac(out, err); code >= 0) return code;
    if (int code = run_hw(out, err); code >= 0) return code;
    return init_weights_command(init, out, err);
  } catch (const std::exception& e) {
    print_diagnostics(err, {make_error("internal.exception", std::string("nnref stopped on an exception (a bug in nnref): ") +
                                                                 e.what())});
    return kExitUsage;
  }
}

}  // namespace nnref
