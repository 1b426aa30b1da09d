// The convolution's kernel, compiled once per Highway target and chosen at run time by dynamic
// dispatch: an implicit GEMM over fastpath/product-inl.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fastpath/conv.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <vector>

#include "fastpath/conv.hpp"
#include "fastpath/product-inl.h"
#include "fastpath/threads.hpp"
#include "fastpath/vectors-inl.h"

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {

// Implicit GEMM: B's rows are the weights in (ky, kx, channel) order, and A's row for output
// position i in the block of kernel position (ky, kx) is the input pixel that position reads
// (its channels are contiguous, NHWC), or zeros in the padding. No im2col copy.
void Conv2D(const float* x, const ConvGeometry& g, const PackedView& w, int64_t row_begin, int64_t row_end, float* y) {
  const PositionBlocks blocks{g.kernel_h * g.kernel_w, g.channels};
  HWY_ALIGN static const float zeros[kDepth] = {};
  const auto row_of = [&](int64_t i, const KBlock& block) -> const float* {
    const int64_t position = block.k0 / g.channels, c0 = block.k0 % g.channels;
    const int64_t iy = g.row(i / g.out_w, position / g.kernel_w), ix = g.column(i % g.out_w, position % g.kernel_w);
    if (!g.inside(iy, ix)) return zeros;
    return x + (iy * g.width + ix) * g.channels + c0;
  };
  Product(row_begin, row_end, w.n, w, blocks.count(), blocks, row_of, y);
}

void ConvWindows(const float* x, int64_t first_channel, int64_t per_group, const WindowTable& t,
                 const PackedView& w, int64_t row_begin, int64_t row_end, float* y) {
  const PositionBlocks blocks{t.volume, per_group};
  HWY_ALIGN static const float zeros[kDepth] = {};
  const auto row_of = [&](int64_t p, const KBlock& block) -> const float* {
    const int64_t offset = t.row(p)[block.k0 / per_group];
    return offset < 0 ? zeros : x + offset + first_channel + block.k0 % per_group;
  };
  Product(row_begin, row_end, w.n, w, blocks.count(), blocks, row_of, y);
}

// Depthwise: y[p, c] = epilogue(bias[c] + Σ_j x[row(p)[j] + c]·w[j, c]) over the in-bounds
// kernel positions j, a vector of channels at a time (the last through a zero-padded copy).
void DepthwiseWindows(const float* x, int64_t channels, const WindowTable& t, const DepthwiseWeights& w,
                      int64_t row_begin, int64_t row_end, float* y) {
  const hn::ScalableTag<float> d;
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  HWY_ALIGN float tail[HWY_MAX_BYTES / sizeof(float)] = {};
  for (int64_t p = row_begin; p < row_end; ++p)
    for (int64_t c = 0; c < channels; c += lanes) {
      const int64_t count = std::min(lanes, channels - c);
      auto acc = hn::LoadU(d, w.bias.get() + c);
      for (int64_t j = 0; j < t.volume; ++j) {
        const int64_t offset = t.row(p)[j];
        if (offset < 0) continue;  // in the padding: no term
        const float* from = x + offset + c;
        if (count < lanes) {
          std::copy_n(from, count, tail);
          from = tail;
        }
        acc = hn::MulAdd(hn::LoadU(d, from), hn::LoadU(d, w.data.get() + j * w.stride + c), acc);
      }
      if (w.scale) acc = hn::MulAdd(acc, hn::LoadU(d, w.scale.get() + c), hn::LoadU(d, w.shift.get() + c));
      if (w.relu) acc = hn::IfThenElse(hn::Lt(acc, hn::Zero(d)), hn::Zero(d), acc);
      StoreFirst(d, acc, count, y + p * channels + c);
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nnref::fastpath {

HWY_EXPORT(Conv2D);
HWY_EXPORT(ConvWindows);
HWY_EXPORT(DepthwiseWindows);

PackedMatrix pack_conv_weights(const float* w, const float* bias, const ConvGeometry& g, int64_t out_channels,
                               const Epilogue& epilogue) {
  const int64_t k = g.kernel_h * g.kernel_w * g.channels;
  std::vector<float> rows(static_cast<size_t>(k * out_channels));  // [(ky, kx, c), f]
  for (int64_t f = 0; f < out_channels; ++f)
    for (int64_t c = 0; c < g.channels; ++c)
      for (int64_t ky = 0; ky < g.kernel_h; ++ky)
        for (int64_t kx = 0; kx < g.kernel_w; ++kx)
          rows[static_cast<size_t>(((ky * g.kernel_w + kx) * g.channels + c) * out_channels + f)] =
              w[((f * g.channels + c) * g.kernel_h + ky) * g.kernel_w + kx];
  return pack_b(rows.data(), bias, k, out_channels, epilogue);
}

void conv2d(const float* x, const ConvGeometry& g, const PackedMatrix& w, float* y, ThreadPool* pool) {
  const PackedView view = w.view();
  const auto rows = [&](int64_t begin, int64_t end) { HWY_DYNAMIC_DISPATCH(Conv2D)(x, g, view, begin, end, y); };
  if (pool) pool->parallel_for(g.out_h * g.out_w, product_grain(w.k * w.n), rows);
  else rows(0, g.out_h * g.out_w);
}

PackedMatrix pack_group_weights(const float* w, const float* bias, int64_t volume, int64_t per_group,
                                int64_t out_channels, int64_t groups, int64_t g, const Epilogue& epilogue) {
  const int64_t n = out_channels / groups, m0 = g * n, k = volume * per_group;
  std::vector<float> rows(static_cast<size_t>(k * n));  // [(j, c), m]
  for (int64_t m = 0; m < n; ++m)
    for (int64_t c = 0; c < per_group; ++c)
      for (int64_t j = 0; j < volume; ++j)
        rows[static_cast<size_t>((j * per_group + c) * n + m)] = w[((m0 + m) * per_group + c) * volume + j];
  Epilogue slice{{}, {}, epilogue.relu};
  if (!epilogue.scale.empty()) {
    slice.scale.assign(epilogue.scale.begin() + m0, epilogue.scale.begin() + m0 + n);
    slice.shift.assign(epilogue.shift.begin() + m0, epilogue.shift.begin() + m0 + n);
  }
  return pack_b(rows.data(), bias ? bias + m0 : nullptr, k, n, slice);
}

void conv_windows(const float* x, int64_t first_channel, int64_t per_group, const WindowTable& table,
                  const PackedMatrix& w, float* y, ThreadPool* pool) {
  const PackedView view = w.view();
  const auto rows = [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(ConvWindows)(x, first_channel, per_group, table, view, begin, end, y);
  };
  if (pool) pool->parallel_for(table.positions, product_grain(w.k * w.n), rows);
  else rows(0, table.positions);
}

DepthwiseWeights pack_depthwise_weights(const float* w, const float* bias, int64_t volume, int64_t channels,
                                        const Epilogue& epilogue) {
  constexpr int64_t kMaxLanes = HWY_MAX_BYTES / sizeof(float);
  DepthwiseWeights p;
  p.stride = (channels + kMaxLanes - 1) / kMaxLanes * kMaxLanes;
  const auto padded = [&](int64_t n) {
    auto v = hwy::AllocateAligned<float>(static_cast<size_t>(std::max<int64_t>(n, 1)));
    std::fill_n(v.get(), n, 0.0f);
    return v;
  };
  p.data = padded(volume * p.stride);
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t j = 0; j < volume; ++j) p.data[static_cast<size_t>(j * p.stride + c)] = w[c * volume + j];
  p.bias = padded(p.stride);
  if (bias) std::copy_n(bias, channels, p.bias.get());
  if (!epilogue.scale.empty()) {
    p.scale = padded(p.stride);
    p.shift = padded(p.stride);
    std::copy_n(epilogue.scale.data(), channels, p.scale.get());
    std::copy_n(epilogue.shift.data(), channels, p.shift.get());
  }
  p.relu = epilogue.relu;
  return p;
}

void depthwise_windows(const float* x, int64_t channels, const WindowTable& table, const DepthwiseWeights& w, float* y,
                       ThreadPool* pool) {
  const auto rows = [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(DepthwiseWindows)(x, channels, table, w, begin, end, y);
  };
  if (pool) pool->parallel_for(table.positions, 1, rows);
  else rows(0, table.positions);
}

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
