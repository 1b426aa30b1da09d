// The region-of-interest ops of NNEF 1.0 §4.6 (spec/ops/roi.hpp): max_roi_pool, avg_roi_pool and
// roi_resample, values computed by hand for a few regions each (rounding, cells, the zero border,
// empty and inverted regions, batch indices outside the batch), both interpolation methods, the
// hull under an enclosure, and every obligation. Each double case also runs the fast path.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "spec/scalar_envelope.hpp"

#include "op_test_support.hpp"

using nnref::mp50;
using namespace nnref;
using namespace nnref::test;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

RoiAttrs roi_op(RoiOp op, std::vector<int64_t> size, RoiMethod method = RoiMethod::Symmetric) {
  RoiAttrs a;
  a.op = op;
  a.output_size = std::move(size);
  a.method = method;
  return a;
}

// The real output of one region-of-interest op over x, rois [R, 2M] and batch indices.
template <class T>
Tensor<T> roi_run(const RoiAttrs& a, const Tensor<T>& x, Shape rois_shape, const std::vector<double>& rois,
                  std::vector<int64_t> index) {
  const auto r = static_cast<int64_t>(index.size());
  const std::vector<Value<T>> ins{x, tensor<T>(std::move(rois_shape), rois), integers(Shape::of({r}), std::move(index))};
  return std::get<Tensor<T>>(run_values<T>(a, ins)[0]);
}

template <class T>
bool all_nan(const Tensor<T>& t) {
  for (const T& v : t.values())
    if (!std::isnan(sc::to_double(v))) return false;
  return true;
}

}  // namespace

// x [1, 1, 4, 4], x[h][w] = 4h + w. The region (0, 0, 4, 4) in 2 × 2 cells: r = 4, cells of ⌈4/2⌉ = 2
// strided by ⌊4/2⌋ = 2: {0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, {10, 11, 14, 15}: averages 2.5,
// 4.5, 10.5, 12.5, maxima 5, 7, 13, 15. The region (0.6, 0.4, 3.4, 2.6) rounds (⌊v + ½⌋) to (1, 0,
// 3, 3): rows r = 2 → cells of 1 strided by 1 (rows 1 and 2); columns r = 3 → cells of ⌈3/2⌉ = 2
// strided by ⌊3/2⌋ = 1 (columns 0–1 and 1–2): {4, 5}, {5, 6}, {8, 9}, {9, 10}.
TEMPLATE_TEST_CASE("roi pools: cells of rounded regions, by hand", "[roi]", float, double, mp50) {
  using T = TestType;
  const auto x = tensor<T>(Shape::of({1, 1, 4, 4}), iota(16));
  const Shape two = Shape::of({2, 4});
  const std::vector<double> rois = {0, 0, 4, 4, 0.6, 0.4, 3.4, 2.6};
  const auto avg = roi_run<T>(roi_op(RoiOp::AvgPool, {2, 2}), x, two, rois, {0, 0});
  CHECK(avg.shape() == Shape::of({2, 1, 2, 2}));
  check_values(avg, {2.5, 4.5, 10.5, 12.5, 4.5, 5.5, 8.5, 9.5});
  check_values(roi_run<T>(roi_op(RoiOp::MaxPool, {2, 2}), x, two, rois, {0, 0}), {5, 7, 13, 15, 5, 6, 9, 10});
}

