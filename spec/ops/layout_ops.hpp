// Ops that move or regroup elements without arithmetic.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

// Row-major reshape. An entry -1 is inferred (at most one); 0 copies the input extent at that
// position (NNEF). Element counts must agree.
struct ReshapeAttrs {
  std::vector<int64_t> dims;
};

// [d0, ..., d(axis−1), d(axis)·…·d(rank−1)]: row-major; axis 1 keeps the batch axis.
struct FlattenAttrs {
  int64_t axis = 1;
};

// Output axis i is input axis perm[i].
struct TransposeAttrs {
  std::vector<int64_t> perm;
};

// Joins inputs along axis (may count from the end); other extents equal.
struct ConcatAttrs {
  int64_t axis = 0;
};

// Splits along axis into parts proportional to ratios (NNEF split); one output per ratio.
struct SplitAttrs {
  int64_t axis = 0;
  std::vector<int64_t> ratios;
};

// Keeps [begin, end) on each listed axis; negative begin/end count from the end, end 0 means the
// extent (NNEF 1.0 slice); ranges are clamped to the extent.
struct SliceAttrs {
  std::vector<int64_t> axes, begin, end;
};

enum class PadBorder { Constant, Reflect, Replicate };
struct PadAttrs {
  std::vector<std::pair<int64_t, int64_t>> padding;  // (before, after) per axis, all axes
  PadBorder border = PadBorder::Constant;
  double value = 0.0;
};

struct SqueezeAttrs {
  std::vector<int64_t> axes;  // each must have extent 1
};
struct UnsqueezeAttrs {
  std::vector<int64_t> axes;  // positions in the output
};


