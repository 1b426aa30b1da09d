// The attributes of range: what the IR, the readers and the writers see of it. Its shape rule and
// formula: spec/ops/range.hpp, which only its own units include (cmake/ops.cmake).
// ONNX's Range (opset 11): y[i] = start + i·delta for i in [0, n), n = max(⌈(limit − start)/delta⌉, 0).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/real.hpp"
#include "spec/size_program.hpp"

namespace nnref {

// A real result reads start, limit and delta; an integer one istart, ilimit and idelta, or, when
// `computed` is not empty, start and limit as the two values of that size program
// (spec/size_program.hpp) over the extents of its operands, whose kinds `sources` lists
// (PyTorch's torch.arange(x.size(1)) is Range(0, Shape(x)[1], 1)). delta is always a number.
// The integers lie between start and limit, both of the result's ONNX type, so they never wrap.
struct RangeAttrs {
  ElemKind kind = ElemKind::Real;  // of the result: Real or Integer
  Real start{0.0}, limit{1.0}, delta{1.0};
  int64_t istart = 0, ilimit = 1, idelta = 1;
  std::vector<int64_t> computed{};
  std::vector<ElemKind> sources{};
};

inline constexpr ObligationSpec kRangeDeltaZero{
    ObligationKind::Attribute, "attr.range.delta-zero",
    "range's delta is not 0 (the count (limit - start)/delta has no value).", "delta != 0",
    "An ONNX Range(0, 5, 0): error[attr.range.delta-zero]."};
inline constexpr ObligationSpec kRangeNotFinite{
    ObligationKind::Attribute, "attr.range.not-finite",
    "A real range's start, limit and delta are finite numbers (an infinite or NaN one gives no count).",
    "start, limit, delta finite", "An ONNX Range(0, inf, 1) of float32: error[attr.range.not-finite]."};
inline constexpr ObligationSpec kRangeEmpty{
    ObligationKind::Shape, "shape.range.empty",
    "range has at least one element: nnref holds no empty tensors.",
    "max(ceil((limit - start)/delta), 0) >= 1",
    "An ONNX Range(5, 2, 1): error[shape.range.empty]; Range(0, Shape(x)[0] - 1, 1) over x [N], N over 1..8: "
    "refuted, counterexample N = 1."};

template <>
struct OpInfo<RangeAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kRangeDeltaZero, &kRangeNotFinite, &kRangeEmpty}; }
};

inline std::string op_name(const RangeAttrs&) { return "range"; }
inline Arity arity(const RangeAttrs& a) {
  const int n = static_cast<int>(a.sources.size());
  return {n, n};
}
inline Signature signature(const RangeAttrs& a) { return {a.sources, ElemKind::Real, a.kind}; }

}  // namespace nnref