// A half rounds up: (0.5, 0, 2.5, 1) is rows 1–2 of column 0, {4, 8}: 6. A cell partly outside the
// input reads zeros there (max_pool's and avg_pool's default border 'constant'): (2, 2, 6, 6) in one
// cell covers 16 positions, 4 inside {10, 11, 14, 15}: average 50/16 = 3.125, maximum 15; over −x
// the maximum is the border's 0 and the average −3.125. An empty region (r = 0) and an inverted one
// (r = −2: ⌈−2/1⌉ < 1 position) give 0.
TEMPLATE_TEST_CASE("roi pools: halves, the zero border, empty and inverted regions", "[roi]", float, double) {
  using T = TestType;
  const auto x = tensor<T>(Shape::of({1, 1, 4, 4}), iota(16));
  std::vector<double> negative = iota(16);
  for (double& v : negative) v = -v;
  const auto nx = tensor<T>(Shape::of({1, 1, 4, 4}), negative);
  const Shape one = Shape::of({1, 4});
  check_values(roi_run<T>(roi_op(RoiOp::AvgPool, {1, 1}), x, one, {0.5, 0, 2.5, 1}, {0}), {6});
  check_values(roi_run<T>(roi_op(RoiOp::AvgPool, {1, 1}), x, one, {2, 2, 6, 6}, {0}), {3.125});
  check_values(roi_run<T>(roi_op(RoiOp::MaxPool, {1, 1}), x, one, {2, 2, 6, 6}, {0}), {15});
  check_values(roi_run<T>(roi_op(RoiOp::MaxPool, {1, 1}), nx, one, {2, 2, 6, 6}, {0}), {0});
  check_values(roi_run<T>(roi_op(RoiOp::AvgPool, {1, 1}), nx, one, {2, 2, 6, 6}, {0}), {-3.125});
  for (auto op : {RoiOp::AvgPool, RoiOp::MaxPool}) {
    check_values(roi_run<T>(roi_op(op, {1, 1}), nx, one, {1, 1, 1, 3}, {0}), {0});
    check_values(roi_run<T>(roi_op(op, {1, 1}), nx, one, {3, 0, 1, 4}, {0}), {0});
  }
}

// x [2, 2, 2, 2] = 0..15: batch 1 holds 8..11 (channel 0) and 12..15 (channel 1). The whole region
// of batch 1 in one cell: 9.5 and 13.5; batch 0: 1.5 and 5.5. A batch index outside [0, 2) or a
// NaN coordinate: every element of its region is NaN; the other regions are unaffected.
TEMPLATE_TEST_CASE("roi ops: batch indices, channels, and NaN for what has no value", "[roi]", float, double) {
  using T = TestType;
  const auto x = tensor<T>(Shape::of({2, 2, 2, 2}), iota(16));
  const std::vector<double> whole = {0, 0, 2, 2, 0, 0, 2, 2};
  check_values(roi_run<T>(roi_op(RoiOp::AvgPool, {1, 1}), x, Shape::of({2, 4}), whole, {1, 0}), {9.5, 13.5, 1.5, 5.5});
  for (auto op : {RoiOp::AvgPool, RoiOp::MaxPool, RoiOp::Resample}) {
    const auto y = roi_run<T>(roi_op(op, {1, 1}), x, Shape::of({3, 4}), {0, 0, 2, 2, 0, 0, 2, 2, kNaN, 0, 2, 2}, {2, -1, 0});
    CHECK(y.shape() == Shape::of({3, 2, 1, 1}));
    CHECK(all_nan(y));
  }
  const auto y = roi_run<T>(roi_op(RoiOp::MaxPool, {1, 1}), x, Shape::of({2, 4}), {0, 0, 2, 2, 0, 0, 2, 2}, {5, 1});
  CHECK(std::isnan(sc::to_double(y[0])));
  CHECK(sc::to_double(y[2]) == 11);
}

