// prelu: x < 0 ? alpha·x : x under the op's broadcast rule (a slope per channel is an operand held
// fixed along each run of a channels-first plane, or varying along a channels-last run).
#include <memory>

#include "fastpath/broadcast_runs.hpp"
#include "fastpath/elementwise.hpp"
#include "fastpath/lower.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<PreluAttrs>& op, const NodeLowering& node) {
  auto runs = std::make_shared<const BroadcastRuns>(op.outputs()[0], op.inputs(), op.attrs().broadcast);
  return [runs, x = node.inputs[0], alpha = node.inputs[1], out = node.outputs[0]](const Frame& f) {
    const float *xs = f.at<float>(x), *as = f.at<float>(alpha);
    float* y = f.at<float>(out);
    runs->for_each(f.pool, [&](const Run& r) {
      prelu_run({xs + r.in[0], runs->varies(0)}, {as + r.in[1], runs->varies(1)}, r.n, y + r.out);
    });
  };
}

}  // namespace nnref::fastpath
