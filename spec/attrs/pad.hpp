// The attributes of pad: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/pad.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/size_program.hpp"

namespace nnref {

// Reflect mirrors about the edge element (not repeated: x[1], x[0] | x[0], x[1]... reads x[1]
// before x[0]); ReflectEven mirrors about the edge itself (repeated: x[0] | x[0], x[1]) (NNEF 1.0 §4.3).
enum class PadBorder { Constant, Reflect, Replicate, ReflectEven };
struct PadComputed {
  std::vector<int64_t> code;
  std::vector<ElemKind> sources;
};
struct PadAttrs {
  std::vector<std::pair<int64_t, int64_t>> padding;  // (before, after) per axis, all axes
  PadBorder border = PadBorder::Constant;
  Real value = 0.0;                // Constant's value: an element of the op's kind (pad_value_fits)
  ElemKind kind = ElemKind::Real;  // of the input and the output: moving elements holds any kind
  // Computed padding (spec/size_program.hpp), when not empty instead of padding: every before,
  // then every after, over the extents of the operands after the first, whose kinds `sources` lists.
  PadComputed computed{};
};

// Whether the constant value is an element of the kind: any real; an integer of magnitude below
// 2^63; a truth value 0 or 1.
inline bool pad_value_fits(const PadAttrs& a) {
  const double v = a.value.value;
  if (a.kind == ElemKind::Integer) return v == static_cast<double>(static_cast<int64_t>(v)) && v > -0x1p63 && v < 0x1p63;
  return a.kind != ElemKind::Logical || v == 0.0 || v == 1.0;
}

inline constexpr ObligationSpec kPadAttributeLength{
    ObligationKind::Shape, "shape.pad.attribute-length", "pad has exactly one (before, after) pair per input axis.",
    "len(padding) == rank(x)",
    "An IR pad with padding [(1, 1)] of a rank-2 input: error[shape.pad.attribute-length]."};
// A negative padding crops (NNEF 1.0 §4.5: "the items in padding can be negative"), down to one
// element: nnref holds no empty tensor.
inline constexpr ObligationSpec kPadEmpty{
    ObligationKind::Shape, "shape.pad.empty",
    "Every axis of pad's result keeps at least one element: a negative padding crops, but not the whole axis.",
    "X + before + after >= 1, for every axis",
    "An IR pad with padding [(0, 0), (-2, -2)] of an input [2, 4]: error[shape.pad.empty]."};
inline constexpr ObligationSpec kPadComputedNegative{
    ObligationKind::Shape, "shape.pad.computed-negative",
    "A padding of pad that the model computes from extents (not a constant) is at least 0.",
    "P_i >= 0, for every computed padding P_i",
    "An ONNX Pad of x [N, 2] by pads [0, 0, Shape(x)[0] - 2, 0], N a size symbol over 1..8: refuted, "
    "counterexample N = 1."};
inline constexpr ObligationSpec kPadReflectTooWide{
    ObligationKind::Shape, "shape.pad.reflect-too-wide",
    "With Reflect, neither padding of an axis exceeds its extent minus 1 (the edge is not repeated, so one reflection "
    "reaches X - 1 positions).",
    "X - 1 >= before && X - 1 >= after, for every axis",
    "An IR Reflect pad of (2, 2) on an axis of extent 2: error[shape.pad.reflect-too-wide]."};
inline constexpr ObligationSpec kPadReflectEvenTooWide{
    ObligationKind::Shape, "shape.pad.reflect-even-too-wide",
    "With ReflectEven, neither padding of an axis exceeds its extent (the edge is repeated, so one reflection "
    "reaches X positions).",
    "X >= before && X >= after, for every axis",
    "NNEF `pad(x, padding = [(0, 0), (3, 0)], border = 'reflect-even')` on an input [1, 2]: "
    "error[shape.pad.reflect-even-too-wide]."};
inline constexpr ObligationSpec kPadValueKind{
    ObligationKind::Attribute, "attr.pad.value-kind",
    "pad's constant value is an element of its data's kind: an integer (of magnitude below 2^63) for integer data, 0 or "
    "1 for logical data.",
    "value == trunc(value) && |value| < 2^63 (integer data); value in {0, 1} (logical data)",
    "An IR pad of integer data with value 0.5: error[attr.pad.value-kind]."};
inline constexpr ObligationSpec kPadReplicateEmpty{
    ObligationKind::Shape, "shape.pad.replicate-empty", "With Replicate, every axis has an element to repeat.",
    "X >= 1, for every axis", "An IR Replicate pad of an input [2, 0]: error[shape.pad.replicate-empty]."};

template <>
struct OpInfo<PadAttrs> {
  static std::vector<const ObligationSpec*> obligations() {
    return {&kPadAttributeLength, &kPadEmpty, &kPadComputedNegative, &kPadReflectTooWide,
            &kPadReflectEvenTooWide, &kPadReplicateEmpty, &kPadValueKind};
  }
};

inline std::string op_name(const PadAttrs&) { return "pad"; }
inline Arity arity(const PadAttrs& a) {
  const int n = 1 + static_cast<int>(a.computed.sources.size());
  return {n, n};
}
inline Signature signature(const PadAttrs& a) {
  std::vector<ElemKind> operands{a.kind};
  operands.insert(operands.end(), a.computed.sources.begin(), a.computed.sources.end());
  return {operands, a.kind, a.kind};
}

}  // namespace nnref
