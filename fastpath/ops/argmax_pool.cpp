// argmax_pool: per output position the candidates of its window (the positions inside the input
// and, under Constant, the first padded one reading 0), tabled once at lowering from the spec's
// window geometry; per (n, c) plane a simple loop takes the first maximum, NaN beyond every number
// (the first NaN), as the spec's. The planes split over threads.
#include <cmath>
#include <memory>
#include <vector>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "spec/ops/argmax_pool.hpp"

namespace nnref::fastpath {

namespace {

// Position p's candidates are [start[p], start[p + 1]): kernel[t] their index in the window,
// input[t] their offset in one (n, c) plane, or −1 for the padded zero.
struct Candidates {
  std::vector<int64_t> start, kernel, input;
};

}  // namespace

Step lower_op(const Checked<ArgmaxPoolAttrs>& op, const NodeLowering& node) {
  const ArgmaxPoolAttrs& a = op.attrs();
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const window::Plan plan = window::plan(a, in);
  auto table = std::make_shared<Candidates>();
  window::Offsets win, cand;
  window::for_each_position(plan, out, [&](const std::vector<int64_t>& o, int64_t) {
    window::offsets_at(plan, o, win);
    argmax_pool::candidates(win, plan.volume, a.border == PoolBorder::Constant, cand);
    table->start.push_back(static_cast<int64_t>(table->kernel.size()));
    table->kernel.insert(table->kernel.end(), cand.kernel.begin(), cand.kernel.end());
    table->input.insert(table->input.end(), cand.input.begin(), cand.input.end());
  });
  table->start.push_back(static_cast<int64_t>(table->kernel.size()));
  const int64_t planes = in[0] * in[1], x_plane = planes == 0 ? 0 : in.count() / planes;
  const int64_t positions = static_cast<int64_t>(table->start.size()) - 1;
  return [=, x = node.inputs[0], y = node.outputs[0]](const Frame& f) {
    const float* xs = f.at<float>(x);
    int64_t* ys = f.at<int64_t>(y);
    f.pool->parallel_for(planes, 1, [&](int64_t b, int64_t e) {
      for (int64_t q = b; q < e; ++q) {
        const float* plane = xs + q * x_plane;
        for (int64_t p = 0; p < positions; ++p) {
          const int64_t first = table->start[static_cast<size_t>(p)], end = table->start[static_cast<size_t>(p) + 1];
          const auto at = [&](int64_t t) {
            const int64_t off = table->input[static_cast<size_t>(t)];
            return off < 0 ? 0.0f : plane[off];
          };
          int64_t best = first;  // an empty window (Ignore, all padding) answers 0, its first position
          float m = first < end ? at(first) : 0.0f;
          for (int64_t t = first + 1; t < end && !std::isnan(m); ++t) {
            const float v = at(t);
            if (std::isnan(v) || v > m) {
              best = t;
              m = v;
            }
          }
          ys[q * positions + p] = first < end ? table->kernel[static_cast<size_t>(best)] : 0;
        }
      }
    });
  };
}

}  // namespace nnref::fastpath
