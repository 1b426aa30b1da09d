// The attributes of const: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/const.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

struct ConstAttrs {
  std::vector<int64_t> dims;
  ElemKind kind = ElemKind::Real;
};

template <>
struct OpInfo<ConstAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const ConstAttrs&) { return "const"; }
inline Arity arity(const ConstAttrs&) { return {0, 0}; }
inline Signature signature(const ConstAttrs& a) { return {{}, ElemKind::Real, a.kind}; }

}  // namespace nnref
