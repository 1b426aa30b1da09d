// max_pool, avg_pool and sum_pool: 2-D channels last through pool2d, one sample a thread; every other case
// (channels first, spatial rank 1, 3 or more, any padding mode) through pool_windows over the
// spec's window geometry, on a channels-last copy of the sample when the layout is channels first.
#include <algorithm>
#include <memory>
#include <vector>

#include "fastpath/lower.hpp"
#include "fastpath/pool.hpp"
#include "fastpath/threads.hpp"

namespace nnref::fastpath {

namespace {

// The general path's windows and scratch (channels-last copies of one input and output sample).
struct GeneralPool {
  WindowLists table;
  std::vector<float> x_last, y_last;
};

}  // namespace

Step lower_op(const Checked<PoolAttrs>& op, const NodeLowering& node) {
  const PoolAttrs& a = op.attrs();
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const Pooling kind = a.op == PoolOp::Max ? Pooling::Max : a.op == PoolOp::Avg ? Pooling::Avg : Pooling::Sum;
  const bool constant = a.border == PoolBorder::Constant;
  const int64_t batch = in[0], channels = in[window::channel_axis(a.layout, in.rank())];
  const int64_t x_sample = in.count() / std::max<int64_t>(batch, 1), y_sample = out.count() / std::max<int64_t>(batch, 1);
  // pool2d walks every kernel position: only for windows no larger than the sample.
  if (a.kernel.size() == 2 && a.layout == Layout::ChannelsLast && window::plan(a, in).volume <= in[1] * in[2]) {
    const WindowGeometry g = geometry_2d(a, in, out);
    return [=, x = node.inputs[0], y = node.outputs[0]](const Frame& f) {
      const auto samples = [&](int64_t begin, int64_t end) {
        for (int64_t n = begin; n < end; ++n) pool2d(f.at<float>(x) + n * x_sample, g, kind, constant, f.at<float>(y) + n * y_sample);
      };
      if (f.pool) f.pool->parallel_for(batch, 1, samples);
      else samples(0, batch);
    };
  }
  const bool first = a.layout == Layout::ChannelsFirst;
  auto s = std::make_shared<GeneralPool>();
  s->table = window_lists(a, in, out);
  if (first) {
    s->x_last.resize(static_cast<size_t>(x_sample));
    s->y_last.resize(static_cast<size_t>(y_sample));
  }
  const int64_t pixels = channels == 0 ? 0 : x_sample / channels, positions = s->table.positions;
  return [=, x_slot = node.inputs[0], y_slot = node.outputs[0]](const Frame& f) {
    for (int64_t n = 0; n < batch; ++n) {
      const float* x = f.at<float>(x_slot) + n * x_sample;
      float* y = f.at<float>(y_slot) + n * y_sample;
      if (first) to_channels_last(x, channels, pixels, s->x_last.data());
      pool_windows(first ? s->x_last.data() : x, channels, s->table, kind, constant, first ? s->y_last.data() : y, f.pool);
      if (first) to_channels_first(s->y_last.data(), channels, positions, y);
    }
  };
}

}  // namespace nnref::fastpath
