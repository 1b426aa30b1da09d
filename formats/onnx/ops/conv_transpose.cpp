// ConvTranspose as the IR deconv: the same formula (ONNX's ConvTranspose is the transposed conv,
// NNEF's deconv), with ONNX's pads, output_padding, output_shape and auto_pad resolved into the
// deconv's signed padding (p, q) per spatial axis, X = (x − 1)·s + fd − p − q being the output
// extent ONNX's equations give.
#include <cstdlib>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"

namespace nnref::onnx_format {

namespace {

// Attributes are bounded so that the padding arithmetic below stays far from overflow.
constexpr int64_t kAttributeBound = int64_t{1} << 31;

std::vector<int64_t> per_axis(NodeCtx& c, const std::string& name, size_t spatial, int64_t def) {
  std::vector<int64_t> v = c.attr_ints(name);
  if (v.empty()) return std::vector<int64_t>(spatial, def);
  if (v.size() != spatial)
    c.refuse("onnx.attribute-value", name + " has " + std::to_string(v.size()) + " entries, " + std::to_string(spatial) +
                                         " expected");
  for (int64_t e : v)
    if (std::abs(e) > kAttributeBound) c.refuse("onnx.attribute-value", name + " has an entry beyond 2^31 in magnitude");
  return v;
}

}  // namespace

// output_shape (spatial, or with batch and channel first) fixes X, and then the padding is
//   total = s·(x − 1) + output_padding + fd − X,  p = ⌊total/2⌋ (SAME_UPPER) or total − ⌊total/2⌋;
// SAME_UPPER and SAME_LOWER without output_shape take X = x·s; NOTSET takes pads and puts
// output_padding after (q = pads_end − output_padding); VALID has no padding.
void conv_transpose(NodeCtx& c) {
  const std::vector<int64_t> w = weight_shape(c);
  if (w.size() < 3) c.refuse("onnx.attribute-value", "the weight W must have rank at least 3");
  const size_t sr = w.size() - 2;
  DeconvAttrs a;
  a.groups = c.attr_int("group", 1);
  if (a.groups < 1 || a.groups > kAttributeBound) c.refuse("onnx.attribute-value", "group must be between 1 and 2^31");
  a.out_channels = w[1] * a.groups;
  a.kernel = c.attr_ints("kernel_shape");
  if (a.kernel.empty()) a.kernel.assign(w.begin() + 2, w.end());
  a.stride = per_axis(c, "strides", sr, 1);
  a.dilation = per_axis(c, "dilations", sr, 1);
  const std::vector<int64_t> output_padding = per_axis(c, "output_padding", sr, 0);
  std::vector<int64_t> output_shape = c.attr_ints("output_shape");
  if (output_shape.size() == sr + 2) output_shape.erase(output_shape.begin(), output_shape.begin() + 2);
  if (!output_shape.empty() && output_shape.size() != sr)
    c.refuse("onnx.attribute-value", "output_shape has " + std::to_string(output_shape.size()) + " entries, " +
                                         std::to_string(sr) + " or " + std::to_string(sr + 2) + " expected");
  for (int64_t e : output_shape)
    if (e < 1 || e > kAttributeBound) c.refuse("onnx.attribute-value", "output_shape entries must be between 1 and 2^31");
  const std::string mode = c.attr_string("auto_pad", "NOTSET");
  if (mode != "NOTSET" && mode != "VALID" && mode != "SAME_UPPER" && mode != "SAME_LOWER")
    c.refuse("onnx.attribute-value", "auto_pad '" + mode + "' is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER");
  const auto pads = pads_of(c, sr);
  for (const auto& [b, e] : pads)
    if (b < 0 || e < 0 || b > kAttributeBound || e > kAttributeBound)
      c.refuse("onnx.attribute-value", "pads must be between 0 and 2^31");
  for (size_t i = 0; i < sr && i < a.kernel.size(); ++i) {
    const int64_t k = a.kernel[i], s = a.stride[i], d = a.dilation[i], e = output_padding[i];
    if (k < 1 || s < 1 || d < 1 || k > kAttributeBound) {  // the rule names the attribute at fault
      a.padding.clear();
      break;
    }
    if (e < 0) c.refuse("onnx.attribute-value", "output_padding must not be negative");
    const int64_t fd = (k - 1) * d + 1;
    if (output_shape.empty() && mode != "SAME_UPPER" && mode != "SAME_LOWER") {
      const auto [b, end] = pads.empty() || mode == "VALID" ? std::pair<int64_t, int64_t>{0, 0} : pads[i];
      a.padding.emplace_back(b, end - e);
      continue;
    }
    const std::vector<int64_t> in = c.shape(0);
    if (in.size() != sr + 2) {  // the rule names the rank
      a.padding.clear();
      break;
    }
    const int64_t x = in[2 + i], up = output_shape.empty() ? x * s : output_shape[i];
    const int64_t total = s * (x - 1) + e + fd - up;
    const int64_t half = total >= 0 ? total / 2 : -((1 - total) / 2);  // ⌊total/2⌋
    const int64_t before = mode == "SAME_UPPER" ? half : total - half;
    a.padding.emplace_back(before, (x - 1) * s + fd - before - up);
  }
  a.has_bias = c.has_input(2);
  const int64_t id = c.emit_node("", a, {c.data(0)});
  c.param(id, "weight", 1);
  if (a.has_bias) c.param(id, "bias", 2);
  c.set_output(0, {id, 0});
}

}  // namespace nnref::onnx_format
