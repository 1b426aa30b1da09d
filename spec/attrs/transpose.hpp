// The attributes of transpose: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/transpose.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

// Output axis i is input axis perm[i].
struct TransposeAttrs {
  std::vector<int64_t> perm;
  ElemKind kind = ElemKind::Real;  // of the inputs and the outputs: moving elements holds any kind
};

inline constexpr ObligationSpec kTransposeInvalidPermutation{
    ObligationKind::Shape, "shape.transpose.invalid-permutation",
    "The perm of transpose is a permutation of 0 .. rank - 1.",
    "len(perm) == rank(x), and perm sorted is 0, 1, ..., rank(x) - 1",
    "An IR transpose with perm [0, 2, 2, 1] of a rank-4 input: error[shape.transpose.invalid-permutation]."};

template <>
struct OpInfo<TransposeAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kTransposeInvalidPermutation}; }
};

inline std::string op_name(const TransposeAttrs&) { return "transpose"; }
inline Arity arity(const TransposeAttrs&) { return {1, 1}; }
inline Signature signature(const TransposeAttrs& a) { return {{a.kind}, a.kind, a.kind}; }

}  // namespace nnref
