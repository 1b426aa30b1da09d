// argmax_reduce, argmin_reduce (NNEF 1.0 §4.4): per group of positions over the given axes (kept,
// extent 1), the index of the group's maximum (minimum) as an integer; the index counts row-major
// over the reduced axes in the order of the tensor (NNEF leaves it unspecified for several axes),
// and ties go to the first; with `last` (ONNX's select_last_index 1) the same reading of the group
// mirrored: ties go to the last, and the last NaN.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/axis_groups.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"
#include "spec/rules/kept_axes.hpp"
#include "spec/orderings.hpp"

namespace nnref {

enum class ArgReduceOp { Max, Min };
struct ArgReduceAttrs {
  ArgReduceOp op = ArgReduceOp::Max;
  std::vector<int64_t> axes;  // may count from the end; empty is an error
  bool last = false;          // ties (and NaN) go to the last index of the group instead of the first
};

inline constexpr ObligationSpec kArgReduceEmptyAxis{
    ObligationKind::Shape, "shape.arg_reduce.empty-axis",
    "Every axis reduced by argmax_reduce or argmin_reduce has extent at least 1: an empty group has no extremum to "
    "index.",
    "X >= 1, for every reduced axis",
    "An IR argmax_reduce over axis 1 of an input [2, 0]: error[shape.arg_reduce.empty-axis]."};

template <>
struct OpInfo<ArgReduceAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kArgReduceEmptyAxis}; }
  static std::vector<ArgReduceAttrs> prototypes() { return {{ArgReduceOp::Max, {}}, {ArgReduceOp::Min, {}}}; }
};

inline std::string op_name(const ArgReduceAttrs& a) { return a.op == ArgReduceOp::Max ? "argmax_reduce" : "argmin_reduce"; }
inline Arity arity(const ArgReduceAttrs&) { return {1, 1}; }
inline Signature signature(const ArgReduceAttrs&) { return {{ElemKind::Real}, ElemKind::Real, ElemKind::Integer}; }

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const ArgReduceAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const auto axes = checked_axes(op_name(a), a.axes, x.size(), false, sink);
  if (!axes) return std::nullopt;
  for (size_t axis : *axes) {
    std::string message = op_name(a);  // appended in place: GCC 12 misreads a chain of + here (-Warray-bounds)
    message += ": reduced axis " + std::to_string(axis) + " of input " + dims_str(x) + " must have extent at least 1, got " +
               dim_str(x[axis]);
    sink.require(x[axis] >= int64_t{1}, kArgReduceEmptyAxis, message);
  }
  return ShapeOut<Dim>{{kept_reduced(x, *axes)}, {}};
}

// The first index r of the group x(0..n−1) whose value is the extremum, NaN counting as beyond
// every number (so the first NaN, as NumPy and PyTorch); `beyond` is kGreater for the maximum,
// kLess for the minimum, and `extremum` sc::max or sc::min, which carry NaN. Under an enclosure the
// first index whose set can reach the extremum is the answer only if it certainly passes every
// earlier value and is certainly at least every later one (which no other index then can be);
// otherwise kUnknownInteger (spec/truth.hpp).
template <Scalar T, class At, class Extremum>
int64_t extremum_index(int64_t n, At&& at, uint8_t beyond, Extremum&& extremum) {
  for (int64_t r = 0; r < n; ++r)
    if (sc::orderings(at(r), at(r)) == kUnordered) return r;  // certainly NaN: a point NaN
  const T m = fold<T>(n, at, extremum);
  int64_t c = 0;
  while (c < n - 1 && (sc::orderings(at(c), m) & kEqual) == 0) ++c;
  if (c > 0 && sc::orderings(at(c), fold<T>(c, at, extremum)) != beyond) return kUnknownInteger;
  if (c < n - 1) {
    const uint8_t later = sc::orderings(at(c), fold<T>(n - c - 1, [&](int64_t r) { return at(c + 1 + r); }, extremum));
    if ((later & ~(beyond | kEqual)) != 0) return kUnknownInteger;
  }
  return c;
}

// y[k] = the index, within group k, of its maximum (argmax) or minimum (argmin); with `last`, the
// first index r of the group read backwards, x(n−1−r), is the index n−1−r: ONNX's own reference
// (argmax of the flipped data, subtracted from n − 1), so the enclosures decide it as they decide
// the first index.
template <Scalar T>
void evaluate(const Checked<ArgReduceAttrs>& op, const OpIO<T>& io) {
  const Tensor<T>& x = io.in(0);
  const Shape& shape = op.inputs()[0];
  const AxisSplit split = split_axes(shape, normalized_axes(op.attrs().axes, shape.rank()));
  const std::vector<int64_t>& outer = split.outer;
  const std::vector<int64_t>& inner = split.inner;
  const auto n = static_cast<int64_t>(inner.size());
  const bool max = op.attrs().op == ArgReduceOp::Max;
  const bool last = op.attrs().last;
  Tensor<int64_t>& y = std::get<Tensor<int64_t>>(*io.outputs[0]);
  for (size_t k = 0; k < outer.size(); ++k) {
    auto at = [&, o = outer[k]](int64_t r) { return x[o + inner[static_cast<size_t>(last ? n - 1 - r : r)]]; };
    const int64_t r = max ? extremum_index<T>(n, at, kGreater, sc::max<T>) : extremum_index<T>(n, at, kLess, sc::min<T>);
    y[static_cast<int64_t>(k)] = !last || r == kUnknownInteger ? r : n - 1 - r;
  }
}

}  // namespace nnref
