// slice: keeps a range [begin, end) on each listed axis (NNEF 1.0 slice).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/index.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"

namespace nnref {

// Keeps [begin, end) on each listed axis; negative begin/end count from the end, end 0 means the
// extent (NNEF 1.0 slice); ranges are clamped to the extent.
struct SliceAttrs {
  std::vector<int64_t> axes, begin, end;
};

inline constexpr ObligationSpec kSliceAttributeLength{
    ObligationKind::Attribute, "attr.slice.attribute-length",
    "The axes, begin and end of slice have the same length.", "len(begin) == len(axes) && len(end) == len(axes)",
    "An IR slice with axes [0, 1], begin [0] and end [2, 2]: error[attr.slice.attribute-length]."};
inline constexpr ObligationSpec kSliceEmpty{
    ObligationKind::Shape, "shape.slice.empty", "Every slice keeps at least one element on each listed axis.",
    "e2 - b2 >= 1, where on an axis of extent X: b2 is begin (plus X when negative) clamped to [0, X], and e2 is X "
    "when end == 0, else end (plus X when negative) clamped to [0, X]",
    "An IR slice with axes [0], begin [3], end [3]: error[shape.slice.empty]; with begin [4], end [0] (to the end) on "
    "an axis whose extent is a size symbol over 1..100: refuted, counterexample 1 (at least 5 is needed)."};

template <>
struct OpInfo<SliceAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kSliceAttributeLength, &kSliceEmpty}; }
};

inline std::string op_name(const SliceAttrs&) { return "slice"; }
inline Arity arity(const SliceAttrs&) { return {1, 1}; }

// NNEF 1.0 index: negative counts from the end, then clamped to [0, extent].
template <class Dim>
Dim slice_index(int64_t v, const Dim& extent) {
  const Dim raw = v < 0 ? extent + v : Dim(v);
  return dim_max(dim_select(raw > extent, extent, raw), Dim(int64_t{0}));
}

// [begin, end) on an axis of this extent; end 0 means the extent.
template <class Dim>
std::pair<Dim, Dim> slice_range(int64_t begin, int64_t end, const Dim& extent) {
  return {slice_index(begin, extent), end == 0 ? extent : slice_index(end, extent)};
}

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const SliceAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const bool lengths = a.begin.size() == a.axes.size() && a.end.size() == a.axes.size();
  sink.require(lengths, kSliceAttributeLength,
               "slice has " + std::to_string(a.axes.size()) + " axes but " + std::to_string(a.begin.size()) +
                   " begin and " + std::to_string(a.end.size()) + " end values");
  if (!lengths || !checked_axes(op_name(a), a.axes, x.size(), true, sink)) return std::nullopt;
  Dims<Dim> out = x;
  for (size_t i = 0; i < a.axes.size(); ++i) {
    // begin[i] and end[i] go with axes[i]: checked_axes' sorted list loses that pairing.
    const auto ax = static_cast<size_t>(normalize_axis(a.axes[i], x.size()));
    const auto [b, e] = slice_range(a.begin[i], a.end[i], x[ax]);
    out[ax] = e - b;
    sink.require(out[ax] >= Dim(int64_t{1}), kSliceEmpty,
                 "slice of axis " + std::to_string(ax) + " [" + std::to_string(a.begin[i]) + ", " +
                     std::to_string(a.end[i]) + ") on extent " + dim_str(x[ax]) + " keeps [" + dim_str(b) + ", " +
                     dim_str(e) + "), no element");
  }
  return ShapeOut<Dim>{{out}, {}};
}

// y[i] = x[i + begin], begin per axis as clamped by the shape rule (0 on unlisted axes).
template <Scalar T>
void evaluate(const Checked<SliceAttrs>& op, const OpIO<T>& io) {
  const Shape& in = op.inputs()[0];
  const SliceAttrs& a = op.attrs();
  std::vector<int64_t> begin(in.rank(), 0);
  for (size_t i = 0; i < a.axes.size(); ++i) {
    const auto ax = static_cast<size_t>(normalize_axis(a.axes[i], in.rank()));
    begin[ax] = slice_range(a.begin[i], a.end[i], CDim(in[ax])).first.v;
  }
  const auto strides = in.strides();
  gather(io.out(0), io.in(0), [&](const std::vector<int64_t>& i) {
    int64_t f = 0;
    for (size_t k = 0; k < i.size(); ++k) f += (i[k] + begin[k]) * strides[k];
    return f;
  });
}

}  // namespace nnref
