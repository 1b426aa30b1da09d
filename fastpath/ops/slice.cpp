// slice: the axes after the last sliced one are kept whole, so each output row (the last sliced
// axis and all after it) is one contiguous stretch of the input; the rows' input offsets are
// tabled once at lowering, and the rows split over threads.
#include <algorithm>
#include <cstring>
#include <memory>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<SliceAttrs>& op, const NodeLowering& node) {
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const SliceAttrs& a = op.attrs();
  std::vector<int64_t> begin(in.rank(), 0);
  size_t inner = 0;  // the first axis of the rows: the last axis the slice narrows (0 if none)
  for (size_t i = 0; i < a.axes.size(); ++i) {
    const auto ax = static_cast<size_t>(normalize_axis(a.axes[i], in.rank()));
    begin[ax] = slice_range(a.begin[i], a.end[i], CDim(in[ax])).first.v;
  }
  for (size_t ax = 0; ax < in.rank(); ++ax)
    if (out[ax] != in[ax]) inner = ax;
  const auto strides = in.strides();
  std::vector<int64_t> rows{0};  // input offsets of the rows, row-major over the axes before `inner`
  for (size_t ax = 0; ax <= inner && ax < in.rank(); ++ax) {
    std::vector<int64_t> next;
    const int64_t extent = ax == inner ? 1 : out[ax];  // the row's own axis: its start only
    next.reserve(rows.size() * static_cast<size_t>(extent));
    for (int64_t o : rows)
      for (int64_t j = 0; j < extent; ++j) next.push_back(o + (begin[ax] + j) * strides[ax]);
    rows = std::move(next);
  }
  const int64_t run = out.count() / std::max<int64_t>(static_cast<int64_t>(rows.size()), 1);
  auto table = std::make_shared<const std::vector<int64_t>>(std::move(rows));
  return [table, run, x = node.inputs[0], y = node.outputs[0]](const Frame& f) {
    const float* xs = f.at<float>(x);
    float* ys = f.at<float>(y);
    f.pool->parallel_for(static_cast<int64_t>(table->size()), 64, [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r)
        std::memcpy(ys + r * run, xs + (*table)[static_cast<size_t>(r)], static_cast<size_t>(run) * sizeof(float));
    });
  };
}

}  // namespace nnref::fastpath
