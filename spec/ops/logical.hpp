// The logical maps (NNEF 1.0 §4.2.1–4.2.2): not (one operand), and, or (two, broadcast under the
// op's rule); logical operands and result, in Kleene's three-valued logic where an enclosure left
// an operand unknown (spec/truth.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/logical.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"
#include "spec/truth.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const LogicalAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  auto out = broadcast_all(inputs, a.broadcast, sink);
  if (!out) return std::nullopt;
  return ShapeOut<Dim>{{std::move(*out)}, {}};
}

// not: y[i] = ¬x[i]; and, or: z[i] = x[i] ∧ y[i], x[i] ∨ y[i].
template <Scalar T>
void evaluate(const Checked<LogicalAttrs>& op, const OpIO<T>& io) {
  Tensor<uint8_t>& z = std::get<Tensor<uint8_t>>(*io.outputs[0]);
  const LogicalOp l = op.attrs().op;
  if (l == LogicalOp::Not) {
    const Tensor<uint8_t>& x = io.logical_in(0);
    for (int64_t i = 0; i < z.size(); ++i) z[i] = truth_not(x[i]);
    return;
  }
  broadcast_map(
      z.shape(), op.attrs().broadcast,
      [&](int64_t i, uint8_t x, uint8_t y) { z[i] = l == LogicalOp::And ? truth_and(x, y) : truth_or(x, y); },
      io.logical_in(0), io.logical_in(1));
}

}  // namespace nnref
