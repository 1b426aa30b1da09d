// The blocked matrix product every fast-path kernel that reduces over a K axis shares: the
// micro-kernel and the walk over panels, blocks of K and rows (Highway's -inl.h pattern: included
// once per target by each kernel file after hwy/foreach_target.h).
//
// Blocking: the packed B is walked panel by panel (two vectors of columns); each panel is cut into
// blocks of at most kDepth rows of K (kDepth × panel floats: 32 KB at AVX-512, held in L1 while
// every row block of A passes over it), and the micro-kernel computes kRows rows × one panel of C
// in 2·kRows vector accumulators, one broadcast element of A and two vectors of B per step of K.

// Per-target include guard.
#if defined(NNREF_FASTPATH_PRODUCT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef NNREF_FASTPATH_PRODUCT_INL_H_
#undef NNREF_FASTPATH_PRODUCT_INL_H_
#else
#define NNREF_FASTPATH_PRODUCT_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "fastpath/gemm.hpp"

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr int64_t kRows = kProductRows;  // rows of C per micro-kernel call
constexpr int64_t kDepth = 256;  // rows of B per block
constexpr size_t kMaxPanel = 2 * HWY_MAX_BYTES / sizeof(float);

inline int64_t PanelWidth() {
  const hn::ScalableTag<float> d;
  return 2 * static_cast<int64_t>(hn::Lanes(d));
}

struct KBlock {
  int64_t k0 = 0, depth = 0;  // rows [k0, k0 + depth) of B, at most kDepth
};

// The blocks of K of a window's product: K runs over `positions` window positions, each a
// pixel's `channels` contiguous channels; one block per position and run of at most kDepth.
struct PositionBlocks {
  int64_t positions = 0, channels = 0;
  int64_t per_position() const { return (channels + kDepth - 1) / kDepth; }
  int64_t count() const { return positions * per_position(); }
  KBlock operator()(int64_t t) const {
    const int64_t position = t / per_position(), c0 = t % per_position() * kDepth;
    return KBlock{position * channels + c0, std::min(kDepth, channels - c0)};
  }
};

// The epilogue on one finished vector of a row (half 0 or 1 of the panel at column j0): the
// fused normalization fma(t, scale, shift), then relu (kept NaN: x86's max would drop it).
template <class D, class V>
HWY_INLINE V Finish(D d, const PackedView& b, int64_t j0, size_t half, V v) {
  const size_t at = static_cast<size_t>(j0) + half * hn::Lanes(d);
  if (b.scale) v = hn::MulAdd(v, hn::Load(d, b.scale + at), hn::Load(d, b.shift + at));
  if (b.relu) v = hn::IfThenElse(hn::Lt(v, hn::Zero(d)), hn::Zero(d), v);
  return v;
}

// acc[r] (one panel of C's row r: two vectors) = (start, or acc[r] itself if start is null) +
// a[r][0..depth) · b (depth rows of one panel), for every r, then the epilogue if `finish`. The
// accumulators stay in registers for the whole block.
template <size_t... R>
HWY_INLINE void MicroKernel(std::index_sequence<R...>, const float* const* a, int64_t depth, const float* HWY_RESTRICT b,
                            float* const* acc, const float* start, const PackedView& view, int64_t j0, bool finish) {
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  using V = decltype(hn::Zero(d));
  V left[] = {hn::LoadU(d, start ? start : acc[R])...}, right[] = {hn::LoadU(d, (start ? start : acc[R]) + lanes)...};
  for (int64_t k = 0; k < depth; ++k, b += 2 * lanes) {
    const V b0 = hn::Load(d, b), b1 = hn::Load(d, b + lanes);
    ((left[R] = hn::MulAdd(hn::Set(d, a[R][k]), b0, left[R]), right[R] = hn::MulAdd(hn::Set(d, a[R][k]), b1, right[R])),
     ...);
  }
  if (finish) {
    ((left[R] = Finish(d, view, j0, 0, left[R]), right[R] = Finish(d, view, j0, 1, right[R])), ...);
  }
  (hn::StoreU(left[R], d, acc[R]), ...);
  (hn::StoreU(right[R], d, acc[R] + lanes), ...);
}

