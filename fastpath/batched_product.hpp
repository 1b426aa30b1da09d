// matmul's kernels (fastpath/ops/matmul.cpp): B, an input known only at run time, packed per call
// into scratch the step owns, then the matrix product's blocked walk (fastpath/product-inl.h).
#pragma once

#include <cstdint>

#include "fastpath/gemm.hpp"

namespace nnref::fastpath {

// The panel width of the target dispatch picks now (pack_b's): what the product then expects.
int64_t panel_width();

// Panels [panel_begin, panel_end) of B' [k, n] into `packed`, laid out as pack_b lays them out for
// the target dispatch picks now: B' = b [k, n] row-major, or its transpose when b is [n, k].
void pack_panels(const float* b, int64_t k, int64_t n, bool transposed, int64_t panel_begin, int64_t panel_end,
                 float* packed);

// Rows [row_begin, row_end) of c [m, n] = a [m, k] row-major · the packed B'.
void product_rows(const float* a, int64_t row_begin, int64_t row_end, const PackedView& b, float* c);

}  // namespace nnref::fastpath
