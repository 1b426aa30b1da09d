#include "cli/outputs.hpp"

#include <cstdio>

#include "semantics/evaluate.hpp"
#include "spec/scalar_envelope.hpp"

namespace nnref {

namespace {
constexpr int64_t kPrintedValues = 32;  // outputs up to this many elements are printed in full
}

void print_output(std::ostream& out, const std::string& name, const HostTensor& t) {
  out << "output " << name << ": shape " << t.shape.str() << " " << dtype_name(t.dtype) << "\n";
  if (t.shape.count() > kPrintedValues) return;
  const char* fmt = t.dtype == DType::F32 ? "%.9g" : "%.17g";
  out << " ";
  for (double v : t.values) {
    char buf[40];
    std::snprintf(buf, sizeof buf, fmt, v);
    out << " " << buf;
  }
  out << "\n";
}

namespace {

template <Scalar T>
Result<NamedTensors> evaluate_as(const Model& m, const std::vector<HostTensor>& inputs, int64_t max_memory,
                                 DType out_type, OutputBounds* bounds) {
  return named_outputs<T>(m, evaluate<T>(m.graph, m.payload, inputs, EvalOptions{max_memory, m.param_keys}), out_type,
                          bounds);
}

}  // namespace

Result<NamedTensors> evaluate_at_precision(const Model& m, const std::vector<HostTensor>& inputs,
                                           const std::string& precision, const std::string& runtime_precision,
                                           double ulps, int64_t max_memory, OutputBounds* bounds) {
  if (precision == "f32") return evaluate_as<float>(m, inputs, max_memory, DType::F32, nullptr);
  if (precision == "f64" || precision.empty()) return evaluate_as<double>(m, inputs, max_memory, DType::F64, nullptr);
  if (precision == "mp") return evaluate_as<mp50>(m, inputs, max_memory, DType::F64, nullptr);
  if (precision == "interval") return evaluate_as<Interval>(m, inputs, max_memory, DType::F64, bounds);
  if (precision == "envelope") {
    const std::optional<RuntimeModel> runtime = runtime_model(runtime_precision, ulps);
    if (!runtime)
      return make_error("usage.runtime-precision",
                        "runtime precision '" + runtime_precision + "': give f32, f16 or bf16");
    RuntimeScope scope(*runtime);
    return evaluate_as<Envelope>(m, inputs, max_memory, DType::F64, bounds);
  }
  return make_error("usage.precision", "precision '" + precision + "': give f32, f64, mp, interval or envelope");
}

Status write_tensors(const std::string& path, const NamedTensors& tensors) {
  if (path.ends_with(".npz")) return write_npz(path, tensors);
  if (!path.ends_with(".npy")) return make_error("io.output-format", "an output file must end in .npy or .npz: " + path);
  if (tensors.size() != 1)
    return make_error("io.output-format",
                      "the model has " + std::to_string(tensors.size()) + " outputs; write them to an .npz file");
  return write_npy(path, tensors.front().second);
}

}  // namespace nnref
