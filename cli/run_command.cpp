// nnref run: the oracle on a model and its inputs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/engines.hpp"
#include "formats/tensor_files/npy.hpp"
#include "semantics/evaluate.hpp"
#include "cli/outputs.hpp"
#include "cli/sizes.hpp"

namespace nnref {

namespace {

template <Scalar T>
Result<NamedTensors> evaluate_as(const Model& m, const std::vector<HostTensor>& inputs, int64_t max_memory,
                                 DType out_type, NamedTensors* radii) {
  return named_outputs<T>(m, evaluate<T>(m.graph, m.payload, inputs, EvalOptions{max_memory, m.param_keys}), out_type,
                          radii);
}

Result<NamedTensors> evaluate_at(const RunOptions& o, const Model& m, const std::vector<HostTensor>& inputs,
                                 NamedTensors* radii) {
  if (is_fast(o.engine) || is_hw(o.engine))
    return named_outputs<float>(m, run_float32(m, inputs, o.max_memory, o.engine), DType::F32, nullptr);
  if (o.precision == "f32") return evaluate_as<float>(m, inputs, o.max_memory, DType::F32, nullptr);
  if (o.precision == "mp") return evaluate_as<mp50>(m, inputs, o.max_memory, DType::F64, nullptr);
  if (o.precision == "interval") return evaluate_as<Interval>(m, inputs, o.max_memory, DType::F64, radii);
  if (o.precision == "envelope") {
    const RuntimeModel runtime = *runtime_model(o.runtime_precision, o.ulps);
    RuntimeScope scope(runtime);
    return evaluate_as<Envelope>(m, inputs, o.max_memory, DType::F64, radii);
  }
  return evaluate_as<double>(m, inputs, o.max_memory, DType::F64, nullptr);
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
  auto loaded = load_with_inputs(o.model, LoadOptions{WeightsPolicy::Required, o.max_memory}, o.dims, o.inputs, err, exit);
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
  NamedTensors radii;
  Result<NamedTensors> outputs = evaluate_at(o, model, inputs, &radii);
  auto elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!outputs) {
    Diagnostic d = std::move(outputs).error();
    note_given_sizes(d, loaded->model.graph, loaded->sizes);
    print_diagnostics(err, {d});
    return exit_code_for(d);
  }
  for (const auto& [path, tensors] : {std::pair{o.output, &*outputs}, std::pair{o.radius_output, &radii}}) {
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
  }
  return kExitOk;
}

}  // namespace nnref
