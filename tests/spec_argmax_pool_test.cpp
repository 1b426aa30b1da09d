// argmax_pool (spec/ops/argmax_pool.hpp): hand-computed indices for both borders (the padded zero
// that takes part or not), row-major indices over 2-D and dilated windows, a window wholly in the
// padding, ties, NaN, the enclosures' undecided indices, and the window obligations it shares.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <vector>

#include "spec/scalar_envelope.hpp"
#include "spec/scalar_interval.hpp"

#include "op_test_support.hpp"

using nnref::mp50;
using namespace nnref;
using namespace nnref::test;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

ArgmaxPoolAttrs window1d(int64_t k, int64_t s, std::pair<int64_t, int64_t> pad, PoolBorder border) {
  ArgmaxPoolAttrs a;
  a.kernel = {k};
  a.stride = {s};
  a.padding = {pad};
  a.border = border;
  return a;
}

template <class T>
std::vector<int64_t> indices(const ArgmaxPoolAttrs& a, const Value<T>& x) {
  return std::get<Tensor<int64_t>>(run_values<T>(a, {x})[0]).values();
}

}  // namespace

// Kernel 3, stride 2, padding (1, 1) over 5 elements: (5 + 2 − 3)/2 + 1 = 3 windows, at positions
// {−1, 0, 1}, {1, 2, 3}, {3, 4, 5} (−1 and 5 padding).
// [1, 3, 3, −2, 5]: Constant reads [0, 1, 3] → 2, [3, 3, −2] → 0 (the tie's first), [−2, 5, 0] → 1;
// Ignore the same (no padded zero is a maximum). All negative, [−1, −3, −3, −2, −5]: Constant reads
// [0, −1, −3] → 0 (the padded zero), [−3, −3, −2] → 2, [−2, −5, 0] → 2 (the padded zero); Ignore
// reads {1: −1, 2: −3} → 1, 2, {0: −2, 1: −5} → 0.
TEMPLATE_TEST_CASE("argmax_pool: the index within the window, constant and ignore borders", "[argmax_pool]", float, double, mp50) {
  using T = TestType;
  const Value<T> mixed = tensor<T>(Shape::of({1, 1, 5}), {1, 3, 3, -2, 5});
  const Value<T> negative = tensor<T>(Shape::of({1, 1, 5}), {-1, -3, -3, -2, -5});
  const auto constant = window1d(3, 2, {1, 1}, PoolBorder::Constant), ignore = window1d(3, 2, {1, 1}, PoolBorder::Ignore);
  const auto y = run_values<T>(constant, {mixed});
  CHECK(shape_of(y[0]) == Shape::of({1, 1, 3}));
  CHECK(std::get<Tensor<int64_t>>(y[0]).values() == std::vector<int64_t>{2, 0, 1});
  CHECK(indices<T>(ignore, mixed) == std::vector<int64_t>{2, 0, 1});
  CHECK(indices<T>(constant, negative) == std::vector<int64_t>{0, 2, 2});
  CHECK(indices<T>(ignore, negative) == std::vector<int64_t>{1, 2, 0});
}

// Kernel 2, stride 2, padding (2, 2) over one element x = −5: padded extent 5, 2 windows at
// {−2, −1} (all padding) and {0, 1}. Ignore: the empty window answers 0, the other reads only x
// (at 0) → 0. Constant: [0, 0] → 0, [−5, 0] → 1.
TEST_CASE("argmax_pool: a window wholly in the padding", "[argmax_pool]") {
  const Value<double> x = tensor(Shape::of({1, 1, 1}), {-5});
  CHECK(indices<double>(window1d(2, 2, {2, 2}, PoolBorder::Ignore), x) == std::vector<int64_t>{0, 0});
  CHECK(indices<double>(window1d(2, 2, {2, 2}, PoolBorder::Constant), x) == std::vector<int64_t>{0, 1});
}

// 2-D, kernel [2, 2], stride 1 over 3×3 [[1, 5, 2], [7, 3, 8], [0, 6, 4]]: windows [1, 5, 7, 3] → 2,
// [5, 2, 3, 8] → 3, [7, 3, 0, 6] → 0, [3, 8, 6, 4] → 1 (row-major within the window). Dilation
// [2, 2], one window over the corners 4, 9, 7, 2 of [[4, 0, 9], [0, 0, 0], [7, 0, 2]] → 1.
// Two batch elements and two channels, kernel [2] over [[[1, 2], [4, 3]], [[0, 0], [−1, 6]]] → [1, 0, 0, 1].
TEMPLATE_TEST_CASE("argmax_pool: row-major over 2-D and dilated windows, per batch element and channel", "[argmax_pool]", float,
                   double, mp50) {
  using T = TestType;
  ArgmaxPoolAttrs a;
  a.kernel = {2, 2};
  CHECK(indices<T>(a, tensor<T>(Shape::of({1, 1, 3, 3}), {1, 5, 2, 7, 3, 8, 0, 6, 4})) == std::vector<int64_t>{2, 3, 0, 1});
  a.dilation = {2, 2};
  CHECK(indices<T>(a, tensor<T>(Shape::of({1, 1, 3, 3}), {4, 0, 9, 0, 0, 0, 7, 0, 2})) == std::vector<int64_t>{1});
  ArgmaxPoolAttrs pairs;
  pairs.kernel = {2};
  CHECK(indices<T>(pairs, tensor<T>(Shape::of({2, 2, 2}), {1, 2, 4, 3, 0, 0, -1, 6})) == std::vector<int64_t>{1, 0, 0, 1});
}

