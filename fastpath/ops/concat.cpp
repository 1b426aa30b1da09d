// concat: for each position of the axes before the concat axis, each input's block in turn, one
// copy per block; positions split over threads.
#include <algorithm>
#include <cstring>
#include <memory>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "spec/rules/axes.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<ConcatAttrs>& op, const NodeLowering& node) {
  const Shape& out = op.outputs()[0];
  const AxisDomain domain(out.dims(), op.attrs().batch_axes);
  const auto axis = static_cast<size_t>(normalize_axis(op.attrs().axis, domain));
  const int64_t outer = product(out.dims(), 0, axis), row = out.count() / std::max<int64_t>(outer, 1);
  std::vector<int64_t> blocks;  // elements per position of the outer axes, per input
  for (const Shape& s : op.inputs()) blocks.push_back(s.count() / std::max<int64_t>(outer, 1));
  return with_element_type<float>(op.attrs().kind, [&]<class E>() -> Step {
    return [=, ins = node.inputs, y = node.outputs[0]](const Frame& f) {
      E* ys = f.at<E>(y);
      f.pool->parallel_for(outer, 16, [&](int64_t begin, int64_t end) {
        for (int64_t o = begin; o < end; ++o) {
          E* at = ys + o * row;
          for (size_t k = 0; k < ins.size(); ++k) {
            std::memcpy(at, f.at<E>(ins[k]) + o * blocks[k], static_cast<size_t>(blocks[k]) * sizeof(E));
            at += blocks[k];
          }
        }
      });
    };
  });
}

}  // namespace nnref::fastpath
