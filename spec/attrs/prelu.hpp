// The attributes of prelu: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/prelu.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"

namespace nnref {

struct PreluAttrs {
  Broadcast broadcast = Broadcast::NnefLeft;
};

// Every prelu obligation is a broadcast obligation (spec/rules/broadcast.hpp).
template <>
struct OpInfo<PreluAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const PreluAttrs&) { return "prelu"; }
inline Arity arity(const PreluAttrs&) { return {2, 2}; }

}  // namespace nnref
