// not, and, or on logical values (one byte, 0 or 1; the fast path's comparisons are decided, so
// never unknown): not is one pass over the bytes, and/or walk broadcast runs
// (fastpath/broadcast_runs.hpp), a simple loop per run.
#include <memory>

#include "fastpath/broadcast_runs.hpp"
#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<LogicalAttrs>& op, const NodeLowering& node) {
  const Slot x = node.inputs[0], out = node.outputs[0];
  if (op.attrs().op == LogicalOp::Not) {
    const int64_t n = out.shape.count();
    return [x, out, n](const Frame& f) {
      const uint8_t* xs = f.at<uint8_t>(x);
      uint8_t* ys = f.at<uint8_t>(out);
      f.pool->parallel_for(n, 4096, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) ys[i] = xs[i] ^ 1;
      });
    };
  }
  auto runs = std::make_shared<const BroadcastRuns>(op.outputs()[0], op.inputs(), op.attrs().broadcast);
  const bool conjunction = op.attrs().op == LogicalOp::And;
  return [runs, conjunction, x, y = node.inputs[1], out](const Frame& f) {
    const uint8_t *xs = f.at<uint8_t>(x), *ys = f.at<uint8_t>(y);
    uint8_t* zs = f.at<uint8_t>(out);
    const int64_t xstep = runs->varies(0) ? 1 : 0, ystep = runs->varies(1) ? 1 : 0;
    runs->for_each(f.pool, [&](const Run& r) {
      const uint8_t *a = xs + r.in[0], *b = ys + r.in[1];
      uint8_t* z = zs + r.out;
      if (conjunction) for (int64_t i = 0; i < r.n; ++i) z[i] = a[i * xstep] & b[i * ystep];
      else for (int64_t i = 0; i < r.n; ++i) z[i] = a[i * xstep] | b[i * ystep];
    });
  };
}

}  // namespace nnref::fastpath
