// The fast path's convolution (implicit GEMM) on every Highway target this machine runs, against
// the exact convolution (double) within the float32 envelope of a dot product of kH·kW·C terms and
// a bias: |y − exact| ≤ γ(kH·kW·C + 1)·(|bias| + Σ|x||w|), γ(n) = n·u/(1 − n·u), u = 2⁻²⁴.
#include <catch2/catch.hpp>
#include <hwy/targets.h>

#include <cmath>
#include <random>
#include <vector>

#include "fastpath/conv.hpp"
#include "fastpath_test_support.hpp"

using namespace nnref;

namespace {

// The geometry with its output extents: ⌊(in + pads − ((k − 1)·dilation + 1)) / stride⌋ + 1.
fastpath::ConvGeometry geometry(int64_t h, int64_t w, int64_t c, int64_t k, int64_t stride, int64_t dilation,
                                int64_t pad_before, int64_t pad_after) {
  fastpath::ConvGeometry g{h, w, c, k, k, stride, stride, dilation, dilation, pad_before, pad_before, 0, 0};
  g.out_h = (h + pad_before + pad_after - ((k - 1) * dilation + 1)) / stride + 1;
  g.out_w = (w + pad_before + pad_after - ((k - 1) * dilation + 1)) / stride + 1;
  return g;
}

void check_conv(const fastpath::ConvGeometry& g, int64_t f) {
  INFO("target " << fastpath::current_target() << ", input " << g.height << "x" << g.width << "x" << g.channels
                 << ", kernel " << g.kernel_h << ", stride " << g.stride_h << ", dilation " << g.dilation_h
                 << ", pad " << g.pad_top << ", filters " << f);
  std::mt19937_64 gen(static_cast<uint64_t>(g.channels * 131 + f));
  const auto x = test::random_floats(gen, g.height * g.width * g.channels);
  const auto w = test::random_floats(gen, f * g.channels * g.kernel_h * g.kernel_w), bias = test::random_floats(gen, f);
  const fastpath::PackedMatrix packed = fastpath::pack_conv_weights(w.data(), bias.data(), g, f);
  std::vector<float> y(static_cast<size_t>(g.out_h * g.out_w * f), std::nanf(""));
  fastpath::conv2d(x.data(), g, packed, y.data());
  const int64_t terms = g.kernel_h * g.kernel_w * g.channels;
  int64_t outside = 0;
  for (int64_t oy = 0; oy < g.out_h; ++oy)
    for (int64_t ox = 0; ox < g.out_w; ++ox)
      for (int64_t o = 0; o < f; ++o) {
        double exact = bias[o], magnitude = std::abs(exact);
        for (int64_t ky = 0; ky < g.kernel_h; ++ky)
          for (int64_t kx = 0; kx < g.kernel_w; ++kx) {
            const int64_t iy = oy * g.stride_h + ky * g.dilation_h - g.pad_top;
            const int64_t ix = ox * g.stride_w + kx * g.dilation_w - g.pad_left;
            if (iy < 0 || iy >= g.height || ix < 0 || ix >= g.width) continue;
            for (int64_t c = 0; c < g.channels; ++c) {
              const double p = double(x[(iy * g.width + ix) * g.channels + c]) *
                               double(w[((o * g.channels + c) * g.kernel_h + ky) * g.kernel_w + kx]);
              exact += p;
              magnitude += std::abs(p);
            }
          }
        const double bound = (test::gamma_f32(terms + 1) + static_cast<double>(terms + 1) * 0x1p-53) * magnitude;
        if (!(std::abs(double(y[(oy * g.out_w + ox) * f + o]) - exact) <= bound)) ++outside;
      }
  CHECK(outside == 0);
}

}  // namespace

TEST_CASE("fastpath conv2d: every target, padding, stride, dilation and channel blocks, within the float32 envelope") {
  REQUIRE(hwy::SupportedAndGeneratedTargets().size() >= 2);
  test::for_each_target([] {
    check_conv(geometry(9, 7, 5, 3, 1, 1, 1, 1), 7);     // "same" 3x3
    check_conv(geometry(10, 11, 3, 3, 2, 1, 0, 1), 33);  // stride 2, the odd padding after
    check_conv(geometry(12, 12, 4, 3, 1, 2, 2, 2), 16);  // dilation 2
    check_conv(geometry(6, 5, 300, 1, 1, 1, 0, 0), 9);   // 1x1 over 300 channels: two blocks of K
    check_conv(geometry(5, 5, 2, 5, 1, 1, 0, 0), 1);     // one output pixel, one filter
  });
}
