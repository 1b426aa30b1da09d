// The fast path's matrix product in float32: C = bias + A·B, with B packed once (at prepare time)
// into panels for the vector width of the target Highway dispatches to, and one register-blocked,
// cache-tiled micro-kernel for every target (fastpath/gemm.cpp).
//
// Each C element is one dot product of K terms started at its bias and accumulated by fused
// multiply-adds, in blocks of K: a sum of K + 1 terms in some order, inside the float32 envelope
// of docs/conformance.md (γ(K + 1)·(|bias| + Σ|a||b|)).
#pragma once

#include <hwy/aligned_allocator.h>

#include <cstdint>

namespace nnref::fastpath {

// B [K, N] (row-major) and a bias [N], laid out for the micro-kernel: panels of `panel` columns
// (two vectors of the target), each K rows of `panel` floats, the last panel padded with zeros.
// What the kernels read of a packed matrix.
struct PackedView {
  int64_t k = 0, n = 0, panel = 0;
  const float* data = nullptr;
  const float* bias = nullptr;
};

struct PackedMatrix {
  int64_t k = 0, n = 0, panel = 0;
  hwy::AlignedFreeUniquePtr<float[]> data;  // ceil(n / panel) panels of k × panel
  hwy::AlignedFreeUniquePtr<float[]> bias;  // n rounded up to panels, zeros past n
  PackedView view() const { return {k, n, panel, data.get(), bias.get()}; }
};

// Packs b [k, n] row-major and bias [n] (nullptr: zeros) for the target dispatch picks now.
PackedMatrix pack_b(const float* b, const float* bias, int64_t k, int64_t n);

// c [m, n] row-major = bias + a [m, k] row-major · b. b must have been packed under the same
// target (the dispatch of one process picks one, unless a test changes the supported targets).
void gemm(const float* a, int64_t m, const PackedMatrix& b, float* c);

// The name of the target dispatch picks now ("AVX3", "AVX2", "SSE4", ...).
const char* current_target();

}  // namespace nnref::fastpath
