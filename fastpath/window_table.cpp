// Layout moves for the general conv and pool kernels (rare layouts: plain loops).
#include "fastpath/window_table.hpp"

#include <utility>

namespace nnref::fastpath {

Shape channels_last_shape(const Shape& s, Layout layout) {
  if (layout == Layout::ChannelsLast) return s;
  std::vector<int64_t> dims{s[0]};
  for (size_t i = 2; i < s.rank(); ++i) dims.push_back(s[i]);
  dims.push_back(s[1]);
  return std::move(Shape::make(std::move(dims))).value();  // the same extents: fits
}

void to_channels_last(const float* x, int64_t channels, int64_t pixels, float* y) {
  for (int64_t p = 0; p < pixels; ++p)
    for (int64_t c = 0; c < channels; ++c) y[p * channels + c] = x[c * pixels + p];
}

void to_channels_first(const float* x, int64_t channels, int64_t pixels, float* y) {
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t p = 0; p < pixels; ++p) y[c * pixels + p] = x[p * channels + c];
}

}  // namespace nnref::fastpath
