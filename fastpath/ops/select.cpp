// select: condition ? t : f under the op's broadcast rule, the condition logical (one byte per
// element). A varying condition is a vector loop; a condition held fixed along a run picks one
// operand for the whole run, a copy. Integer and logical values (select's kind) are a scalar loop.
#include <algorithm>
#include <memory>

#include "fastpath/broadcast_runs.hpp"
#include "fastpath/elementwise.hpp"
#include "fastpath/lower.hpp"

namespace nnref::fastpath {

// Integer and logical values: a scalar loop per run (the condition a point: true or false).
template <class E>
Step select_elements(std::shared_ptr<const BroadcastRuns> runs, const NodeLowering& node) {
  return [runs, ins = node.inputs, out = node.outputs[0]](const Frame& f) {
    const uint8_t* c = f.at<uint8_t>(ins[0]);
    const E *t = f.at<E>(ins[1]), *e = f.at<E>(ins[2]);
    E* y = f.at<E>(out);
    const int64_t cs = runs->varies(0) ? 1 : 0, ts = runs->varies(1) ? 1 : 0, es = runs->varies(2) ? 1 : 0;
    runs->for_each(f.pool, [&](const Run& r) {
      for (int64_t i = 0; i < r.n; ++i)
        y[r.out + i] = c[r.in[0] + i * cs] != 0 ? t[r.in[1] + i * ts] : e[r.in[2] + i * es];
    });
  };
}

Step lower_op(const Checked<SelectAttrs>& op, const NodeLowering& node) {
  auto runs = std::make_shared<const BroadcastRuns>(op.outputs()[0], op.inputs(), op.attrs().broadcast);
  if (op.attrs().kind == ElemKind::Integer) return select_elements<int64_t>(runs, node);
  if (op.attrs().kind == ElemKind::Logical) return select_elements<uint8_t>(runs, node);
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
