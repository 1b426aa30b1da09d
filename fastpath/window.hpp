// The geometry of a 2-D window over one sample in channels-last layout, shared by the fast path's
// convolution and pooling: input [height, width, channels], window, stride, dilation, the padding
// before each axis (the padding after is implied by out_h and out_w), output [out_h, out_w, ...].
#pragma once

#include <cstdint>

namespace nnref::fastpath {

struct WindowGeometry {
  int64_t height = 0, width = 0, channels = 0;
  int64_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  int64_t pad_top = 0, pad_left = 0;
  int64_t out_h = 0, out_w = 0;

  // The input row and column that window position (ky, kx) reads for output (oy, ox); outside the
  // input (in the padding) when not in [0, height) × [0, width).
  int64_t row(int64_t oy, int64_t ky) const { return oy * stride_h + ky * dilation_h - pad_top; }
  int64_t column(int64_t ox, int64_t kx) const { return ox * stride_w + kx * dilation_w - pad_left; }
  bool inside(int64_t iy, int64_t ix) const { return iy >= 0 && iy < height && ix >= 0 && ix < width; }
};

}  // namespace nnref::fastpath
