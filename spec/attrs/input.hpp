// The attributes of input: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/input.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

struct InputAttrs {
  InputAttrs() = default;
  InputAttrs(std::vector<int64_t> d, ElemKind k = ElemKind::Real) : dims(std::move(d)), kind(k) {}  // NOLINT
  std::vector<int64_t> dims;  // the whole shape, batch axis included
  ElemKind kind = ElemKind::Real;
};

template <>
struct OpInfo<InputAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const InputAttrs&) { return "input"; }
inline Arity arity(const InputAttrs&) { return {0, 0}; }
inline Signature signature(const InputAttrs& a) { return {{}, ElemKind::Real, a.kind}; }

}  // namespace nnref
