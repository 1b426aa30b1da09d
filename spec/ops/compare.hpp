// The comparisons (NNEF 1.0 §4.2.2: lt gt le ge eq ne): z[i] = x[i] ∘ y[i], real operands and a
// logical result, the operands broadcast under the op's rule (spec/rules/broadcast.hpp). Under an
// enclosure a comparison that holds for some values of the operands' sets and fails for others
// is unknown (spec/truth.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"
#include "spec/orderings.hpp"

namespace nnref {

enum class CompareOp { Lt, Gt, Le, Ge, Eq, Ne };
struct CompareAttrs {
  CompareOp op = CompareOp::Lt;
  Broadcast broadcast = Broadcast::NnefLeft;
};

// Every comparison obligation is a broadcast obligation.
template <>
struct OpInfo<CompareAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
  static std::vector<CompareAttrs> prototypes() {
    std::vector<CompareAttrs> all;
    for (int op = 0; op <= static_cast<int>(CompareOp::Ne); ++op) all.push_back({static_cast<CompareOp>(op)});
    return all;
  }
};

inline std::string op_name(const CompareAttrs& a) {
  switch (a.op) {
    case CompareOp::Lt: return "lt";
    case CompareOp::Gt: return "gt";
    case CompareOp::Le: return "le";
    case CompareOp::Ge: return "ge";
    case CompareOp::Eq: return "eq";
    case CompareOp::Ne: return "ne";
  }
  return "compare";
}
inline Arity arity(const CompareAttrs&) { return {2, 2}; }
inline Signature signature(const CompareAttrs&) { return {{ElemKind::Real, ElemKind::Real}, ElemKind::Real, ElemKind::Logical}; }

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const CompareAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  auto out = broadcast_all(inputs, a.broadcast, sink);
  if (!out) return std::nullopt;
  return ShapeOut<Dim>{{std::move(*out)}, {}};
}

// The orderings of x and y for which x ∘ y holds. NaN is unordered: every comparison but ne fails.
inline uint8_t holding_orderings(CompareOp op) {
  switch (op) {
    case CompareOp::Lt: return kLess;
    case CompareOp::Gt: return kGreater;
    case CompareOp::Le: return kLess | kEqual;
    case CompareOp::Ge: return kGreater | kEqual;
    case CompareOp::Eq: return kEqual;
    case CompareOp::Ne: return kLess | kGreater | kUnordered;
  }
  return 0;
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
