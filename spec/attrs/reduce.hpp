// The attributes of reduce: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/reduce.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

enum class ReduceOp { Sum, Mean, Max, Min, Prod };
// Reduced axes become extent 1 (keep_dims, as NNEF) or disappear.
struct ReduceAttrs {
  ReduceOp op = ReduceOp::Sum;
  std::vector<int64_t> axes;  // may count from the end; empty is an error, not "all"
  bool keep_dims = true;
};

inline constexpr ObligationSpec kReduceEmptyAxis{
    ObligationKind::Shape, "shape.reduce.empty-axis",
    "Every axis reduced by mean_reduce, max_reduce or min_reduce has extent at least 1 (an empty group has no mean, "
    "max or min; sum_reduce gives 0, prod_reduce 1).",
    "X >= 1, for every reduced axis",
    "An IR mean_reduce over axis 1 of an input [2, 0, 3]: error[shape.reduce.empty-axis]."};

template <>
struct OpInfo<ReduceAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kReduceEmptyAxis}; }
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

}  // namespace nnref
