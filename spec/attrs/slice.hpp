// The attributes of slice: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/slice.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/size_program.hpp"

namespace nnref {

// Keeps begin, begin + stride, ... up to (not including) end on each listed axis (NNEF 1.0 §4.5.4).
// Negative begin/end count from the end; then a positive stride clamps them to [0, extent] and a
// negative one, which walks the axis backwards, to [-1, extent - 1] (so end -1 reaches index 0).
// The count is ⌈(end − begin)/stride⌉, as NNEF's reference (the text says rounded down, which
// drops the last element whenever the range is not a multiple of the stride). end 0 means the
// extent when every stride is 1 (deprecated in NNEF 1.0.4, kept for older files). stride empty:
// all 1. Computed bounds (an export's slice up to a computed size): a size program
// (spec/size_program.hpp) over the extents of the operands after the first, whose kinds `sources`
// lists, leaving every begin then every end (begin and end are then empty); a computed end of 0
// is 0.
struct SliceAttrs {
  std::vector<int64_t> axes, begin, end, stride;
  ElemKind kind = ElemKind::Real;  // of the inputs and the outputs: moving elements holds any kind
  std::vector<int64_t> computed{};
  std::vector<ElemKind> sources{};
};

inline constexpr ObligationSpec kSliceAttributeLength{
    ObligationKind::Attribute, "attr.slice.attribute-length",
    "The axes, begin and end of slice have the same length, and stride is empty or of that length too.",
    "len(begin) == len(axes) && len(end) == len(axes) && (len(stride) == 0 || len(stride) == len(axes))",
    "An IR slice with axes [0, 1], begin [0] and end [2, 2]: error[attr.slice.attribute-length]."};
inline constexpr ObligationSpec kSliceStrideZero{
    ObligationKind::Attribute, "attr.slice.stride-zero", "Every stride of slice is nonzero.", "stride[i] != 0",
    "NNEF `slice(x, axes = [1], begin = [0], end = [4], stride = [0])`: error[attr.slice.stride-zero]."};
inline constexpr ObligationSpec kSliceEmpty{
    ObligationKind::Shape, "shape.slice.empty", "Every slice keeps at least one element on each listed axis.",
    "ceil((e2 - b2) / s) >= 1 for a stride s > 0, ceil((b2 - e2) / -s) >= 1 for s < 0, where on an axis of extent X "
    "b2 and e2 are begin and end (plus X when negative) clamped to [0, X] (s > 0) or [-1, X - 1] (s < 0), and e2 is "
    "X when end == 0 and every stride is 1",
    "An IR slice with axes [0], begin [3], end [3]: error[shape.slice.empty]; with begin [4], end [0] (to the end) on "
    "an axis whose extent is a size symbol over 1..100: refuted, counterexample 1 (at least 5 is needed)."};

template <>
struct OpInfo<SliceAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kSliceAttributeLength, &kSliceStrideZero, &kSliceEmpty}; }
};

inline std::string op_name(const SliceAttrs&) { return "slice"; }
inline Arity arity(const SliceAttrs& a) {
  const int n = 1 + static_cast<int>(a.sources.size());
  return {n, n};
}
inline Signature signature(const SliceAttrs& a) {
  std::vector<ElemKind> operands{a.kind};
  operands.insert(operands.end(), a.sources.begin(), a.sources.end());
  return {operands, a.kind, a.kind};
}

}  // namespace nnref
