// The fast path's softmax in float32, over the last axis and (softmax_strided) a middle one: each row of x [rows, n] as
// exp(x − max) / Σ exp(x − max), the maximum and the sum in vector lanes, exp by
// fastpath/exp-inl.h, a division per element: the formula of the spec's softmax, so inside its
// float32 envelope (fastpath_softmax_test judges it with the Envelope scalar itself). A row with a
// NaN, or whose maximum is +inf, is all NaN, as in the spec. With `log`, log_softmax:
// (x − max) − log Σ exp(x − max), the logarithm by glibc's logf once per group.
#pragma once

#include <cstdint>

namespace nnref::fastpath {

void softmax_rows(const float* x, int64_t rows, int64_t n, float* y, bool log = false);

// The same over the middle axis of x [outer, n, inner] (inner > 1: a run of axes that is not the
// last), vectorized over the inner positions, each lane its own group.
void softmax_strided(const float* x, int64_t outer, int64_t n, int64_t inner, float* y, bool log = false);

}  // namespace nnref::fastpath
