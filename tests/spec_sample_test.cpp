// sample and desample (spec/ops/sample.hpp): hand-computed values with padding, strides, overlapping
// windows and 2-D row-major indices, an index outside the window, their adjointness, sample of
// argmax_pool as max_pool (max_pool_with_index), the enclosures' unknown index, and the obligations.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "spec/scalar_interval.hpp"

#include "op_test_support.hpp"

using nnref::mp50;
using namespace nnref;
using namespace nnref::test;

namespace {

Tensor<int64_t> ints(Shape s, std::vector<int64_t> v) { return Tensor<int64_t>::from(std::move(s), std::move(v)).value(); }

SampleAttrs window1d(SampleOp op, int64_t k, int64_t s, std::pair<int64_t, int64_t> pad, std::vector<int64_t> output_shape = {}) {
  SampleAttrs a;
  a.op = op;
  a.kernel = {k};
  a.stride = {s};
  a.padding = {pad};
  a.output_shape = std::move(output_shape);
  return a;
}

template <class T>
std::vector<double> values(const SampleAttrs& a, const Tensor<T>& x, const Tensor<int64_t>& index) {
  return doubles(std::get<Tensor<T>>(run_values<T>(a, {Value<T>(x), Value<T>(index)})[0]));
}

}  // namespace

// sample, kernel 2, stride 2, padding (1, 1) over [10, 20, 30, 40]: 3 windows at {−1, 0}, {1, 2},
// {3, 4} (−1 and 4 padding, reading 0). Index [0, 1, 1] → [0, 30, 0]; [1, 0, 0] → [10, 20, 40].
TEMPLATE_TEST_CASE("sample reads the window position its index names, 0 in the padding", "[sample]", float, double, mp50) {
  using T = TestType;
  const auto a = window1d(SampleOp::Sample, 2, 2, {1, 1});
  const auto x = tensor<T>(Shape::of({1, 1, 4}), {10, 20, 30, 40});
  CHECK(values<T>(a, x, ints(Shape::of({1, 1, 3}), {0, 1, 1})) == std::vector<double>{0, 30, 0});
  CHECK(values<T>(a, x, ints(Shape::of({1, 1, 3}), {1, 0, 0})) == std::vector<double>{10, 20, 40});
}

// 2-D, kernel [2, 2], stride 1 over 3×3 1..9: index [[2, 3], [0, 1]] names (1, 0) → 4, (1, 2) → 6,
// (1, 0) → 4, (1, 2) → 6. Two channels, kernel [1, 2]: x [[1, 2], [3, 4]] per channel, index 1 and 0.
TEMPLATE_TEST_CASE("sample: row-major indices in 2-D, per channel", "[sample]", float, double, mp50) {
  using T = TestType;
  SampleAttrs a;
  a.kernel = {2, 2};
  CHECK(values<T>(a, tensor<T>(Shape::of({1, 1, 3, 3}), {1, 2, 3, 4, 5, 6, 7, 8, 9}),
                  ints(Shape::of({1, 1, 2, 2}), {2, 3, 0, 1})) == std::vector<double>{4, 6, 4, 6});
  a.kernel = {1, 2};
  CHECK(values<T>(a, tensor<T>(Shape::of({1, 2, 1, 2}), {1, 2, 3, 4}), ints(Shape::of({1, 2, 1, 1}), {1, 0})) ==
        std::vector<double>{2, 3});
}

// An index outside [0, 2) names no position: NaN (−1 and 2 alike).
TEST_CASE("sample: an index outside the window reads NaN", "[sample]") {
  const auto y = values<double>(window1d(SampleOp::Sample, 2, 2, {0, 0}), tensor(Shape::of({1, 1, 4}), {1, 2, 3, 4}),
                                ints(Shape::of({1, 1, 2}), {-1, 2}));
  CHECK(std::isnan(y[0]));
  CHECK(std::isnan(y[1]));
}

