// argmax_reduce, argmin_reduce: per group (the positions that differ only on the reduced axes,
// tabled once at lowering), the first index of the maximum (minimum), NaN beyond every number (the
// first NaN), as the spec's; with `last`, the same loop over the group backwards (the last index of
// the extremum, the last NaN). A simple loop per group; the groups split over threads.
#include <cmath>
#include <memory>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "spec/axis_groups.hpp"

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
Step arg_step(std::shared_ptr<const AxisSplit> split, bool last, Slot x, Slot out) {
  return [split, last, x, out](const Frame& f) {
    const float* xs = f.at<float>(x);
    int64_t* ys = f.at<int64_t>(out);
    const auto n = static_cast<int64_t>(split->inner.size());
    f.pool->parallel_for(static_cast<int64_t>(split->outer.size()), 16, [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k) {
        const float* group = xs + split->outer[static_cast<size_t>(k)];
        const auto at = [&](int64_t r) { return group[split->inner[static_cast<size_t>(r)]]; };
        int64_t best = last ? n - 1 : 0;
        float m = at(best);
        for (int64_t i = 1; i < n && !std::isnan(m); ++i) {
          const int64_t r = last ? n - 1 - i : i;
          const float v = at(r);
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
  const bool last = op.attrs().last;
  if (op.attrs().op == ArgReduceOp::Max) return arg_step<true>(split, last, node.inputs[0], node.outputs[0]);
  return arg_step<false>(split, last, node.inputs[0], node.outputs[0]);
}

}  // namespace nnref::fastpath
