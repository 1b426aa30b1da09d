// nnref run: the oracle on a model and its inputs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/engines.hpp"
#include "formats/tensor_files/npy.hpp"
#include "cli/outputs.hpp"
#include "cli/sizes.hpp"

namespace nnref {

namespace {

Result<NamedTensors> evaluate_graph(const RunOptions& o, const Model& m, const std::vector<HostTensor>& inputs,
                                    OutputBounds* bounds) {
  if (m.graph.outputs.empty()) {  // every output is empty (Model::empty_outputs)
    if (Status checked = check_inputs_only(m, inputs); !checked) return std::move(checked).error();
    return NamedTensors{};
  }
  if (is_fast(o.engine) || is_hw(o.engine))
    return named_outputs<float>(m, run_float32(m, inputs, o.max_memory, o.engine), DType::F32, nullptr);
  return evaluate_at_precision(m, inputs, o.precision, o.runtime_precision, o.ulps, o.max_memory, bounds);
}

// The graph's outputs, then the model's empty ones: arrays of the type the others are written in
// (float32 at f32 and for the float32 engines, float64 else; the radii float64).
Result<NamedTensors> evaluate_at(const RunOptions& o, const Model& m, const std::vector<HostTensor>& inputs,
                                 OutputBounds* bounds) {
  Result<NamedTensors> outputs = evaluate_graph(o, m, inputs, bounds);
  if (!outputs) return outputs;
  const bool f32 = is_fast(o.engine) || is_hw(o.engine) || o.precision == "f32";
  typed_outputs(m, *outputs);
  append_empty_outputs(m, *outputs, f32 ? DType::F32 : DType::F64);
  if (bounds) append_empty_outputs(m, bounds->radius, DType::F64);
  return outputs;
}

}  // namespace

int run_command(const RunOptions& o, std::ostream& out, std::ostream& err) {
  if ((is_fast(o.engine) || is_hw(o.engine)) && !o.precision.empty() && o.precision != "f32") {
    print_diagnostics(err, {make_error("usage.fast-precision", "the " + o.engine.engine + " engine computes in float32; --precision " +
                                                                   o.precision + " needs --engine oracle")});
    return kExitUsage;
  }
  if (Status chosen = prepare_engine_choice(o.engine); !chosen) {
    print_diagnostics(err, {chosen.error()});
    return kExitUsage;
  }
  int exit = kExitOk;
  // The sizes --dim and the inputs give replace the declared ones; the plan checks the model at
  // them before it runs.
  const std::optional<RuntimeModel> runtime = runtime_model(o.runtime_precision, o.ulps);
  LoadOptions load{WeightsPolicy::Required, o.max_memory};
  load.sknd_lowered = o.sknd_kernels == "lowered";
  auto loaded = load_with_inputs(o.model, load, o.dims, o.inputs, err, exit, runtime ? &*runtime : nullptr);
  if (!loaded) return exit;
  const Model& model = loaded->model;
  const std::vector<HostTensor>& inputs = loaded->inputs;

  auto start = std::chrono::steady_clock::now();
  const bool enclosure = o.precision == "interval" || o.precision == "envelope";
  if (!o.radius_output.empty() && !enclosure) {
    print_diagnostics(err, {make_error("usage.radius-output", "--radius-output needs --precision interval or envelope; "
                                                              "a point precision has no radius")});
    return kExitUsage;
  }
  OutputBounds bounds;
  Result<NamedTensors> outputs = evaluate_at(o, model, inputs, &bounds);
  auto elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!outputs) {
    Diagnostic d = std::move(outputs).error();
    note_given_sizes(d, loaded->model.graph, loaded->sizes);
    print_diagnostics(err, {d});
    return exit_code_for(d);
  }
  for (const auto& [path, tensors] : {std::pair{o.output, &*outputs}, std::pair{o.radius_output, &bounds.radius}}) {
    if (path.empty()) continue;
    if (Status written = write_tensors(path, *tensors); !written) {
      print_diagnostics(err, {written.error()});
      return kExitUsage;
    }
  }
  if (!o.quiet) {
    for (const auto& [name, t] : *outputs) print_output(out, name, t);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f ms", elapsed);
    const std::string how = is_fast(o.engine) ? "fast path, " + std::to_string(o.engine.threads) + " thread(s)"
                            : is_hw(o.engine) ? "hardware model, float32"
                            : o.precision.empty() ? "f64" : o.precision;
    out << "time: " << buf << " (" << how << ", " << model.graph.nodes.size() << " nodes)\n";
    if (o.precision == "interval") print_exact_precision(out, bounds.exact);
  }
  return kExitOk;
}

}  // namespace nnref
