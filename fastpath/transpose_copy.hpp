// A blocked 2-D transpose of elements of type E: out[j·out_stride + i] = in[i·in_stride + j] for
// i < rows, j < cols, in square tiles that stay in L1 so that neither side's accesses stride
// through memory one element per cache line (transpose of any kind, matmul's transposed A).
#pragma once

#include <algorithm>
#include <cstdint>

namespace nnref::fastpath {

inline constexpr int64_t kTransposeTile = 32;

// The rows [row_begin, row_end) of in.
template <class E>
void transpose_rows(const E* in, int64_t in_stride, int64_t row_begin, int64_t row_end, int64_t cols, E* out,
                    int64_t out_stride) {
  for (int64_t i0 = row_begin; i0 < row_end; i0 += kTransposeTile) {
    const int64_t i1 = std::min(i0 + kTransposeTile, row_end);
    for (int64_t j0 = 0; j0 < cols; j0 += kTransposeTile) {
      const int64_t j1 = std::min(j0 + kTransposeTile, cols);
      for (int64_t j = j0; j < j1; ++j)
        for (int64_t i = i0; i < i1; ++i) out[j * out_stride + i] = in[i * in_stride + j];
    }
  }
}

}  // namespace nnref::fastpath