// desample, kernel 2, stride 2, no padding, x [1, 2, 4] into 6: index [1, 0, 1] puts 1 at 1, 2 at 2,
// 4 at 5 → [0, 1, 2, 0, 0, 4]. Overlapping windows (kernel 3, stride 1, 3 into 5), index [2, 1, 0]:
// all at 2 → [0, 0, 7, 0, 0]. Padding (1, 1), kernel 2, stride 2, 3 into 4 (windows {−1, 0}, {1, 2},
// {3, 4}): index [0, 1, 1] puts 1 at −1 (dropped), 2 at 2, 4 at 4 (dropped) → [0, 0, 2, 0]; index
// [1, 0, 0] → 1 at 0, 2 at 1, 4 at 3 → [1, 2, 0, 4]; index [2, 0, 0]: 2 equals no window position
// (the formula's sum has no such j), 1 adds nothing → [0, 2, 0, 4].
TEMPLATE_TEST_CASE("desample sums each element into the position its index names", "[sample]", float, double, mp50) {
  using T = TestType;
  const auto x = tensor<T>(Shape::of({1, 1, 3}), {1, 2, 4});
  const auto index = [](std::vector<int64_t> v) { return ints(Shape::of({1, 1, 3}), std::move(v)); };
  CHECK(values<T>(window1d(SampleOp::Desample, 2, 2, {0, 0}, {1, 1, 6}), x, index({1, 0, 1})) ==
        std::vector<double>{0, 1, 2, 0, 0, 4});
  CHECK(values<T>(window1d(SampleOp::Desample, 3, 1, {0, 0}, {1, 1, 5}), x, index({2, 1, 0})) ==
        std::vector<double>{0, 0, 7, 0, 0});
  const auto padded = window1d(SampleOp::Desample, 2, 2, {1, 1}, {1, 1, 4});
  CHECK(values<T>(padded, x, index({0, 1, 1})) == std::vector<double>{0, 0, 2, 0});
  CHECK(values<T>(padded, x, index({1, 0, 0})) == std::vector<double>{1, 2, 0, 4});
  CHECK(values<T>(padded, x, index({2, 0, 0})) == std::vector<double>{0, 2, 0, 4});
}

// desample is sample's adjoint: Σ sample(u, i)·v = Σ u·desample(v, i) for any u, v and index i, here
// with 2-D windows, stride, dilation and padding (both sides computed exactly: small integers).
TEST_CASE("desample is the adjoint of sample", "[sample]") {
  SampleAttrs s;
  s.kernel = {2, 3};
  s.stride = {2, 1};
  s.dilation = {1, 2};
  s.padding = {{1, 0}, {1, 2}};
  const Shape up = Shape::of({1, 2, 5, 4});  // down: ⌊(5 + 1 − 2)/2⌋ + 1 = 3, (4 + 3 − 5) + 1 = 3
  const Shape down = Shape::of({1, 2, 3, 3});
  std::vector<double> u, v;
  for (int64_t i = 0; i < up.count(); ++i) u.push_back(static_cast<double>((i * 7) % 11) - 5);
  for (int64_t i = 0; i < down.count(); ++i) v.push_back(static_cast<double>((i * 5) % 7) - 3);
  std::vector<int64_t> idx;
  for (int64_t i = 0; i < down.count(); ++i) idx.push_back((i * 5) % 6);
  const auto y = values<double>(s, tensor(up, u), ints(down, idx));
  SampleAttrs d = s;
  d.op = SampleOp::Desample;
  d.output_shape = up.dims();
  const auto z = values<double>(d, tensor(down, v), ints(down, idx));
  double lhs = 0, rhs = 0;
  for (size_t i = 0; i < v.size(); ++i) lhs += y[i] * v[i];
  for (size_t i = 0; i < u.size(); ++i) rhs += u[i] * z[i];
  CHECK(lhs == rhs);
  CHECK(lhs != 0);
}

// max_pool_with_index (§4.9.3) is argmax_pool then sample: its output is max_pool's under the
// border 'constant' (padded zeros take part). [−1, −3, −3, −2, −5], kernel 3, stride 2, padding
// (1, 1): maxima [0, −2, 0] at indices [0, 2, 2].
TEMPLATE_TEST_CASE("sample of argmax_pool is max_pool", "[sample]", float, double, mp50) {
  using T = TestType;
  ArgmaxPoolAttrs arg;
  arg.kernel = {3};
  arg.stride = {2};
  arg.padding = {{1, 1}};
  const auto x = tensor<T>(Shape::of({1, 1, 5}), {-1, -3, -3, -2, -5});
  const auto index = std::get<Tensor<int64_t>>(run_values<T>(arg, {Value<T>(x)})[0]);
  CHECK(index.values() == std::vector<int64_t>{0, 2, 2});
  CHECK(values<T>(window1d(SampleOp::Sample, 3, 2, {1, 1}), x, index) == std::vector<double>{0, -2, 0});
  PoolAttrs max;
  max.kernel = {3};
  max.stride = {2};
  max.padding = {{1, 1}};
  max.border = PoolBorder::Constant;
  CHECK(doubles(run<T>(max, {x})[0]) == std::vector<double>{0, -2, 0});
}

