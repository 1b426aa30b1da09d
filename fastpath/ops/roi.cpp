// max_roi_pool, avg_roi_pool, roi_resample (spec/ops/roi.hpp): a simple loop per region, the
// regions split over threads (each output element is computed by one thread, whole). In float32:
// the pools round a coordinate as ⌊v + ½⌋ and share the spec's cell geometry (roi::pool_cell);
// an average sums the cell's positions inside the input left to right and divides by the cell's
// size; the interpolation sums its 2^M weighted corners in order, each weight a product of M
// factors u or 1 − u, as the spec's formula. Nothing here allocates at run time.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "spec/ops/roi.hpp"

namespace nnref::fastpath {

namespace {

constexpr size_t kMaxAxes = 6;  // a rank-8 input at most
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct Geometry {
  size_t m = 0;
  int64_t batches = 0, channels = 0, plane = 1, cells = 1;
  std::array<int64_t, kMaxAxes> extents{}, strides{}, sizes{};
};

// The next index of a mixed-radix counter over [lo_k, hi_k), last axis fastest; false at the end.
bool advance(std::array<int64_t, kMaxAxes>& i, const std::array<int64_t, kMaxAxes>& lo,
             const std::array<int64_t, kMaxAxes>& hi, size_t m) {
  for (size_t k = m; k-- > 0;) {
    if (++i[k] < hi[k]) return true;
    i[k] = lo[k];
  }
  return false;
}

// One region of a pool: rounded coordinates, then per output cell its box clipped to the input.
void pool_region(const Geometry& g, bool average, const float* x, const float* box, int64_t b, float* y) {
  std::array<int64_t, kMaxAxes> start{}, end{};
  for (size_t k = 0; k < g.m; ++k) {
    const float s = std::floor(box[k] + 0.5f), e = std::floor(box[g.m + k] + 0.5f);
    if (!(std::fabs(s) <= roi::kMaxCoordinate && std::fabs(e) <= roi::kMaxCoordinate)) {
      std::fill_n(y, g.channels * g.cells, kNaN);
      return;
    }
    start[k] = static_cast<int64_t>(s), end[k] = static_cast<int64_t>(e);
  }
  std::array<int64_t, kMaxAxes> cell{}, zero{}, lo{}, hi{}, p{};
  int64_t flat = 0;
  do {
    double volume = 1, inside = 1;
    for (size_t k = 0; k < g.m; ++k) {
      const roi::Cell c = roi::pool_cell(start[k], end[k], g.sizes[k], cell[k]);
      volume *= static_cast<double>(c.size);
      lo[k] = std::max<int64_t>(c.begin, 0), hi[k] = std::min(c.begin + c.size, g.extents[k]);
      inside *= static_cast<double>(std::max<int64_t>(hi[k] - lo[k], 0));
    }
    for (int64_t c = 0; c < g.channels; ++c) {
      const float* xc = x + (b * g.channels + c) * g.plane;
      float v = 0.0f;
      if (inside > 0) {
        bool first = true;
        p = lo;
        do {
          int64_t offset = 0;
          for (size_t k = 0; k < g.m; ++k) offset += p[k] * g.strides[k];
          const float e = xc[offset];
          v = first ? e : average ? v + e : (std::isnan(e) || v < e ? e : v);
          first = false;
        } while (advance(p, lo, hi, g.m));
        if (!average && inside < volume && !std::isnan(v)) v = std::max(v, 0.0f);
        if (average) v /= static_cast<float>(volume);
      }
      y[c * g.cells + flat] = v;
    }
    ++flat;
  } while (advance(cell, zero, g.sizes, g.m));
}

// One region of roi_resample: per output cell the sample point along each axis, its integer part
// j (clamped to [−1, s − 1], where every further j reads the same edge twice) and u ∈ [0, 1].
void resample_region(const Geometry& g, RoiMethod method, const float* x, const float* box, int64_t b, float* y) {
  const bool symmetric = method == RoiMethod::Symmetric;
  std::array<float, kMaxAxes> scale{};  // the distance between neighbouring samples
  for (size_t k = 0; k < g.m; ++k) {
    const auto p = static_cast<float>(g.sizes[k]);
    if (method != RoiMethod::Aligned) scale[k] = (box[g.m + k] - box[k]) / p;
    else scale[k] = g.sizes[k] > 1 ? (box[g.m + k] - box[k] - 1.0f) / (p - 1.0f) : 0.0f;
  }
  const int64_t corners = int64_t{1} << g.m;
  std::array<float, 1 << kMaxAxes> weights{};
  std::array<int64_t, 1 << kMaxAxes> offsets{};
  std::array<int64_t, kMaxAxes> cell{}, zero{}, j{};
  std::array<float, kMaxAxes> u{};
  int64_t flat = 0;
  do {
    bool defined = true;
    for (size_t k = 0; k < g.m; ++k) {
      const auto i = static_cast<float>(cell[k]);
      const float v = symmetric ? box[k] + (i + 0.5f) * scale[k] + -0.5f : box[k] + i * scale[k];
      if (std::isnan(v)) {
        defined = false;
        continue;
      }
      const float f = std::floor(v), last = static_cast<float>(g.extents[k] - 1);
      j[k] = static_cast<int64_t>(std::clamp(f, -1.0f, last));
      u[k] = std::clamp(v - static_cast<float>(j[k]), 0.0f, 1.0f);
    }
    for (int64_t t = 0; t < corners && defined; ++t) {
      float w = 1.0f;
      int64_t offset = 0;
      for (size_t k = 0; k < g.m; ++k) {
        const bool up = ((t >> (g.m - 1 - k)) & 1) != 0;
        w *= up ? u[k] : 1.0f - u[k];
        offset += std::clamp<int64_t>(j[k] + (up ? 1 : 0), 0, g.extents[k] - 1) * g.strides[k];
      }
      weights[static_cast<size_t>(t)] = w;
      offsets[static_cast<size_t>(t)] = offset;
    }
    for (int64_t c = 0; c < g.channels; ++c) {
      const float* xc = x + (b * g.channels + c) * g.plane;
      float v = 0.0f;
      for (int64_t t = 0; t < corners; ++t) v += weights[static_cast<size_t>(t)] * xc[offsets[static_cast<size_t>(t)]];
      y[c * g.cells + flat] = defined ? v : kNaN;
    }
    ++flat;
  } while (advance(cell, zero, g.sizes, g.m));
}

}  // namespace

Step lower_op(const Checked<RoiAttrs>& op, const NodeLowering& node) {
  const RoiAttrs& a = op.attrs();
  const Shape& in = op.inputs()[0];
  Geometry g;
  g.m = a.output_size.size();
  g.batches = in[0], g.channels = in[1];
  const std::vector<int64_t> strides = in.strides();
  for (size_t k = 0; k < g.m; ++k) {
    g.extents[k] = in[2 + k], g.strides[k] = strides[2 + k], g.sizes[k] = a.output_size[k];
    g.cells *= a.output_size[k];
  }
  g.plane = g.m ? g.strides[0] * g.extents[0] : 1;
  const int64_t regions = op.inputs()[1][0];
  return [=, x = node.inputs[0], rois = node.inputs[1], index = node.inputs[2], out = node.outputs[0]](const Frame& f) {
    const float* xs = f.at<float>(x);
    const float* boxes = f.at<float>(rois);
    const int64_t* batch = f.at<int64_t>(index);
    float* ys = f.at<float>(out);
    f.pool->parallel_for(regions, 1, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        float* y = ys + r * g.channels * g.cells;
        const float* box = boxes + r * 2 * static_cast<int64_t>(g.m);
        const int64_t b = batch[r];
        if (b < 0 || b >= g.batches) std::fill_n(y, g.channels * g.cells, kNaN);
        else if (a.op == RoiOp::Resample) resample_region(g, a.method, xs, box, b, y);
        else pool_region(g, a.op == RoiOp::AvgPool, xs, box, b, y);
      }
    });
  };
}

}  // namespace nnref::fastpath
