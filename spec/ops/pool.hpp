// max_pool, avg_pool, sum_pool: pooling over spatial axes (window geometry: spec/rules/window.hpp).
// sum_pool is NNEF 1.0's box with normalize = false (§4.3.2); NNEF's windows over every axis are
// these pools over [1, 1, x...] (formats/nnef/lower_ops.cpp, docs/ops/pool.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/attrs/pool.hpp"
#include "spec/index.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/window.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const PoolAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const auto spatial = window::spatial_rule(op_name(a), a, x, sink);
  if (!spatial) return std::nullopt;
  const Dim c = x[window::channel_axis(a.layout, x.size())];
  return ShapeOut<Dim>{{window::with_channels(a.layout, x[0], c, *spatial)}, {}};
}

// Over the window W at output position o (positions o·s + j·d − pad_before), R ⊆ W the positions
// inside the input:
//   max, Ignore:   max_{p∈R} x[p]          max, Constant: max(max_{p∈R} x[p], 0 if R ≠ W)
//   avg, Ignore:   Σ_{p∈R} x[p] / |R|      avg, Constant: Σ_{p∈R} x[p] / |W|
//   sum, either:   Σ_{p∈R} x[p]            (padded zeros add nothing)
// A window with R empty (only possible with padding) gives 0. Per output position o, R is built
// once as offsets (spec/rules/window.hpp), shared by every n and c.
template <Scalar T>
void evaluate(const Checked<PoolAttrs>& op, const OpIO<T>& io) {
  const PoolAttrs& a = op.attrs();
  const Tensor<T>& x = io.in(0);
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const window::Plan plan = window::plan(a, in);
  const auto xs = in.strides(), ys = out.strides();
  const int64_t channels = in[plan.channel], xc = xs[plan.channel], yc = ys[plan.channel];
  const bool ignore = a.border == PoolBorder::Ignore;
  Tensor<T>& y = io.out(0);
  window::Offsets win;
  window::for_each_position(plan, out, [&](const std::vector<int64_t>& o, int64_t yo) {
    window::offsets_at(plan, o, win);
    const int64_t size = win.size();
    const bool padded = !ignore && size < plan.volume;
    const T divisor = from_double<T>(static_cast<double>(ignore ? size : plan.volume));
    for (int64_t n = 0; n < in[0]; ++n)
      for (int64_t c = 0; c < channels; ++c) {
        const int64_t x0 = n * xs[0] + c * xc;
        const auto x_at = [&](int64_t t) -> const T& { return x[x0 + win.input[t]]; };
        T& result = y[n * ys[0] + c * yc + yo];
        if (size == 0) {
          result = T(0);
        } else if (a.op == PoolOp::Avg) {
          result = sum_of<T>(size, x_at) / divisor;
        } else if (a.op == PoolOp::Sum) {
          result = sum_of<T>(size, x_at);
        } else {
          T m = x_at(0);
          for (int64_t t = 1; t < size; ++t) m = sc::max(m, x_at(t));
          result = padded ? sc::max(m, T(0)) : m;
        }
      }
  });
}

}  // namespace nnref
