// The attributes of split: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/split.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

// Splits along axis (may count from the end) into parts proportional to ratios; one output per ratio.
struct SplitAttrs {
  int64_t axis = 0;
  std::vector<int64_t> ratios;
  ElemKind kind = ElemKind::Real;  // of the inputs and the outputs: moving elements holds any kind
};

inline constexpr ObligationSpec kSplitRatioNonpositive{
    ObligationKind::Attribute, "attr.split.ratio-nonpositive",
    "split has at least one ratio, and every ratio is at least 1.", "len(ratios) >= 1 && r >= 1, for every ratio r",
    "An IR split with ratios [1, 0]: error[attr.split.ratio-nonpositive]."};
inline constexpr ObligationSpec kSplitExtentIndivisible{
    ObligationKind::Shape, "shape.split.extent-indivisible",
    "The extent of the split axis is a multiple of the sum of the ratios.", "X % (r_0 + r_1 + ... + r_{n-1}) == 0",
    "An IR split on axis 1 with ratios [1, 2] of an input [2, 4]: error[shape.split.extent-indivisible] (4 is not a "
    "multiple of 3)."};

template <>
struct OpInfo<SplitAttrs> {
  static std::vector<const ObligationSpec*> obligations() {
    return {&kSplitRatioNonpositive, &kSplitExtentIndivisible};
  }
};

inline std::string op_name(const SplitAttrs&) { return "split"; }
inline Arity arity(const SplitAttrs&) { return {1, 1}; }
inline Signature signature(const SplitAttrs& a) { return {{a.kind}, a.kind, a.kind}; }

}  // namespace nnref
