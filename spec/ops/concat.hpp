// concat: joins its inputs along one axis (NNEF 1.0 concat).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/concat.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const ConcatAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x0 = inputs[0];
  for (size_t k = 1; k < inputs.size(); ++k) {
    const bool same_rank = inputs[k].size() == x0.size();
    sink.require(same_rank, kConcatRankMismatch,
                 "concat: " + sink.operand(k) + " has shape " + dims_str(inputs[k]) + " of rank " +
                     std::to_string(inputs[k].size()) + ", but " + sink.operand(0) + " has shape " + dims_str(x0) +
                     " of rank " + std::to_string(x0.size()));
    if (!same_rank) return std::nullopt;
  }
  const auto axis = checked_axis(op_name(a), "axis", a.axis, AxisDomain(x0, a.batch_axes), sink);
  if (!axis) return std::nullopt;
  Dims<Dim> out = x0;
  for (size_t k = 1; k < inputs.size(); ++k) {
    for (size_t i = 0; i < x0.size(); ++i) {
      if (i == *axis) continue;
      sink.require(inputs[k][i] == x0[i], kConcatExtentMismatch,
                   "concat inputs disagree on " + axis_label(i, a.batch_axes) + ": " + sink.operand(0) +
                       " has extent " + dim_str(x0[i]) + ", " + sink.operand(k) + " has " + dim_str(inputs[k][i]));
    }
    out[*axis] = out[*axis] + inputs[k][*axis];
  }
  return ShapeOut<Dim>{{out}, {}};
}

// y = x_0 ⧺ x_1 ⧺ ... along axis. Row-major: for each index of the axes before `axis`, the
// inputs' blocks follow one another.
template <Scalar T>
void evaluate(const Checked<ConcatAttrs>& op, const OpIO<T>& io) {
  const Shape& out = op.outputs()[0];
  const AxisDomain domain(out.dims(), op.attrs().batch_axes);
  const auto axis = static_cast<size_t>(normalize_axis(op.attrs().axis, domain));
  const int64_t outer = checked_element_count({out.dims().begin(), out.dims().begin() + axis});
  with_element_type<T>(op.attrs().kind, [&]<class E>() {
    Tensor<E>& y = io.template out_as<E>(0);
    int64_t at = 0;
    for (int64_t o = 0; o < outer; ++o) {
      for (size_t k = 0; k < io.inputs.size(); ++k) {
        const Tensor<E>& x = io.template in_as<E>(k);
        const int64_t block = x.size() / outer;
        for (int64_t e = 0; e < block; ++e) y[at++] = x[o * block + e];
      }
    }
  });
}

}  // namespace nnref
