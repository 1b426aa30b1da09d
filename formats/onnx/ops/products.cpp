// The ONNX products: Gemm and MatMul.
#include <numeric>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"

namespace nnref::onnx_format {

namespace {

// Gemm: alpha·A'·B' + beta·C. A linear node when B is a constant and A is not transposed (with C
// as its bias when alpha = beta = 1 and C holds one value per unit); a matmul otherwise; then the
// product by alpha and the sum with beta·C where they are not 1, as ONNX writes it.
void gemm(Ctx& c) {
  const double alpha = c.attr_float("alpha", 1.0), beta = c.attr_float("beta", 1.0);
  const bool ta = c.attr_int("transA", 0) != 0, tb = c.attr_int("transB", 0) != 0;
  if (c.opset() < 7 && c.attr_int("broadcast", c.opset() < 6 ? 0 : 1) == 0 && c.has_input(2))
    c.refuse("onnx.attribute-unsupported", "broadcast 0 (before opset 7) is not supported");
  const HostTensor* b = c.constant(1);
  const HostTensor* cc = c.constant(2);
  const ValueRef a = c.data(0);
  ValueRef y;
  bool bias_done = false;
  if (b && !ta && b->shape.rank() == 2) {
    const int64_t units = b->shape.dims()[tb ? 0 : 1];
    const bool bias = alpha == 1.0 && beta == 1.0 && cc && static_cast<int64_t>(cc->values.size()) == units &&
                      (cc->shape.rank() == 1 || (cc->shape.rank() == 2 && cc->shape.dims()[0] == 1));
    const int64_t id = c.emit_node(bias || !c.has_input(2) ? "" : "product",
                                   LinearAttrs{units, tb ? WeightLayout::OutIn : WeightLayout::InOut, bias}, {a});
    c.param(id, "weight", 1);
    if (bias) {
      HostTensor t = *cc;
      t.shape = Shape::make({units}).value();
      c.param_tensor(id, "bias", std::move(t), c.proto().input(2));
      bias_done = true;
    }
    y = {id, 0};
  } else {
    y = c.emit(c.has_input(2) || alpha != 1.0 ? "product" : "", MatMulAttrs{ta, tb}, {a, c.data(1)});
  }
  if (alpha != 1.0)
    y = binary(c, c.has_input(2) && !bias_done ? "alpha" : "", BinaryOp::Mul, y, c.literal("alpha", scalar_tensor(alpha)));
  if (c.has_input(2) && !bias_done) {
    ValueRef term = c.data(2);
    if (beta != 1.0) term = binary(c, "beta", BinaryOp::Mul, term, c.literal("beta-value", scalar_tensor(beta)));
    y = binary(c, "", BinaryOp::Add, y, term);
  }
  c.set_output(0, y);
}

// MatMul with NumPy's rules: a 1-D operand gains an axis of 1 that the result loses again
// (unsqueeze, matmul, squeeze: the same sums); of two ranks, the lower gains leading axes of 1
// (NumPy's alignment of batch axes); then one IR matmul, whose batch axes broadcast as NumPy's do
// (an extent 1 repeats), a rule the checker proves for symbolic extents too.
void matmul(Ctx& c) {
  const bool a1 = c.rank(0) == 1, b1 = c.rank(1) == 1;
  const size_t ra = a1 ? 2 : c.rank(0), rb = b1 ? 2 : c.rank(1);
  ValueRef a = c.data(0), b = c.data(1);
  if (a1) a = c.emit("a-row", UnsqueezeAttrs{{0}}, {a});
  if (b1) b = c.emit("b-column", UnsqueezeAttrs{{1}}, {b});
  const auto leading = [](size_t count) {
    std::vector<int64_t> axes(count);
    std::iota(axes.begin(), axes.end(), int64_t{0});
    return UnsqueezeAttrs{axes};
  };
  if (ra < rb) a = c.emit("a-batch", leading(rb - ra), {a});
  if (rb < ra) b = c.emit("b-batch", leading(ra - rb), {b});
  const bool squeezed = a1 || b1;
  ValueRef y = c.emit(squeezed ? "product" : "", MatMulAttrs{}, {a, b});
  if (b1) y = c.emit(a1 ? "column" : "", SqueezeAttrs{{-1}}, {y});
  if (a1) y = c.emit("", SqueezeAttrs{{-2 + (b1 ? 1 : 0)}}, {y});
  c.set_output(0, y);
}

}  // namespace

void add_product_ops(OpTable& table) {
  add_ops(table, {
      {"Gemm", gemm},
      {"MatMul", matmul},
  });
}

}  // namespace nnref::onnx_format
