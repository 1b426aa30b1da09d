// The comparisons lt gt le ge eq ne: float operands, a logical result (one byte, 0 or 1), walked as
// broadcast runs (fastpath/broadcast_runs.hpp). A simple loop per run, the comparison chosen once
// per step; float comparisons are exact, and NaN compares false except under ne, as the spec's.
#include <functional>
#include <memory>

#include "fastpath/broadcast_runs.hpp"
#include "fastpath/lower.hpp"

namespace nnref::fastpath {

namespace {

template <class Relation>
Step compare_step(std::shared_ptr<const BroadcastRuns> runs, Slot x, Slot y, Slot out) {
  return [runs, x, y, out](const Frame& f) {
    const float *xs = f.at<float>(x), *ys = f.at<float>(y);
    uint8_t* zs = f.at<uint8_t>(out);
    const int64_t xstep = runs->varies(0) ? 1 : 0, ystep = runs->varies(1) ? 1 : 0;
    runs->for_each(f.pool, [&](const Run& r) {
      const float *a = xs + r.in[0], *b = ys + r.in[1];
      uint8_t* z = zs + r.out;
      for (int64_t i = 0; i < r.n; ++i) z[i] = Relation{}(a[i * xstep], b[i * ystep]) ? 1 : 0;
    });
  };
}

}  // namespace

Step lower_op(const Checked<CompareAttrs>& op, const NodeLowering& node) {
  auto runs = std::make_shared<const BroadcastRuns>(op.outputs()[0], op.inputs(), op.attrs().broadcast);
  const Slot &x = node.inputs[0], &y = node.inputs[1], &out = node.outputs[0];
  switch (op.attrs().op) {
    case CompareOp::Lt: return compare_step<std::less<float>>(runs, x, y, out);
    case CompareOp::Gt: return compare_step<std::greater<float>>(runs, x, y, out);
    case CompareOp::Le: return compare_step<std::less_equal<float>>(runs, x, y, out);
    case CompareOp::Ge: return compare_step<std::greater_equal<float>>(runs, x, y, out);
    case CompareOp::Eq: return compare_step<std::equal_to<float>>(runs, x, y, out);
    case CompareOp::Ne: return compare_step<std::not_equal_to<float>>(runs, x, y, out);
  }
  return {};
}

}  // namespace nnref::fastpath
