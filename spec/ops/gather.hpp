// gather (NNEF 1.0 §4.5.7): the slices of the input along `axis` picked by an integer tensor of
// indices, y[p, i, q] = x[p, indices[i], q], p over the axes before `axis`, q after it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/gather.hpp"
#include "spec/axis_groups.hpp"
#include "spec/op_rule.hpp"
#include "spec/orderings.hpp"
#include "spec/rules/axes.hpp"

namespace nnref {

// Inputs x [s_0..s_{n-1}] and indices [z_0..z_{m-1}]: the output is s[:axis] + z + s[axis+1:].
template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const GatherAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const auto axes = checked_axes(op_name(a), {a.axis}, x.size(), false, sink);
  if (!axes) return std::nullopt;
  const auto ax = static_cast<ptrdiff_t>((*axes)[0]);
  Dims<Dim> out(x.begin(), x.begin() + ax);
  out.insert(out.end(), inputs[1].begin(), inputs[1].end());
  out.insert(out.end(), x.begin() + ax + 1, x.end());
  return ShapeOut<Dim>{{std::move(out)}, {}};
}

// y[p, i, q] = x[p, indices[i], q]; NaN for an index outside [0, extent); for an index an
// enclosure left unknown (kUnknownInteger), the hull of x[p, j, q] over every j.
template <Scalar T>
void evaluate(const Checked<GatherAttrs>& op, const OpIO<T>& io) {
  const Shape& in = op.inputs()[0];
  const auto ax = static_cast<size_t>(normalize_axis(op.attrs().axis, in.rank()));
  int64_t outer = 1, inner = 1;  // the axes before and after `axis`
  for (size_t k = 0; k < ax; ++k) outer *= in[k];
  for (size_t k = ax + 1; k < in.rank(); ++k) inner *= in[k];
  const int64_t extent = in[ax];
  const Tensor<T>& x = io.in(0);
  const Tensor<int64_t>& indices = std::get<Tensor<int64_t>>(*io.inputs[1]);
  Tensor<T>& y = io.out(0);
  const int64_t m = indices.size();
  for (int64_t p = 0; p < outer; ++p)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t q = 0; q < inner; ++q) {
        const int64_t j = indices[i];
        const auto at = [&](int64_t r) { return x[(p * extent + r) * inner + q]; };
        T& v = y[(p * m + i) * inner + q];
        if (j == kUnknownInteger && extent > 0) v = fold<T>(extent, at, sc::hull<T>);
        else v = j >= 0 && j < extent ? at(j) : from_double<T>(std::numeric_limits<double>::quiet_NaN());
      }
}

}  // namespace nnref
