// The attributes of unsqueeze: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/unsqueeze.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

struct UnsqueezeAttrs {
  std::vector<int64_t> axes;  // positions in the output; may count from the end
  ElemKind kind = ElemKind::Real;  // of the input and the output: a view holds any kind
};

// The only unsqueeze obligations are the shared axis ones (spec/rules/axes.hpp), against the output rank.
template <>
struct OpInfo<UnsqueezeAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const UnsqueezeAttrs&) { return "unsqueeze"; }
inline Arity arity(const UnsqueezeAttrs&) { return {1, 1}; }
inline Signature signature(const UnsqueezeAttrs& a) { return {{a.kind}, a.kind, a.kind}; }

}  // namespace nnref