// ---- Helpers shared by the layout ops and by conv/pool (spec/ops/conv.hpp) ----
namespace layout_detail {

// The arity precondition, stated as a structural obligation ("shape.arity").
template <class A, class S>
bool arity_holds(const A& attrs, size_t n, S& sink) {
  const Arity a = arity(attrs);
  const auto count = static_cast<int64_t>(n);
  const bool ok = count >= a.min && (a.max < 0 || count <= a.max);
  sink.require(ok, "shape.arity",
               op_name(attrs) + " takes " + std::to_string(a.min) +
                   (a.max == a.min ? "" : a.max < 0 ? " or more" : " to " + std::to_string(a.max)) +
                   " input(s), got " + std::to_string(n));
  return ok;
}

// Π d[from..to), as a Dim (1 for an empty range).
template <class Dim>
Dim product(const Dims<Dim>& d, size_t from, size_t to) {
  Dim p = Dim(int64_t{1});
  for (size_t i = from; i < to; ++i) p = p * d[i];
  return p;
}

// Normalised axes of `attrs_axes` against `rank` (negative count from the end); nullopt, with
// `code` raised, when one is out of range or repeated.
template <class S>
std::optional<std::vector<size_t>> distinct_axes(const std::vector<int64_t>& attrs_axes, size_t rank,
                                                 const std::string& op, S& sink) {
  std::vector<size_t> out;
  for (int64_t a : attrs_axes) {
    const int64_t n = normalize_axis(a, rank);
    const bool in_range = n >= 0;
    sink.require(in_range, "shape." + op + ".axis-out-of-range",
                 op + " axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    if (!in_range) return std::nullopt;
    const bool fresh = std::find(out.begin(), out.end(), static_cast<size_t>(n)) == out.end();
    sink.require(fresh, "shape." + op + ".duplicate-axis", op + " lists axis " + std::to_string(a) + " twice");
    if (!fresh) return std::nullopt;
    out.push_back(static_cast<size_t>(n));
  }
  return out;
}

// The row-major multi-index of `flat` in `dims`.
inline void unflatten(int64_t flat, const std::vector<int64_t>& dims, std::vector<int64_t>& idx) {
  idx.resize(dims.size());
  for (size_t i = dims.size(); i-- > 0;) {
    idx[i] = flat % dims[i];
    flat /= dims[i];
  }
}

// y[i] = x[source(i)] for every multi-index i of y's shape.
template <class T, class Source>
Tensor<T> gather(const Shape& out, const Tensor<T>& x, Source&& source) {
  Tensor<T> y(out);
  std::vector<int64_t> idx;
  for (int64_t f = 0; f < y.size(); ++f) {
    unflatten(f, out.dims(), idx);
    y[f] = x[source(idx)];
  }
  return y;
}

// The same elements, row-major, under another shape of equal count.
template <class T>
Tensor<T> reinterpret(const Tensor<T>& x, const Shape& out) {
  Tensor<T> y(out);
  std::copy(x.data().begin(), x.data().end(), y.data().begin());
  return y;
}

}  // namespace layout_detail

// ---- op_name and arity ----
inline std::string op_name(const ReshapeAttrs&) { return "reshape"; }
inline std::string op_name(const FlattenAttrs&) { return "flatten"; }
inline std::string op_name(const TransposeAttrs&) { return "transpose"; }
inline std::string op_name(const ConcatAttrs&) { return "concat"; }
inline std::string op_name(const SplitAttrs&) { return "split"; }
inline std::string op_name(const SliceAttrs&) { return "slice"; }
inline std::string op_name(const PadAttrs&) { return "pad"; }
inline std::string op_name(const SqueezeAttrs&) { return "squeeze"; }
inline std::string op_name(const UnsqueezeAttrs&) { return "unsqueeze"; }

inline Arity arity(const ReshapeAttrs&) { return {1, 1}; }
inline Arity arity(const FlattenAttrs&) { return {1, 1}; }
inline Arity arity(const TransposeAttrs&) { return {1, 1}; }
inline Arity arity(const ConcatAttrs&) { return {1, -1}; }
inline Arity arity(const SplitAttrs&) { return {1, 1}; }
inline Arity arity(const SliceAttrs&) { return {1, 1}; }
inline Arity arity(const PadAttrs&) { return {1, 1}; }
inline Arity arity(const SqueezeAttrs&) { return {1, 1}; }
inline Arity arity(const UnsqueezeAttrs&) { return {1, 1}; }

// ---- reshape ----
template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const ReshapeAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!layout_detail::arity_holds(a, inputs.size(), sink)) return std::nullopt;
  const Dims<Dim>& x = inputs[0];
  std::optional<size_t> inferred;
  Dims<Dim> out;
  for (size_t i = 0; i < a.dims.size(); ++i) {
    const int64_t v = a.dims[i];
    const bool second_inferred = v == -1 && inferred.has_value();
    const bool zero_outside = v == 0 && i >= x.size();
    sink.require(v >= -1, "shape.reshape.negative-extent",
                 "reshape extent " + std::to_string(v) + " at position " + std::to_string(i) +
                     " is negative (only -1, inferred, is allowed)");
    sink.require(!second_inferred, "shape.reshape.multiple-inferred",
                 "reshape has more than one -1 extent (positions " +
                     (inferred ? std::to_string(*inferred) : std::string()) + " and " + std::to_string(i) + ")");
    sink.require(!zero_outside, "shape.reshape.zero-out-of-range",
                 "reshape extent 0 at position " + std::to_string(i) + " copies an input axis, but the input has rank " +
                     std::to_string(x.size()));
    if (v < -1 || second_inferred || zero_outside) return std::nullopt;
    if (v == -1) inferred = i;
    out.push_back(v == 0 ? x[i] : Dim(v));  // the inferred entry is filled in below
  }
  const Dim count = layout_detail::product(x, 0, x.size());
  if (inferred) {
    out[*inferred] = Dim(int64_t{1});
    const Dim known = layout_detail::product(out, 0, out.size());
    const std::string what = "reshape cannot infer the -1 extent: the input's " + dim_str(count) +
                             " elements are not a multiple of the other extents' product " + dim_str(known);
    sink.require(known >= Dim(int64_t{1}), "shape.reshape.count-indivisible", what);
    sink.require(floor_div(count, known) * known == count, "shape.reshape.count-indivisible", what);
    out[*inferred] = floor_div(count, known);
  } else {
    const Dim target = layout_detail::product(out, 0, out.size());
    sink.require(target == count, "shape.reshape.count-mismatch",
                 "reshape to " + dims_str(out) + " (" + dim_str(target) + " elements) from " + dims_str(x) + " (" +
                     dim_str(count) + " elements)");
  }
  return ShapeOut<Dim>{{out}, {}};
}

template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<ReshapeAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  return {layout_detail::reinterpret(*inputs[0], op.outputs()[0])};
}

// ---- flatten ----
template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const FlattenAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!layout_detail::arity_holds(a, inputs.size(), sink)) return std::nullopt;
  const Dims<Dim>& x = inputs[0];
  const bool ok = a.axis >= 0 && a.axis <= static_cast<int64_t>(x.size());
  sink.require(ok, "shape.flatten.axis-out-of-range",
               "flatten axis " + std::to_string(a.axis) + " is outside [0, " + std::to_string(x.size()) + "]");
  if (!ok) return std::nullopt;
  const auto axis = static_cast<size_t>(a.axis);
  Dims<Dim> out(x.begin(), x.begin() + a.axis);
  out.push_back(layout_detail::product(x, axis, x.size()));
  return ShapeOut<Dim>{{out}, {}};
}

