// The elementwise exponential's kernel, compiled once per Highway target and chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fastpath/exp.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>

#include "fastpath/exp-inl.h"
#include "fastpath/exp.hpp"

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {

void ExpElementwise(const float* x, int64_t n, float* y) {
  const hn::ScalableTag<float> d;
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(ExpOf(d, hn::LoadU(d, x + i)), d, y + i);
  if (i < n) {  // the tail through a full vector
    HWY_ALIGN float tail[HWY_MAX_BYTES / sizeof(float)] = {};
    std::copy(x + i, x + n, tail);
    hn::Store(ExpOf(d, hn::Load(d, tail)), d, tail);
    std::copy(tail, tail + (n - i), y + i);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nnref::fastpath {

HWY_EXPORT(ExpElementwise);

void exp_elementwise(const float* x, int64_t n, float* y) { HWY_DYNAMIC_DISPATCH(ExpElementwise)(x, n, y); }

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
