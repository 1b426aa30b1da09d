// gather: y[p, i, q] = x[p, indices[i], q]; each (p, i) copies one row of `inner` elements (the
// axes after `axis`), or fills it with NaN for an index outside [0, extent), as the spec's. A
// simple loop; the rows split over threads.
#include <algorithm>
#include <cstring>
#include <limits>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "spec/rules/axes.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<GatherAttrs>& op, const NodeLowering& node) {
  const Shape& in = op.inputs()[0];
  const auto ax = static_cast<size_t>(normalize_axis(op.attrs().axis, in.rank()));
  int64_t outer = 1, inner = 1;  // the axes before and after `axis`
  for (size_t k = 0; k < ax; ++k) outer *= in[k];
  for (size_t k = ax + 1; k < in.rank(); ++k) inner *= in[k];
  const int64_t extent = in[ax], m = op.inputs()[1].count();
  return [=, x = node.inputs[0], indices = node.inputs[1], out = node.outputs[0]](const Frame& f) {
    const float* xs = f.at<float>(x);
    const int64_t* is = f.at<int64_t>(indices);
    float* ys = f.at<float>(out);
    f.pool->parallel_for(outer * m, 64, [&](int64_t b, int64_t e) {
      for (int64_t row = b; row < e; ++row) {
        const int64_t p = row / m, j = is[row % m];
        float* y = ys + row * inner;
        if (j >= 0 && j < extent) std::memcpy(y, xs + (p * extent + j) * inner, static_cast<size_t>(inner) * sizeof(float));
        else std::fill_n(y, inner, std::numeric_limits<float>::quiet_NaN());
      }
    });
  };
}

}  // namespace nnref::fastpath
