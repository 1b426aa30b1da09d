// all_reduce, any_reduce (NNEF 1.0 §4.4): per group of positions over the given axes (kept,
// extent 1), whether every (some) logical value of the group is true; in Kleene's three-valued
// logic where an enclosure left a value unknown (spec/truth.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/logical_reduce.hpp"
#include "spec/axis_groups.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"
#include "spec/rules/kept_axes.hpp"
#include "spec/truth.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const LogicalReduceAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const auto axes = checked_axes(op_name(a), a.axes, inputs[0].size(), false, sink);
  if (!axes) return std::nullopt;
  return ShapeOut<Dim>{{kept_reduced(inputs[0], *axes)}, {}};
}

// all: y[k] = ∧ of group k (true for an empty group); any: ∨ (false for an empty group).
template <Scalar T>
void evaluate(const Checked<LogicalReduceAttrs>& op, const OpIO<T>& io) {
  const Tensor<uint8_t>& x = io.logical_in(0);
  const Shape& shape = op.inputs()[0];
  const AxisSplit split = split_axes(shape, normalized_axes(op.attrs().axes, shape.rank()));
  const bool all = op.attrs().op == LogicalReduceOp::All;
  Tensor<uint8_t>& y = std::get<Tensor<uint8_t>>(*io.outputs[0]);
  for (size_t k = 0; k < split.outer.size(); ++k) {
    uint8_t v = all ? kTrue : kFalse;
    for (int64_t r : split.inner) v = all ? truth_and(v, x[split.outer[k] + r]) : truth_or(v, x[split.outer[k] + r]);
    y[static_cast<int64_t>(k)] = v;
  }
}

}  // namespace nnref
