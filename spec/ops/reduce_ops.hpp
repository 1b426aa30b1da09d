// Reductions over axes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/ops/elementwise.hpp"

namespace nnref {

enum class ReduceOp { Sum, Mean, Max, Min };
// Reduced axes become extent 1 (keep_dims, as NNEF) or disappear.
struct ReduceAttrs {
  ReduceOp op = ReduceOp::Sum;
  std::vector<int64_t> axes;  // may count from the end; empty is an error, not "all"
  bool keep_dims = true;
};


// ---- Axis sets, shared with normalization.hpp ---------------------------------------------------

namespace detail {

// Requires that `axes` names at least one axis of a rank-`rank` input, each in range and none
// twice; returns them normalised and ascending, or nullopt when one of these fails.
template <class S>
std::optional<std::vector<int64_t>> checked_axes(const std::string& op, const std::vector<int64_t>& axes, size_t rank,
                                                 std::string_view no_axes_code, S& sink) {
  sink.require(!axes.empty(), no_axes_code, op + ": axes must name at least one axis");
  bool ok = !axes.empty();
  std::vector<int64_t> out;
  for (int64_t axis : axes) {
    int64_t k = normalize_axis(axis, rank);
    sink.require(k >= 0, "shape.axis.out-of-range",
                 op + ": axis " + std::to_string(axis) + " is out of range for an input of rank " +
                     std::to_string(rank) + " (valid: " + std::to_string(-static_cast<int64_t>(rank)) + " to " +
                     std::to_string(static_cast<int64_t>(rank) - 1) + ")");
    bool fresh = k >= 0 && std::find(out.begin(), out.end(), k) == out.end();
    sink.require(k < 0 || fresh, "shape.axis.duplicate",
                 op + ": axes " + dims_str(axes) + " name axis " + std::to_string(k) + " more than once");
    ok = ok && fresh;
    if (fresh) out.push_back(k);
  }
  if (!ok) return std::nullopt;
  std::sort(out.begin(), out.end());
  return out;
}

// mask[i]: axis i is among `axes` (already validated by the shape rule).
inline std::vector<bool> axis_mask(const std::vector<int64_t>& axes, size_t rank) {
  std::vector<bool> mask(rank, false);
  for (int64_t axis : axes) mask[static_cast<size_t>(normalize_axis(axis, rank))] = true;
  return mask;
}

// The flat indices of a tensor split by a set of axes: element (k, r) is at outer[k] + inner[r],
// where k runs row-major over the other axes (the order of the reduced output) and r row-major
// over the masked axes (the order of a parameter shaped like them). Costs one int64 per element.
struct AxisSplit {
  std::vector<int64_t> outer, inner;
};

inline std::vector<int64_t> offsets_over(const Shape& shape, const std::vector<bool>& mask, bool picked) {
  std::vector<int64_t> strides = shape.strides(), offsets{0};
  for (size_t i = 0; i < shape.rank(); ++i) {
    if (mask[i] != picked) continue;
    std::vector<int64_t> next;
    next.reserve(offsets.size() * static_cast<size_t>(shape[i]));
    for (int64_t o : offsets)
      for (int64_t j = 0; j < shape[i]; ++j) next.push_back(o + j * strides[i]);
    offsets = std::move(next);
  }
  return offsets;
}

inline AxisSplit split_axes(const Shape& shape, const std::vector<bool>& mask) {
  return {offsets_over(shape, mask, false), offsets_over(shape, mask, true)};
}

// f(…f(f(at(0), at(1)), at(2))…, at(n−1)) for n ≥ 1 (the shape rules guarantee a non-empty group).
template <class T, class At, class F>
T fold(int64_t n, At&& at, F&& f) {
  T v = at(0);
  for (int64_t r = 1; r < n; ++r) v = f(v, at(r));
  return v;
}

}  // namespace detail

// ---- sum_reduce, mean_reduce, max_reduce, min_reduce ------------------------------------------

inline std::string op_name(const ReduceAttrs& a) {
  switch (a.op) {
    case ReduceOp::Sum: return "sum_reduce";
    case ReduceOp::Mean: return "mean_reduce";
    case ReduceOp::Max: return "max_reduce";
    case ReduceOp::Min: return "min_reduce";
  }
  return "reduce";
}
inline Arity arity(const ReduceAttrs&) { return {1, 1}; }

template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const ReduceAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!detail::require_arity(a, inputs.size(), sink)) return std::nullopt;
  const Dims<Dim>& x = inputs[0];
  auto axes = detail::checked_axes(op_name(a), a.axes, x.size(), "shape.reduce.no-axes", sink);
  if (!axes) return std::nullopt;
  Dims<Dim> out;
  for (size_t i = 0; i < x.size(); ++i) {
    bool reduced = std::find(axes->begin(), axes->end(), static_cast<int64_t>(i)) != axes->end();
    if (!reduced) {
      out.push_back(x[i]);
      continue;
    }
    // A mean, max or min of no elements has no value.
    if (a.op != ReduceOp::Sum)
      sink.require(x[i] >= int64_t{1}, "shape.reduce.empty-axis",
                   op_name(a) + ": reduced axis " + std::to_string(i) + " of input " + dims_str(x) +
                       " must have extent at least 1, got " + dim_str(x[i]));
    if (a.keep_dims) out.push_back(Dim(int64_t{1}));
  }
  return ShapeOut<Dim>{{std::move(out)}, {}};
}

// Over the group G of reduced positions: sum Σ_G x, mean Σ_G x / |G|, max and min.
template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<ReduceAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  const Tensor<T>& x = *inputs[0];
  const ReduceAttrs& a = op.attrs();
  // Named members rather than a structured binding: clang 14 cannot capture bindings in lambdas.
  const detail::AxisSplit split = detail::split_axes(x.shape(), detail::axis_mask(a.axes, x.shape().rank()));
  const std::vector<int64_t>& outer = split.outer;
  const std::vector<int64_t>& inner = split.inner;
  const int64_t n = static_cast<int64_t>(inner.size());
  Tensor<T> y(op.outputs()[0]);
  for (size_t k = 0; k < outer.size(); ++k) {
    auto at = [&, o = outer[k]](int64_t r) { return x[o + inner[static_cast<size_t>(r)]]; };
    T& v = y[static_cast<int64_t>(k)];
    switch (a.op) {
      case ReduceOp::Sum: v = sum_of<T>(n, at); break;
      case ReduceOp::Mean: v = sum_of<T>(n, at) / from_double<T>(static_cast<double>(n)); break;
      case ReduceOp::Max: v = detail::fold<T>(n, at, sc::max<T>); break;
      case ReduceOp::Min: v = detail::fold<T>(n, at, sc::min<T>); break;
    }
  }
  return {std::move(y)};
}

}  // namespace nnref
