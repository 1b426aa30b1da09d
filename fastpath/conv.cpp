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

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {

// Implicit GEMM: B's rows are the weights in (ky, kx, channel) order, and A's row for output
// position i in the block of kernel position (ky, kx) is the input pixel that position reads
// (its channels are contiguous, NHWC), or zeros in the padding. No im2col copy.
void Conv2D(const float* x, const ConvGeometry& g, const PackedView& w, int64_t row_begin, int64_t row_end, float* y) {
  // One block per kernel position and run of at most kDepth channels.
  const int64_t per_position = (g.channels + kDepth - 1) / kDepth;
  const auto block_at = [&](int64_t t) {
    const int64_t position = t / per_position, c0 = t % per_position * kDepth;
    return KBlock{position * g.channels + c0, std::min(kDepth, g.channels - c0)};
  };
  HWY_ALIGN static const float zeros[kDepth] = {};
  const auto row_of = [&](int64_t i, const KBlock& block) -> const float* {
    const int64_t position = block.k0 / g.channels, c0 = block.k0 % g.channels;
    const int64_t iy = g.row(i / g.out_w, position / g.kernel_w), ix = g.column(i % g.out_w, position % g.kernel_w);
    if (!g.inside(iy, ix)) return zeros;
    return x + (iy * g.width + ix) * g.channels + c0;
  };
  Product(row_begin, row_end, w.n, w, g.kernel_h * g.kernel_w * per_position, block_at, row_of, y);
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nnref::fastpath {

HWY_EXPORT(Conv2D);

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
  if (pool) pool->parallel_for(g.out_h * g.out_w, kProductRows, rows);
  else rows(0, g.out_h * g.out_w);
}

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
