// interpolate: per output element, the taps' weights' product in axis order times x at the chosen
// positions, summed over every choice of taps in row-major order (the oracle's order for a point;
// a tap of weight 0 on a finite x left out, an index outside the axis reading NaN). A simple loop;
// the output elements split over threads.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "spec/rules/axes.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<InterpolateAttrs>& op, const NodeLowering& node) {
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const size_t n = op.attrs().axes.size(), r = in.rank();
  std::vector<size_t> axis(n);
  std::vector<int64_t> taps(n), stride(r, 1), extent(r);
  for (size_t d = r; d-- > 1;) stride[d - 1] = stride[d] * in[d];
  for (size_t d = 0; d < r; ++d) extent[d] = out[d];
  std::vector<bool> resized(r, false);
  for (size_t k = 0; k < n; ++k) {
    axis[k] = static_cast<size_t>(normalize_axis(op.attrs().axes[k], r));
    taps[k] = op.inputs()[1 + 2 * k][1];
    resized[axis[k]] = true;
  }
  std::vector<int64_t> in_extent(r);
  for (size_t d = 0; d < r; ++d) in_extent[d] = in[d];
  return [=, x = node.inputs[0], inputs = node.inputs, y = node.outputs[0]](const Frame& f) {
    const float* xs = f.at<float>(x);
    float* ys = f.at<float>(y);
    std::vector<const int64_t*> is(n);
    std::vector<const float*> ws(n);
    for (size_t k = 0; k < n; ++k) is[k] = f.at<int64_t>(inputs[1 + 2 * k]), ws[k] = f.at<float>(inputs[2 + 2 * k]);
    f.pool->parallel_for(out.count(), 256, [&](int64_t b, int64_t e) {
      std::vector<int64_t> p(r), t(n);
      int64_t rest = b;
      for (size_t d = r; d-- > 0;) p[d] = rest % extent[d], rest /= extent[d];
      for (int64_t i = b; i < e; ++i) {
        int64_t base = 0;
        for (size_t d = 0; d < r; ++d)
          if (!resized[d]) base += p[d] * stride[d];
        std::fill(t.begin(), t.end(), 0);
        float acc = 0.0f;
        for (bool more = true; more;) {
          int64_t offset = base;
          bool inside = true, zero = false;
          float w = 1.0f;
          for (size_t k = 0; k < n; ++k) {
            const int64_t at = p[axis[k]] * taps[k] + t[k], j = is[k][at];
            inside = inside && j >= 0 && j < in_extent[axis[k]];
            if (inside) offset += j * stride[axis[k]];
            zero = zero || ws[k][at] == 0.0f;
            w = k == 0 ? ws[k][at] : w * ws[k][at];
          }
          const float v = inside ? xs[offset] : std::numeric_limits<float>::quiet_NaN();
          if (!(zero && std::isfinite(v))) acc += v * w;
          more = false;
          for (size_t k = n; k-- > 0;) {
            if (++t[k] < taps[k]) {
              more = true;
              break;
            }
            t[k] = 0;
          }
        }
        ys[i] = acc;
        for (size_t d = r; d-- > 0;) {
          if (++p[d] < extent[d]) break;
          p[d] = 0;
        }
      }
    });
  };
}

}  // namespace nnref::fastpath
