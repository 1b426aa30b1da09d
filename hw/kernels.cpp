#include "hw/kernels.hpp"

#include <cmath>

#include "spec/axis_groups.hpp"
#include "spec/index.hpp"
#include "spec/matmul_batches.hpp"
#include "spec/ops/op_list.hpp"
#include "spec/rules/window.hpp"

namespace nnref::hw {

namespace {

// The MAC array: [m, k]·[k, n] in tiles of R×C outputs; every output starts from init(j) and adds
// its k products in increasing order, one fused multiply-add (one rounding) per product.
template <class A, class B, class Init, class Out>
void tiled_product(int64_t m, int64_t n, int64_t k, A&& a, B&& b, Init&& init, Out&& out, const Config& c) {
  for (int64_t i0 = 0; i0 < m; i0 += c.mac_rows)
    for (int64_t j0 = 0; j0 < n; j0 += c.mac_cols)
      for (int64_t i = i0; i < std::min(m, i0 + c.mac_rows); ++i)
        for (int64_t j = j0; j < std::min(n, j0 + c.mac_cols); ++j) {
          float acc = init(j);
          for (int64_t l = 0; l < k; ++l) acc = std::fma(a(i, l), b(l, j), acc);
          out(i, j) = acc;
        }
}

void linear(const Checked<LinearAttrs>& op, const OpIO<float>& io, const Config& c) {
  const Tensor<float>&x = io.in(0), &w = *io.param(0);
  const Tensor<float>* bias = op.attrs().has_bias ? io.param(1) : nullptr;
  const int64_t rows = op.inputs()[0][0], in = op.inputs()[0][1], units = op.attrs().units;
  const bool in_out = op.attrs().layout == WeightLayout::InOut;
  Tensor<float>& y = io.out(0);
  tiled_product(
      rows, units, in, [&](int64_t r, int64_t i) { return x[r * in + i]; },
      [&](int64_t i, int64_t u) { return in_out ? w[i * units + u] : w[u * in + i]; },
      [&](int64_t u) { return bias ? (*bias)[u] : 0.0f; }, [&](int64_t r, int64_t u) -> float& { return y[r * units + u]; },
      c);
}

void matmul(const Checked<MatMulAttrs>& op, const OpIO<float>& io, const Config& c) {
  const Tensor<float>&A = io.in(0), &B = io.in(1);
  const Shape &out = op.outputs()[0], &sa = op.inputs()[0], &sb = op.inputs()[1];
  const size_t r = out.rank();
  const int64_t m = out[r - 2], n = out[r - 1], ra = sa[r - 2], ca = sa[r - 1], rb = sb[r - 2], cb = sb[r - 1];
  const bool ta = op.attrs().transpose_a, tb = op.attrs().transpose_b;
  const int64_t k = ta ? ra : ca;
  Tensor<float>& C = io.out(0);
  const MatMulBatches batches = matmul_batches(sa, sb, out);
  for (int64_t b = 0; b < static_cast<int64_t>(batches.a.size()); ++b) {
    const int64_t a0 = batches.a[b] * ra * ca, b0 = batches.b[b] * rb * cb, c0 = b * m * n;
    tiled_product(
        m, n, k, [&](int64_t i, int64_t l) { return A[a0 + (ta ? l * ca + i : i * ca + l)]; },
        [&](int64_t l, int64_t j) { return B[b0 + (tb ? j * cb + l : l * cb + j)]; }, [](int64_t) { return 0.0f; },
        [&](int64_t i, int64_t j) -> float& { return C[c0 + i * n + j]; }, c);
  }
}

// Per group the product [positions, K]·[K, out/groups], K running over the input channels of the
// group, then the window's positions row-major; the positions in the padding are masked (left
// out), as the spec's formula leaves them out. Tiling positions × output channels does not change
// any output's sum, so the loop runs position by position.
void conv(const Checked<ConvAttrs>& op, const OpIO<float>& io, const Config&) {
  const ConvAttrs& a = op.attrs();
  const Tensor<float>&x = io.in(0), &w = *io.param(0);
  const Tensor<float>* bias = a.has_bias ? io.param(1) : nullptr;
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const window::Plan plan = window::plan(a, in);
  const auto xs = in.strides(), ys = out.strides(), ws = op.params()[0].shape.strides();
  const int64_t xc = xs[plan.channel], yc = ys[plan.channel];
  const int64_t per_group = op.params()[0].shape[1], out_per_group = a.out_channels / a.groups;
  Tensor<float>& y = io.out(0);
  window::Offsets win;
  window::for_each_position(plan, out, [&](const std::vector<int64_t>& o, int64_t yo) {
    window::offsets_at(plan, o, win);
    for (int64_t n = 0; n < in[0]; ++n)
      for (int64_t m = 0; m < a.out_channels; ++m) {
        const int64_t x0 = n * xs[0] + m / out_per_group * per_group * xc, w0 = m * ws[0];
        float acc = bias ? (*bias)[m] : 0.0f;
        for (int64_t ch = 0; ch < per_group; ++ch)
          for (int64_t t = 0; t < win.size(); ++t)
            acc = std::fma(x[x0 + ch * xc + win.input[t]], w[w0 + ch * ws[1] + win.kernel[t]], acc);
        y[n * ys[0] + m * yc + yo] = acc;
      }
  });
}

void reduce(const Checked<ReduceAttrs>& op, const OpIO<float>& io, const Config& c) {
  const ReduceAttrs& a = op.attrs();
  // max, min: exact in any order; prod: the spec's formula, its factors in increasing position
  if (a.op != ReduceOp::Sum && a.op != ReduceOp::Mean) return run_kernel(op, io);
  const Tensor<float>& x = io.in(0);
  const AxisSplit split = split_axes(op.inputs()[0], normalized_axes(a.axes, op.inputs()[0].rank()));
  const auto n = static_cast<int64_t>(split.inner.size());
  Tensor<float>& y = io.out(0);
  for (size_t k = 0; k < split.outer.size(); ++k) {
    const float s = lane_sum(n, [&, o = split.outer[k]](int64_t r) { return x[o + split.inner[static_cast<size_t>(r)]]; },
                             c.vector_lanes);
    y[static_cast<int64_t>(k)] = a.op == ReduceOp::Mean ? s / static_cast<float>(n) : s;
  }
}

// Per group: the maximum m (exact), e = exp(x − m) on the SFU, their lane sum s, then e / s
// (log_softmax: (x − m) − log s).
void softmax(const Checked<SoftmaxAttrs>& op, const OpIO<float>& io, const Config& c) {
  const Tensor<float>& x = io.in(0);
  Tensor<float>& y = io.out(0);
  const Shape& shape = op.inputs()[0];
  const AxisSplit split = split_axes(shape, normalized_axes(op.attrs().axes, AxisDomain(shape.dims(), op.attrs().batch_axes)));
  const auto n = static_cast<int64_t>(split.inner.size());
  for (int64_t o : split.outer) {
    auto at = [&](int64_t r) { return o + split.inner[static_cast<size_t>(r)]; };
    const float m = fold<float>(n, [&](int64_t r) { return x[at(r)]; }, sc::max<float>);
    for (int64_t r = 0; r < n; ++r) y[at(r)] = sc::exp(x[at(r)] - m);
    const float total = lane_sum(n, [&](int64_t r) { return y[at(r)]; }, c.vector_lanes);
    if (op.attrs().log) {
      const float log_total = sc::log(total);
      for (int64_t r = 0; r < n; ++r) y[at(r)] = (x[at(r)] - m) - log_total;
    } else {
      for (int64_t r = 0; r < n; ++r) y[at(r)] = y[at(r)] / total;
    }
  }
}

// Per group: μ = (lane sum of x) / n, σ² = (lane sum of (x − μ)²) / n, d = sqrt(σ² + ε), a = scale / d,
// y = fma(−μ, a, fma(x, a, offset)).
void layer_norm(const Checked<LayerNormAttrs>& op, const OpIO<float>& io, const Config& c) {
  const Tensor<float>& x = io.in(0);
  const LayerNormAttrs& a = op.attrs();
  const AxisSplit split = split_axes(op.inputs()[0], normalized_axes(a.axes, op.inputs()[0].rank()));
  const auto n = static_cast<int64_t>(split.inner.size());
  const auto count = static_cast<float>(n);
  const float eps = real_value<float>(a.epsilon);
  const Tensor<float>* scale = a.affine ? io.param(0) : nullptr;
  const Tensor<float>* offset = a.affine ? io.param(1) : nullptr;
  Tensor<float>& y = io.out(0);
  for (int64_t o : split.outer) {
    auto at = [&](int64_t r) { return o + split.inner[static_cast<size_t>(r)]; };
    const float mu = lane_sum(n, [&](int64_t r) { return x[at(r)]; }, c.vector_lanes) / count;
    const float var = lane_sum(n, [&](int64_t r) { return sc::sqr(x[at(r)] - mu); }, c.vector_lanes) / count;
    const float den = std::sqrt(var + eps);
    for (int64_t r = 0; r < n; ++r) {
      const float ar = (scale ? (*scale)[r] : 1.0f) / den;
      y[at(r)] = std::fma(-mu, ar, std::fma(x[at(r)], ar, offset ? (*offset)[r] : 0.0f));
    }
  }
}

// Average and sum pooling: the lane sum of the window's terms (row-major, in-bounds), an average's
// divided by the count the border mode says. Max pooling is exact in any order: the spec's formula.
void pool(const Checked<PoolAttrs>& op, const OpIO<float>& io, const Config& c) {
  const PoolAttrs& a = op.attrs();
  if (a.op == PoolOp::Max) return run_kernel(op, io);
  const Tensor<float>& x = io.in(0);
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const window::Plan plan = window::plan(a, in);
  const auto xs = in.strides(), ys = out.strides();
  const int64_t channels = in[plan.channel], xc = xs[plan.channel], yc = ys[plan.channel];
  const bool ignore = a.border == PoolBorder::Ignore;
  Tensor<float>& y = io.out(0);
  window::Offsets win;
  window::for_each_position(plan, out, [&](const std::vector<int64_t>& o, int64_t yo) {
    window::offsets_at(plan, o, win);
    const auto divisor = static_cast<float>(ignore ? win.size() : plan.volume);
    for (int64_t n = 0; n < in[0]; ++n)
      for (int64_t ch = 0; ch < channels; ++ch) {
        const int64_t x0 = n * xs[0] + ch * xc;
        const float s = lane_sum(win.size(), [&](int64_t t) { return x[x0 + win.input[t]]; }, c.vector_lanes);
        y[n * ys[0] + ch * yc + yo] = win.size() == 0 ? 0.0f : a.op == PoolOp::Sum ? s : s / divisor;
      }
  });
}

}  // namespace

void compute(const CheckedOp& op, const OpIO<float>& io, const Config& c) {
  std::visit(
      [&](const auto& o) {
        using A = std::decay_t<decltype(o.attrs())>;
        if constexpr (std::is_same_v<A, LinearAttrs>) linear(o, io, c);
        else if constexpr (std::is_same_v<A, MatMulAttrs>) matmul(o, io, c);
        else if constexpr (std::is_same_v<A, ConvAttrs>) conv(o, io, c);
        else if constexpr (std::is_same_v<A, ReduceAttrs>) {
          // Integers (ONNX's ReduceSum of a Shape): the spec's formula, wrap-around included.
          if (o.attrs().kind == ElemKind::Integer) run_kernel(o, io);
          else reduce(o, io, c);
        }
        else if constexpr (std::is_same_v<A, SoftmaxAttrs>) softmax(o, io, c);
        else if constexpr (std::is_same_v<A, LayerNormAttrs>) layer_norm(o, io, c);
        else if constexpr (std::is_same_v<A, PoolAttrs>) pool(o, io, c);
        // An element-wise map, data movement or deconv: the spec's formula in float (deconv's terms
        // in the order of its formula, docs/hw-model.md).
        else run_kernel(o, io);
      },
      op);
}

}  // namespace nnref::hw