// Rows [row_begin, row_end) of c [m, n] = epilogue(bias + Σ over the blocks of K of (A's rows
// there) · (B's rows there)): block_at(t), t < blocks, covers rows [k0, k0 + depth) of the packed
// B, and row_of(i, block) gives A's row i there (depth floats). The blocks cover each row of B
// once; the first one starts the accumulators at the bias, the last one ends with the epilogue.
// Each row's sums are the same whichever rows a call covers, so rows can be split over threads.
template <class BlockAt, class RowOf>
void Product(int64_t row_begin, int64_t row_end, int64_t n, const PackedView& b, int64_t blocks, BlockAt&& block_at,
             RowOf&& row_of, float* c) {
  HWY_ASSERT(b.panel == PanelWidth());
  const hn::ScalableTag<float> d;
  HWY_ALIGN float tile[kRows][kMaxPanel] = {};  // rows past row_end, and panels narrower than b.panel
  for (int64_t j0 = 0; j0 < n; j0 += b.panel) {
    const int64_t width = std::min(b.panel, n - j0);
    const float* panel_data = b.data + (j0 / b.panel) * b.k * b.panel;
    if (blocks == 0) {  // no terms: every element is its bias, then the epilogue
      for (size_t half = 0; half < 2; ++half)
        hn::Store(Finish(d, b, j0, half, hn::Load(d, b.bias + j0 + half * hn::Lanes(d))), d, tile[0] + half * hn::Lanes(d));
      for (int64_t i = row_begin; i < row_end; ++i)
        std::memcpy(c + i * n + j0, tile[0], static_cast<size_t>(width) * sizeof(float));
      continue;
    }
    for (int64_t t = 0; t < blocks; ++t) {
      const KBlock block = block_at(t);
      const bool first = t == 0, last = t == blocks - 1;
      for (int64_t i0 = row_begin; i0 < row_end; i0 += kRows) {
        const int64_t rows = std::min(kRows, row_end - i0);
        const float* a_rows[kRows];  // rows past row_end repeat the last one; their results are dropped
        float* acc[kRows];           // where each row's accumulators live between blocks: C itself if it can
        for (int64_t r = 0; r < kRows; ++r) {
          a_rows[r] = row_of(std::min(i0 + r, row_end - 1), block);
          float* c_row = c + (i0 + r) * n + j0;
          acc[r] = r < rows && width == b.panel ? c_row : tile[r];
          if (r < rows && width < b.panel && !first) std::memcpy(tile[r], c_row, static_cast<size_t>(width) * sizeof(float));
        }
        // the accumulators start at the bias, then at what the earlier blocks of K summed
        MicroKernel(std::make_index_sequence<kRows>(), a_rows, block.depth, panel_data + block.k0 * b.panel, acc,
                    first ? b.bias + j0 : nullptr, b, j0, last);
        if (width < b.panel)
          for (int64_t r = 0; r < rows; ++r)
            std::memcpy(c + (i0 + r) * n + j0, tile[r], static_cast<size_t>(width) * sizeof(float));
      }
    }
  }
}

// Rows [row_begin, row_end) of c = epilogue(bias + a · b) for a [m, b.k] row-major.
inline void RowMajorProduct(const float* a, int64_t row_begin, int64_t row_end, const PackedView& b, float* c) {
  const auto block_at = [&](int64_t t) { return KBlock{t * kDepth, std::min(kDepth, b.k - t * kDepth)}; };
  Product(row_begin, row_end, b.n, b, (b.k + kDepth - 1) / kDepth, block_at,
          [&](int64_t i, const KBlock& block) { return a + i * b.k + block.k0; }, c);
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#endif  // NNREF_FASTPATH_PRODUCT_INL_H_
