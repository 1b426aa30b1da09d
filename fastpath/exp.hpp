// The fast path's exponential, elementwise in float32: Highway's vector exp (hwy/contrib/math,
// documented at most 1 ulp from e^x; fastpath_exp_test measures it against MPFR on every target),
// inside the float32 envelope's allowance for transcendentals (4 ulps by default). NaN stays NaN,
// e^x is 0 below −104 and +inf above 104 (Highway's exp is valid on [−FLT_MAX, 104]).
#pragma once

#include <cstdint>

namespace nnref::fastpath {

void exp_elementwise(const float* x, int64_t n, float* y);

}  // namespace nnref::fastpath
