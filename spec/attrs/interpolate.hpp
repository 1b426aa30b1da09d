// The attributes of interpolate: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/interpolate.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

// A separable weighted sum of taps (ONNX Resize's linear and cubic modes, composed by
// formats/onnx/ops/resize.cpp). Inputs: x, then per axis of `axes` (in that order) its tap
// indices I_a [L_a, T_a] (integer) and weights W_a [L_a, T_a] (real): output position o of the axis
// reads the T_a positions I_a[o, ·] of x's axis, weighted W_a[o, ·]. The output is x's shape with
// axis a's extent L_a.
struct InterpolateAttrs {
  std::vector<int64_t> axes;  // counted from the end when negative
};

inline constexpr ObligationSpec kInterpolateTaps{
    ObligationKind::Shape, "shape.interpolate.taps",
    "Each resized axis of interpolate has its tap indices and weights as two matrices of one shape [L, T]: L output "
    "positions, T taps each.",
    "rank(I_a) == 2 && rank(W_a) == 2 && I_a == W_a, for every axis a",
    "`interpolate(x, I, W, axes = [2])` with I [8, 4] and W [8, 2]: error[shape.interpolate.taps]."};

template <>
struct OpInfo<InterpolateAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kInterpolateTaps}; }
};

inline std::string op_name(const InterpolateAttrs&) { return "interpolate"; }
inline Arity arity(const InterpolateAttrs& a) {
  const int n = 1 + 2 * static_cast<int>(a.axes.size());
  return {n, n};
}
inline Signature signature(const InterpolateAttrs& a) {
  Signature s{{ElemKind::Real}, ElemKind::Real, ElemKind::Real};
  for (size_t k = 0; k < a.axes.size(); ++k) s.operands.insert(s.operands.end(), {ElemKind::Integer, ElemKind::Real});
  return s;
}

}  // namespace nnref
