// The pooling kernel, compiled once per Highway target and chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fastpath/pool.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <limits>

#include "fastpath/pool.hpp"
#include "fastpath/threads.hpp"

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The pooled vector of one output position's channels over a window of `window` positions:
// for_each_pixel(visit) calls visit(pixel) for each position inside the input, and load(pixel)
// gives that input pixel's vector of the same channels (a direct load, or for the last channels a
// zero-padded copy).
template <class D, class ForEachPixel, class Load>
HWY_INLINE hn::Vec<D> Window(D d, int64_t window, Pooling op, bool constant, ForEachPixel&& for_each_pixel, Load&& load) {
  using V = hn::Vec<D>;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  V acc = op == Pooling::Max ? hn::Set(d, -std::numeric_limits<float>::infinity()) : hn::Zero(d);
  auto any_nan = hn::IsNaN(acc);
  int64_t inside = 0;
  for_each_pixel([&](int64_t pixel) {
    ++inside;
    const V v = load(pixel);
    any_nan = hn::Or(any_nan, hn::IsNaN(v));
    acc = op == Pooling::Max ? hn::Max(acc, v) : hn::Add(acc, v);
  });
  if (inside == 0) return hn::Zero(d);
  if (op == Pooling::Max) {
    if (constant && inside < window) acc = hn::Max(acc, hn::Zero(d));
  } else if (op == Pooling::Avg) {
    acc = hn::Div(acc, hn::Set(d, static_cast<float>(constant ? window : inside)));
  }
  return hn::IfThenElse(any_nan, hn::Set(d, nan), acc);  // x86's max drops a NaN operand
}

// out [channels] = the pool of one output position, its window's pixels given by for_each_pixel
// (x + pixel·channels is each one's first channel), vector by vector of channels.
template <class ForEachPixel>
void PoolPosition(const float* x, int64_t channels, int64_t window, Pooling op, bool constant,
                  ForEachPixel&& for_each_pixel, float* out) {
  const hn::ScalableTag<float> d;
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t c = 0;
  for (; c + lanes <= channels; c += lanes)
    hn::StoreU(Window(d, window, op, constant, for_each_pixel,
                      [&](int64_t pixel) { return hn::LoadU(d, x + pixel * channels + c); }),
               d, out + c);
  if (c < channels) {  // the last channels through a zero-padded copy
    HWY_ALIGN float tail[HWY_MAX_BYTES / sizeof(float)] = {};
    const int64_t rest = channels - c;
    hn::Store(Window(d, window, op, constant, for_each_pixel,
                     [&](int64_t pixel) {
                       std::copy_n(x + pixel * channels + c, rest, tail);
                       return hn::Load(d, tail);
                     }),
              d, tail);
    std::copy_n(tail, rest, out + c);
  }
}

void Pool2D(const float* x, const WindowGeometry& g, Pooling op, bool constant, float* y) {
  for (int64_t oy = 0; oy < g.out_h; ++oy)
    for (int64_t ox = 0; ox < g.out_w; ++ox) {
      const auto for_each_pixel = [&](auto&& visit) {
        for (int64_t ky = 0; ky < g.kernel_h; ++ky)
          for (int64_t kx = 0; kx < g.kernel_w; ++kx) {
            const int64_t iy = g.row(oy, ky), ix = g.column(ox, kx);
            if (g.inside(iy, ix)) visit(iy * g.width + ix);
          }
      };
      PoolPosition(x, g.channels, g.kernel_h * g.kernel_w, op, constant, for_each_pixel,
                   y + (oy * g.out_w + ox) * g.channels);
    }
}

void PoolWindows(const float* x, int64_t channels, const WindowLists& t, Pooling op, bool constant, int64_t begin,
                 int64_t end, float* y) {
  for (int64_t p = begin; p < end; ++p) {
    const auto for_each_pixel = [&](auto&& visit) {
      for (int64_t i = t.start[static_cast<size_t>(p)]; i < t.start[static_cast<size_t>(p) + 1]; ++i)
        visit(t.pixel[static_cast<size_t>(i)]);
    };
    PoolPosition(x, channels, t.volume, op, constant, for_each_pixel, y + p * channels);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nnref::fastpath {

HWY_EXPORT(Pool2D);
HWY_EXPORT(PoolWindows);

void pool2d(const float* x, const WindowGeometry& g, Pooling op, bool padded_count_as_zero, float* y) {
  HWY_DYNAMIC_DISPATCH(Pool2D)(x, g, op, padded_count_as_zero, y);
}

void pool_windows(const float* x, int64_t channels, const WindowLists& table, Pooling op, bool padded_count_as_zero,
                  float* y, ThreadPool* pool) {
  const auto rows = [&](int64_t begin, int64_t end) {
    HWY_DYNAMIC_DISPATCH(PoolWindows)(x, channels, table, op, padded_count_as_zero, begin, end, y);
  };
  if (pool) pool->parallel_for(table.positions, 1, rows);
  else rows(0, table.positions);
}

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
