// The attributes of compare: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/compare.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
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

}  // namespace nnref
