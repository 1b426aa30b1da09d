// The binary elementwise maps (NNEF 1.0 §4.2): z[i] = f(x[i], y[i]), the operands broadcast
// under the op's rule (spec/rules/broadcast.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/binary.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const BinaryAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  auto out = broadcast_all(inputs, a.broadcast, sink);
  if (!out) return std::nullopt;
  return ShapeOut<Dim>{{std::move(*out)}, {}};
}

template <Scalar T>
T binary_value(BinaryOp op, const T& x, const T& y) {
  switch (op) {
    case BinaryOp::Add: return x + y;
    case BinaryOp::Sub: return x - y;
    case BinaryOp::Mul: return x * y;
    case BinaryOp::Div: return x / y;
    case BinaryOp::Pow: return sc::pow(x, y);
    case BinaryOp::Min: return sc::min(x, y);
    case BinaryOp::Max: return sc::max(x, y);
    case BinaryOp::Fmod: return sc::fmod(x, y);
  }
  return x;
}

// z[i] = f(x[i], y[i]), each operand read at index i of z with its missing and extent-1 axes held
// at 0.
template <Scalar T>
void evaluate(const Checked<BinaryAttrs>& op, const OpIO<T>& io) {
  Tensor<T>& z = io.out(0);
  broadcast_map(
      z.shape(), op.attrs().broadcast,
      [&](int64_t i, const T& x, const T& y) { z[i] = binary_value(op.attrs().op, x, y); }, io.in(0), io.in(1));
}

}  // namespace nnref
