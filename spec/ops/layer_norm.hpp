// layer_normalization: each group of positions over the given axes normalised by its own statistics.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/layer_norm.hpp"
#include "spec/axis_groups.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"
#include "spec/rules/epsilon.hpp"

namespace nnref {

// With affine, scale and offset are shaped as the normalised axes' extents, in ascending axis order.
template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const LayerNormAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  require_epsilon(op_name(a), a.epsilon.value, sink);
  const Dims<Dim>& x = inputs[0];
  const auto axes = checked_axes(op_name(a), a.axes, x.size(), false, sink);
  if (!axes) return std::nullopt;
  ShapeOut<Dim> out{{x}, {}};
  if (a.affine) {
    Dims<Dim> p;
    for (size_t k : *axes) p.push_back(x[k]);
    out.params = {{"scale", p, true}, {"offset", p, true}};
  }
  return out;
}

// Over each group G of positions that differ only on the axes: μ = Σ_G x/|G|,
// σ² = Σ_G (x − μ)²/|G| (biased), y = (x − μ)/sqrt(σ² + ε), then ·scale[r] + offset[r] with affine
// (r the position within G). As batch_normalization, y is computed as the dot product
// offset[r] + x·a[r] + μ·(−a[r]) with a[r] = scale[r]/sqrt(σ² + ε) (scale 1 and offset 0 without affine).
template <Scalar T>
void evaluate(const Checked<LayerNormAttrs>& op, const OpIO<T>& io) {
  const Tensor<T>& x = io.in(0);
  const LayerNormAttrs& a = op.attrs();
  const Shape& shape = op.inputs()[0];
  const AxisSplit split = split_axes(shape, normalized_axes(a.axes, shape.rank()));
  const std::vector<int64_t>& outer = split.outer;
  const std::vector<int64_t>& inner = split.inner;
  const int64_t n = static_cast<int64_t>(inner.size());
  const T count = from_double<T>(static_cast<double>(n)), eps = real_value<T>(a.epsilon);
  const T zero = from_double<T>(0.0), one = from_double<T>(1.0);
  const Tensor<T>* scale = a.affine ? io.param(0) : nullptr;
  const Tensor<T>* offset = a.affine ? io.param(1) : nullptr;
  Tensor<T>& y = io.out(0);
  for (int64_t o : outer) {
    auto at = [&](int64_t r) { return o + inner[static_cast<size_t>(r)]; };
    const T mu = sum_of<T>(n, [&](int64_t r) { return x[at(r)]; }) / count;
    const T var = sum_of<T>(n, [&](int64_t r) { return sc::sqr(x[at(r)] - mu); }) / count;
    const T den = sc::sqrt(var + eps);
    for (int64_t r = 0; r < n; ++r) {
      const T ar = (scale ? (*scale)[r] : one) / den, minus_ar = -ar;
      y[at(r)] = dot_of<T>(
          2, [&](int64_t t) -> const T& { return t == 0 ? x[at(r)] : mu; },
          [&](int64_t t) -> const T& { return t == 0 ? ar : minus_ar; }, offset ? (*offset)[r] : zero);
    }
  }
}

}  // namespace nnref