// x [1, 1, 4] = 0, 10, 20, 30, one spatial axis. Symmetric, sample i of p over [s, e) at
// v = s + (i + ½)(e − s)/p − ½; asymmetric at s + i(e − s)/p; (1 − u)·x[j] + u·x[j + 1], j = ⌊v⌋,
// indices clamped to [0, 3].
//   (0, 4), p = 4, symmetric: v = 0, 1, 2, 3: the input itself.
//   (0, 4), p = 2: symmetric v = 0.5, 2.5 → 5, 25; asymmetric v = 0, 2 → 0, 20.
//   (0, 4), p = 8 (§4.3.4's up-sampling by 2 with 'replicate'): symmetric v = −0.25, 0.25, ..., 3.25 →
//   0, 2.5, 7.5, 12.5, 17.5, 22.5, 27.5, 30; asymmetric v = 0, 0.5, ..., 3.5 → 0, 5, ..., 30, 30.
//   (1, 2), p = 2, symmetric: v = 0.75, 1.25 → 7.5, 12.5. Inverted (4, 0), p = 2: v = 2.5, 0.5 → 25, 5.
//   Far outside: (10, 20), p = 1: v = 14.5 → x[3] = 30; (−20, −10): v = −15.5 → x[0] = 0.
TEMPLATE_TEST_CASE("roi_resample in one dimension, both methods, by hand", "[roi]", float, double, mp50) {
  using T = TestType;
  const auto x = tensor<T>(Shape::of({1, 1, 4}), {0, 10, 20, 30});
  const auto one = [&](RoiMethod m, int64_t p, double s, double e) {
    return roi_run<T>(roi_op(RoiOp::Resample, {p}, m), x, Shape::of({1, 2}), {s, e}, {0});
  };
  const auto sym = RoiMethod::Symmetric, asym = RoiMethod::Asymmetric;
  check_values(one(sym, 4, 0, 4), {0, 10, 20, 30});
  check_values(one(sym, 2, 0, 4), {5, 25});
  check_values(one(asym, 2, 0, 4), {0, 20});
  check_values(one(sym, 8, 0, 4), {0, 2.5, 7.5, 12.5, 17.5, 22.5, 27.5, 30});
  check_values(one(asym, 8, 0, 4), {0, 5, 10, 15, 20, 25, 30, 30});
  check_values(one(sym, 2, 1, 2), {7.5, 12.5});
  check_values(one(sym, 2, 4, 0), {25, 5});
  check_values(one(sym, 1, 10, 20), {30});
  check_values(one(asym, 1, -20, -10), {0});
}

// x [1, 1, 2, 2] = [[0, 1], [2, 3]]. Symmetric over (0, 0, 2, 2) in one cell: v = (0.5, 0.5), the
// mean 1.5; over (0, 0, 1, 2): v = (0, 0.5) → row 0 halfway, 0.5. Asymmetric over (0.5, 0.25, 2, 2):
// v = (0.5, 0.25): ½(¾·0 + ¼·1) + ½(¾·2 + ¼·3) = 0.125 + 1.125 = 1.25.
TEMPLATE_TEST_CASE("roi_resample in two dimensions: bilinear, by hand", "[roi]", float, double, mp50) {
  using T = TestType;
  const auto x = tensor<T>(Shape::of({1, 1, 2, 2}), {0, 1, 2, 3});
  const Shape one = Shape::of({1, 4});
  check_values(roi_run<T>(roi_op(RoiOp::Resample, {1, 1}), x, one, {0, 0, 2, 2}, {0}), {1.5});
  check_values(roi_run<T>(roi_op(RoiOp::Resample, {1, 1}), x, one, {0, 0, 1, 2}, {0}), {0.5});
  check_values(roi_run<T>(roi_op(RoiOp::Resample, {1, 1}, RoiMethod::Asymmetric), x, one, {0.5, 0.25, 2, 2}, {0}), {1.25});
}

// A start known only to lie in [0.4, 0.6] rounds to 0 or 1: over x = 0, 10, 20, 30 with end 2 the
// single cell is [0, 2) (average 5) or [1, 2) (10); the element holds both, and nothing far beyond.
// A start anywhere in [−100, 100] leaves 201 roundings, beyond roi::kMaxChoices: NaN (bounds
// nothing). An interpolation point at an integer under float32 rounding (symmetric, (0, 4), p = 4)
// may fall on either side of it: the hull of both readings still holds the exact value, within a
// relative 10^-5 (a few roundings of the sample point, amplified by the step of 10 between neighbours).
TEST_CASE("roi ops under an enclosure: the hull over every rounding", "[roi]") {
  const auto x = tensor<Envelope>(Shape::of({1, 1, 4}), {0, 10, 20, 30});
  const auto run_one = [&](const RoiAttrs& a, Envelope s, Envelope e) {
    const std::vector<Value<Envelope>> ins{x, Tensor<Envelope>::from(Shape::of({1, 2}), {s, e}).value(),
                                           integers(Shape::of({1}), {0})};
    return std::get<Tensor<Envelope>>(run_values<Envelope>(a, ins)[0]);
  };
  const Envelope avg = run_one(roi_op(RoiOp::AvgPool, {1}), Envelope(0.4, 0.6), Envelope(2.0))[0];
  CHECK(avg.lo <= 5.0);
  CHECK(avg.lo > 4.999);
  CHECK(avg.hi >= 10.0);
  CHECK(avg.hi < 10.001);
  CHECK(std::isnan(sc::enclosure(run_one(roi_op(RoiOp::MaxPool, {1}), Envelope(-100, 100), Envelope(2.0))[0]).lo));
  const auto y = run_one(roi_op(RoiOp::Resample, {4}), Envelope(0.0), Envelope(4.0));
  for (int64_t i = 0; i < 4; ++i) {
    const auto exact = static_cast<double>(10 * i);
    CHECK(y[i].lo <= exact);
    CHECK(y[i].hi >= exact);
    CHECK(y[i].hi - y[i].lo <= 1e-5 * std::max(exact, 1.0));  // tight: some 170 float32 roundoffs (2^-24)
  }
}