template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<FlattenAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  return {layout_detail::reinterpret(*inputs[0], op.outputs()[0])};
}

// ---- transpose ----
template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const TransposeAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!layout_detail::arity_holds(a, inputs.size(), sink)) return std::nullopt;
  const Dims<Dim>& x = inputs[0];
  std::vector<int64_t> sorted = a.perm;
  std::sort(sorted.begin(), sorted.end());
  bool ok = sorted.size() == x.size();
  for (size_t i = 0; ok && i < sorted.size(); ++i) ok = sorted[i] == static_cast<int64_t>(i);
  std::string perm;
  for (size_t i = 0; i < a.perm.size(); ++i) perm += (i ? ", " : "") + std::to_string(a.perm[i]);
  sink.require(ok, "shape.transpose.invalid-permutation",
               "transpose perm [" + perm + "] is not a permutation of 0.." + std::to_string(x.size()) +
                   "-1 for an input of rank " + std::to_string(x.size()));
  if (!ok) return std::nullopt;
  Dims<Dim> out;
  for (int64_t p : a.perm) out.push_back(x[static_cast<size_t>(p)]);
  return ShapeOut<Dim>{{out}, {}};
}

// y[i0, ..., in] = x[j] with j[perm[k]] = i[k].
template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<TransposeAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  const auto x_strides = op.inputs()[0].strides();
  const auto& perm = op.attrs().perm;
  return {layout_detail::gather(op.outputs()[0], *inputs[0], [&](const std::vector<int64_t>& i) {
    int64_t f = 0;
    for (size_t k = 0; k < i.size(); ++k) f += i[k] * x_strides[static_cast<size_t>(perm[k])];
    return f;
  })};
}

// ---- concat ----
template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const ConcatAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!layout_detail::arity_holds(a, inputs.size(), sink)) return std::nullopt;
  const Dims<Dim>& x0 = inputs[0];
  for (size_t k = 1; k < inputs.size(); ++k) {
    const bool same_rank = inputs[k].size() == x0.size();
    sink.require(same_rank, "shape.concat.rank-mismatch",
                 "concat input " + std::to_string(k) + " has rank " + std::to_string(inputs[k].size()) +
                     " but input 0 has rank " + std::to_string(x0.size()));
    if (!same_rank) return std::nullopt;
  }
  const int64_t axis = normalize_axis(a.axis, x0.size());
  sink.require(axis >= 0, "shape.concat.axis-out-of-range",
               "concat axis " + std::to_string(a.axis) + " is out of range for rank " + std::to_string(x0.size()));
  if (axis < 0) return std::nullopt;
  Dims<Dim> out = x0;
  for (size_t k = 1; k < inputs.size(); ++k) {
    for (size_t i = 0; i < x0.size(); ++i) {
      if (static_cast<int64_t>(i) == axis) continue;
      sink.require(inputs[k][i] == x0[i], "shape.concat.extent-mismatch",
                   "concat inputs disagree on axis " + std::to_string(i) + ": input 0 has extent " + dim_str(x0[i]) +
                       ", input " + std::to_string(k) + " has " + dim_str(inputs[k][i]));
    }
    out[static_cast<size_t>(axis)] = out[static_cast<size_t>(axis)] + inputs[k][static_cast<size_t>(axis)];
  }
  return ShapeOut<Dim>{{out}, {}};
}

// Row-major: for each index of the axes before `axis`, the inputs' blocks follow one another.
template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<ConcatAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  const Shape& out = op.outputs()[0];
  const auto axis = static_cast<size_t>(normalize_axis(op.attrs().axis, out.rank()));
  const int64_t outer = checked_element_count({out.dims().begin(), out.dims().begin() + axis});
  Tensor<T> y(out);
  int64_t at = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (const Tensor<T>* x : inputs) {
      const int64_t block = x->size() / outer;
      for (int64_t e = 0; e < block; ++e) y[at++] = (*x)[o * block + e];
    }
  }
  return {y};
}

