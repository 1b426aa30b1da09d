// Normalisations: batch norm (inference), layer norm, softmax.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/ops/elementwise.hpp"
#include "spec/ops/reduce_ops.hpp"

namespace nnref {

// y = scale·(x − mean)/sqrt(variance + epsilon) + offset, per channel along channel_axis.
// Params mean, variance, scale, offset: each [C] where C is the extent of channel_axis.
struct BatchNormAttrs {
  double epsilon = 1e-5;
  int64_t channel_axis = 1;  // may count from the end (-1: last)
};

// y = (x − μ)/sqrt(σ² + epsilon) over `axes` (μ, σ² the mean and biased variance over them);
// with affine, then ·scale + offset, both shaped like the normalised axes.
struct LayerNormAttrs {
  std::vector<int64_t> axes;  // may count from the end
  double epsilon = 1e-5;
  bool affine = false;
};

// y = exp(x − max)/Σ exp(x − max) over `axes` (the max subtracted for range, not meaning).
struct SoftmaxAttrs {
  std::vector<int64_t> axes;  // may count from the end
};


namespace detail {

template <class S>
void require_epsilon(const std::string& op, double epsilon, S& sink) {
  sink.require(std::isfinite(epsilon) && epsilon >= 0, "attr." + op + ".epsilon",
               op + ": epsilon must be a finite number ≥ 0, got " + std::to_string(epsilon));
}

}  // namespace detail

// ---- batch_normalization ------------------------------------------------------------------------

inline std::string op_name(const BatchNormAttrs&) { return "batch_normalization"; }
inline Arity arity(const BatchNormAttrs&) { return {1, 1}; }

template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const BatchNormAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!detail::require_arity(a, inputs.size(), sink)) return std::nullopt;
  detail::require_epsilon(op_name(a), a.epsilon, sink);
  const Dims<Dim>& x = inputs[0];
  int64_t axis = normalize_axis(a.channel_axis, x.size());
  sink.require(axis >= 0, "shape.axis.out-of-range",
               "batch_normalization: channel axis " + std::to_string(a.channel_axis) +
                   " is out of range for an input of shape " + dims_str(x));
  if (axis < 0) return std::nullopt;
  Dims<Dim> c{x[static_cast<size_t>(axis)]};
  return ShapeOut<Dim>{{x}, {{"mean", c, true}, {"variance", c, true}, {"scale", c, true}, {"offset", c, true}}};
}

// y = offset[c] + scale[c]·(x − mean[c])/sqrt(variance[c] + ε), c the channel of x (NNEF §4.9).
template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<BatchNormAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>& params) {
  const Tensor<T>& x = *inputs[0];
  const Tensor<T>&mean = *params[0], &variance = *params[1], &scale = *params[2], &offset = *params[3];
  const Shape& shape = x.shape();
  const size_t axis = static_cast<size_t>(normalize_axis(op.attrs().channel_axis, shape.rank()));
  const int64_t stride = shape.strides()[axis], channels = shape[axis];
  const T eps = from_double<T>(op.attrs().epsilon);
  Tensor<T> y(op.outputs()[0]);
  for (int64_t i = 0; i < y.size(); ++i) {
    int64_t c = i / stride % channels;
    y[i] = offset[c] + scale[c] * (x[i] - mean[c]) / sc::sqrt(variance[c] + eps);
  }
  return {std::move(y)};
}

// ---- layer_normalization ------------------------------------------------------------------------

inline std::string op_name(const LayerNormAttrs&) { return "layer_normalization"; }
inline Arity arity(const LayerNormAttrs&) { return {1, 1}; }

