// clamp (NNEF 1.0 §4.2.4): x limited to [a, b], elementwise, the three operands broadcast.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/clamp.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"

namespace nnref {

// Inputs x, a, b; the output has their broadcast shape.
template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const ClampAttrs& c, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  auto out = broadcast_all(inputs, c.broadcast, sink);
  if (!out) return std::nullopt;
  return ShapeOut<Dim>{{std::move(*out)}, {}};
}

// y[i] = max(min(x[i], b[i]), a[i]): NNEF's definition, so a > b gives a.
template <Scalar T>
void evaluate(const Checked<ClampAttrs>& op, const OpIO<T>& io) {
  Tensor<T>& y = io.out(0);
  broadcast_map(
      y.shape(), op.attrs().broadcast,
      [&](int64_t i, const T& x, const T& a, const T& b) { y[i] = sc::max(sc::min(x, b), a); }, io.in(0), io.in(1),
      io.in(2));
}

}  // namespace nnref
