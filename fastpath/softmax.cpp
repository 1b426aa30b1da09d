// The softmax kernel, compiled once per Highway target and chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fastpath/softmax.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "fastpath/exp-inl.h"
#include "fastpath/vectors-inl.h"
#include "fastpath/softmax.hpp"

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {

void SoftmaxRows(const float* x, int64_t rows, int64_t n, float* y, bool log) {
  const hn::ScalableTag<float> d;
  using V = decltype(hn::Zero(d));
  const float inf = std::numeric_limits<float>::infinity();
  for (int64_t r = 0; r < rows; ++r) {
    const float* in = x + r * n;
    float* out = y + r * n;
    V high = hn::Set(d, -inf);
    auto nan = hn::IsNaN(high);
    ForVectors(d, in, n, -inf, [&](V v, int64_t, int64_t) {
      nan = hn::Or(nan, hn::IsNaN(v));
      high = hn::Max(high, v);
    });
    const float max = hn::GetLane(hn::MaxOfLanes(d, high));
    if (!hn::AllFalse(d, nan) || max == inf) {  // NaN in the row, or inf − inf: every element NaN
      std::fill_n(out, n, std::numeric_limits<float>::quiet_NaN());
      continue;
    }
    V total = hn::Zero(d);  // padding is −inf, whose exp is 0
    ForVectors(d, in, n, -inf, [&](V v, int64_t i, int64_t count) {
      const V e = ExpOf(d, hn::Sub(v, hn::Set(d, max)));
      total = hn::Add(total, e);
      StoreFirst(d, e, count, out + i);
    });
    const float sum = hn::GetLane(hn::SumOfLanes(d, total));
    if (log) {  // (x − max) − log Σ, glibc's logf once per row
      const V shift = hn::Set(d, max), log_sum = hn::Set(d, std::log(sum));
      ForVectors(d, in, n, 0.0f, [&](V v, int64_t i, int64_t count) {
        StoreFirst(d, hn::Sub(hn::Sub(v, shift), log_sum), count, out + i);
      });
    } else {
      ForVectors(d, out, n, 0.0f, [&](V e, int64_t i, int64_t count) { StoreFirst(d, hn::Div(e, hn::Set(d, sum)), count, out + i); });
    }
  }
}

// Each group of x [outer, n, inner] along its middle axis, a vector of `inner` lanes at a time: the
// same formula with every lane its own group, the group's elements `inner` apart.
void SoftmaxStrided(const float* x, int64_t outer, int64_t n, int64_t inner, float* y, bool log) {
  const hn::ScalableTag<float> d;
  using V = decltype(hn::Zero(d));
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  const float inf = std::numeric_limits<float>::infinity();
  HWY_ALIGN float tail[HWY_MAX_BYTES / sizeof(float)] = {};
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; i += lanes) {
      const int64_t count = std::min(lanes, inner - i);
      const auto at = [&](int64_t r) { return (o * n + r) * inner + i; };
      const auto load = [&](const float* from) {  // the last lanes through a zero-padded copy
        if (count == lanes) return hn::LoadU(d, from);
        std::copy_n(from, count, tail);
        return hn::Load(d, tail);
      };
      // A NaN in a group, or a +inf maximum (inf − inf), makes its exp, its sum and so the whole
      // group NaN, as in the spec, whatever the vector max does with the NaN.
      V high = hn::Set(d, -inf);
      for (int64_t r = 0; r < n; ++r) high = hn::Max(high, load(x + at(r)));
      V total = hn::Zero(d);
      for (int64_t r = 0; r < n; ++r) {
        const V e = ExpOf(d, hn::Sub(load(x + at(r)), high));
        total = hn::Add(total, e);
        StoreFirst(d, e, count, y + at(r));
      }
      if (log) {  // (x − max) − log Σ, the lanes' logarithms by glibc's logf
        HWY_ALIGN float sums[HWY_MAX_BYTES / sizeof(float)];
        hn::Store(total, d, sums);
        for (int64_t l = 0; l < count; ++l) sums[l] = std::log(sums[l]);
        const V log_sum = hn::Load(d, sums);
        for (int64_t r = 0; r < n; ++r)
          StoreFirst(d, hn::Sub(hn::Sub(load(x + at(r)), high), log_sum), count, y + at(r));
      } else {
        for (int64_t r = 0; r < n; ++r) StoreFirst(d, hn::Div(load(y + at(r)), total), count, y + at(r));
      }
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nnref::fastpath {

HWY_EXPORT(SoftmaxRows);
HWY_EXPORT(SoftmaxStrided);

void softmax_rows(const float* x, int64_t rows, int64_t n, float* y, bool log) {
  HWY_DYNAMIC_DISPATCH(SoftmaxRows)(x, rows, n, y, log);
}

void softmax_strided(const float* x, int64_t outer, int64_t n, int64_t inner, float* y, bool log) {
  HWY_DYNAMIC_DISPATCH(SoftmaxStrided)(x, outer, n, inner, y, log);
}

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
