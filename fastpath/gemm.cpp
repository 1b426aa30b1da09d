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

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {

void Gemm(const float* a, int64_t m, const PackedView& b, float* c) {
  std::vector<KBlock> blocks;
  for (int64_t k0 = 0; k0 < b.k; k0 += kDepth) blocks.push_back({k0, std::min(kDepth, b.k - k0)});
  Product(m, b.n, b, blocks, [&](int64_t i, const KBlock& block) { return a + i * b.k + block.k0; }, c);
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

void gemm(const float* a, int64_t m, const PackedMatrix& b, float* c) { HWY_DYNAMIC_DISPATCH(Gemm)(a, m, b.view(), c); }

const char* current_target() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
