// Conv: the common case (2-D, channels last, groups 1: NNL's Conv2D) through the implicit GEMM
// conv2d, one sample at a time; every other case (channels first, groups, depthwise, spatial rank
// 1 or 3 or more) through windowed_conv_step (fastpath/windowed_conv.hpp) over the spec's window
// geometry. Both apply the node's epilogue (fused batch normalization and relu) per output channel.
#include <algorithm>
#include <memory>

#include "fastpath/conv.hpp"
#include "fastpath/lower.hpp"
#include "fastpath/windowed_conv.hpp"

namespace nnref::fastpath {

namespace {

Step lower_conv2d(const Checked<ConvAttrs>& op, const NodeLowering& node) {
  const ConvAttrs& a = op.attrs();
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const ConvGeometry g = geometry_2d(a, in, out);
  auto packed = std::make_shared<const PackedMatrix>(
      pack_conv_weights(node.param(0), a.has_bias ? node.param(1) : nullptr, g, a.out_channels, node.epilogue));
  const int64_t x_sample = in.count() / std::max<int64_t>(in[0], 1), y_sample = out.count() / std::max<int64_t>(out[0], 1);
  return [=, batch = in[0], x = node.inputs[0], y = node.outputs[0]](const Frame& f) {
    for (int64_t n = 0; n < batch; ++n)
      conv2d(f.at<float>(x) + n * x_sample, g, *packed, f.at<float>(y) + n * y_sample, f.pool);
  };
}

}  // namespace

Step lower_op(const Checked<ConvAttrs>& op, const NodeLowering& node) {
  const ConvAttrs& a = op.attrs();
  if (a.kernel.size() == 2 && a.layout == Layout::ChannelsLast && a.groups == 1) return lower_conv2d(op, node);
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  WindowedConv g;
  g.table = window_table(a, in, out);
  g.batch = in[0];
  g.channels = in[window::channel_axis(a.layout, in.rank())];
  g.out_channels = a.out_channels;
  g.groups = a.groups;
  g.channels_first = a.layout == Layout::ChannelsFirst;
  return windowed_conv_step(std::move(g), node.param(0), a.has_bias ? node.param(1) : nullptr, node.epilogue,
                            node.inputs[0], node.outputs[0]);
}

}  // namespace nnref::fastpath
