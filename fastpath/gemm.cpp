// The matrix product's kernel, compiled once per Highway target (foreach_target re-includes this
// file) and chosen at run time by dynamic dispatch; its blocking is fastpath/product-inl.h's.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fastpath/gemm.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <vector>

#include "fastpath/gemm.hpp"
#include "fastpath/product-inl.h"
#include "fastpath/threads.hpp"

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {

void Gemm(const float* a, int64_t row_begin, int64_t row_end, const PackedView& b, float* c) {
  RowMajorProduct(a, row_begin, row_end, b, c);
}

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nnref::fastpath {

HWY_EXPORT(PanelWidth);
HWY_EXPORT(TargetName);
HWY_EXPORT(Gemm);

namespace {

// v [n] in an aligned array of `padded` floats, zeros past n.
hwy::AlignedFreeUniquePtr<float[]> padded_copy(const float* v, int64_t n, int64_t padded) {
  auto out = hwy::AllocateAligned<float>(static_cast<size_t>(std::max<int64_t>(padded, 1)));
  std::fill_n(out.get(), padded, 0.0f);
  if (v) std::copy_n(v, n, out.get());
  return out;
}

}  // namespace

PackedMatrix pack_b(const float* b, const float* bias, int64_t k, int64_t n, const Epilogue& epilogue) {
  PackedMatrix p;
  p.k = k;
  p.n = n;
  p.panel = HWY_DYNAMIC_DISPATCH(PanelWidth)();
  const int64_t padded = (n + p.panel - 1) / p.panel * p.panel;
  p.data = hwy::AllocateAligned<float>(static_cast<size_t>(std::max<int64_t>(padded * k, 1)));
  std::fill_n(p.data.get(), padded * k, 0.0f);
  for (int64_t row = 0; row < k; ++row)
    for (int64_t j = 0; j < n; ++j) p.data[(j / p.panel) * k * p.panel + row * p.panel + j % p.panel] = b[row * n + j];
  p.bias = padded_copy(bias, n, padded);
  if (!epilogue.scale.empty()) {
    p.scale = padded_copy(epilogue.scale.data(), n, padded);
    p.shift = padded_copy(epilogue.shift.data(), n, padded);
  }
  p.relu = epilogue.relu;
  return p;
}

void gemm(const float* a, int64_t m, const PackedMatrix& b, float* c, ThreadPool* pool) {
  const PackedView view = b.view();
  const auto rows = [&](int64_t begin, int64_t end) { HWY_DYNAMIC_DISPATCH(Gemm)(a, begin, end, view, c); };
  if (pool) pool->parallel_for(m, product_grain(b.k * b.n), rows);
  else rows(0, m);
}

const char* current_target() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
