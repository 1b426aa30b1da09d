// BatchNorm that fusion left standing (its input is no conv or linear output read by it alone):
// y = fma(x, a[c], offset[c] + mean[c]·(−a[c])), the same per-channel scale and shift as a fused one.
#include <memory>

#include "fastpath/fusion.hpp"
#include "fastpath/lower.hpp"
#include "fastpath/scale_shift.hpp"
#include "spec/rules/axes.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<BatchNormAttrs>& op, const NodeLowering& node) {
  const Shape& x = op.inputs()[0];
  const auto axis = static_cast<size_t>(normalize_axis(op.attrs().channel_axis, x.rank()));
  const int64_t outer = product(x.dims(), 0, axis), channels = x[axis], inner = x.strides()[axis];
  auto e = std::make_shared<const Epilogue>(
      batch_norm_epilogue(op, *node.params[0], *node.params[1], *node.params[2], *node.params[3]));
  return [=, in = node.inputs[0], out = node.outputs[0]](const Frame& f) {
    scale_shift(f.at<float>(in), outer, channels, inner, e->scale.data(), e->shift.data(), f.at<float>(out));
  };
}

}  // namespace nnref::fastpath
