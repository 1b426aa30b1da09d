// pad, any rank and border: each output row (the last axis) reads one input row or is all the
// constant; both are tabled once at lowering with the spec's pad_source per axis. Within a row, the
// middle is one copy of the input row and the borders read through the last axis's table. Any
// element kind (pad's kind): the same copies of int64 or one-byte truth values.
#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "spec/ops/pad.hpp"
#include "spec/real.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<PadAttrs>& op, const NodeLowering& node) {
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const PadAttrs& a = op.attrs();
  const auto x = node.inputs[0], y = node.outputs[0];
  const std::vector<int64_t> befores = pad_befores(op);
  return with_element_type<float>(a.kind, [&]<class E>() -> Step {
    if (in.rank() == 0)
      return [x, y](const Frame& f) { *f.at<E>(y) = *f.at<E>(x); };
    const E value = pad_value<E, float>(a.value);
    const size_t last = in.rank() - 1;
    const auto strides = in.strides();
    std::vector<int64_t> rows{0};  // per output row, the input row's offset, or -1: the constant
    for (size_t ax = 0; ax < last; ++ax) {
      std::vector<int64_t> next;
      next.reserve(rows.size() * static_cast<size_t>(out[ax]));
      for (int64_t o : rows)
        for (int64_t p = 0; p < out[ax]; ++p) {
          const int64_t s = pad_source(p - befores[ax], in[ax], a.border);
          next.push_back(o < 0 || s < 0 ? -1 : o + s * strides[ax]);
        }
      rows = std::move(next);
    }
    // The last axis: output positions [lo, hi) copy input elements lo − before on (a negative
    // before or after crops); the others take their border source.
    const int64_t before = befores[last], n = in[last], width = out[last];
    const int64_t lo = std::clamp<int64_t>(before, 0, width), hi = std::clamp<int64_t>(before + n, lo, width);
    std::vector<std::pair<int64_t, int64_t>> sources;  // (output position, its source or -1) outside [lo, hi)
    for (int64_t p = 0; p < width; ++p)
      if (p < lo || p >= hi) sources.emplace_back(p, pad_source(p - before, n, a.border));
    auto border = std::make_shared<const std::vector<std::pair<int64_t, int64_t>>>(std::move(sources));
    auto table = std::make_shared<const std::vector<int64_t>>(std::move(rows));
    return [=](const Frame& f) {
      const E* xs = f.at<E>(x);
      E* ys = f.at<E>(y);
      f.pool->parallel_for(static_cast<int64_t>(table->size()), 64, [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r) {
          E* row = ys + r * width;
          const int64_t src = (*table)[static_cast<size_t>(r)];
          if (src < 0) {
            std::fill_n(row, width, value);
            continue;
          }
          const E* from = xs + src;
          std::memcpy(row + lo, from + (lo - before), static_cast<size_t>(hi - lo) * sizeof(E));
          for (const auto& [p, s] : *border) row[p] = s < 0 ? value : from[s];
        }
      });
    };
  });
}

}  // namespace nnref::fastpath
