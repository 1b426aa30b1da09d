// The attributes of flatten: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/flatten.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

// [d0, ..., d(axis−1), d(axis)·…·d(rank−1)]: row-major; axis 1 keeps the batch axis.
struct FlattenAttrs {
  int64_t axis = 1;
};

// The only flatten obligation is the shared axis range (spec/rules/axes.hpp).
template <>
struct OpInfo<FlattenAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const FlattenAttrs&) { return "flatten"; }
inline Arity arity(const FlattenAttrs&) { return {1, 1}; }

}  // namespace nnref
