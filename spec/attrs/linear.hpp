// The attributes of linear: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/linear.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

// InOut: weight [in, units], y = x·W + b (NNL Dense). OutIn: weight [units, in], y = x·Wᵀ + b
// (PyTorch Linear, ONNX Gemm with transB, NNEF linear, TorchLean W·x).
enum class WeightLayout { InOut, OutIn };
// Input [N, in] (rank exactly 2), output [N, units]; params weight, bias [units] (if has_bias).
struct LinearAttrs {
  int64_t units = 0;
  WeightLayout layout = WeightLayout::InOut;
  bool has_bias = true;
};

inline constexpr ObligationSpec kLinearUnits{
    ObligationKind::Attribute, "attr.linear.units", "linear has at least one unit.", "units >= 1",
    "An IR linear with units 0 (NNL rejects Dense(units: 0) earlier, as nnl.param.value): error[attr.linear.units]."};
inline constexpr ObligationSpec kLinearInputRank{
    ObligationKind::Shape, "shape.linear.input-rank", "The input of linear (NNL Dense) has rank 2, [N, in].",
    "rank(x) == 2",
    "`layer input = Input(shape: [28, 28, 1]); layer fc = Dense(units: 10);`: Dense reads the rank-4 [1, 28, 28, 1]: "
    "error[shape.linear.input-rank], whose message suggests inserting a Flatten (constant: decided without Z3)."};

template <>
struct OpInfo<LinearAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kLinearUnits, &kLinearInputRank}; }
};

inline std::string op_name(const LinearAttrs&) { return "linear"; }
inline Arity arity(const LinearAttrs&) { return {1, 1}; }

}  // namespace nnref
