// prelu (NNEF 1.0 §4.9): leaky_relu with a slope per element, the two operands broadcast.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/prelu.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"

namespace nnref {

// Inputs x and alpha; the output has their broadcast shape.
template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const PreluAttrs& p, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  auto out = broadcast_all(inputs, p.broadcast, sink);
  if (!out) return std::nullopt;
  return ShapeOut<Dim>{{std::move(*out)}, {}};
}

// y[i] = alpha[i]·x[i] if x[i] < 0, else x[i]: NNEF's select(x < 0.0, alpha * x, x), as leaky_relu.
template <Scalar T>
void evaluate(const Checked<PreluAttrs>& op, const OpIO<T>& io) {
  Tensor<T>& y = io.out(0);
  broadcast_map(
      y.shape(), op.attrs().broadcast,
      [&](int64_t i, const T& x, const T& alpha) {
        y[i] = sc::piecewise_at_zero(x, [&](const T& v) { return alpha * v; }, [](const T& v) { return v; });
      },
      io.in(0), io.in(1));
}

}  // namespace nnref
