// The attributes of gather: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/gather.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

struct GatherAttrs {
  int64_t axis = 0;  // counts from the end when negative (NNEF allows 0 to rank - 1)
};

// Every obligation is shared: the operand kinds and the axis. Whether each index is in range is a
// fact about values, not shapes; an index outside [0, extent) reads NaN (docs/ops/layout.md).
template <>
struct OpInfo<GatherAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const GatherAttrs&) { return "gather"; }
inline Arity arity(const GatherAttrs&) { return {2, 2}; }
inline Signature signature(const GatherAttrs&) { return {{ElemKind::Real, ElemKind::Integer}, ElemKind::Real, ElemKind::Real}; }

}  // namespace nnref