// ---- split ----
template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const SplitAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!layout_detail::arity_holds(a, inputs.size(), sink)) return std::nullopt;
  const Dims<Dim>& x = inputs[0];
  const int64_t axis = normalize_axis(a.axis, x.size());
  sink.require(axis >= 0, "shape.split.axis-out-of-range",
               "split axis " + std::to_string(a.axis) + " is out of range for rank " + std::to_string(x.size()));
  bool ok = axis >= 0 && !a.ratios.empty();
  sink.require(!a.ratios.empty(), "shape.split.ratio-nonpositive", "split needs at least one ratio");
  CDim total = 0;  // attribute arithmetic, saturating
  for (int64_t r : a.ratios) {
    sink.require(r >= 1, "shape.split.ratio-nonpositive", "split ratio " + std::to_string(r) + " is not positive");
    ok = ok && r >= 1;
    total = total + r;
  }
  if (!ok) return std::nullopt;
  const Dim extent = x[static_cast<size_t>(axis)];
  const Dim unit = floor_div(extent, total.v);
  sink.require(unit * total.v == extent, "shape.split.extent-indivisible",
               "split axis " + std::to_string(a.axis) + " has extent " + dim_str(extent) +
                   ", not a multiple of the ratios' sum " + std::to_string(total.v));
  ShapeOut<Dim> r;
  for (int64_t ratio : a.ratios) {
    Dims<Dim> part = x;
    part[static_cast<size_t>(axis)] = unit * ratio;
    r.outputs.push_back(part);
  }
  return r;
}

// The inverse of concat: for each index of the axes before `axis`, the outputs' blocks in turn.
template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<SplitAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  const Shape& in = op.inputs()[0];
  const auto axis = static_cast<size_t>(normalize_axis(op.attrs().axis, in.rank()));
  const int64_t outer = checked_element_count({in.dims().begin(), in.dims().begin() + axis});
  std::vector<Tensor<T>> ys;
  for (const Shape& s : op.outputs()) ys.emplace_back(s);
  int64_t at = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (Tensor<T>& y : ys) {
      const int64_t block = y.size() / outer;
      for (int64_t e = 0; e < block; ++e) y[o * block + e] = (*inputs[0])[at++];
    }
  }
  return ys;
}

// ---- slice ----
namespace layout_detail {
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
}  // namespace layout_detail

template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const SliceAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!layout_detail::arity_holds(a, inputs.size(), sink)) return std::nullopt;
  const Dims<Dim>& x = inputs[0];
  const bool lengths = a.begin.size() == a.axes.size() && a.end.size() == a.axes.size();
  sink.require(lengths, "shape.slice.attribute-length",
               "slice has " + std::to_string(a.axes.size()) + " axes but " + std::to_string(a.begin.size()) +
                   " begin and " + std::to_string(a.end.size()) + " end values");
  if (!lengths) return std::nullopt;
  const auto axes = layout_detail::distinct_axes(a.axes, x.size(), "slice", sink);
  if (!axes) return std::nullopt;
  Dims<Dim> out = x;
  for (size_t i = 0; i < axes->size(); ++i) {
    const size_t ax = (*axes)[i];
    const auto [b, e] = layout_detail::slice_range(a.begin[i], a.end[i], x[ax]);
    out[ax] = e - b;
    sink.require(out[ax] >= Dim(int64_t{1}), "shape.slice.empty",
                 "slice of axis " + std::to_string(ax) + " [" + std::to_string(a.begin[i]) + ", " +
                     std::to_string(a.end[i]) + ") on extent " + dim_str(x[ax]) + " keeps [" + dim_str(b) + ", " +
                     dim_str(e) + "), no element");
  }
  return ShapeOut<Dim>{{out}, {}};
}

// y[i] = x[i + begin], begin per axis as clamped by the shape rule (0 on unlisted axes).
template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<SliceAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  const Shape& in = op.inputs()[0];
  const SliceAttrs& a = op.attrs();
  std::vector<int64_t> begin(in.rank(), 0);
  for (size_t i = 0; i < a.axes.size(); ++i) {
    const auto ax = static_cast<size_t>(normalize_axis(a.axes[i], in.rank()));
    begin[ax] = layout_detail::slice_range(a.begin[i], a.end[i], CDim(in[ax])).first.v;
  }
  const auto strides = in.strides();
  return {layout_detail::gather(op.outputs()[0], *inputs[0], [&](const std::vector<int64_t>& i) {
    int64_t f = 0;
    for (size_t k = 0; k < i.size(); ++k) f += (i[k] + begin[k]) * strides[k];
    return f;
  })};
}

