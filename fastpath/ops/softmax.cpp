// Softmax: over a run of consecutive axes, the groups are rows of x viewed as [outer, n, inner]:
// softmax_rows when the run ends at the last axis (inner 1), softmax_strided otherwise; any other
// set of axes through the spec's split of positions into groups (spec/axis_groups.hpp), one group
// at a time in a plain loop with the same formula (glibc's expf, within 1 ulp). Groups are split
// over the threads; each group is computed by one.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "fastpath/lower.hpp"
#include "fastpath/softmax.hpp"
#include "fastpath/threads.hpp"
#include "spec/axis_groups.hpp"
#include "spec/index.hpp"

namespace nnref::fastpath {

namespace {

// Each group of positions outer[k] + inner[r]: m = max (NaN if any is NaN), e = exp(x − m),
// y = e / Σ e (log_softmax: (x − m) − log Σ e). A NaN maximum, or +inf (inf − inf), makes the whole group NaN through the formula.
void softmax_groups(const float* x, const AxisSplit& split, int64_t begin, int64_t end, float* y, bool log) {
  for (int64_t k = begin; k < end; ++k) {
    const int64_t o = split.outer[static_cast<size_t>(k)];
    float m = x[o + split.inner[0]];
    for (int64_t i : split.inner)
      if (std::isnan(x[o + i]) || x[o + i] > m) m = x[o + i];
    float total = 0.0f;
    for (int64_t i : split.inner) total += y[o + i] = std::exp(x[o + i] - m);
    if (log) {
      const float log_total = std::log(total);
      for (int64_t i : split.inner) y[o + i] = (x[o + i] - m) - log_total;
    } else {
      for (int64_t i : split.inner) y[o + i] /= total;
    }
  }
}

void for_groups(ThreadPool* pool, int64_t count, RangeBody body) {
  if (pool) pool->parallel_for(count, 1, body);
  else body(0, count);
}

}  // namespace

Step lower_op(const Checked<SoftmaxAttrs>& op, const NodeLowering& node) {
  const Shape& shape = op.inputs()[0];
  const bool log = op.attrs().log;
  if (shape.count() == 0) return {};  // no group
  std::vector<size_t> axes = normalized_axes(op.attrs().axes, AxisDomain(shape.dims(), op.attrs().batch_axes));
  std::sort(axes.begin(), axes.end());
  const bool run = axes.back() - axes.front() + 1 == axes.size();
  if (run) {
    const int64_t outer = product(shape.dims(), 0, axes.front()), n = product(shape.dims(), axes.front(), axes.back() + 1);
    const int64_t inner = product(shape.dims(), axes.back() + 1, shape.rank());
    return [=, x = node.inputs[0], y = node.outputs[0]](const Frame& f) {
      for_groups(f.pool, outer, [&](int64_t begin, int64_t end) {
        const int64_t offset = begin * n * inner;
        if (inner == 1) softmax_rows(f.at<float>(x) + offset, end - begin, n, f.at<float>(y) + offset, log);
        else softmax_strided(f.at<float>(x) + offset, end - begin, n, inner, f.at<float>(y) + offset, log);
      });
    };
  }
  auto split = std::make_shared<const AxisSplit>(split_axes(shape, axes));
  return [=, x = node.inputs[0], y = node.outputs[0]](const Frame& f) {
    for_groups(f.pool, static_cast<int64_t>(split->outer.size()), [&](int64_t begin, int64_t end) {
      softmax_groups(f.at<float>(x), *split, begin, end, f.at<float>(y), log);
    });
  };
}

}  // namespace nnref::fastpath
