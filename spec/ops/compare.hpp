// The comparisons (NNEF 1.0 §4.2.2: lt gt le ge eq ne): z[i] = x[i] ∘ y[i], real operands and a
// logical result, the operands broadcast under the op's rule (spec/rules/broadcast.hpp). Under an
// enclosure a comparison that holds for some values of the operands' sets and fails for others
// is unknown (spec/truth.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/compare.hpp"
#include "spec/op_rule.hpp"
#include "spec/orderings.hpp"
#include "spec/rules/broadcast.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const CompareAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  auto out = broadcast_all(inputs, a.broadcast, sink);
  if (!out) return std::nullopt;
  return ShapeOut<Dim>{{std::move(*out)}, {}};
}

// z[i] = x[i] ∘ y[i]: true, false, or (enclosures only) unknown.
template <Scalar T>
void evaluate(const Checked<CompareAttrs>& op, const OpIO<T>& io) {
  Tensor<uint8_t>& z = std::get<Tensor<uint8_t>>(*io.outputs[0]);
  const uint8_t holds = holding_orderings(op.attrs().op);
  broadcast_map(
      z.shape(), op.attrs().broadcast,
      [&](int64_t i, const T& x, const T& y) { z[i] = truth_for(sc::orderings(x, y), holds); }, io.in(0), io.in(1));
}

}  // namespace nnref
