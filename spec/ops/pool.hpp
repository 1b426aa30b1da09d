// max_pool, avg_pool, sum_pool: pooling over spatial axes (window geometry: spec/rules/window.hpp).
// sum_pool is NNEF 1.0's box with normalize = false (§4.3.2); NNEF's windows over every axis are
// these pools over [1, 1, x...] (formats/nnef/lower_ops.cpp, docs/ops/pool.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/index.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/window.hpp"

namespace nnref {

enum class PoolOp { Max, Avg, Sum };
// Ignore: padded positions take no part (max over the real elements; average divides by the
// number of real elements). Constant: padded positions are 0 and count (average divides by the
// window size). NNL pools have no padding, so both agree there. A sum reads the same either way.
enum class PoolBorder { Ignore, Constant };

// Input [N, C, s...] or [N, s..., C]; output keeps N and C. Same extent formula and padding modes
// as ConvAttrs. No parameters.
struct PoolAttrs {
  PoolOp op = PoolOp::Max;
  std::vector<int64_t> kernel;    // spatial window; its size is the spatial rank (≥ 1)
  std::vector<int64_t> stride;    // empty: all 1 (front-ends fill their own defaults)
  std::vector<int64_t> dilation;  // empty: all 1
  std::vector<std::pair<int64_t, int64_t>> padding;
  PadMode pad_mode = PadMode::Explicit;
  PoolBorder border = PoolBorder::Ignore;
  Layout layout = Layout::ChannelsFirst;
};

// Every pool obligation is a window obligation (spec/rules/window.hpp).
template <>
struct OpInfo<PoolAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
  static std::vector<PoolAttrs> prototypes() {
    PoolAttrs max, avg, sum;
    avg.op = PoolOp::Avg;
    sum.op = PoolOp::Sum;
    return {max, avg, sum};
  }
};

inline std::string op_name(const PoolAttrs& a) {
  return a.op == PoolOp::Max ? "max_pool" : a.op == PoolOp::Avg ? "avg_pool" : "sum_pool";
}
inline Arity arity(const PoolAttrs&) { return {1, 1}; }

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
