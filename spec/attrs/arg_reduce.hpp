// The attributes of arg_reduce: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/arg_reduce.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

enum class ArgReduceOp { Max, Min };
struct ArgReduceAttrs {
  ArgReduceOp op = ArgReduceOp::Max;
  std::vector<int64_t> axes;  // may count from the end; empty is an error
  bool last = false;          // ties (and NaN) go to the last index of the group instead of the first
};

inline constexpr ObligationSpec kArgReduceEmptyAxis{
    ObligationKind::Shape, "shape.arg_reduce.empty-axis",
    "Every axis reduced by argmax_reduce or argmin_reduce has extent at least 1: an empty group has no extremum to "
    "index.",
    "X >= 1, for every reduced axis",
    "An IR argmax_reduce over axis 1 of an input [2, 0]: error[shape.arg_reduce.empty-axis]."};

template <>
struct OpInfo<ArgReduceAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kArgReduceEmptyAxis}; }
  static std::vector<ArgReduceAttrs> prototypes() { return {{ArgReduceOp::Max, {}}, {ArgReduceOp::Min, {}}}; }
};

inline std::string op_name(const ArgReduceAttrs& a) { return a.op == ArgReduceOp::Max ? "argmax_reduce" : "argmin_reduce"; }
inline Arity arity(const ArgReduceAttrs&) { return {1, 1}; }
inline Signature signature(const ArgReduceAttrs&) { return {{ElemKind::Real}, ElemKind::Real, ElemKind::Integer}; }

}  // namespace nnref
