// clamp: max(min(x, hi), lo) under the op's broadcast rule, a vector loop over each run.
#include <memory>

#include "fastpath/broadcast_runs.hpp"
#include "fastpath/elementwise.hpp"
#include "fastpath/lower.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<ClampAttrs>& op, const NodeLowering& node) {
  auto runs = std::make_shared<const BroadcastRuns>(op.outputs()[0], op.inputs(), op.attrs().broadcast);
  return [runs, ins = node.inputs, out = node.outputs[0]](const Frame& f) {
    const float *x = f.at<float>(ins[0]), *lo = f.at<float>(ins[1]), *hi = f.at<float>(ins[2]);
    float* y = f.at<float>(out);
    runs->for_each(f.pool, [&](const Run& r) {
      clamp_run({x + r.in[0], runs->varies(0)}, {lo + r.in[1], runs->varies(1)}, {hi + r.in[2], runs->varies(2)}, r.n,
                y + r.out);
    });
  };
}

}  // namespace nnref::fastpath
