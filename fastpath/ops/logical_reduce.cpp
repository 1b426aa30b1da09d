// all_reduce, any_reduce: per group (tabled once at lowering, as the arg reductions), the
// conjunction (disjunction) of its logical bytes, stopping at the first byte that decides it. A
// simple loop per group; the groups split over threads.
#include <memory>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "spec/axis_groups.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<LogicalReduceAttrs>& op, const NodeLowering& node) {
  const Shape& in = op.inputs()[0];
  auto split = std::make_shared<const AxisSplit>(split_axes(in, normalized_axes(op.attrs().axes, in.rank())));
  // all: true unless some byte is 0; any: false unless some byte is 1.
  const uint8_t decisive = op.attrs().op == LogicalReduceOp::All ? 0 : 1;
  return [split, decisive, x = node.inputs[0], out = node.outputs[0]](const Frame& f) {
    const uint8_t* xs = f.at<uint8_t>(x);
    uint8_t* ys = f.at<uint8_t>(out);
    f.pool->parallel_for(static_cast<int64_t>(split->outer.size()), 64, [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k) {
        const uint8_t* group = xs + split->outer[static_cast<size_t>(k)];
        uint8_t v = decisive ^ 1;
        for (int64_t r : split->inner)
          if (group[r] == decisive) {
            v = decisive;
            break;
          }
        ys[k] = v;
      }
    });
  };
}

}  // namespace nnref::fastpath
