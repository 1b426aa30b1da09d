// The attributes of reshape: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/reshape.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/size_program.hpp"

namespace nnref {

// An entry -1 is inferred (at most one); 0 copies the input extent at that position (NNEF).
// Element counts must agree. Computed dims (an export's x.view(x.size(0), -1)): a size program
// (spec/size_program.hpp) over the extents of the operands after the first, whose kinds
// `sources` lists; its constant entries read as dims' do, the others must be at least 1.
struct ReshapeAttrs {
  std::vector<int64_t> dims;
  ElemKind kind = ElemKind::Real;  // of the input and the output: a view holds any kind
  std::vector<int64_t> computed{};  // when not empty, the dims (dims is then empty)
  std::vector<ElemKind> sources{};
};

inline constexpr ObligationSpec kReshapeNegativeExtent{
    ObligationKind::Attribute, "attr.reshape.negative-extent",
    "No entry of reshape's dims is below -1 (-1 alone is allowed: the inferred extent).",
    "v >= -1, for every entry v of dims", "An IR reshape with dims [2, -3]: error[attr.reshape.negative-extent]."};
inline constexpr ObligationSpec kReshapeMultipleInferred{
    ObligationKind::Attribute, "attr.reshape.multiple-inferred", "At most one entry of reshape's dims is -1.",
    "the number of entries v of dims with v == -1 is <= 1",
    "An IR reshape with dims [-1, -1]: error[attr.reshape.multiple-inferred]."};
inline constexpr ObligationSpec kReshapeZeroOutOfRange{
    ObligationKind::Shape, "shape.reshape.zero-out-of-range",
    "An entry 0 of reshape's dims (copy the input extent at that position) sits at a position the input has.",
    "i < rank(x), for every position i with dims[i] == 0",
    "An IR reshape with dims [0, 0, 0] of a rank-2 input: error[shape.reshape.zero-out-of-range]."};
inline constexpr ObligationSpec kReshapeCountIndivisible{
    ObligationKind::Shape, "shape.reshape.count-indivisible",
    "With a -1 in reshape's dims, the product P of the other entries (0 entries copying the input extent) is at least "
    "1 and divides the input's element count.",
    "P >= 1 && (X_0 * X_1 * ... * X_{r-1}) % P == 0",
    "An IR reshape with dims [-1, 5] of an input [2, 3]: error[shape.reshape.count-indivisible]; with dims [-1, 4] of "
    "an input [N, 6], N a size symbol over 1..100: refuted, counterexample N = 1."};
inline constexpr ObligationSpec kReshapeComputedExtent{
    ObligationKind::Shape, "shape.reshape.computed-extent",
    "An entry of reshape's dims that the model computes from extents (not a constant) is at least 1: nnref reads 0 "
    "(copy) and -1 (infer) only as constants.",
    "D_i >= 1, for every computed entry D_i",
    "An ONNX Reshape of x [N, 6] to [Shape(x)[0] - 1, -1], N a size symbol over 1..8: refuted, counterexample N = 1."};
inline constexpr ObligationSpec kReshapeCountMismatch{
    ObligationKind::Shape, "shape.reshape.count-mismatch",
    "Without a -1, the product of reshape's dims (0 entries copying the input extent) equals the input's element "
    "count.",
    "D_0 * D_1 * ... * D_{m-1} == X_0 * X_1 * ... * X_{r-1}",
    "An IR reshape with dims [4, 4] of an input [2, 3]: error[shape.reshape.count-mismatch] (16 and 6 elements)."};

template <>
struct OpInfo<ReshapeAttrs> {
  static std::vector<const ObligationSpec*> obligations() {
    return {&kReshapeNegativeExtent, &kReshapeMultipleInferred, &kReshapeZeroOutOfRange, &kReshapeCountIndivisible,
            &kReshapeComputedExtent, &kReshapeCountMismatch};
  }
};

inline std::string op_name(const ReshapeAttrs&) { return "reshape"; }
inline Arity arity(const ReshapeAttrs& a) {
  const int n = 1 + static_cast<int>(a.sources.size());
  return {n, n};
}
inline Signature signature(const ReshapeAttrs& a) {
  std::vector<ElemKind> operands{a.kind};
  operands.insert(operands.end(), a.sources.begin(), a.sources.end());
  return {operands, a.kind, a.kind};
}

}  // namespace nnref
