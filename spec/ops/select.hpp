// select (NNEF 1.0 §4.2.3): per element, true_value where the logical condition holds, else
// false_value; the three operands broadcast.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "spec/attrs/select.hpp"
#include "spec/op_rule.hpp"
#include "spec/orderings.hpp"
#include "spec/rules/broadcast.hpp"
#include "spec/truth.hpp"
#include "spec/value.hpp"

namespace nnref {

// Inputs condition, true_value, false_value; the output has their broadcast shape.
template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const SelectAttrs& s, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  auto out = broadcast_all(inputs, s.broadcast, sink);
  if (!out) return std::nullopt;
  return ShapeOut<Dim>{{std::move(*out)}, {}};
}

// Both values, when an enclosure left the condition unknown: their hull for reals; for integers
// and truth values the value itself when both are equal, else unknown (spec/truth.hpp).
template <class E>
E select_either(const E& t, const E& f) {
  if constexpr (std::is_same_v<E, int64_t>) return t == f ? t : kUnknownInteger;
  else if constexpr (std::is_same_v<E, uint8_t>) return t == f ? t : kUnknown;
  else return sc::hull(t, f);
}

// y[i] = true_value[i] if condition[i], else false_value[i]; under an enclosure that left the
// condition unknown, select_either(true_value[i], false_value[i]). The values are of the op's kind.
template <Scalar T>
void evaluate(const Checked<SelectAttrs>& op, const OpIO<T>& io) {
  with_element_type<T>(op.attrs().kind, [&]<class E>() {
    Tensor<E>& y = io.template out_as<E>(0);
    broadcast_map(
        y.shape(), op.attrs().broadcast,
        [&](int64_t i, uint8_t condition, const E& t, const E& f) {
          y[i] = condition == kTrue ? t : condition == kFalse ? f : select_either(t, f);
        },
        io.logical_in(0), io.template in_as<E>(1), io.template in_as<E>(2));
  });
}

}  // namespace nnref
