// squeeze: removes listed axes of extent 1 (NNEF 1.0 squeeze).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/squeeze.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const SqueezeAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const auto axes = checked_axes(op_name(a), a.axes, x.size(), true, sink);
  if (!axes) return std::nullopt;
  const std::vector<bool> removed = axis_mask(*axes, x.size());
  Dims<Dim> out;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!removed[i]) {
      out.push_back(x[i]);
      continue;
    }
    sink.require(x[i] == Dim(int64_t{1}), kSqueezeExtentNotOne,
                 "squeeze axis " + std::to_string(i) + " has extent " + dim_str(x[i]) + ", not 1");
  }
  return ShapeOut<Dim>{{out}, {}};
}

// y[i] = x[i] for every row-major position i.
template <Scalar T>
void evaluate(const Checked<SqueezeAttrs>&, const OpIO<T>& io) {
  copy_elements(*io.inputs[0], *io.outputs[0]);
}

}  // namespace nnref
