// The pooling kernel, compiled once per Highway target and chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fastpath/pool.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <limits>

#include "fastpath/pool.hpp"

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The pooled vector of one output pixel's channels; load(pixel) gives that input pixel's vector of
// the same channels (a direct load, or for the last channels a zero-padded copy).
template <class D, class Load>
HWY_INLINE hn::Vec<D> Window(D d, const WindowGeometry& g, int64_t oy, int64_t ox, Pooling op, bool constant, Load&& load) {
  using V = hn::Vec<D>;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  V acc = op == Pooling::Max ? hn::Set(d, -std::numeric_limits<float>::infinity()) : hn::Zero(d);
  auto any_nan = hn::IsNaN(acc);
  int64_t inside = 0;
  for (int64_t ky = 0; ky < g.kernel_h; ++ky)
    for (int64_t kx = 0; kx < g.kernel_w; ++kx) {
      const int64_t iy = g.row(oy, ky), ix = g.column(ox, kx);
      if (!g.inside(iy, ix)) continue;
      ++inside;
      const V v = load(iy * g.width + ix);
      any_nan = hn::Or(any_nan, hn::IsNaN(v));
      acc = op == Pooling::Max ? hn::Max(acc, v) : hn::Add(acc, v);
    }
  const int64_t window = g.kernel_h * g.kernel_w;
  if (inside == 0) return hn::Zero(d);
  if (op == Pooling::Max) {
    if (constant && inside < window) acc = hn::Max(acc, hn::Zero(d));
  } else {
    acc = hn::Div(acc, hn::Set(d, static_cast<float>(constant ? window : inside)));
  }
  return hn::IfThenElse(any_nan, hn::Set(d, nan), acc);  // x86's max drops a NaN operand
}

void Pool2D(const float* x, const WindowGeometry& g, Pooling op, bool constant, float* y) {
  const hn::ScalableTag<float> d;
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  HWY_ALIGN float tail[HWY_MAX_BYTES / sizeof(float)] = {};
  for (int64_t oy = 0; oy < g.out_h; ++oy)
    for (int64_t ox = 0; ox < g.out_w; ++ox) {
      float* out = y + (oy * g.out_w + ox) * g.channels;
      int64_t c = 0;
      for (; c + lanes <= g.channels; c += lanes)
        hn::StoreU(Window(d, g, oy, ox, op, constant, [&](int64_t pixel) { return hn::LoadU(d, x + pixel * g.channels + c); }),
                   d, out + c);
      if (c < g.channels) {  // the last channels through a zero-padded copy
        const int64_t rest = g.channels - c;
        hn::Store(Window(d, g, oy, ox, op, constant,
                         [&](int64_t pixel) {
                           std::copy_n(x + pixel * g.channels + c, rest, tail);
                           return hn::Load(d, tail);
                         }),
                  d, tail);
        std::copy_n(tail, rest, out + c);
      }
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nnref::fastpath {

HWY_EXPORT(Pool2D);

void pool2d(const float* x, const WindowGeometry& g, Pooling op, bool padded_count_as_zero, float* y) {
  HWY_DYNAMIC_DISPATCH(Pool2D)(x, g, op, padded_count_as_zero, y);
}

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
