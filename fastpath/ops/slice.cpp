// slice: the axes after the last one the slice touches (narrows or strides) are kept whole, so
// each output row (that axis and all after it) is, with stride 1, one contiguous stretch of the
// input, else one block per step of the stride (backwards for a negative one); the rows' input
// offsets are tabled once at lowering, and the rows split over threads.
#include <algorithm>
#include <cstring>
#include <memory>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "spec/ops/slice.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<SliceAttrs>& op, const NodeLowering& node) {
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const auto [begin, step] = slice_walk(op.attrs(), op.inputs());
  size_t inner = 0;  // the first axis of the rows: the last axis the slice touches (0 if none)
  for (size_t ax = 0; ax < in.rank(); ++ax)
    if (out[ax] != in[ax] || step[ax] != 1) inner = ax;
  const auto strides = in.strides();
  std::vector<int64_t> rows{0};  // input offsets of the rows, row-major over the axes before `inner`
  for (size_t ax = 0; ax <= inner && ax < in.rank(); ++ax) {
    std::vector<int64_t> next;
    const int64_t extent = ax == inner ? 1 : out[ax];  // the row's own axis: its start only
    next.reserve(rows.size() * static_cast<size_t>(extent));
    for (int64_t o : rows)
      for (int64_t j = 0; j < extent; ++j) next.push_back(o + (begin[ax] + j * step[ax]) * strides[ax]);
    rows = std::move(next);
  }
  const int64_t run = out.count() / std::max<int64_t>(static_cast<int64_t>(rows.size()), 1);
  // A row is `blocks` blocks of `block` elements, block j read from the row's start + j·jump.
  const bool contiguous = in.rank() == 0 || step[inner] == 1;
  const int64_t blocks = contiguous ? 1 : out[inner], block = run / blocks;
  const int64_t jump = contiguous ? 0 : step[inner] * strides[inner];
  auto table = std::make_shared<const std::vector<int64_t>>(std::move(rows));
  return with_element_type<float>(op.attrs().kind, [&]<class E>() -> Step {
    return [table, run, blocks, block, jump, x = node.inputs[0], y = node.outputs[0]](const Frame& f) {
      const E* xs = f.at<E>(x);
      E* ys = f.at<E>(y);
      f.pool->parallel_for(static_cast<int64_t>(table->size()), 64, [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r)
          for (int64_t j = 0; j < blocks; ++j)
            std::memcpy(ys + r * run + j * block, xs + (*table)[static_cast<size_t>(r)] + j * jump,
                        static_cast<size_t>(block) * sizeof(E));
      });
    };
  });
}

}  // namespace nnref::fastpath
