// The unary maps, y[i] = f(x[i]) over the contiguous input: a Highway vector loop for the maps
// networks use (fastpath/elementwise.hpp), a loop over glibc's float function (within 1 ulp or
// so; the envelope allows 4) for the trigonometric and hyperbolic rest and erf, over the spec's
// exact rounding for the casts to float16 and bfloat16, and copy.
#include <cmath>
#include <cstring>
#include <memory>

#include "fastpath/broadcast_runs.hpp"
#include "fastpath/elementwise.hpp"
#include "fastpath/lower.hpp"
#include "spec/scalar.hpp"

namespace nnref::fastpath {

namespace {

using FloatFn = float (*)(float);

float round_f16(float x) { return PointOps<float>::round_to(x, kBinary16); }
float round_bf16(float x) { return PointOps<float>::round_to(x, kBfloat16); }

FloatFn scalar_function(UnaryOp op) {
  switch (op) {
    case UnaryOp::Sin: return sinf;
    case UnaryOp::Cos: return cosf;
    case UnaryOp::Tan: return tanf;
    case UnaryOp::Sinh: return sinhf;
    case UnaryOp::Cosh: return coshf;
    case UnaryOp::Asin: return asinf;
    case UnaryOp::Acos: return acosf;
    case UnaryOp::Atan: return atanf;
    case UnaryOp::Asinh: return asinhf;
    case UnaryOp::Acosh: return acoshf;
    case UnaryOp::Atanh: return atanhf;
    case UnaryOp::Erf: return erff;
    case UnaryOp::RoundF16: return round_f16;
    case UnaryOp::RoundBF16: return round_bf16;
    default: return nullptr;
  }
}

}  // namespace

Step lower_op(const Checked<UnaryAttrs>& op, const NodeLowering& node) {
  const Shape& x = op.inputs()[0];
  auto runs = std::make_shared<const BroadcastRuns>(x, std::vector<Shape>{x}, Broadcast::Equal);
  const UnaryOp u = op.attrs().op;
  const float alpha = real_value<float>(op.attrs().alpha);
  const FloatFn scalar = scalar_function(u);
  return [=, in = node.inputs[0], out = node.outputs[0]](const Frame& f) {
    const float* src = f.at<float>(in);
    float* dst = f.at<float>(out);
    runs->for_each(f.pool, [&](const Run& r) {
      if (u == UnaryOp::Copy) {
        std::memcpy(dst + r.out, src + r.in[0], static_cast<size_t>(r.n) * sizeof(float));
      } else if (scalar) {
        for (int64_t i = 0; i < r.n; ++i) dst[r.out + i] = scalar(src[r.in[0] + i]);
      } else {
        unary_run(u, alpha, src + r.in[0], r.n, dst + r.out);
      }
    });
  };
}

}  // namespace nnref::fastpath
