// The attributes of matmul: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/matmul.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

// A [..., m, k] (or [..., k, m] transposed) times B [..., k, n] (or [..., n, k] transposed);
// rank ≥ 2, equal ranks, the leading (batch) axes broadcast (an extent 1 repeats).
struct MatMulAttrs {
  bool transpose_a = false;
  bool transpose_b = false;
};

inline constexpr ObligationSpec kMatMulRank{
    ObligationKind::Shape, "shape.matmul.rank", "Both operands of matmul have rank at least 2.",
    "rank(A) >= 2 && rank(B) >= 2", "An IR matmul of [3] and [3, 4]: error[shape.matmul.rank]."};
inline constexpr ObligationSpec kMatMulRankMismatch{
    ObligationKind::Shape, "shape.matmul.rank-mismatch",
    "The operands of matmul have the same rank (a batch axis broadcasts only from extent 1).", "rank(A) == rank(B)",
    "An IR matmul of [2, 3, 4] and [4, 5]: error[shape.matmul.rank-mismatch]."};
inline constexpr ObligationSpec kMatMulBatchMismatch{
    ObligationKind::Shape, "shape.matmul.batch-mismatch",
    "The leading (batch) axes of the matmul operands broadcast: on each, equal extents, or one of them 1 (NNEF 1.0 "
    "§4.5.1).",
    "A_i == B_i || A_i == 1 || B_i == 1, for every axis i < rank(A) - 2",
    "An IR matmul of [2, 3, 4] and [5, 4, 6]: error[shape.matmul.batch-mismatch] (batch axis 0: 2 and 5)."};
inline constexpr ObligationSpec kMatMulInnerMismatch{
    ObligationKind::Shape, "shape.matmul.inner-mismatch",
    "The inner extents of matmul agree after the optional transposes: the last axis of A (second to last with "
    "transpose_a) equals the second to last axis of B (last with transpose_b).",
    "K_A == K_B", "An IR matmul of [3, 4] and [5, 6]: error[shape.matmul.inner-mismatch] (inner extents 4 and 5)."};

template <>
struct OpInfo<MatMulAttrs> {
  static std::vector<const ObligationSpec*> obligations() {
    return {&kMatMulRank, &kMatMulRankMismatch, &kMatMulBatchMismatch, &kMatMulInnerMismatch};
  }
};

inline std::string op_name(const MatMulAttrs&) { return "matmul"; }
inline Arity arity(const MatMulAttrs&) { return {2, 2}; }

}  // namespace nnref
