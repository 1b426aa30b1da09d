// The attributes of select: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/select.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"

namespace nnref {

struct SelectAttrs {
  Broadcast broadcast = Broadcast::NnefLeft;
  ElemKind kind = ElemKind::Real;  // of the two values and the result: choosing elements holds any kind
};

// Every select obligation is shared: the condition's kind (spec/rules/kinds.hpp) and broadcasting.
template <>
struct OpInfo<SelectAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const SelectAttrs&) { return "select"; }
inline Arity arity(const SelectAttrs&) { return {3, 3}; }
// The condition is logical; the values and the result are of the op's kind.
inline Signature signature(const SelectAttrs& a) { return {{ElemKind::Logical, a.kind, a.kind}, a.kind, a.kind}; }

}  // namespace nnref
