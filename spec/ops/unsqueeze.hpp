// unsqueeze: inserts axes of extent 1 at listed output positions (NNEF 1.0 unsqueeze).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/unsqueeze.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const UnsqueezeAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const size_t rank = x.size() + a.axes.size();
  const auto axes = checked_axes(op_name(a), a.axes, rank, true, sink);
  if (!axes) return std::nullopt;
  const std::vector<bool> inserted = axis_mask(*axes, rank);
  Dims<Dim> out;
  auto next = x.begin();
  for (size_t i = 0; i < rank; ++i) out.push_back(inserted[i] ? Dim(int64_t{1}) : *next++);
  return ShapeOut<Dim>{{out}, {}};
}

// y[i] = x[i] for every row-major position i.
template <Scalar T>
void evaluate(const Checked<UnsqueezeAttrs>&, const OpIO<T>& io) {
  copy_elements(*io.inputs[0], *io.outputs[0]);
}

}  // namespace nnref