// With affine, scale and offset are shaped as the normalised axes' extents, in ascending axis order.
template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const LayerNormAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!detail::require_arity(a, inputs.size(), sink)) return std::nullopt;
  detail::require_epsilon(op_name(a), a.epsilon, sink);
  const Dims<Dim>& x = inputs[0];
  auto axes = detail::checked_axes(op_name(a), a.axes, x.size(), "shape.layer_normalization.no-axes", sink);
  if (!axes) return std::nullopt;
  ShapeOut<Dim> out{{x}, {}};
  if (a.affine) {
    Dims<Dim> p;
    for (int64_t k : *axes) p.push_back(x[static_cast<size_t>(k)]);
    out.params = {{"scale", p, true}, {"offset", p, true}};
  }
  return out;
}

// Over each group G of positions that differ only on the axes: μ = Σ_G x/|G|,
// σ² = Σ_G (x − μ)²/|G| (biased), y = (x − μ)/sqrt(σ² + ε), then ·scale[r] + offset[r] with affine
// (r the position within G).
template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<LayerNormAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>& params) {
  const Tensor<T>& x = *inputs[0];
  const LayerNormAttrs& a = op.attrs();
  const detail::AxisSplit split = detail::split_axes(x.shape(), detail::axis_mask(a.axes, x.shape().rank()));
  const std::vector<int64_t>& outer = split.outer;
  const std::vector<int64_t>& inner = split.inner;
  const int64_t n = static_cast<int64_t>(inner.size());
  const T count = from_double<T>(static_cast<double>(n)), eps = from_double<T>(a.epsilon);
  Tensor<T> y(op.outputs()[0]);
  for (int64_t o : outer) {
    auto at = [&](int64_t r) { return o + inner[static_cast<size_t>(r)]; };
    T mu = sum_of<T>(n, [&](int64_t r) { return x[at(r)]; }) / count;
    T var = sum_of<T>(n, [&](int64_t r) { return (x[at(r)] - mu) * (x[at(r)] - mu); }) / count;
    T den = sc::sqrt(var + eps);
    for (int64_t r = 0; r < n; ++r) {
      T v = (x[at(r)] - mu) / den;
      y[at(r)] = a.affine ? v * (*params[0])[r] + (*params[1])[r] : v;
    }
  }
  return {std::move(y)};
}

// ---- softmax ------------------------------------------------------------------------------------

inline std::string op_name(const SoftmaxAttrs&) { return "softmax"; }
inline Arity arity(const SoftmaxAttrs&) { return {1, 1}; }

template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const SoftmaxAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!detail::require_arity(a, inputs.size(), sink)) return std::nullopt;
  const Dims<Dim>& x = inputs[0];
  if (!detail::checked_axes(op_name(a), a.axes, x.size(), "shape.softmax.no-axes", sink)) return std::nullopt;
  return ShapeOut<Dim>{{x}, {}};
}

// Over each group G of positions that differ only on the axes: m = max_G x, e = exp(x − m),
// y = e/Σ_G e. Subtracting m changes nothing in exact arithmetic; it keeps exp in range.
template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<SoftmaxAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  const Tensor<T>& x = *inputs[0];
  Tensor<T> y(op.outputs()[0]);
  if (x.size() == 0) return {std::move(y)};  // no group to read
  const detail::AxisSplit split = detail::split_axes(x.shape(), detail::axis_mask(op.attrs().axes, x.shape().rank()));
  const std::vector<int64_t>& outer = split.outer;
  const std::vector<int64_t>& inner = split.inner;
  const int64_t n = static_cast<int64_t>(inner.size());
  for (int64_t o : outer) {
    auto at = [&](int64_t r) { return o + inner[static_cast<size_t>(r)]; };
    T m = detail::fold<T>(n, [&](int64_t r) { return x[at(r)]; }, sc::max<T>);
    for (int64_t r = 0; r < n; ++r) y[at(r)] = sc::exp(x[at(r)] - m);
    T total = sum_of<T>(n, [&](int64_t r) { return y[at(r)]; });
    for (int64_t r = 0; r < n; ++r) y[at(r)] = y[at(r)] / total;
  }
  return {std::move(y)};
}

}  // namespace nnref
