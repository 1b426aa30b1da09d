// The fast path's matrix product in float32: C = bias + A·B, with B packed once (at prepare time)
// into panels for the vector width of the target Highway dispatches to, and one register-blocked,
// cache-tiled micro-kernel for every target (fastpath/gemm.cpp).
//
// Each C element is one dot product of K terms started at its bias and accumulated by fused
// multiply-adds, in blocks of K: a sum of K + 1 terms in some order, inside the float32 envelope
// of docs/conformance.md (γ(K + 1)·(|bias| + Σ|a||b|)).
#pragma once

#include <hwy/aligned_allocator.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace nnref::fastpath {

class ThreadPool;

// Rows of C one micro-kernel call computes: threads split rows in multiples of it.
inline constexpr int64_t kProductRows = 6;

// The rows a thread takes at least, for rows of `macs_per_row` multiply-adds each: a multiple of
// kProductRows worth about 2^20 multiply-adds (some microseconds), so that no thread is woken
// for less work than waking it costs.
inline int64_t product_grain(int64_t macs_per_row) {
  const int64_t rows = (int64_t{1} << 20) / std::max<int64_t>(macs_per_row, 1);
  return std::max<int64_t>(1, (rows + kProductRows - 1) / kProductRows) * kProductRows;
}

// What the kernel applies to each finished sum t of column j, fused at prepare time
// (docs/fastpath.md, "Fusion"): a batch normalization as y = fma(t, scale[j], shift[j]), then
// relu. Both vectors empty: no normalization.
struct Epilogue {
  std::vector<float> scale, shift;
  bool relu = false;
};

// What the kernels read of a packed matrix: B [K, N] (row-major) and a bias [N], laid out for the
// micro-kernel in panels of `panel` columns (two vectors of the target), each K rows of `panel`
// floats; the last panel and the per-column vectors padded with zeros.
struct PackedView {
  int64_t k = 0, n = 0, panel = 0;
  const float* data = nullptr;
  const float* bias = nullptr;
  const float* scale = nullptr;  // nullptr: no normalization (then shift is nullptr too)
  const float* shift = nullptr;
  bool relu = false;
};

struct PackedMatrix {
  int64_t k = 0, n = 0, panel = 0;
  hwy::AlignedFreeUniquePtr<float[]> data;  // ceil(n / panel) panels of k × panel
  hwy::AlignedFreeUniquePtr<float[]> bias;  // n rounded up to panels, zeros past n
  hwy::AlignedFreeUniquePtr<float[]> scale, shift;  // as bias, or null without a normalization
  bool relu = false;
  PackedView view() const { return {k, n, panel, data.get(), bias.get(), scale.get(), shift.get(), relu}; }
};

// Packs b [k, n] row-major, bias [n] (nullptr: zeros) and the epilogue for the target dispatch
// picks now.
PackedMatrix pack_b(const float* b, const float* bias, int64_t k, int64_t n, const Epilogue& epilogue = {});

// c [m, n] row-major = epilogue(bias + a [m, k] row-major · b), rows split over the pool's
// threads (nullptr: this thread). b must have been packed under the same target (the dispatch of
// one process picks one, unless a test changes the supported targets).
void gemm(const float* a, int64_t m, const PackedMatrix& b, float* c, ThreadPool* pool = nullptr);

// The name of the target dispatch picks now ("AVX3", "AVX2", "SSE4", ...).
const char* current_target();

}  // namespace nnref::fastpath
