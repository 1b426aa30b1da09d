#include "cli/outputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "semantics/evaluate.hpp"
#include "semantics/plan.hpp"
#include "spec/scalar_envelope.hpp"

namespace nnref {

namespace {
constexpr int64_t kPrintedValues = 32;  // outputs up to this many elements are printed in full
}

void print_output(std::ostream& out, const std::string& name, const HostTensor& t) {
  out << "output " << name << ": shape " << t.shape.str() << " " << dtype_name(t.dtype) << "\n";
  if (t.shape.count() > kPrintedValues || t.shape.count() == 0) return;
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

// Boost's decimal digits for 61, 128, 257 and 513 bits: the precisions tried, the last the cap.
constexpr unsigned kExactDigits10[] = {kIntervalDigits10, 38, 77, 154};

// Counts the elements over the width target into p.
void count_over_target(const std::vector<Tensor<Interval>>& outputs, ExactPrecision& p) {
  p.over_target = p.unbounded = 0;
  mpfr_t width;
  mpfr_init2(width, 64);
  for (const Tensor<Interval>& t : outputs) {
    double max_y = 0;
    for (const Interval& x : t.data())
      if (const Enclosure e = sc::enclosure(x); e.bounded()) max_y = std::max(max_y, std::abs(sc::to_double(x)));
    for (const Interval& x : t.data()) {
      if (!sc::enclosure(x).bounded()) {
        ++p.over_target;
        ++p.unbounded;
        continue;
      }
      mpfi_diam_abs(width, x.backend().data());  // rounded up
      if (mpfr_get_d(width, MPFR_RNDU) > kExactWidthTarget * max_y) ++p.over_target;
    }
  }
  mpfr_clear(width);
}

}  // namespace

Result<ExactOutputs> exact_outputs(const Model& m, const std::vector<HostTensor>& inputs, int64_t max_memory) {
  ExactOutputs kept;
  for (unsigned digits10 : kExactDigits10) {
    const unsigned bits = interval_bits_of_digits10(digits10);
    std::optional<IntervalPrecision> raised;
    if (digits10 != kIntervalDigits10) raised.emplace(digits10);
    // The plan budgets ScalarOps<Interval>::bytes per value, the size at 61 bits: at more bits the
    // budget shrinks in proportion, so that the memory used stays within max_memory.
    const int64_t budget = static_cast<int64_t>(static_cast<double>(max_memory) * double(ScalarOps<Interval>::bytes) /
                                                double(ScalarOps<Interval>::bytes_at(bits)));
    auto r = evaluate<Interval>(m.graph, m.payload, inputs, EvalOptions{budget, m.param_keys});
    if (!r) {
      if (kept.precision.bits == 0) return std::move(r).error();
      kept.precision.stopped = "the re-evaluation at " + std::to_string(bits) + " bits failed: " + r.error().message;
      return kept;
    }
    ExactPrecision p{bits, 0, 0, "", ""};
    count_over_target(*r, p);
    const bool first = kept.precision.bits == 0;
    const bool unfixable = !first && p.over_target == p.unbounded && p.unbounded >= kept.precision.unbounded;
    kept = ExactOutputs{std::move(r).value(), p};
    if (p.over_target == 0) return kept;
    if (unfixable) {
      kept.precision.stopped = "every element over the target is unbounded or NaN, and raising the precision to " +
                               std::to_string(bits) + " bits bounded none of them (a reason precision does not fix)";
      return kept;
    }
  }
  kept.precision.stopped = "the cap, " + std::to_string(kept.precision.bits) + " bits, is reached";
  return kept;
}

void print_exact_precision(std::ostream& out, const ExactPrecision& p) {
  out << "exact value: " << p.bits << "-bit endpoints; ";
  if (p.over_target == 0) out << "every element's width is within 1e-9 of its output's largest magnitude\n";
  else
    out << p.over_target << " elements wider than 1e-9 of their output's largest magnitude (" << p.unbounded
        << " unbounded or NaN): " << p.stopped << "\n";
}

Result<NamedTensors> evaluate_at_precision(const Model& m, const std::vector<HostTensor>& inputs,
                                           const std::string& precision, const std::string& runtime_precision,
                                           double ulps, int64_t max_memory, OutputBounds* bounds) {
  if (precision == "f32") return evaluate_as<float>(m, inputs, max_memory, DType::F32, nullptr);
  if (precision == "f64" || precision.empty()) return evaluate_as<double>(m, inputs, max_memory, DType::F64, nullptr);
  if (precision == "mp") return evaluate_as<mp50>(m, inputs, max_memory, DType::F64, nullptr);
  if (precision == "interval") {
    auto exact = exact_outputs(m, inputs, max_memory);
    if (!exact) return std::move(exact).error();
    if (bounds) bounds->exact = exact->precision;
    return named_outputs<Interval>(m, std::move(exact->outputs), DType::F64, bounds);
  }
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

std::vector<std::string> output_names(const Model& m) {
  std::vector<std::string> names;
  for (const GraphOutput& o : m.graph.outputs) names.push_back(o.name);
  for (const EmptyOutput& o : m.empty_outputs) names.push_back(o.name);
  return names;
}

Status check_inputs_only(const Model& m, const std::vector<HostTensor>& inputs) {
  const std::vector<int64_t> ids = m.graph.input_ids();
  std::vector<std::pair<Shape, ElemKind>> declared;
  for (int64_t id : ids) {
    const auto& input = std::get<InputAttrs>(m.graph.nodes[static_cast<size_t>(id)].op);
    auto shape = Shape::make(input.dims);
    if (!shape) return std::move(shape).error();
    declared.emplace_back(std::move(shape).value(), input.kind);
  }
  return check_inputs_against(m.graph, ids, declared, inputs);
}

void typed_outputs(const Model& m, NamedTensors& outputs) {
  for (auto& [name, t] : outputs) {
    const auto it = m.output_dtypes.find(name);
    const bool whole =
        std::all_of(t.values.begin(), t.values.end(), [](double v) { return std::isfinite(v) && v == std::floor(v); });
    if (it != m.output_dtypes.end() && whole) t.dtype = it->second;
  }
}

void append_empty_outputs(const Model& m, NamedTensors& outputs, DType type) {
  for (const EmptyOutput& o : m.empty_outputs) outputs.emplace_back(o.name, HostTensor{type, o.shape, {}});
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
