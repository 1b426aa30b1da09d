// layer_normalization's kernel, compiled once per Highway target and chosen at run time. Where the
// innermost run is normalised, a group's lanes accumulate along it; where it is kept, each lane is
// its own group (mean, variance and scale per lane).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fastpath/normalize.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>

#include "fastpath/normalize.hpp"
#include "fastpath/vectors-inl.h"

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {

void NormalizeAlongRun(const float* x, const GroupLayout& g, float epsilon, const float* scale, const float* offset,
                       int64_t k_begin, int64_t k_end, float* y) {
  const hn::ScalableTag<float> d;
  using V = decltype(hn::Zero(d));
  const float count = static_cast<float>(g.group_size());
  for (int64_t k = k_begin; k < k_end; ++k) {
    const int64_t base = g.kept[static_cast<size_t>(k)];
    V total = hn::Zero(d);
    for (int64_t r : g.grouped)
      ForVectors(d, x + base + r, g.run, 0.0f, [&](V v, int64_t, int64_t) { total = hn::Add(total, v); });
    const float mu = hn::GetLane(hn::SumOfLanes(d, total)) / count;
    const V mu_v = hn::Set(d, mu);
    V squares = hn::Zero(d);
    for (int64_t r : g.grouped)
      ForVectors(d, x + base + r, g.run, mu, [&](V v, int64_t, int64_t) {
        const V c = hn::Sub(v, mu_v);  // the padding is μ: its square is 0
        squares = hn::MulAdd(c, c, squares);
      });
    const float var = hn::GetLane(hn::SumOfLanes(d, squares)) / count;
    const V den = hn::Set(d, std::sqrt(var + epsilon));
    const V one = hn::Set(d, 1.0f);
    for (size_t rr = 0; rr < g.grouped.size(); ++rr) {
      const int64_t at = base + g.grouped[rr], p = static_cast<int64_t>(rr) * g.run;
      ForVectors(d, x + at, g.run, 0.0f, [&](V v, int64_t j, int64_t n) {
        HWY_ALIGN float s[HWY_MAX_BYTES / sizeof(float)], o[HWY_MAX_BYTES / sizeof(float)];
        std::fill_n(s, hn::Lanes(d), 1.0f);
        std::fill_n(o, hn::Lanes(d), 0.0f);
        if (scale) std::copy_n(scale + p + j, n, s);
        if (offset) std::copy_n(offset + p + j, n, o);
        const V a = hn::Div(scale ? hn::Load(d, s) : one, den);
        StoreFirst(d, hn::MulAdd(v, a, hn::MulAdd(mu_v, hn::Neg(a), hn::Load(d, o))), n, y + at + j);
      });
    }
  }
}

void NormalizeAcrossRun(const float* x, const GroupLayout& g, float epsilon, const float* scale, const float* offset,
                        int64_t k_begin, int64_t k_end, float* y) {
  const hn::ScalableTag<float> d;
  using V = decltype(hn::Zero(d));
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  const V count = hn::Set(d, static_cast<float>(g.group_size())), eps = hn::Set(d, epsilon);
  HWY_ALIGN float tail[HWY_MAX_BYTES / sizeof(float)];
  for (int64_t k = k_begin; k < k_end; ++k) {
    const int64_t base = g.kept[static_cast<size_t>(k)];
    for (int64_t i = 0; i < g.run; i += lanes) {
      const int64_t width = std::min(lanes, g.run - i);
      const auto load = [&](int64_t r) {
        if (width == lanes) return hn::LoadU(d, x + base + r + i);
        std::fill_n(tail, lanes, 0.0f);
        std::copy_n(x + base + r + i, width, tail);
        return hn::Load(d, tail);
      };
      V total = hn::Zero(d);
      for (int64_t r : g.grouped) total = hn::Add(total, load(r));
      const V mu = hn::Div(total, count);
      V squares = hn::Zero(d);
      for (int64_t r : g.grouped) {
        const V c = hn::Sub(load(r), mu);
        squares = hn::MulAdd(c, c, squares);
      }
      const V den = hn::Sqrt(hn::Add(hn::Div(squares, count), eps));
      for (size_t rr = 0; rr < g.grouped.size(); ++rr) {
        const int64_t r = g.grouped[rr];
        const V a = hn::Div(hn::Set(d, scale ? scale[rr] : 1.0f), den);
        const V o = hn::Set(d, offset ? offset[rr] : 0.0f);
        StoreFirst(d, hn::MulAdd(load(r), a, hn::MulAdd(mu, hn::Neg(a), o)), width, y + base + r + i);
      }
    }
  }
}

void NormalizeGroups(const float* x, const GroupLayout& g, float epsilon, const float* scale, const float* offset,
                     int64_t k_begin, int64_t k_end, float* y) {
  if (g.run_grouped) NormalizeAlongRun(x, g, epsilon, scale, offset, k_begin, k_end, y);
  else NormalizeAcrossRun(x, g, epsilon, scale, offset, k_begin, k_end, y);
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nnref::fastpath {

HWY_EXPORT(NormalizeGroups);

void normalize_groups(const float* x, const GroupLayout& g, float epsilon, const float* scale, const float* offset,
                      int64_t k_begin, int64_t k_end, float* y) {
  HWY_DYNAMIC_DISPATCH(NormalizeGroups)(x, g, epsilon, scale, offset, k_begin, k_end, y);
}

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
