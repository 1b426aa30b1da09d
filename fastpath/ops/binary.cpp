// The binary maps z = f(x, y) under every broadcast rule, walked as runs (fastpath/
// broadcast_runs.hpp): equal shapes are one contiguous run, a broadcast operand is held fixed
// along the run. A vector loop for every op but pow and fmod: powf per element, the spec's
// std::pow in float (glibc's powf is within 1 ulp; the envelope allows 4), and fmodf, exact.
#include <cmath>
#include <memory>

#include "fastpath/broadcast_runs.hpp"
#include "fastpath/elementwise.hpp"
#include "fastpath/lower.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<BinaryAttrs>& op, const NodeLowering& node) {
  const BinaryOp b = op.attrs().op;
  auto runs = std::make_shared<const BroadcastRuns>(op.outputs()[0], op.inputs(), op.attrs().broadcast);
  return [=, x = node.inputs[0], y = node.inputs[1], out = node.outputs[0]](const Frame& f) {
    const float *xs = f.at<float>(x), *ys = f.at<float>(y);
    float* zs = f.at<float>(out);
    const bool xv = runs->varies(0), yv = runs->varies(1);
    runs->for_each(f.pool, [&](const Run& r) {
      if (b != BinaryOp::Pow && b != BinaryOp::Fmod)
        return binary_run(b, {xs + r.in[0], xv}, {ys + r.in[1], yv}, r.n, zs + r.out);
      float (*f)(float, float) = b == BinaryOp::Pow ? +[](float x, float y) { return std::pow(x, y); }
                                                    : +[](float x, float y) { return std::fmod(x, y); };
      for (int64_t i = 0; i < r.n; ++i) zs[r.out + i] = f(xs[r.in[0] + (xv ? i : 0)], ys[r.in[1] + (yv ? i : 0)]);
    });
  };
}

}  // namespace nnref::fastpath
