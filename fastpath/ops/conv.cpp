// Conv: the common case (2-D, channels last, groups 1: NNL's Conv2D) through the implicit GEMM
// conv2d, one sample at a time; depthwise convs (one channel in and out a group) through
// depthwise_windows, a vector loop over the channels; every other case (channels first, groups,
// spatial rank 1 or 3 or more) through conv_windows, one group at a time. Both of the latter read
// the spec's window geometry through a WindowTable, on a channels-last copy of the sample when the
// layout is channels first. Both apply the node's
// epilogue (fused batch normalization and relu) per output channel.
#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "fastpath/conv.hpp"
#include "fastpath/lower.hpp"

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

// What the general path owns: the table, the weights (depthwise, or one packed matrix per group),
// and its scratch (a channels-last copy of the input sample, the group's output, the channels-last
// output sample).
struct GeneralConv {
  WindowTable table;
  std::optional<DepthwiseWeights> depthwise;
  std::vector<PackedMatrix> groups;
  std::vector<float> x_last, group_out, y_last;
};

}  // namespace

Step lower_op(const Checked<ConvAttrs>& op, const NodeLowering& node) {
  const ConvAttrs& a = op.attrs();
  if (a.kernel.size() == 2 && a.layout == Layout::ChannelsLast && a.groups == 1) return lower_conv2d(op, node);
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const bool first = a.layout == Layout::ChannelsFirst;
  const int64_t channels = in[window::channel_axis(a.layout, in.rank())];
  const int64_t per_group = channels / a.groups, out_per_group = a.out_channels / a.groups;
  auto s = std::make_shared<GeneralConv>();
  s->table = window_table(a, in, out);
  const bool depthwise = per_group == 1 && out_per_group == 1;
  if (depthwise)
    s->depthwise = pack_depthwise_weights(node.param(0), a.has_bias ? node.param(1) : nullptr, s->table.volume, channels,
                                          node.epilogue);
  for (int64_t g = 0; g < (depthwise ? 0 : a.groups); ++g)
    s->groups.push_back(pack_group_weights(node.param(0), a.has_bias ? node.param(1) : nullptr, s->table.volume, per_group,
                                           a.out_channels, a.groups, g, node.epilogue));
  const int64_t pixels = channels == 0 ? 0 : in.count() / std::max<int64_t>(in[0], 1) / channels;
  const int64_t positions = s->table.positions;
  if (first) s->x_last.resize(static_cast<size_t>(pixels * channels));
  if (a.groups > 1 && !depthwise) s->group_out.resize(static_cast<size_t>(positions * out_per_group));
  if (first) s->y_last.resize(static_cast<size_t>(positions * a.out_channels));
  return [=, batch = in[0], m = a.out_channels, groups = a.groups, x_slot = node.inputs[0],
          y_slot = node.outputs[0]](const Frame& f) {
    for (int64_t n = 0; n < batch; ++n) {
      const float* x = f.at<float>(x_slot) + n * pixels * channels;
      float* y = f.at<float>(y_slot) + n * positions * m;
      if (first) to_channels_last(x, channels, pixels, s->x_last.data());
      const float* x_last = first ? s->x_last.data() : x;
      float* y_last = first ? s->y_last.data() : y;
      if (s->depthwise) depthwise_windows(x_last, channels, s->table, *s->depthwise, y_last, f.pool);
      for (int64_t g = 0; g < static_cast<int64_t>(s->groups.size()); ++g) {
        float* group_y = groups > 1 ? s->group_out.data() : y_last;
        conv_windows(x_last, g * per_group, per_group, s->table, s->groups[static_cast<size_t>(g)], group_y, f.pool);
        if (groups > 1)
          for (int64_t p = 0; p < positions; ++p)
            std::copy_n(group_y + p * out_per_group, out_per_group, y_last + p * m + g * out_per_group);
      }
      if (first) to_channels_first(y_last, m, positions, y);
    }
  };
}

}  // namespace nnref::fastpath
