// select (NNEF 1.0 §4.2.3): per element, true_value where the logical condition holds, else
// false_value; the three operands broadcast.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/select.hpp"
#include "spec/op_rule.hpp"
#include "spec/orderings.hpp"
#include "spec/rules/broadcast.hpp"

namespace nnref {

// Inputs condition, true_value, false_value; the output has their broadcast shape.
template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const SelectAttrs& s, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  auto out = broadcast_all(inputs, s.broadcast, sink);
  if (!out) return std::nullopt;
  return ShapeOut<Dim>{{std::move(*out)}, {}};
}

// y[i] = true_value[i] if condition[i], else false_value[i]; under an enclosure that left the
// condition unknown (spec/truth.hpp), the hull of both.
template <Scalar T>
void evaluate(const Checked<SelectAttrs>& op, const OpIO<T>& io) {
  Tensor<T>& y = io.out(0);
  broadcast_map(
      y.shape(), op.attrs().broadcast,
      [&](int64_t i, uint8_t condition, const T& t, const T& f) {
        y[i] = condition == kTrue ? t : condition == kFalse ? f : sc::hull(t, f);
      },
      io.logical_in(0), io.in(1), io.in(2));
}

}  // namespace nnref
