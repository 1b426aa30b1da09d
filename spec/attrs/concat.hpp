// The attributes of concat: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/concat.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

// Joins inputs along axis (may count from the end); other extents equal. The axis counts the axes
// after the first batch_axes (spec/rules/axes.hpp: NNL 1, others 0).
struct ConcatAttrs {
  int64_t axis = 0;
  size_t batch_axes = 0;
  ElemKind kind = ElemKind::Real;  // of the inputs and the outputs: moving elements holds any kind
};

inline constexpr ObligationSpec kConcatRankMismatch{
    ObligationKind::Shape, "shape.concat.rank-mismatch", "Every input of concat has the rank of input 0.",
    "rank(x_k) == rank(x_0), for every input k",
    "`layer input = Input(shape: [8, 8, 3]); layer flat = Flatten(); layer cat = Concat();` with "
    "`connections { input -> flat; [input, flat] -> cat; }`: ranks 4 and 2: error[shape.concat.rank-mismatch]."};
inline constexpr ObligationSpec kConcatExtentMismatch{
    ObligationKind::Shape, "shape.concat.extent-mismatch",
    "Every input of concat (NNL Concat) has the extents of input 0 on every axis but the concat axis.",
    "X_k == X_0, for every input k and every axis other than axis",
    "`layer input = Input(shape: [32, 32, 8]); layer conv = Conv2D(filters: 8, kernel: 3, stride: [2, 1], padding: "
    "\"same\"); layer cat = Concat();` with `connections { input -> conv; [input, conv] -> cat; }`, checked with "
    "`nnref check m.nnl --dim input.0=1..64`: error[shape.concat.extent-mismatch], counterexample: input.0 = 2."};

template <>
struct OpInfo<ConcatAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kConcatRankMismatch, &kConcatExtentMismatch}; }
};

inline std::string op_name(const ConcatAttrs&) { return "concat"; }
inline Arity arity(const ConcatAttrs&) { return {1, -1}; }
inline Signature signature(const ConcatAttrs& a) { return {{}, a.kind, a.kind}; }

}  // namespace nnref