// ---- pad ----
template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const PadAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!layout_detail::arity_holds(a, inputs.size(), sink)) return std::nullopt;
  const Dims<Dim>& x = inputs[0];
  const bool length = a.padding.size() == x.size();
  sink.require(length, "shape.pad.attribute-length",
               "pad has " + std::to_string(a.padding.size()) + " (before, after) pairs for an input of rank " +
                   std::to_string(x.size()));
  if (!length) return std::nullopt;
  Dims<Dim> out;
  bool ok = true;
  for (size_t i = 0; i < x.size(); ++i) {
    const auto [before, after] = a.padding[i];
    const std::string pair = "(" + std::to_string(before) + ", " + std::to_string(after) + ")";
    const bool nonneg = before >= 0 && after >= 0;
    sink.require(nonneg, "shape.pad.padding-negative", "pad " + pair + " of axis " + std::to_string(i) + " is negative");
    ok = ok && nonneg;
    if (a.border == PadBorder::Reflect)
      sink.require(x[i] - int64_t{1} >= Dim(std::max(before, after)), "shape.pad.reflect-too-wide",
                   "reflect pad " + pair + " of axis " + std::to_string(i) + " exceeds its extent " + dim_str(x[i]) +
                       " minus 1");
    if (a.border == PadBorder::Replicate)
      sink.require(x[i] >= Dim(int64_t{1}), "shape.pad.replicate-empty",
                   "replicate pad of axis " + std::to_string(i) + " needs a non-empty axis, extent is " +
                       dim_str(x[i]));
    out.push_back(x[i] + (CDim(before) + after).v);
  }
  if (!ok) return std::nullopt;
  return ShapeOut<Dim>{{out}, {}};
}

namespace layout_detail {
// The input position an output position p − before reads on an axis of extent n, or -1 for the
// constant value.
inline int64_t pad_source(int64_t p, int64_t n, PadBorder border) {
  if (p >= 0 && p < n) return p;
  switch (border) {
    case PadBorder::Constant: return -1;
    case PadBorder::Reflect: return p < 0 ? -p : 2 * (n - 1) - p;
    case PadBorder::Replicate: return p < 0 ? 0 : n - 1;
  }
  return -1;
}
}  // namespace layout_detail

template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<PadAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  const Shape& in = op.inputs()[0];
  const Shape& out = op.outputs()[0];
  const PadAttrs& a = op.attrs();
  const auto strides = in.strides();
  const T value = from_double<T>(a.value);
  Tensor<T> y(out);
  std::vector<int64_t> idx;
  for (int64_t f = 0; f < y.size(); ++f) {
    layout_detail::unflatten(f, out.dims(), idx);
    int64_t src = 0;
    for (size_t k = 0; k < idx.size() && src >= 0; ++k) {
      const int64_t p = layout_detail::pad_source(idx[k] - a.padding[k].first, in[k], a.border);
      src = p < 0 ? -1 : src + p * strides[k];
    }
    y[f] = src < 0 ? value : (*inputs[0])[src];
  }
  return {y};
}

// ---- squeeze / unsqueeze ----
template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const SqueezeAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!layout_detail::arity_holds(a, inputs.size(), sink)) return std::nullopt;
  const Dims<Dim>& x = inputs[0];
  const auto axes = layout_detail::distinct_axes(a.axes, x.size(), "squeeze", sink);
  if (!axes) return std::nullopt;
  Dims<Dim> out;
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::find(axes->begin(), axes->end(), i) == axes->end()) {
      out.push_back(x[i]);
      continue;
    }
    sink.require(x[i] == Dim(int64_t{1}), "shape.squeeze.extent-not-one",
                 "squeeze axis " + std::to_string(i) + " has extent " + dim_str(x[i]) + ", not 1");
  }
  return ShapeOut<Dim>{{out}, {}};
}

template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<SqueezeAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  return {layout_detail::reinterpret(*inputs[0], op.outputs()[0])};
}

template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const UnsqueezeAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!layout_detail::arity_holds(a, inputs.size(), sink)) return std::nullopt;
  const Dims<Dim>& x = inputs[0];
  const size_t rank = x.size() + a.axes.size();
  const auto axes = layout_detail::distinct_axes(a.axes, rank, "unsqueeze", sink);
  if (!axes) return std::nullopt;
  Dims<Dim> out;
  auto next = x.begin();
  for (size_t i = 0; i < rank; ++i)
    out.push_back(std::find(axes->begin(), axes->end(), i) != axes->end() ? Dim(int64_t{1}) : *next++);
  return ShapeOut<Dim>{{out}, {}};
}

template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<UnsqueezeAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  return {layout_detail::reinterpret(*inputs[0], op.outputs()[0])};
}

}  // namespace nnref