// An index an enclosure left unknown: sample reads the hull of the window (with the padded 0);
// desample adds hull(0, x) wherever it may point.
TEST_CASE("sample and desample with an unknown index", "[sample]") {
  const auto x = Tensor<Interval>::from(Shape::of({1, 1, 2}), {Interval(3), Interval(5)}).value();
  const auto unknown = ints(Shape::of({1, 1, 2}), {kUnknownInteger, 1});
  const auto y = std::get<Tensor<Interval>>(
      run_values<Interval>(window1d(SampleOp::Sample, 2, 1, {1, 0}), {Value<Interval>(x), Value<Interval>(unknown)})[0]);
  CHECK(sc::enclosure(y[0]).lo == 0);  // the window {−1, 0}: padding and 3
  CHECK(sc::enclosure(y[0]).hi == 3);
  CHECK(sc::enclosure(y[1]).lo == 5);  // index 1 of {0, 1}: 5
  CHECK(sc::enclosure(y[1]).hi == 5);
  const auto z = std::get<Tensor<Interval>>(run_values<Interval>(window1d(SampleOp::Desample, 2, 2, {0, 0}, {1, 1, 4}),
                                                                 {Value<Interval>(x), Value<Interval>(unknown)})[0]);
  // x[0] = 3 may go to 0 or 1; x[1] = 5 goes to 3.
  const std::vector<std::pair<double, double>> expected{{0, 3}, {0, 3}, {0, 0}, {5, 5}};
  for (size_t i = 0; i < expected.size(); ++i) {
    CHECK(sc::enclosure(z[static_cast<int64_t>(i)]).lo == expected[i].first);
    CHECK(sc::enclosure(z[static_cast<int64_t>(i)]).hi == expected[i].second);
  }
}

TEST_CASE("sample and desample obligations", "[sample]") {
  const std::vector<ElemKind> kinds{ElemKind::Real, ElemKind::Integer};
  const auto sample = window1d(SampleOp::Sample, 2, 2, {0, 0});
  CHECK(code_of(sample, {Shape::of({1, 1, 4}), Shape::of({1, 1, 2})}, kinds) == "ok");
  const auto f = failure(sample, {Shape::of({1, 1, 4}), Shape::of({1, 1, 4})}, kinds);
  CHECK(f.code == "shape.sample.index-shape");
  CHECK(f.message == "sample index [1, 1, 4] must have the shape [1, 1, 2] of the output");
  CHECK(code_of(sample, {Shape::of({1, 1, 4}), Shape::of({1, 2})}, kinds) == "shape.sample.index-shape");
  CHECK(code_of(sample, {Shape::of({1, 1, 4}), Shape::of({1, 1, 2})}, {ElemKind::Real, ElemKind::Real}) == "kind.operand");
  CHECK(code_of(sample, {Shape::of({1, 1, 1}), Shape::of({1, 1, 1})}, kinds) == "shape.window.exceeds-input");

  const auto desample = window1d(SampleOp::Desample, 2, 2, {0, 0}, {1, 1, 6});
  CHECK(code_of(desample, {Shape::of({1, 1, 3}), Shape::of({1, 1, 3})}, kinds) == "ok");
  CHECK(code_of(desample, {Shape::of({1, 1, 3}), Shape::of({1, 1, 6})}, kinds) == "shape.sample.index-shape");
  const auto g = failure(desample, {Shape::of({1, 1, 2}), Shape::of({1, 1, 2})}, kinds);
  CHECK(g.code == "shape.desample.output-shape");
  CHECK(g.message == "desample output_shape [1, 1, 6] down-scales to [1, 1, 3] through the window, not to the input [1, 1, 2]");
  CHECK(code_of(window1d(SampleOp::Desample, 2, 2, {0, 0}, {1, 2, 6}), {Shape::of({1, 1, 3}), Shape::of({1, 1, 3})}, kinds) ==
        "shape.desample.output-shape");
  CHECK(code_of(window1d(SampleOp::Desample, 2, 2, {0, 0}, {6}), {Shape::of({1, 1, 3}), Shape::of({1, 1, 3})}, kinds) ==
        "shape.desample.output-shape");
}
