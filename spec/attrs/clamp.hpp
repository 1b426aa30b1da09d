// The attributes of clamp: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/clamp.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"

namespace nnref {

struct ClampAttrs {
  Broadcast broadcast = Broadcast::NnefLeft;
};

// Every clamp obligation is a broadcast obligation (spec/rules/broadcast.hpp).
template <>
struct OpInfo<ClampAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const ClampAttrs&) { return "clamp"; }
inline Arity arity(const ClampAttrs&) { return {3, 3}; }

}  // namespace nnref
