// split: concat's inverse, for each position of the axes before the split axis, each output's
// block in turn, one copy per block; positions split over threads.
#include <algorithm>
#include <cstring>
#include <memory>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "spec/rules/axes.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<SplitAttrs>& op, const NodeLowering& node) {
  const Shape& in = op.inputs()[0];
  const auto axis = static_cast<size_t>(normalize_axis(op.attrs().axis, in.rank()));
  const int64_t outer = product(in.dims(), 0, axis), row = in.count() / std::max<int64_t>(outer, 1);
  std::vector<int64_t> blocks;  // elements per position of the outer axes, per output
  for (const Shape& s : op.outputs()) blocks.push_back(s.count() / std::max<int64_t>(outer, 1));
  return with_element_type<float>(op.attrs().kind, [&]<class E>() -> Step {
    return [=, x = node.inputs[0], outs = node.outputs](const Frame& f) {
      const E* xs = f.at<E>(x);
      f.pool->parallel_for(outer, 16, [&](int64_t begin, int64_t end) {
        for (int64_t o = begin; o < end; ++o) {
          const E* at = xs + o * row;
          for (size_t k = 0; k < outs.size(); ++k) {
            std::memcpy(f.at<E>(outs[k]) + o * blocks[k], at, static_cast<size_t>(blocks[k]) * sizeof(E));
            at += blocks[k];
          }
        }
      });
    };
  });
}

}  // namespace nnref::fastpath
