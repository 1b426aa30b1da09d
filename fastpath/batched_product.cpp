// matmul's packing and product, compiled once per Highway target and chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fastpath/batched_product.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <vector>

#include "fastpath/batched_product.hpp"
#include "fastpath/product-inl.h"

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {

void PackPanels(const float* b, int64_t k, int64_t n, bool transposed, int64_t panel_begin, int64_t panel_end,
                float* packed) {
  const int64_t panel = PanelWidth();
  for (int64_t p = panel_begin; p < panel_end; ++p) {
    float* to = packed + p * k * panel;
    const int64_t j0 = p * panel, width = std::min(panel, n - j0);
    for (int64_t l = 0; l < k; ++l, to += panel) {
      if (transposed) {
        for (int64_t j = 0; j < width; ++j) to[j] = b[(j0 + j) * k + l];
      } else {
        std::copy_n(b + l * n + j0, width, to);
      }
      std::fill(to + width, to + panel, 0.0f);
    }
  }
}

void ProductRows(const float* a, int64_t row_begin, int64_t row_end, const PackedView& b, float* c) {
  RowMajorProduct(a, row_begin, row_end, b, c);
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nnref::fastpath {

HWY_EXPORT(PackPanels);
HWY_EXPORT(PanelWidth);
HWY_EXPORT(ProductRows);

int64_t panel_width() { return HWY_DYNAMIC_DISPATCH(PanelWidth)(); }

void pack_panels(const float* b, int64_t k, int64_t n, bool transposed, int64_t panel_begin, int64_t panel_end,
                 float* packed) {
  HWY_DYNAMIC_DISPATCH(PackPanels)(b, k, n, transposed, panel_begin, panel_end, packed);
}

void product_rows(const float* a, int64_t row_begin, int64_t row_end, const PackedView& b, float* c) {
  HWY_DYNAMIC_DISPATCH(ProductRows)(a, row_begin, row_end, b, c);
}

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
