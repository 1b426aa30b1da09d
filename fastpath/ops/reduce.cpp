// sum_reduce, mean_reduce, max_reduce, min_reduce: the groups' layout prepared once
// (fastpath/group_layout.hpp), groups split over threads (fastpath/reductions.hpp). keep_dims only
// changes the output's shape, not its row-major order.
#include <memory>

#include "fastpath/group_layout.hpp"
#include "fastpath/lower.hpp"
#include "fastpath/reductions.hpp"
#include "fastpath/threads.hpp"
#include "spec/axis_groups.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<ReduceAttrs>& op, const NodeLowering& node) {
  const Shape& x = op.inputs()[0];
  auto g = std::make_shared<const GroupLayout>(
      group_layout(x, axis_mask(normalized_axes(op.attrs().axes, x.rank()), x.rank())));
  return [g, kind = op.attrs().op, in = node.inputs[0], out = node.outputs[0]](const Frame& f) {
    const float* xs = f.at<float>(in);
    float* ys = f.at<float>(out);
    f.pool->parallel_for(static_cast<int64_t>(g->kept.size()), 1,
                         [&](int64_t begin, int64_t end) { reduce_groups(kind, xs, *g, begin, end, ys); });
  };
}

}  // namespace nnref::fastpath
