// The scale-and-shift kernel, compiled once per Highway target and chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fastpath/scale_shift.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "fastpath/scale_shift.hpp"
#include "fastpath/vectors-inl.h"

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {

void ScaleShift(const float* x, int64_t outer, int64_t channels, int64_t inner, const float* scale, const float* shift,
                float* y) {
  const hn::ScalableTag<float> d;
  for (int64_t o = 0; o < outer; ++o) {
    if (inner == 1) {  // channels last: one vector of channels at a time
      const float* in = x + o * channels;
      float* out = y + o * channels;
      ForVectors(d, in, channels, 0.0f, [&](auto v, int64_t i, int64_t count) {
        HWY_ALIGN float s[HWY_MAX_BYTES / sizeof(float)] = {}, t[HWY_MAX_BYTES / sizeof(float)] = {};
        std::copy_n(scale + i, count, s);
        std::copy_n(shift + i, count, t);
        StoreFirst(d, hn::MulAdd(v, hn::Load(d, s), hn::Load(d, t)), count, out + i);
      });
      continue;
    }
    for (int64_t c = 0; c < channels; ++c) {  // channels first: one channel's plane at a time
      const float* in = x + (o * channels + c) * inner;
      float* out = y + (o * channels + c) * inner;
      const auto s = hn::Set(d, scale[c]), t = hn::Set(d, shift[c]);
      ForVectors(d, in, inner, 0.0f, [&](auto v, int64_t i, int64_t count) { StoreFirst(d, hn::MulAdd(v, s, t), count, out + i); });
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nnref::fastpath {

HWY_EXPORT(ScaleShift);

void scale_shift(const float* x, int64_t outer, int64_t channels, int64_t inner, const float* scale, const float* shift,
                 float* y) {
  HWY_DYNAMIC_DISPATCH(ScaleShift)(x, outer, channels, inner, scale, shift, y);
}

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
