// select: condition ? t : f under the op's broadcast rule, the condition logical (one byte per
// element). A varying condition is a vector loop; a condition held fixed along a run picks one
// operand for the whole run, a copy.
#include <algorithm>
#include <memory>

#include "fastpath/broadcast_runs.hpp"
#include "fastpath/elementwise.hpp"
#include "fastpath/lower.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<SelectAttrs>& op, const NodeLowering& node) {
  auto runs = std::make_shared<const BroadcastRuns>(op.outputs()[0], op.inputs(), op.attrs().broadcast);
  return [runs, ins = node.inputs, out = node.outputs[0]](const Frame& f) {
    const uint8_t* c = f.at<uint8_t>(ins[0]);
    const float *t = f.at<float>(ins[1]), *e = f.at<float>(ins[2]);
    float* y = f.at<float>(out);
    runs->for_each(f.pool, [&](const Run& r) {
      const RunIn when_true{t + r.in[1], runs->varies(1)}, when_false{e + r.in[2], runs->varies(2)};
      if (runs->varies(0)) return select_run(c + r.in[0], when_true, when_false, r.n, y + r.out);
      const RunIn chosen = c[r.in[0]] != 0 ? when_true : when_false;
      if (chosen.varies) std::copy_n(chosen.p, r.n, y + r.out);
      else std::fill_n(y + r.out, r.n, chosen.p[0]);
    });
  };
}

}  // namespace nnref::fastpath
