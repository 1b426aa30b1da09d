// The attributes of cast: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/cast.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <string>
#include <vector>

#include "spec/attrs/compare.hpp"
#include "spec/op_rule.hpp"

namespace nnref {

struct CastAttrs {
  ElemKind from = ElemKind::Real;
  ElemKind to = ElemKind::Real;
};

template <>
struct OpInfo<CastAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const CastAttrs&) { return "cast"; }
inline Arity arity(const CastAttrs&) { return {1, 1}; }
inline Signature signature(const CastAttrs& a) { return {{a.from}, a.from, a.to}; }

}  // namespace nnref
