// The attributes of cumsum: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/cumsum.hpp, which only its own units include (cmake/ops.cmake).
// The cumulative sum along one axis (ONNX CumSum, opsets 11 and 14), of reals or of integers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/integer_arith.hpp"
#include "spec/op_rule.hpp"

namespace nnref {

// y[.., i, ..] sums x along `axis` (may count from the end) up to and including position i;
// exclusive: up to but not including i; reverse: from the axis's end down to i instead.
struct CumsumAttrs {
  int64_t axis = 0;
  bool exclusive = false;
  bool reverse = false;
  ElemKind kind = ElemKind::Real;  // of the input and the output: real or integer (a sum of numbers)
  IntegerType type{};              // of an integer result: each sum in int64, wrapped to it
};

inline constexpr ObligationSpec kCumsumKind{
    ObligationKind::Attribute, "attr.cumsum.kind",
    "The kind of cumsum is real or integer: it adds numbers, and a logical value is none.",
    "kind == real || kind == integer",
    "A NAC file whose `nnref.cumsum` instruction states the kind logical: error[attr.cumsum.kind]."};

// The axis is checked by the shared axis rule (shape.axis.out-of-range, spec/rules/axes.hpp).
template <>
struct OpInfo<CumsumAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kCumsumKind}; }
};

inline std::string op_name(const CumsumAttrs&) { return "cumsum"; }
inline Arity arity(const CumsumAttrs&) { return {1, 1}; }
inline Signature signature(const CumsumAttrs& a) { return {{a.kind}, a.kind, a.kind}; }

}  // namespace nnref
