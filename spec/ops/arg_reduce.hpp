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

#include "spec/attrs/arg_reduce.hpp"
#include "spec/axis_groups.hpp"
#include "spec/extremum_index.hpp"
#include "spec/op_rule.hpp"
#include "spec/orderings.hpp"
#include "spec/rules/axes.hpp"
#include "spec/rules/kept_axes.hpp"

namespace nnref {

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
