// The attributes of reduce: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/reduce.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/integer_arith.hpp"
#include "spec/op_rule.hpp"

namespace nnref {

enum class ReduceOp { Sum, Mean, Max, Min, Prod };
// Reduced axes become extent 1 (keep_dims, as NNEF) or disappear. Of the integer kind (ONNX's
// ReduceSum, ReduceProd, ReduceMax, ReduceMin of integer tensors) the sum and product wrap modulo
// 2^64 and then to `type`, as integer_binary's chains of Add and Mul do (spec/integer_arith.hpp):
// the same op with a kind rather than an integer reduce op, since the axes, the rule, its
// obligation, the groups and every writer's and engine's handling of them are the same, and only
// the element formula differs (a second op would repeat all of that for one function).
struct ReduceAttrs {
  ReduceOp op = ReduceOp::Sum;
  std::vector<int64_t> axes;  // may count from the end; empty is an error, not "all"
  bool keep_dims = true;
  ElemKind kind = ElemKind::Real;  // of the input and the output: Real or Integer
  IntegerType type{};              // an integer result's type: Σ, Π in int64, wrapped to it
};

inline constexpr ObligationSpec kReduceEmptyAxis{
    ObligationKind::Shape, "shape.reduce.empty-axis",
    "Every axis reduced by mean_reduce, max_reduce or min_reduce has extent at least 1 (an empty group has no mean, "
    "max or min; sum_reduce gives 0, prod_reduce 1).",
    "X >= 1, for every reduced axis",
    "An IR mean_reduce over axis 1 of an input [2, 0, 3]: error[shape.reduce.empty-axis]."};

inline constexpr ObligationSpec kReduceIntegerMean{
    ObligationKind::Attribute, "attr.reduce.integer-mean",
    "mean_reduce takes reals: the mean of integers (ONNX Runtime's truncation) is not defined in nnref.",
    "op != mean || kind == real",
    "An IR mean_reduce of integer kind: error[attr.reduce.integer-mean]; ONNX's ReduceMean of int64 data is "
    "onnx.type-unsupported when read."};

template <>
struct OpInfo<ReduceAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kReduceEmptyAxis, &kReduceIntegerMean}; }
  static std::vector<ReduceAttrs> prototypes() {
    std::vector<ReduceAttrs> all;
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod}) {
      ReduceAttrs a;
      a.op = op;
      all.push_back(a);
    }
    return all;
  }
};

inline std::string op_name(const ReduceAttrs& a) {
  switch (a.op) {
    case ReduceOp::Sum: return "sum_reduce";
    case ReduceOp::Mean: return "mean_reduce";
    case ReduceOp::Max: return "max_reduce";
    case ReduceOp::Min: return "min_reduce";
    case ReduceOp::Prod: return "prod_reduce";
  }
  return "reduce";
}
inline Arity arity(const ReduceAttrs&) { return {1, 1}; }
inline Signature signature(const ReduceAttrs& a) { return {{a.kind}, ElemKind::Real, a.kind}; }

}  // namespace nnref
