// nnref hw run: a model on the NAC hardware model, with its cycle statistics and a trace
// (docs/hw-model.md). A .nac model runs as written; any other model is compiled to NAC in memory.
#include <CLI/CLI.hpp>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/sizes.hpp"
#include "cli/outputs.hpp"
#include "hw/engine.hpp"
#include "hw/report.hpp"

namespace nnref {

namespace {

struct HwOptions {
  std::string model;
  std::vector<std::string> inputs;
  std::string output, config, trace;
  bool stats = false, quiet = false;
  int preload_ahead = -1;  // -1: the lead from the cost model
  int64_t max_memory = kDefaultMaxMemory;
};

int fail(std::ostream& err, const Diagnostic& d) {
  print_diagnostics(err, {d});
  return exit_code_for(d);
}

int hw_run(const HwOptions& o, std::ostream& out, std::ostream& err) {
  hw::Config config;
  if (!o.config.empty()) {
    auto read = hw::read_config(o.config);
    if (!read) return fail(err, read.error());
    config = *read;
  }
  int exit = kExitOk;
  // The model at the sizes its inputs give, then compiled (or, a .nac, read again) at them.
  auto loaded = load_with_inputs(o.model, LoadOptions{WeightsPolicy::Required, o.max_memory}, {}, o.inputs, err, exit);
  if (!loaded) return exit;
  const auto model_error = [&](Diagnostic d) {
    note_given_sizes(d, loaded->model.graph, loaded->sizes);
    return fail(err, d);
  };
  const std::optional<int> ahead = o.preload_ahead >= 0 ? std::optional<int>(o.preload_ahead) : std::nullopt;
  auto program = hw::program_for(loaded->model, config, ahead, o.max_memory);
  if (!program) return model_error(program.error());
  auto run = hw::run(*program, loaded->inputs, config, o.max_memory);
  if (!run) return model_error(run.error());
  auto named = named_outputs<float>(program->model, run->outputs, DType::F32, nullptr);
  if (!o.output.empty())
    if (Status written = write_tensors(o.output, *named); !written) return fail(err, written.error());
  if (!o.trace.empty()) {
    std::ofstream f(o.trace, std::ios::trunc);
    f << hw::trace_json(program->program, run->work, run->timeline, config);
    if (!f.good()) return fail(err, make_error("io.write", "cannot write '" + o.trace + "'"));
  }
  if (!o.quiet)
    for (const auto& [name, t] : *named) print_output(out, name, t);
  if (o.stats) hw::print_stats(out, run->work, run->timeline, config);
  return kExitOk;
}

}  // namespace

std::function<int(std::ostream&, std::ostream&)> add_hw_command(CLI::App& app) {
  auto o = std::make_shared<HwOptions>();
  auto* hw = app.add_subcommand("hw", "run a model on the NAC hardware model (docs/hw-model.md)");
  hw->require_subcommand(1);
  auto* run = hw->add_subcommand("run", "run a model tick by tick: its outputs, cycle statistics and a trace");
  run->add_option("model", o->model,
                  "model file: a .nac runs as written; any other format (.nnl, NNEF, .onnx) is compiled to NAC in memory first")
      ->required();
  run->add_option("--input,-i", o->inputs, "input tensor: X.npy, or NAME=X.npy for a named input")->required();
  run->add_option("--output,-o", o->output, "where to write the outputs: Y.npy (one output) or Y.npz");
  run->add_option("--config", o->config, "hardware parameters as JSON (docs/hw-model.md lists the keys and defaults)");
  run->add_flag("--stats", o->stats, "print cycles, stalls by cause, MAC utilisation, peak SRAM, DRAM bytes and a per-op table");
  run->add_option("--trace", o->trace, "write a Chrome trace-event JSON (Perfetto) with the core and coprocessor tracks");
  run->add_option("--preload-ahead", o->preload_ahead,
                  "a model compiled in memory: PRELOAD each parameter this many ticks ahead instead of the cost model's lead")
      ->check(CLI::Range(0, 1000));
  run->add_option("--max-memory", o->max_memory, "memory budget for tensors, in bytes (suffixes K, M, G)")
      ->transform(CLI::AsSizeValue(false));
  run->add_flag("--quiet,-q", o->quiet, "print no outputs");
  return [o, hw](std::ostream& out, std::ostream& err) { return hw->parsed() ? hw_run(*o, out, err) : -1; };
}

}  // namespace nnref
