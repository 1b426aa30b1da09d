// pad: widens every axis by (before, after) positions, filled by a border rule (NNEF 1.0 pad).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/index.hpp"
#include "spec/op_rule.hpp"

namespace nnref {

// Reflect mirrors about the edge element (not repeated: x[1], x[0] | x[0], x[1]... reads x[1]
// before x[0]); ReflectEven mirrors about the edge itself (repeated: x[0] | x[0], x[1]) (NNEF 1.0 §4.3).
enum class PadBorder { Constant, Reflect, Replicate, ReflectEven };
struct PadAttrs {
  std::vector<std::pair<int64_t, int64_t>> padding;  // (before, after) per axis, all axes
  PadBorder border = PadBorder::Constant;
  Real value = 0.0;
};

inline constexpr ObligationSpec kPadAttributeLength{
    ObligationKind::Shape, "shape.pad.attribute-length", "pad has exactly one (before, after) pair per input axis.",
    "len(padding) == rank(x)",
    "An IR pad with padding [(1, 1)] of a rank-2 input: error[shape.pad.attribute-length]."};
inline constexpr ObligationSpec kPadPaddingNegative{
    ObligationKind::Attribute, "attr.pad.padding-negative", "Every padding of pad is at least 0.",
    "before >= 0 && after >= 0, for every axis",
    "An IR pad with padding [(0, 0), (-1, 2)]: error[attr.pad.padding-negative]."};
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
inline constexpr ObligationSpec kPadReplicateEmpty{
    ObligationKind::Shape, "shape.pad.replicate-empty", "With Replicate, every axis has an element to repeat.",
    "X >= 1, for every axis", "An IR Replicate pad of an input [2, 0]: error[shape.pad.replicate-empty]."};

template <>
struct OpInfo<PadAttrs> {
  static std::vector<const ObligationSpec*> obligations() {
    return {&kPadAttributeLength, &kPadPaddingNegative, &kPadReflectTooWide, &kPadReflectEvenTooWide, &kPadReplicateEmpty};
  }
};

inline std::string op_name(const PadAttrs&) { return "pad"; }
inline Arity arity(const PadAttrs&) { return {1, 1}; }

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const PadAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const bool length = a.padding.size() == x.size();
  sink.require(length, kPadAttributeLength,
               "pad has " + std::to_string(a.padding.size()) + " (before, after) pairs for an input of rank " +
                   std::to_string(x.size()));
  if (!length) return std::nullopt;
  Dims<Dim> out;
  bool ok = true;
  for (size_t i = 0; i < x.size(); ++i) {
    const auto [before, after] = a.padding[i];
    const std::string pair = "(" + std::to_string(before) + ", " + std::to_string(after) + ")";
    const bool nonneg = before >= 0 && after >= 0;
    sink.require(nonneg, kPadPaddingNegative, "pad " + pair + " of axis " + std::to_string(i) + " is negative");
    ok = ok && nonneg;
    if (a.border == PadBorder::Reflect)
      sink.require(x[i] - int64_t{1} >= Dim(std::max(before, after)), kPadReflectTooWide,
                   "reflect pad " + pair + " of axis " + std::to_string(i) + " exceeds its extent " + dim_str(x[i]) +
                       " minus 1");
    if (a.border == PadBorder::ReflectEven)
      sink.require(x[i] >= Dim(std::max(before, after)), kPadReflectEvenTooWide,
                   "reflect-even pad " + pair + " of axis " + std::to_string(i) + " exceeds its extent " + dim_str(x[i]));
    if (a.border == PadBorder::Replicate)
      sink.require(x[i] >= Dim(int64_t{1}), kPadReplicateEmpty,
                   "replicate pad of axis " + std::to_string(i) + " needs a non-empty axis, extent is " +
                       dim_str(x[i]));
    out.push_back(x[i] + (CDim(before) + after).v);
  }
  if (!ok) return std::nullopt;
  return ShapeOut<Dim>{{out}, {}};
}

// The input position an output position p − before reads on an axis of extent n, or -1 for the
// constant value.
inline int64_t pad_source(int64_t p, int64_t n, PadBorder border) {
  if (p >= 0 && p < n) return p;
  switch (border) {
    case PadBorder::Constant: return -1;
    case PadBorder::Reflect: return p < 0 ? -p : 2 * (n - 1) - p;
    case PadBorder::Replicate: return p < 0 ? 0 : n - 1;
    case PadBorder::ReflectEven: return p < 0 ? -p - 1 : 2 * n - 1 - p;
  }
  return -1;
}

// y[i] = x[j] with j[k] = pad_source(i[k] − before[k]) on every axis, or value when some axis
// reads outside x under Constant.
template <Scalar T>
void evaluate(const Checked<PadAttrs>& op, const OpIO<T>& io) {
  const Shape& in = op.inputs()[0];
  const Shape& out = op.outputs()[0];
  const PadAttrs& a = op.attrs();
  const auto strides = in.strides();
  const T value = real_value<T>(a.value);
  const Tensor<T>& x = io.in(0);
  Tensor<T>& y = io.out(0);
  std::vector<int64_t> idx;
  for (int64_t f = 0; f < y.size(); ++f) {
    unflatten(f, out.dims(), idx);
    int64_t src = 0;
    for (size_t k = 0; k < idx.size() && src >= 0; ++k) {
      const int64_t p = pad_source(idx[k] - a.padding[k].first, in[k], a.border);
      src = p < 0 ? -1 : src + p * strides[k];
    }
    y[f] = src < 0 ? value : x[src];
  }
}

}  // namespace nnref
