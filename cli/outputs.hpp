// The outputs of run and hw run: printed, and written to .npy or .npz.
#pragma once

#include <ostream>
#include <string>

#include "formats/model.hpp"
#include "formats/tensor_files/npy.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"
#include "spec/scalars.hpp"

namespace nnref {

// The exact value's width target: each output element's Interval no wider than this times the
// largest magnitude of its output's midpoints (docs/conformance.md, "The exact value").
inline constexpr double kExactWidthTarget = 1e-9;

// The precision the exact value was computed at, and how far it met the width target there.
struct ExactPrecision {
  unsigned bits = 0;        // of each endpoint, in the evaluation kept
  int64_t over_target = 0;  // elements wider than the target there (unbounded and NaN ones included)
  int64_t unbounded = 0;    // of those, elements with a side that is NaN or infinite
  std::string stopped;      // why the precision was not raised further while some element is over: empty when none is
  std::string not_computed;  // why the exact value was not computed (conform's ExactValue): empty when it was
};

// The rigorous Interval of each output, at the least precision of 61, 128, 257, 513 bits (a cap)
// at which every element's width is at most kExactWidthTarget · max|y| of its output (y: the
// midpoints; an output whose midpoints are all 0 asks for width 0). A raise stops early, keeping the
// last evaluation, when every element still over the target is unbounded or NaN and the raise did
// not bound any of them (a reason precision does not fix: a division by an interval holding 0 of
// the exact value, a square root of a negative one), or when a re-evaluation fails (its memory
// budget shrinks as its endpoints grow). Whatever the precision, each element encloses the exact
// value: MPFI rounds every endpoint outward. `conform` and `run --precision interval` both use it.
struct ExactOutputs {
  std::vector<Tensor<Interval>> outputs;
  ExactPrecision precision;
};
Result<ExactOutputs> exact_outputs(const Model& m, const std::vector<HostTensor>& inputs, int64_t max_memory);

// Beside an enclosure's midpoints: each element's half-width rounded up (run --radius-output), and
// its lower and upper bounds (the Python module's interval and envelope outputs); for the interval,
// the precision the exact value took.
struct OutputBounds {
  NamedTensors radius, lower, upper;
  ExactPrecision exact;
};

// The outputs in T as doubles (an enclosure's midpoints), and with bounds, each enclosure's radius
// and sides.
template <Scalar T>
Result<NamedTensors> named_outputs(const Model& m, Result<std::vector<Tensor<T>>> r, DType out_type,
                                   OutputBounds* bounds) {
  if (!r) return std::move(r).error();
  NamedTensors named;
  for (size_t k = 0; k < r->size(); ++k) {
    const Tensor<T>& t = (*r)[k];
    HostTensor h{out_type, t.shape(), {}}, radius{DType::F64, t.shape(), {}}, lower = radius, upper = radius;
    h.values.reserve(static_cast<size_t>(t.size()));
    for (const T& x : t.data()) {
      h.values.push_back(out_type == DType::F32 ? double(float(sc::to_double(x))) : sc::to_double(x));
      if (!bounds) continue;
      const Enclosure e = sc::enclosure(x);
      radius.values.push_back(e.radius());
      lower.values.push_back(e.lo);
      upper.values.push_back(e.hi);
    }
    const std::string& name = m.graph.outputs[k].name;
    named.emplace_back(name, std::move(h));
    if (!bounds) continue;
    bounds->radius.emplace_back(name, std::move(radius));
    bounds->lower.emplace_back(name, std::move(lower));
    bounds->upper.emplace_back(name, std::move(upper));
  }
  return named;
}

// The oracle's outputs at a --precision: f32 (as float32), f64 (also when empty), mp, interval or
// envelope (as float64 midpoints; `bounds`, when given, gets their radii and sides), the envelope of
// a runtime computing in `runtime_precision` (f32, f16, bf16) with `ulps` for the transcendentals.
// Another precision or runtime precision is a usage error.
Result<NamedTensors> evaluate_at_precision(const Model& m, const std::vector<HostTensor>& inputs,
                                           const std::string& precision, const std::string& runtime_precision,
                                           double ulps, int64_t max_memory, OutputBounds* bounds);

// "exact value: 61-bit endpoints, every element within its width target" and what is not (run's line).
void print_exact_precision(std::ostream& out, const ExactPrecision& p);

// "output NAME: shape [..] f32", then its values when it has 1 to 32 elements.
void print_output(std::ostream& out, const std::string& name, const HostTensor& t);

// The names of the model's outputs: the graph's, then its empty ones (Model::empty_outputs).
std::vector<std::string> output_names(const Model& m);

// A model whose every output is empty evaluates no graph (it has no outputs, so no plan): its
// inputs are checked against the graph's Input nodes as a run checks them (count, shape, kind).
Status check_inputs_only(const Model& m, const std::vector<HostTensor>& inputs);

// The model's empty outputs appended to the graph's, each an empty array of its shape in `type`.
void append_empty_outputs(const Model& m, NamedTensors& outputs, DType type);
// The outputs of Model::output_dtypes as int64 and bool arrays, each where every value is a whole number.
void typed_outputs(const Model& m, NamedTensors& outputs);

// Y.npz, or Y.npy for a model with one output (io.output-format otherwise).
Status write_tensors(const std::string& path, const NamedTensors& tensors);

}  // namespace nnref
