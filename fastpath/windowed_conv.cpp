#include "fastpath/windowed_conv.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "fastpath/conv.hpp"

namespace nnref::fastpath {

namespace {

// What the step owns: the geometry, the weights (depthwise, or one packed matrix per group), and
// its scratch (a channels-last copy of the input sample, the group's output, the channels-last
// output sample).
struct State {
  WindowedConv g;
  std::optional<DepthwiseWeights> depthwise;
  std::vector<PackedMatrix> groups;
  std::vector<float> x_last, group_out, y_last;
};

}  // namespace

Step windowed_conv_step(WindowedConv geometry, const float* w, const float* bias, const Epilogue& epilogue,
                        const Slot& x_slot, const Slot& y_slot) {
  auto s = std::make_shared<State>();
  s->g = std::move(geometry);
  const WindowedConv& g = s->g;
  const int64_t per_group = g.channels / g.groups, out_per_group = g.out_channels / g.groups;
  const int64_t volume = g.table.volume, positions = g.table.positions;
  const bool depthwise = per_group == 1 && out_per_group == 1;
  if (depthwise) s->depthwise = pack_depthwise_weights(w, bias, volume, g.channels, epilogue);
  for (int64_t k = 0; k < (depthwise ? 0 : g.groups); ++k)
    s->groups.push_back(pack_group_weights(w, bias, volume, per_group, g.out_channels, g.groups, k, epilogue));
  const int64_t pixels = g.channels == 0 || g.batch == 0 ? 0 : x_slot.shape.count() / g.batch / g.channels;
  if (g.channels_first) s->x_last.resize(static_cast<size_t>(pixels * g.channels));
  if (g.groups > 1 && !depthwise) s->group_out.resize(static_cast<size_t>(positions * out_per_group));
  if (g.channels_first) s->y_last.resize(static_cast<size_t>(positions * g.out_channels));
  return [=](const Frame& f) {
    const WindowedConv& g = s->g;
    const int64_t m = g.out_channels;
    for (int64_t n = 0; n < g.batch; ++n) {
      const float* x = f.at<float>(x_slot) + n * pixels * g.channels;
      float* y = f.at<float>(y_slot) + n * positions * m;
      if (g.channels_first) to_channels_last(x, g.channels, pixels, s->x_last.data());
      const float* x_last = g.channels_first ? s->x_last.data() : x;
      float* y_last = g.channels_first ? s->y_last.data() : y;
      if (s->depthwise) depthwise_windows(x_last, g.channels, g.table, *s->depthwise, y_last, f.pool);
      for (int64_t k = 0; k < static_cast<int64_t>(s->groups.size()); ++k) {
        float* group_y = g.groups > 1 ? s->group_out.data() : y_last;
        conv_windows(x_last, k * per_group, per_group, g.table, s->groups[static_cast<size_t>(k)], group_y, f.pool);
        if (g.groups > 1)
          for (int64_t p = 0; p < positions; ++p)
            std::copy_n(group_y + p * out_per_group, out_per_group, y_last + p * m + k * out_per_group);
      }
      if (g.channels_first) to_channels_first(y_last, m, positions, y);
    }
  };
}

}  // namespace nnref::fastpath
