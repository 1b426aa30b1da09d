// sample and desample: their window geometry tabled once at lowering from the spec's (sample: each
// down-scaled position's in-bounds window positions, row-major; desample: each up-scaled
// position's terms, deconv's), then per (n, c) plane a simple loop. sample looks its index up in
// the position's list (absent: the padded 0; outside [0, Π k): NaN); desample adds, in window order,
// the elements whose index names the term's window position. The planes split over threads.
#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "spec/ops/sample.hpp"

namespace nnref::fastpath {

namespace {

// Position p's entries are [start[p], start[p + 1]): kernel[t] a window index, input[t] an
// offset in one (n, c) plane of the input.
struct PositionLists {
  std::vector<int64_t> start, kernel, input;
  void add(const window::Offsets& w) {
    start.push_back(static_cast<int64_t>(kernel.size()));
    kernel.insert(kernel.end(), w.kernel.begin(), w.kernel.end());
    input.insert(input.end(), w.input.begin(), w.input.end());
  }
  int64_t positions() const { return static_cast<int64_t>(start.size()) - 1; }
};

Step sample_step(std::shared_ptr<const PositionLists> lists, int64_t planes, int64_t x_plane, int64_t volume,
                 const NodeLowering& node) {
  return [=, x = node.inputs[0], index = node.inputs[1], y = node.outputs[0]](const Frame& f) {
    const float* xs = f.at<float>(x);
    const int64_t* is = f.at<int64_t>(index);
    float* ys = f.at<float>(y);
    const int64_t positions = lists->positions();
    f.pool->parallel_for(planes, 1, [&](int64_t b, int64_t e) {
      for (int64_t q = b; q < e; ++q)
        for (int64_t p = 0; p < positions; ++p) {
          const int64_t i = q * positions + p, j = is[i];
          const auto first = lists->kernel.begin() + lists->start[static_cast<size_t>(p)];
          const auto last = lists->kernel.begin() + lists->start[static_cast<size_t>(p) + 1];
          const auto it = std::lower_bound(first, last, j);
          if (j < 0 || j >= volume) ys[i] = std::numeric_limits<float>::quiet_NaN();
          else if (it == last || *it != j) ys[i] = 0.0f;
          else ys[i] = xs[q * x_plane + lists->input[static_cast<size_t>(it - lists->kernel.begin())]];
        }
    });
  };
}

Step desample_step(std::shared_ptr<const PositionLists> terms, int64_t planes, int64_t x_plane, const NodeLowering& node) {
  return [=, x = node.inputs[0], index = node.inputs[1], y = node.outputs[0]](const Frame& f) {
    const float* xs = f.at<float>(x);
    const int64_t* is = f.at<int64_t>(index);
    float* ys = f.at<float>(y);
    const int64_t positions = terms->positions();
    f.pool->parallel_for(planes, 1, [&](int64_t b, int64_t e) {
      for (int64_t q = b; q < e; ++q)
        for (int64_t p = 0; p < positions; ++p) {
          float sum = 0.0f;
          for (int64_t t = terms->start[static_cast<size_t>(p)]; t < terms->start[static_cast<size_t>(p) + 1]; ++t) {
            const int64_t k = q * x_plane + terms->input[static_cast<size_t>(t)];
            if (is[k] == terms->kernel[static_cast<size_t>(t)]) sum += xs[k];
          }
          ys[q * positions + p] = sum;
        }
    });
  };
}

}  // namespace

Step lower_op(const Checked<SampleAttrs>& op, const NodeLowering& node) {
  const SampleAttrs& a = op.attrs();
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const int64_t planes = in[0] * in[1], x_plane = planes == 0 ? 0 : in.count() / planes;
  auto lists = std::make_shared<PositionLists>();
  window::Offsets win;
  if (a.op == SampleOp::Sample) {
    const window::Plan plan = window::plan(a, in);
    window::for_each_position(plan, out, [&](const std::vector<int64_t>& o, int64_t) {
      window::offsets_at(plan, o, win);
      lists->add(win);
    });
    lists->start.push_back(static_cast<int64_t>(lists->kernel.size()));
    return sample_step(lists, planes, x_plane, plan.volume, node);
  }
  const window::Plan up = window::plan(a, out);
  const deconv::Plan terms = sample::terms_plan(a, in, out);
  window::for_each_position(up, out, [&](const std::vector<int64_t>& o, int64_t) {
    deconv::terms_at(terms, o, win);
    lists->add(win);
  });
  lists->start.push_back(static_cast<int64_t>(lists->kernel.size()));
  return desample_step(lists, planes, x_plane, node);
}

}  // namespace nnref::fastpath
