// matmul: for each batch (the batches of A and B it broadcasts from, spec/matmul_batches.hpp), B'
// (B or Bᵀ) packed into panels in scratch the step owns, allocated here for the target in use
// (fastpath/batched_product.hpp), A' (A, or Aᵀ copied by blocks into scratch too) multiplied by the
// matrix product's blocked walk; packing split over threads by panels, the product by rows. Each C
// element is one dot product of K terms started at 0, as the spec's.
#include <hwy/aligned_allocator.h>

#include <algorithm>
#include <memory>

#include "fastpath/batched_product.hpp"
#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "fastpath/transpose_copy.hpp"
#include "spec/matmul_batches.hpp"

namespace nnref::fastpath {
namespace {

struct MatMulScratch {
  hwy::AlignedFreeUniquePtr<float[]> packed, zeros, a;  // B' panels, a zero bias, A' when transposed
};

hwy::AlignedFreeUniquePtr<float[]> zeroed(int64_t count) {
  auto p = hwy::AllocateAligned<float>(static_cast<size_t>(std::max<int64_t>(count, 1)));
  std::fill_n(p.get(), std::max<int64_t>(count, 1), 0.0f);
  return p;
}

}  // namespace

Step lower_op(const Checked<MatMulAttrs>& op, const NodeLowering& node) {
  const Shape &out = op.outputs()[0], &sa = op.inputs()[0];
  const size_t r = out.rank();
  const int64_t m = out[r - 2], n = out[r - 1];
  const MatMulBatches batches = matmul_batches(sa, op.inputs()[1], out);
  const bool ta = op.attrs().transpose_a, tb = op.attrs().transpose_b;
  const int64_t k = ta ? sa[r - 2] : sa[r - 1];
  // Panels for the target dispatch picks now, as pack_b's for linear (the product asserts it).
  const int64_t panel = panel_width(), panels = (n + panel - 1) / panel;
  auto s = std::make_shared<MatMulScratch>();
  s->packed = zeroed(panels * panel * k);
  s->zeros = zeroed(panels * panel);
  if (ta) s->a = zeroed(m * k);
  return [=, a_slot = node.inputs[0], b_slot = node.inputs[1], c_slot = node.outputs[0]](const Frame& f) {
    const PackedView view{k, n, panel, s->packed.get(), s->zeros.get(), nullptr, nullptr, false};
    for (int64_t b = 0; b < static_cast<int64_t>(batches.a.size()); ++b) {
      const float* a = f.at<float>(a_slot) + batches.a[b] * m * k;
      const float* bs = f.at<float>(b_slot) + batches.b[b] * k * n;
      float* c = f.at<float>(c_slot) + b * m * n;
      f.pool->parallel_for(panels, 1, [&](int64_t p0, int64_t p1) { pack_panels(bs, k, n, tb, p0, p1, s->packed.get()); });
      if (ta) {  // A is [k, m]: A' [m, k] by blocks of its rows
        float* at = s->a.get();
        f.pool->parallel_for(k, kTransposeTile, [&](int64_t i0, int64_t i1) { transpose_rows(a, m, i0, i1, m, at, k); });
        a = at;
      }
      f.pool->parallel_for(m, product_grain(k * n), [&](int64_t i0, int64_t i1) { product_rows(a, i0, i1, view, c); });
    }
  };
}

}  // namespace nnref::fastpath
