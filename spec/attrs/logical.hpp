// The attributes of logical: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/logical.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"

namespace nnref {

enum class LogicalOp { Not, And, Or };
struct LogicalAttrs {
  LogicalOp op = LogicalOp::Not;
  Broadcast broadcast = Broadcast::NnefLeft;
};

// Every obligation is shared: the arity, the operand kinds and broadcasting.
template <>
struct OpInfo<LogicalAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
  static std::vector<LogicalAttrs> prototypes() { return {{LogicalOp::Not}, {LogicalOp::And}, {LogicalOp::Or}}; }
};

inline std::string op_name(const LogicalAttrs& a) {
  switch (a.op) {
    case LogicalOp::Not: return "not";
    case LogicalOp::And: return "and";
    case LogicalOp::Or: return "or";
  }
  return "logical";
}
inline Arity arity(const LogicalAttrs& a) { return a.op == LogicalOp::Not ? Arity{1, 1} : Arity{2, 2}; }
inline Signature signature(const LogicalAttrs&) { return {{}, ElemKind::Logical, ElemKind::Logical}; }

}  // namespace nnref
