// The matrix product's kernels, compiled once per Highway target (foreach_target re-includes this
// file) and chosen at run time by dynamic dispatch.
//
// Blocking: the packed B is walked panel by panel (two vectors of columns); each panel is cut into
// blocks of kDepth rows of K (kDepth × panel floats: 32 KB at AVX-512, held in L1 while every row
// block of A passes over it), and the micro-kernel computes kRows rows × one panel of C in
// 2·kRows vector accumulators, one broadcast element of A and two vectors of B per step of K.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fastpath/gemm.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "fastpath/gemm.hpp"

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr int64_t kRows = 6;     // rows of C per micro-kernel call
constexpr int64_t kDepth = 256;  // rows of B per block
constexpr size_t kMaxPanel = 2 * HWY_MAX_BYTES / sizeof(float);

int64_t PanelWidth() {
  const hn::ScalableTag<float> d;
  return 2 * static_cast<int64_t>(hn::Lanes(d));
}

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

// tile[r] (one panel of C's row r) += a[r][0..depth) · b (depth rows of one panel), for every r.
template <size_t... R>
HWY_INLINE void MicroKernel(std::index_sequence<R...>, const float* const* a, int64_t depth, const float* HWY_RESTRICT b,
                            float (*tile)[kMaxPanel]) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  using V = decltype(hn::Zero(d));
  V left[] = {hn::Load(d, tile[R])...}, right[] = {hn::Load(d, tile[R] + lanes)...};
  for (int64_t k = 0; k < depth; ++k, b += 2 * lanes) {
    const V b0 = hn::Load(d, b), b1 = hn::Load(d, b + lanes);
    ((left[R] = hn::MulAdd(hn::Set(d, a[R][k]), b0, left[R]), right[R] = hn::MulAdd(hn::Set(d, a[R][k]), b1, right[R])),
     ...);
  }
  (hn::Store(left[R], d, tile[R]), ...);
  (hn::Store(right[R], d, tile[R] + lanes), ...);
}

void Gemm(const float* a, int64_t m, int64_t k, int64_t n, const float* packed, const float* bias, int64_t panel,
          float* c) {
  HWY_ASSERT(panel == PanelWidth());
  if (k == 0) {  // no terms: every element is its bias
    for (int64_t i = 0; i < m; ++i) std::memcpy(c + i * n, bias, static_cast<size_t>(n) * sizeof(float));
    return;
  }
  HWY_ALIGN float tile[kRows][kMaxPanel] = {};
  for (int64_t j0 = 0; j0 < n; j0 += panel) {
    const int64_t width = std::min(panel, n - j0);
    const float* panel_data = packed + (j0 / panel) * k * panel;
    for (int64_t k0 = 0; k0 < k; k0 += kDepth) {
      const int64_t depth = std::min(kDepth, k - k0);
      for (int64_t i0 = 0; i0 < m; i0 += kRows) {
        const int64_t rows = std::min(kRows, m - i0);
        const float* a_rows[kRows];  // rows past m repeat the last one; their results are dropped
        for (int64_t r = 0; r < kRows; ++r) {
          a_rows[r] = a + std::min(i0 + r, m - 1) * k + k0;
          // the accumulators start at the bias, then at what the earlier blocks of K summed
          if (k0 == 0) std::memcpy(tile[r], bias + j0, static_cast<size_t>(panel) * sizeof(float));
          else if (r < rows) std::memcpy(tile[r], c + (i0 + r) * n + j0, static_cast<size_t>(width) * sizeof(float));
        }
        MicroKernel(std::make_index_sequence<kRows>(), a_rows, depth, panel_data + k0 * panel, tile);
        for (int64_t r = 0; r < rows; ++r)
          std::memcpy(c + (i0 + r) * n + j0, tile[r], static_cast<size_t>(width) * sizeof(float));
      }
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nnref::fastpath {

HWY_EXPORT(PanelWidth);
HWY_EXPORT(TargetName);
HWY_EXPORT(Gemm);

PackedMatrix pack_b(const float* b, const float* bias, int64_t k, int64_t n) {
  PackedMatrix p;
  p.k = k;
  p.n = n;
  p.panel = HWY_DYNAMIC_DISPATCH(PanelWidth)();
  const int64_t padded = (n + p.panel - 1) / p.panel * p.panel;
  p.data = hwy::AllocateAligned<float>(static_cast<size_t>(std::max<int64_t>(padded * k, 1)));
  p.bias = hwy::AllocateAligned<float>(static_cast<size_t>(std::max<int64_t>(padded, 1)));
  std::fill_n(p.data.get(), padded * k, 0.0f);
  std::fill_n(p.bias.get(), padded, 0.0f);
  for (int64_t row = 0; row < k; ++row)
    for (int64_t j = 0; j < n; ++j) p.data[(j / p.panel) * k * p.panel + row * p.panel + j % p.panel] = b[row * n + j];
  if (bias) std::copy_n(bias, n, p.bias.get());
  return p;
}

void gemm(const float* a, int64_t m, const PackedMatrix& b, float* c) {
  HWY_DYNAMIC_DISPATCH(Gemm)(a, m, b.k, b.n, b.data.get(), b.bias.get(), b.panel, c);
}

const char* current_target() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
