// layer_normalization's kernel in float32 (fastpath/ops/layer_norm.cpp): over each group of
// positions (fastpath/group_layout.hpp), as the spec computes it, μ = Σx/n, σ² = Σ(x − μ)²/n,
// a = scale[r]/sqrt(σ² + ε) and y = offset[r] + x·a + μ·(−a) as two fused multiply-adds.
// scale and offset nullptr: 1 and 0 (no affine). Groups [k_begin, k_end) of the layout's kept
// table, each whole on one thread.
#pragma once

#include <cstdint>

#include "fastpath/group_layout.hpp"

namespace nnref::fastpath {

void normalize_groups(const float* x, const GroupLayout& g, float epsilon, const float* scale, const float* offset,
                      int64_t k_begin, int64_t k_end, float* y);

}  // namespace nnref::fastpath
