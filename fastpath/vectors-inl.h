// Walking a row of float32 by whole vectors, the tail through a padded copy, for the elementwise
// kernels (Highway's -inl.h pattern: included once per target).
#if defined(NNREF_FASTPATH_VECTORS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef NNREF_FASTPATH_VECTORS_INL_H_
#undef NNREF_FASTPATH_VECTORS_INL_H_
#else
#define NNREF_FASTPATH_VECTORS_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// f(v, i, count) for the elements [i, i + count) as the vector v: each full vector, then the
// tail padded with `pad`.
template <class D, class F>
HWY_INLINE void ForVectors(D d, const float* row, int64_t n, float pad, F&& f) {
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) f(hn::LoadU(d, row + i), i, lanes);
  if (i < n) {
    HWY_ALIGN float tail[HWY_MAX_BYTES / sizeof(float)];
    std::fill_n(tail, lanes, pad);
    std::copy(row + i, row + n, tail);
    f(hn::Load(d, tail), i, n - i);
  }
}

// v's first `count` lanes to out.
template <class D, class V>
HWY_INLINE void StoreFirst(D d, V v, int64_t count, float* out) {
  if (count == static_cast<int64_t>(hn::Lanes(d))) return hn::StoreU(v, d, out);
  HWY_ALIGN float lanes[HWY_MAX_BYTES / sizeof(float)];
  hn::Store(v, d, lanes);
  std::copy(lanes, lanes + count, out);
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#endif  // NNREF_FASTPATH_VECTORS_INL_H_
