// argmax_reduce, argmin_reduce: per group (the positions that differ only on the reduced axes,
// tabled once at lowering), the first index of the maximum (minimum), NaN beyond every number (the
// first NaN), as the spec's. A simple loop per group; the groups split over threads.
#include <cmath>
#include <memory>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"

namespace nnref::fastpath {

namespace {

// Whether x replaces the extremum so far, m: a NaN x always (the first NaN stays: once m is NaN
// the caller stops), a number only when strictly beyond m.
template <bool kMax>
bool beyond(float x, float m) {
  if (std::isnan(x)) return true;
  return kMax ? x > m : x < m;
}

template <bool kMax>
Step arg_step(std::shared_ptr<const AxisSplit> split, Slot x, Slot out) {
  return [split, x, out](const Frame& f) {
    const float* xs = f.at<float>(x);
    int64_t* ys = f.at<int64_t>(out);
    const auto n = static_cast<int64_t>(split->inner.size());
    f.pool->parallel_for(static_cast<int64_t>(split->outer.size()), 16, [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k) {
        const float* group = xs + split->outer[static_cast<size_t>(k)];
        int64_t best = 0;
        float m = group[split->inner[0]];
        for (int64_t r = 1; r < n && !std::isnan(m); ++r) {
          const float v = group[split->inner[static_cast<size_t>(r)]];
          if (beyond<kMax>(v, m)) {
            best = r;
            m = v;
          }
        }
        ys[k] = best;
      }
    });
  };
}

}  // namespace

Step lower_op(const Checked<ArgReduceAttrs>& op, const NodeLowering& node) {
  const Shape& in = op.inputs()[0];
  auto split = std::make_shared<const AxisSplit>(split_axes(in, normalized_axes(op.attrs().axes, in.rank())));
  if (op.attrs().op == ArgReduceOp::Max) return arg_step<true>(split, node.inputs[0], node.outputs[0]);
  return arg_step<false>(split, node.inputs[0], node.outputs[0]);
}

}  // namespace nnref::fastpath
