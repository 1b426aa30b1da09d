// layer_normalization over any axes, affine or not: the groups' layout prepared once
// (fastpath/group_layout.hpp), groups split over threads (fastpath/normalize.hpp). scale and
// offset are shaped as the normalised axes in ascending order: the row-major order of a group.
#include <memory>

#include "fastpath/group_layout.hpp"
#include "fastpath/lower.hpp"
#include "fastpath/normalize.hpp"
#include "fastpath/threads.hpp"
#include "spec/axis_groups.hpp"
#include "spec/real.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<LayerNormAttrs>& op, const NodeLowering& node) {
  const Shape& x = op.inputs()[0];
  auto g = std::make_shared<const GroupLayout>(
      group_layout(x, axis_mask(normalized_axes(op.attrs().axes, x.rank()), x.rank())));
  const float epsilon = real_value<float>(op.attrs().epsilon);
  const bool affine = op.attrs().affine;
  const float* scale = affine ? node.param(0) : nullptr;
  const float* offset = affine ? node.param(1) : nullptr;
  return [=, in = node.inputs[0], out = node.outputs[0]](const Frame& f) {
    const float* xs = f.at<float>(in);
    float* ys = f.at<float>(out);
    f.pool->parallel_for(static_cast<int64_t>(g->kept.size()), 1, [&](int64_t begin, int64_t end) {
      normalize_groups(xs, *g, epsilon, scale, offset, begin, end, ys);
    });
  };
}

}  // namespace nnref::fastpath
