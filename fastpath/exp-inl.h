// e^x on a vector of float32 with NaN and the ends handled, for every kernel that needs it
// (elementwise exp, softmax). Highway's -inl.h pattern: included once per target.
#if defined(NNREF_FASTPATH_EXP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef NNREF_FASTPATH_EXP_INL_H_
#undef NNREF_FASTPATH_EXP_INL_H_
#else
#define NNREF_FASTPATH_EXP_INL_H_
#endif

#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

#include <limits>

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Highway's Exp gives 0 for NaN and is valid only up to 104: NaN is kept, above 104 is +inf.
template <class D, class V>
HWY_INLINE V ExpOf(D d, V x) {
  const V inf = hn::Set(d, std::numeric_limits<float>::infinity());
  const V e = hn::IfThenElse(hn::Gt(x, hn::Set(d, 104.0f)), inf, hn::Exp(d, hn::Min(x, hn::Set(d, 104.0f))));
  return hn::IfThenElse(hn::IsNaN(x), x, e);
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#endif  // NNREF_FASTPATH_EXP_INL_H_
