// y = fma(x, scale[c], shift[c]) for x [outer, channels, inner], c the channel: a batch
// normalization that fusion could not fold into a product (fastpath/ops/batch_norm.cpp), with the
// scale and shift of fastpath/fusion.hpp's batch_norm_epilogue.
#pragma once

#include <cstdint>

namespace nnref::fastpath {

void scale_shift(const float* x, int64_t outer, int64_t channels, int64_t inner, const float* scale, const float* shift,
                 float* y);

}  // namespace nnref::fastpath
