// The attributes of logical_reduce: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/logical_reduce.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

enum class LogicalReduceOp { All, Any };
struct LogicalReduceAttrs {
  LogicalReduceOp op = LogicalReduceOp::All;
  std::vector<int64_t> axes;  // may count from the end; empty is an error
};

// Every obligation is shared: the operand kind and the axes.
template <>
struct OpInfo<LogicalReduceAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
  static std::vector<LogicalReduceAttrs> prototypes() { return {{LogicalReduceOp::All, {}}, {LogicalReduceOp::Any, {}}}; }
};

inline std::string op_name(const LogicalReduceAttrs& a) { return a.op == LogicalReduceOp::All ? "all_reduce" : "any_reduce"; }
inline Arity arity(const LogicalReduceAttrs&) { return {1, 1}; }
inline Signature signature(const LogicalReduceAttrs&) { return {{ElemKind::Logical}, ElemKind::Logical, ElemKind::Logical}; }

}  // namespace nnref