// Automatic padding (SameUpper) over 4 elements with kernel 3, stride 1: total 2, (1, 1): windows
// [0, a, b], [a, b, c], [b, c, d], [c, d, 0]; [−1, −2, −3, −4] under Constant → 0, 0, 0, 2.
TEST_CASE("argmax_pool: automatic padding", "[argmax_pool]") {
  ArgmaxPoolAttrs a;
  a.kernel = {3};
  a.pad_mode = PadMode::SameUpper;
  CHECK(indices<double>(a, tensor(Shape::of({1, 1, 4}), {-1, -2, -3, -4})) == std::vector<int64_t>{0, 0, 0, 2});
}

// NaN counts beyond every number, the first NaN: [1, NaN, 5, NaN] with kernel 4 → 1; with a padded
// zero before it under Constant, [0, 1, NaN, 5, NaN] → 2; −0 and +0 tie: the first.
// (Not in double: the fast path's envelope leaves an argmax over NaN undecided.)
TEMPLATE_TEST_CASE("argmax_pool: NaN and signed zeros", "[argmax_pool]", float, mp50) {
  using T = TestType;
  const Value<T> x = tensor<T>(Shape::of({1, 1, 4}), {1, kNaN, 5, kNaN});
  CHECK(indices<T>(window1d(4, 1, {0, 0}, PoolBorder::Constant), x) == std::vector<int64_t>{1});
  CHECK(indices<T>(window1d(5, 1, {1, 0}, PoolBorder::Constant), x) == std::vector<int64_t>{2});
  CHECK(indices<T>(window1d(2, 1, {0, 0}, PoolBorder::Ignore), tensor<T>(Shape::of({1, 1, 2}), {-0.0, 0.0})) ==
        std::vector<int64_t>{0});
}

// Interval: 1/3 twice in one window can be either's maximum: undecided; against 1: decided. A
// padded zero against [−ε, ε] around 0 under Constant: undecided; under Ignore the one real element.
TEST_CASE("argmax_pool under enclosures: decided where the sets part, unknown otherwise", "[argmax_pool]") {
  const Interval third = Interval(1) / Interval(3);
  const auto interval_indices = [](const ArgmaxPoolAttrs& a, std::vector<Interval> v) {
    const Shape s = Shape::of({1, 1, static_cast<int64_t>(v.size())});
    const Value<Interval> x = Tensor<Interval>::from(s, std::move(v)).value();
    return indices<Interval>(a, x);
  };
  const auto pairs = window1d(2, 1, {0, 0}, PoolBorder::Constant);
  CHECK(interval_indices(pairs, {third, third, Interval(1)}) == std::vector<int64_t>{kUnknownInteger, 1});
  const Interval near_zero = third - third;  // an enclosure of 0 with a radius
  REQUIRE(sc::enclosure(near_zero).lo < 0);
  CHECK(interval_indices(window1d(2, 1, {1, 0}, PoolBorder::Constant), {near_zero}) == std::vector<int64_t>{kUnknownInteger});
  CHECK(interval_indices(window1d(2, 1, {1, 0}, PoolBorder::Ignore), {near_zero}) == std::vector<int64_t>{1});
  const Value<Envelope> e = Tensor<Envelope>::from(Shape::of({1, 1, 2}), {Envelope(0.9, 1.1), Envelope(2.0)}).value();
  CHECK(indices<Envelope>(pairs, e) == std::vector<int64_t>{1});
}

TEST_CASE("argmax_pool obligations: the window's, a real input", "[argmax_pool]") {
  ArgmaxPoolAttrs a;
  a.kernel = {3};
  CHECK(code_of(a, {Shape::of({1, 1, 3})}) == "ok");
  CHECK(code_of(a, {Shape::of({1, 1, 2})}) == "shape.window.exceeds-input");
  CHECK(code_of(a, {Shape::of({1, 3})}) == "shape.window.input-rank");
  CHECK(code_of(a, {Shape::of({1, 1, 3})}, {ElemKind::Integer}) == "kind.operand");
  a.kernel = {0};
  CHECK(code_of(a, {Shape::of({1, 1, 3})}) == "attr.window.kernel-nonpositive");
  a.kernel = {1};
  a.stride = {1, 1};
  CHECK(code_of(a, {Shape::of({1, 1, 3})}) == "attr.window.attribute-length");
  const auto f = failure(window1d(4, 1, {0, 0}, PoolBorder::Ignore), {Shape::of({1, 1, 3})});
  CHECK(f.message == "argmax_pool window of width 4 does not fit the padded input width 3 (3 + 0 + 0)");
}
