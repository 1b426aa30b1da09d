// sum_reduce, mean_reduce, max_reduce, min_reduce: the groups' layout prepared once
// (fastpath/group_layout.hpp), groups split over threads (fastpath/reductions.hpp). keep_dims only
// changes the output's shape, not its row-major order.
#include <memory>

#include "fastpath/group_layout.hpp"
#include "fastpath/lower.hpp"
#include "fastpath/reductions.hpp"
#include "fastpath/threads.hpp"
#include "spec/axis_groups.hpp"
#include "spec/ops/reduce.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<ReduceAttrs>& op, const NodeLowering& node) {
  const Shape& x = op.inputs()[0];
  if (op.attrs().kind == ElemKind::Integer) {
    // Integers: each group by the spec's own integer_reduction (wrap-around, unknowns).
    const AxisSplit split = split_axes(x, normalized_axes(op.attrs().axes, x.rank()));
    return [split, a = op.attrs(), in = node.inputs[0], out = node.outputs[0]](const Frame& f) {
      const int64_t* xs = f.at<int64_t>(in);
      int64_t* ys = f.at<int64_t>(out);
      const auto n = static_cast<int64_t>(split.inner.size());
      for (size_t k = 0; k < split.outer.size(); ++k)
        ys[k] = integer_reduction(a.op, a.type, n, [&, o = split.outer[k]](int64_t r) {
          return xs[o + split.inner[static_cast<size_t>(r)]];
        });
    };
  }
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