// An unknown batch index (an enclosure's integer it could not decide) reads every batch item.
TEST_CASE("roi ops with an unknown batch index: the hull over the batch", "[roi]") {
  const auto x = tensor<Envelope>(Shape::of({2, 1, 2}), {0, 2, 10, 20});
  const std::vector<Value<Envelope>> ins{x, tensor<Envelope>(Shape::of({1, 2}), {0, 2}), integers(Shape::of({1}), {kUnknownInteger})};
  const Envelope v = std::get<Tensor<Envelope>>(run_values<Envelope>(roi_op(RoiOp::MaxPool, {1}), ins)[0])[0];
  CHECK(v.lo == 2.0);
  CHECK(v.hi == 20.0);
}

TEST_CASE("roi obligations: output size, input rank, rois, batch index, kinds", "[roi][shape]") {
  const std::vector<ElemKind> kinds = {ElemKind::Real, ElemKind::Real, ElemKind::Integer};
  const auto code = [&](const RoiAttrs& a, Shape x, Shape rois, Shape index) { return code_of(a, {x, rois, index}, kinds); };
  const RoiAttrs two = roi_op(RoiOp::AvgPool, {2, 3});
  CHECK(code(two, Shape::of({2, 3, 8, 8}), Shape::of({5, 4}), Shape::of({5})) == "ok");
  CHECK(out_shape(two, {Shape::of({2, 3, 8, 8}), Shape::of({5, 4}), Shape::of({5})}) == Shape::of({5, 3, 2, 3}));
  CHECK(code(roi_op(RoiOp::AvgPool, {0, 2}), Shape::of({1, 1, 4, 4}), Shape::of({1, 4}), Shape::of({1})) == "attr.roi.output-size");
  CHECK(code(roi_op(RoiOp::AvgPool, {}), Shape::of({1, 1}), Shape::of({1, 0}), Shape::of({1})) == "attr.roi.output-size");
  CHECK(code(two, Shape::of({1, 3, 8}), Shape::of({1, 4}), Shape::of({1})) == "shape.roi.input-rank");
  CHECK(code(two, Shape::of({1, 3, 8, 8}), Shape::of({5, 2}), Shape::of({5})) == "shape.roi.rois");
  CHECK(code(two, Shape::of({1, 3, 8, 8}), Shape::of({20}), Shape::of({5})) == "shape.roi.rois");
  CHECK(code(two, Shape::of({1, 3, 8, 8}), Shape::of({5, 4}), Shape::of({4})) == "shape.roi.batch-index");
  CHECK(code(two, Shape::of({1, 3, 8, 8}), Shape::of({5, 4}), Shape::of({5, 1})) == "shape.roi.batch-index");
  CHECK(failure(two, {Shape::of({1, 3, 8, 8}), Shape::of({5, 4}), Shape::of({4})}, kinds).message ==
        "avg_roi_pool: batch_index needs one entry per row of rois, got [4] for rois [5, 4]");
  CHECK(failure(two, {Shape::of({1, 3, 8, 8}), Shape::of({5, 4}), Shape::of({5})}, {ElemKind::Real, ElemKind::Real, ElemKind::Real})
            .code == "kind.operand");
}
