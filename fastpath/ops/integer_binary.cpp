// integer_add, _sub, _mul, _div, _mod, _fmod, _min, _max on int64: walked as broadcast runs
// (fastpath/broadcast_runs.hpp), a simple scalar loop per run over the spec's own element formula
// (integer_element, spec/ops/integer_binary.hpp: wrap-around, to the result's type too, truncating
// division, Mod's signs, unknown for an unknown operand or a zero divisor), so that the answers
// equal the spec's.
#include <memory>

#include "fastpath/broadcast_runs.hpp"
#include "fastpath/lower.hpp"
#include "spec/ops/integer_binary.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<IntegerBinaryAttrs>& op, const NodeLowering& node) {
  auto runs = std::make_shared<const BroadcastRuns>(op.outputs()[0], op.inputs(), op.attrs().broadcast);
  return [runs, f = op.attrs().op, type = op.attrs().type, x = node.inputs[0], y = node.inputs[1], out = node.outputs[0]](const Frame& fr) {
    const int64_t *xs = fr.at<int64_t>(x), *ys = fr.at<int64_t>(y);
    int64_t* zs = fr.at<int64_t>(out);
    const int64_t xstep = runs->varies(0) ? 1 : 0, ystep = runs->varies(1) ? 1 : 0;
    runs->for_each(fr.pool, [&](const Run& r) {
      const int64_t *a = xs + r.in[0], *b = ys + r.in[1];
      int64_t* z = zs + r.out;
      for (int64_t i = 0; i < r.n; ++i) z[i] = integer_element(f, type, a[i * xstep], b[i * ystep]);
    });
  };
}

}  // namespace nnref::fastpath
