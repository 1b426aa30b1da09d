// The elementwise exponential's kernel, compiled once per Highway target and chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fastpath/exp.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "fastpath/exp-inl.h"
#include "fastpath/exp.hpp"
#include "fastpath/vectors-inl.h"

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {

void ExpElementwise(const float* x, int64_t n, float* y) {
  const hn::ScalableTag<float> d;
  ForVectors(d, x, n, 0.0f, [&](hn::Vec<decltype(d)> v, int64_t i, int64_t count) { StoreFirst(d, ExpOf(d, v), count, y + i); });
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
