// Layout ops of NNEF 1.0 §4.5 beyond the first reader: slice with strides (negative ones walk
// backwards), pad's reflect-even border, gather with integer indices, cast between the element
// kinds, and the ops that move elements holding every kind; hand-computed values and obligations. Part of spec_layout_test.
#include <catch2/catch.hpp>

#include <cmath>
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

}  // namespace

// x = 0..9. Stride 3 from 1 to 9: 1, 4, 7 (⌈8/3⌉ = 3; rounding down would drop 7); stride 2 from
// 0 to the end 10: 0, 2, 4, 6, 8; stride −1 from 9 to −1 (clamped: through index 0) reverses;
// stride −3 from −1 (9) to 0: 9, 6, 3 (⌈9/3⌉ = 3); stride −4 from 100 (clamped to 9) to −100
// (clamped to −1): 9, 5, 1.
TEMPLATE_TEST_CASE("slice with strides, forwards and backwards, counts rounded up", "[layout]", float, double, mp50) {
  using T = TestType;
  const auto x = tensor<T>(Shape::of({10}), iota(10));
  const auto slice = [&](int64_t b, int64_t e, int64_t s) { return doubles(run<T>(SliceAttrs{{0}, {b}, {e}, {s}}, {x})[0]); };
  CHECK(slice(1, 9, 3) == std::vector<double>{1, 4, 7});
  CHECK(slice(0, 10, 2) == std::vector<double>{0, 2, 4, 6, 8});
  CHECK(slice(9, -100, -1) == std::vector<double>{9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  CHECK(slice(-1, 0, -3) == std::vector<double>{9, 6, 3});
  CHECK(slice(100, -100, -4) == std::vector<double>{9, 5, 1});
}

// 2-D, x[r][c] = 4r + c of [3, 4]: rows reversed (stride −1 from 2 to −4 → −1) and columns 0 and 2
// (stride 2): [[8, 10], [4, 6], [0, 2]]. With a stride other than 1, end 0 is index 0, not the end:
// columns from 3 down to 0 (excluded) by −1: 3, 2, 1.
TEST_CASE("slice with strides on several axes, and end 0 only legacy with unit strides", "[layout]") {
  const auto x = tensor(Shape::of({3, 4}), iota(12));
  const auto y = run(SliceAttrs{{0, 1}, {2, 0}, {-4, 4}, {-1, 2}}, {x})[0];
  CHECK(y.shape() == Shape::of({3, 2}));
  CHECK(doubles(y) == std::vector<double>{8, 10, 4, 6, 0, 2});
  CHECK(doubles(run(SliceAttrs{{1}, {3}, {0}, {-1}}, {x})[0]) == std::vector<double>{3, 2, 1, 7, 6, 5, 11, 10, 9});
  CHECK(doubles(run(SliceAttrs{{1}, {2}, {0}, {1}}, {x})[0]) == std::vector<double>{2, 3, 6, 7, 10, 11});  // legacy
}

TEST_CASE("slice stride obligations", "[layout][shape]") {
  const Shape x = Shape::of({10});
  CHECK(code_of(SliceAttrs{{0}, {0}, {10}, {0}}, {x}) == "attr.slice.stride-zero");
  CHECK(code_of(SliceAttrs{{0}, {0}, {10}, {1, 1}}, {x}) == "attr.slice.attribute-length");
  CHECK(code_of(SliceAttrs{{0}, {2}, {5}, {-1}}, {x}) == "shape.slice.empty");  // backwards needs begin ≥ end
  CHECK(code_of(SliceAttrs{{0}, {5}, {2}, {1}}, {x}) == "shape.slice.empty");
  const auto empty = failure(SliceAttrs{{0}, {5}, {2}, {2}}, {x});
  CHECK(empty.message == "slice of axis 0 from 5 to 2 by 2 on extent 10 starts at 5 and keeps -1 elements, none");
}

// reflect-even repeats the edge: x = [1, 2, 3] padded (3, 2): x[2], x[1], x[0] | x | x[2], x[1].
TEMPLATE_TEST_CASE("pad with the reflect-even border", "[layout]", float, double, mp50) {
  using T = TestType;
  const auto x = tensor<T>(Shape::of({3}), {1, 2, 3});
  CHECK(doubles(run<T>(PadAttrs{{{3, 2}}, PadBorder::ReflectEven}, {x})[0]) == std::vector<double>{3, 2, 1, 1, 2, 3, 3, 2});
  // 2-D, x[r][c] = 2r + c of [2, 2], rows (1, 1), columns (0, 1): [[0, 1, 1], [0, 1, 1], [2, 3, 3], [2, 3, 3]].
  const auto y = run<T>(PadAttrs{{{1, 1}, {0, 1}}, PadBorder::ReflectEven}, {tensor<T>(Shape::of({2, 2}), {0, 1, 2, 3})})[0];
  CHECK(doubles(y) == std::vector<double>{0, 1, 1, 0, 1, 1, 2, 3, 3, 2, 3, 3});
  CHECK(code_of(PadAttrs{{{3, 3}}, PadBorder::ReflectEven}, {Shape::of({3})}) == "ok");
  CHECK(code_of(PadAttrs{{{4, 0}}, PadBorder::ReflectEven}, {Shape::of({3})}) == "shape.pad.reflect-even-too-wide");
}

// x [3, 2] = [[0, 1], [2, 3], [4, 5]]. gather along axis 0 with indices [2, 0, 2]: rows 2, 0, 2;
// along axis 1 with indices [[1], [0]] (shape [2, 1]): y[p, i, j] = x[p, indices[i, j]], shape
// [3, 2, 1]: [[1], [0]], [[3], [2]], [[5], [4]]. An index outside [0, extent) reads NaN.
TEMPLATE_TEST_CASE("gather along an axis with integer indices", "[layout]", float, double, mp50) {
  using T = TestType;
  const Value<T> x = tensor<T>(Shape::of({3, 2}), iota(6));
  const auto rows = run_values<T>(GatherAttrs{0}, {x, integers(Shape::of({3}), {2, 0, 2})});
  CHECK(shape_of(rows[0]) == Shape::of({3, 2}));
  check_values(std::get<Tensor<T>>(rows[0]), {4, 5, 0, 1, 4, 5});
  const auto cols = run_values<T>(GatherAttrs{1}, {x, integers(Shape::of({2, 1}), {1, 0})});
  CHECK(shape_of(cols[0]) == Shape::of({3, 2, 1}));
  check_values(std::get<Tensor<T>>(cols[0]), {1, 0, 3, 2, 5, 4});
  const auto outside = run_values<T>(GatherAttrs{-1}, {x, integers(Shape::of({2}), {-1, 2})});
  for (const T& v : std::get<Tensor<T>>(outside[0]).values()) CHECK(std::isnan(sc::to_double(v)));
}

// An index an enclosure left unknown reads every value of the axis: the hull of x[p, 0..2] = [0, 4].
TEST_CASE("gather with an unknown index under an enclosure: the hull over the axis", "[layout]") {
  const Value<Envelope> x = Tensor<Envelope>::from(Shape::of({3}), {Envelope(4.0), Envelope(0.0), Envelope(2.0)}).value();
  const auto y = run_values<Envelope>(GatherAttrs{0}, {x, integers(Shape::of({1}), {kUnknownInteger})});
  const Envelope v = std::get<Tensor<Envelope>>(y[0])[0];
  CHECK(v.lo == 0.0);
  CHECK(v.hi == 4.0);
}

TEST_CASE("gather obligations: integer indices and an axis of the input", "[layout]") {
  const std::vector<ElemKind> kinds = {ElemKind::Real, ElemKind::Integer};
  CHECK(code_of(GatherAttrs{1}, {Shape::of({2, 3}), Shape::of({4})}, kinds) == "ok");
  CHECK(code_of(GatherAttrs{2}, {Shape::of({2, 3}), Shape::of({4})}, kinds) == "shape.axis.out-of-range");
  CHECK(failure(GatherAttrs{0}, {Shape::of({2, 3}), Shape::of({4})}, {ElemKind::Real, ElemKind::Real}).message ==
        "gather input 1 must be integer, got real");
}

// Reals to integers floor (−1.5 → −2, 2.7 → 2, −0 → 0); to logical values everything but ±0 is
// true; integers and logical values to reals exactly.
TEMPLATE_TEST_CASE("cast between reals, integers and logical values", "[layout]", float, double, mp50) {
  using T = TestType;
  const Value<T> x = tensor<T>(Shape::of({4}), {-1.5, 2.7, -0.0, 3});
  const auto ints = run_values<T>(CastAttrs{ElemKind::Real, ElemKind::Integer}, {x});
  CHECK(std::get<Tensor<int64_t>>(ints[0]).values() == std::vector<int64_t>{-2, 2, 0, 3});
  const auto bools = run_values<T>(CastAttrs{ElemKind::Real, ElemKind::Logical}, {x});
  CHECK(std::get<Tensor<uint8_t>>(bools[0]).values() == std::vector<uint8_t>{1, 1, 0, 1});
  const Value<T> i = integers(Shape::of({3}), {-7, 0, 1 << 20});
  check_values(std::get<Tensor<T>>(run_values<T>(CastAttrs{ElemKind::Integer, ElemKind::Real}, {i})[0]), {-7, 0, 1 << 20});
  CHECK(std::get<Tensor<uint8_t>>(run_values<T>(CastAttrs{ElemKind::Integer, ElemKind::Logical}, {i})[0]).values() ==
        std::vector<uint8_t>{1, 0, 1});
  const Value<T> l = logical(Shape::of({2}), {1, 0});
  check_values(std::get<Tensor<T>>(run_values<T>(CastAttrs{ElemKind::Logical, ElemKind::Real}, {l})[0]), {1, 0});
  CHECK(std::get<Tensor<int64_t>>(run_values<T>(CastAttrs{ElemKind::Logical, ElemKind::Integer}, {l})[0]).values() ==
        std::vector<int64_t>{1, 0});
  CHECK(std::get<Tensor<int64_t>>(run_values<T>(CastAttrs{ElemKind::Integer, ElemKind::Integer}, {i})[0]).values() ==
        std::vector<int64_t>{-7, 0, 1 << 20});
}

// Integers past float32's 2^24 and up to 2^53 − 1 (the most a run's inputs carry exactly) stay
// exact and logical values stay 0 or 1: the ops that move elements never pass through the scalar.
// In double each case also runs on the fast path (run_values).
TEMPLATE_TEST_CASE("the ops that move elements hold integers and logical values", "[layout]", float, double, mp50) {
  using T = TestType;
  constexpr int64_t big = 16777217, huge = 9007199254740991;
  const Value<T> x = integers(Shape::of({2, 3}), {big, -2, 3, 4, 5, -huge});
  const auto ints = [](const std::vector<Value<T>>& out, size_t k = 0) { return std::get<Tensor<int64_t>>(out[k]).values(); };
  using V = std::vector<int64_t>;
  CHECK(ints(run_values<T>(TransposeAttrs{{1, 0}, ElemKind::Integer}, {x})) == V{big, 4, -2, 5, 3, -huge});
  const auto r = run_values<T>(ReshapeAttrs{{3, 2}, ElemKind::Integer}, {x});
  CHECK(shape_of(r[0]) == Shape::of({3, 2}));
  CHECK(ints(r) == V{big, -2, 3, 4, 5, -huge});
  const Value<T> u = run_values<T>(UnsqueezeAttrs{{0}, ElemKind::Integer}, {x})[0];
  CHECK(shape_of(u) == Shape::of({1, 2, 3}));
  CHECK(ints(run_values<T>(SqueezeAttrs{{0}, ElemKind::Integer}, {u})) == V{big, -2, 3, 4, 5, -huge});
  // Axis 1 from 2 down to 0, exclusive: columns 2 and 1.
  CHECK(ints(run_values<T>(SliceAttrs{{1}, {2}, {0}, {-1}, ElemKind::Integer}, {x})) == V{3, -2, -huge, 5});
  CHECK(ints(run_values<T>(ConcatAttrs{1, 0, ElemKind::Integer}, {x, x})) ==
        V{big, -2, 3, big, -2, 3, 4, 5, -huge, 4, 5, -huge});
  const auto parts = run_values<T>(SplitAttrs{1, {2, 1}, ElemKind::Integer}, {x});
  CHECK(ints(parts, 0) == V{big, -2, 4, 5});
  CHECK(ints(parts, 1) == V{3, -huge});
  const Value<T> l = logical(Shape::of({2, 2}), {1, 1, 0, 0});
  CHECK(std::get<Tensor<uint8_t>>(run_values<T>(TransposeAttrs{{1, 0}, ElemKind::Logical}, {l})[0]).values() ==
        std::vector<uint8_t>{1, 0, 1, 0});
  CHECK(std::get<Tensor<uint8_t>>(run_values<T>(ConcatAttrs{0, 0, ElemKind::Logical}, {l, l})[0]).values() ==
        std::vector<uint8_t>{1, 1, 0, 0, 1, 1, 0, 0});
}

// pad of integers and truth values. x = [[big, −2, 3], [4, 5, −huge]]: reflect (1, 1) on axis 1
// mirrors about the edge element, [−2, big, −2, 3, −2] and [5, 4, 5, −huge, 5]; constant 7 after
// each row, [big, −2, 3, 7] and [4, 5, −huge, 7]; edge (replicate) one row before, row 0 twice.
// l = [[1, 1], [0, 0]] with true before each row: [1, 1, 1], [1, 0, 0].
TEMPLATE_TEST_CASE("pad holds integers and logical values", "[layout]", float, double, mp50) {
  using T = TestType;
  constexpr int64_t big = 16777217, huge = 9007199254740991;
  const Value<T> x = integers(Shape::of({2, 3}), {big, -2, 3, 4, 5, -huge});
  const auto ints = [](const std::vector<Value<T>>& out) { return std::get<Tensor<int64_t>>(out[0]).values(); };
  using V = std::vector<int64_t>;
  const auto pad = [](std::vector<std::pair<int64_t, int64_t>> p, PadBorder b, double v, ElemKind k) {
    return PadAttrs{std::move(p), b, Real(v), k};
  };
  CHECK(ints(run_values<T>(pad({{0, 0}, {1, 1}}, PadBorder::Reflect, 0, ElemKind::Integer), {x})) ==
        V{-2, big, -2, 3, -2, 5, 4, 5, -huge, 5});
  CHECK(ints(run_values<T>(pad({{0, 0}, {0, 1}}, PadBorder::Constant, 7, ElemKind::Integer), {x})) ==
        V{big, -2, 3, 7, 4, 5, -huge, 7});
  CHECK(ints(run_values<T>(pad({{1, 0}, {0, 0}}, PadBorder::Replicate, 0, ElemKind::Integer), {x})) ==
        V{big, -2, 3, big, -2, 3, 4, 5, -huge});
  const Value<T> l = logical(Shape::of({2, 2}), {1, 1, 0, 0});
  CHECK(std::get<Tensor<uint8_t>>(run_values<T>(pad({{0, 0}, {1, 0}}, PadBorder::Constant, 1, ElemKind::Logical), {l})[0])
            .values() == std::vector<uint8_t>{1, 1, 1, 1, 0, 0});
}

// pad's value must be an element of its kind: 0.5 is no integer, 2 no truth value; 3 and 1 are.
TEST_CASE("pad's value is an element of its data's kind", "[layout]") {
  const PadAttrs half{{{1, 1}}, PadBorder::Constant, Real(0.5), ElemKind::Integer};
  const Diagnostic d = failure(half, {Shape::of({3})}, {ElemKind::Integer});
  CHECK(d.code == "attr.pad.value-kind");
  CHECK(d.message.find("integer") != std::string::npos);
  CHECK(code_of(PadAttrs{{{1, 1}}, PadBorder::Constant, Real(2.0), ElemKind::Logical}, {Shape::of({3})},
                {ElemKind::Logical}) == "attr.pad.value-kind");
  CHECK(code_of(PadAttrs{{{1, 1}}, PadBorder::Constant, Real(3.0), ElemKind::Integer}, {Shape::of({3})},
                {ElemKind::Integer}) == "ok");
  CHECK(code_of(PadAttrs{{{1, 1}}, PadBorder::Constant, Real(1.0), ElemKind::Logical}, {Shape::of({3})},
                {ElemKind::Logical}) == "ok");
}

TEST_CASE("an op that moves elements takes the kind its attribute names", "[layout]") {
  const Diagnostic d = failure(TransposeAttrs{{1, 0}, ElemKind::Integer}, {Shape::of({2, 3})}, {ElemKind::Real});
  CHECK(d.code == "kind.operand");
  CHECK(d.message == "transpose input 0 must be integer, got real");
  CHECK(failure(ConcatAttrs{0, 0, ElemKind::Logical}, {Shape::of({2}), Shape::of({2})}, {ElemKind::Logical, ElemKind::Real})
            .message == "concat input 1 must be logical, got real");
  CHECK(code_of(ReshapeAttrs{{6}, ElemKind::Logical}, {Shape::of({2, 3})}, {ElemKind::Logical}) == "ok");
}

// NaN has no integer (kUnknownInteger, read back as NaN) and is true as a logical value (only 0
// is false); 2^70 has no int64. (In float and mp50: the fast path's envelope judgement leaves NaN
// unknown.)
TEMPLATE_TEST_CASE("cast of NaN and of reals beyond int64", "[layout]", float, mp50) {
  using T = TestType;
  const Value<T> x = tensor<T>(Shape::of({2}), {kNaN, 0x1p70});
  const auto ints = run_values<T>(CastAttrs{ElemKind::Real, ElemKind::Integer}, {x});
  CHECK(std::get<Tensor<int64_t>>(ints[0]).values() == std::vector<int64_t>{kUnknownInteger, kUnknownInteger});
  CHECK(std::get<Tensor<uint8_t>>(run_values<T>(CastAttrs{ElemKind::Real, ElemKind::Logical}, {x})[0]).values() ==
        std::vector<uint8_t>{1, 1});
  const auto back = run_values<T>(CastAttrs{ElemKind::Integer, ElemKind::Real}, {ints[0]});
  CHECK(std::isnan(sc::to_double(std::get<Tensor<T>>(back[0])[0])));
}

// Under an interval, 1/3·3 spans 1 (its floor is 0 or 1: unknown) and 1/3 does not (floor 0); an
// unknown logical value becomes every real it may be, [0, 1].
TEST_CASE("cast under enclosures: an undecided floor or truth stays unknown", "[layout]") {
  const Interval third = Interval(1) / Interval(3);
  const Value<Interval> x = Tensor<Interval>::from(Shape::of({2}), {third * Interval(3), third}).value();
  const auto ints = run_values<Interval>(CastAttrs{ElemKind::Real, ElemKind::Integer}, {x});
  CHECK(std::get<Tensor<int64_t>>(ints[0]).values() == std::vector<int64_t>{kUnknownInteger, 0});
  const auto reals = run_values<Envelope>(CastAttrs{ElemKind::Logical, ElemKind::Real}, {logical(Shape::of({1}), {kUnknown})});
  const Envelope v = std::get<Tensor<Envelope>>(reals[0])[0];
  CHECK(v.lo == 0.0);
  CHECK(v.hi == 1.0);
  CHECK(failure(CastAttrs{ElemKind::Integer, ElemKind::Real}, {Shape::of({2})}, {ElemKind::Real}).message ==
        "cast input 0 must be integer, got real");
}
