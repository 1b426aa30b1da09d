// batch_normalization (inference): each channel normalised by its given mean and variance.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/batch_norm.hpp"
#include "spec/index.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"
#include "spec/rules/epsilon.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const BatchNormAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  require_epsilon(op_name(a), a.epsilon.value, sink);
  const Dims<Dim>& x = inputs[0];
  const auto axis = checked_axis(op_name(a), "channel axis", a.channel_axis, x.size(), sink);
  if (!axis) return std::nullopt;
  Dims<Dim> c{x[*axis]};
  return ShapeOut<Dim>{{x}, {{"mean", c, true}, {"variance", c, true}, {"scale", c, true}, {"offset", c, true}}};
}

// y = offset[c] + scale[c]·(x − mean[c])/sqrt(variance[c] + ε), c the channel of x (NNEF §4.9),
// computed as the dot product offset[c] + x·a[c] + mean[c]·(−a[c]) with a[c] = scale[c]/sqrt(variance[c] + ε):
// the same value, written so that the envelope bounds the rounding of every order of those three
// terms, including a runtime that folds a[c] and offset[c] − mean[c]·a[c] before it reads x.
template <Scalar T>
void evaluate(const Checked<BatchNormAttrs>& op, const OpIO<T>& io) {
  const Tensor<T>& x = io.in(0);
  const Tensor<T>&mean = *io.param(0), &variance = *io.param(1), &scale = *io.param(2), &offset = *io.param(3);
  const Shape& shape = op.inputs()[0];
  const size_t axis = static_cast<size_t>(normalize_axis(op.attrs().channel_axis, shape.rank()));
  const int64_t outer = product(shape.dims(), 0, axis), channels = shape[axis], inner = shape.strides()[axis];
  const T eps = real_value<T>(op.attrs().epsilon);
  std::vector<T> a, minus_a;
  for (int64_t c = 0; c < channels; ++c) {
    a.push_back(scale[c] / sc::sqrt(variance[c] + eps));
    minus_a.push_back(-a.back());
  }
  Tensor<T>& y = io.out(0);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t i = (o * channels + c) * inner, end = i + inner; i < end; ++i)
        y[i] = dot_of<T>(
            2, [&](int64_t t) -> const T& { return t == 0 ? x[i] : mean[c]; },
            [&](int64_t t) -> const T& { return t == 0 ? a[c] : minus_a[c]; }, offset[c]);
}

}  // namespace nnref
