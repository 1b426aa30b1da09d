// argmax_reduce, argmin_reduce (spec/ops/arg_reduce.hpp) and all_reduce, any_reduce
// (spec/ops/logical_reduce.hpp): reductions whose results are integers and logical values; hand-
// computed values, ties (to the first, or the last), NaN, several axes, the enclosures' unknown results, and obligations. Part
// of spec_reduce_test.
#include <catch2/catch.hpp>

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

template <class T>
std::vector<int64_t> indices_of(const ArgReduceAttrs& a, const Value<T>& x) {
  return std::get<Tensor<int64_t>>(run_values<T>(a, {x})[0]).values();
}

// argmax and argmin of the rank-1 tensor v, ties to the first index (or, with `last`, the last).
template <class T>
std::vector<int64_t> max_and_min(std::vector<double> v, bool last) {
  const Value<T> x = tensor<T>(Shape::of({static_cast<int64_t>(v.size())}), v);
  return std::vector<int64_t>{indices_of<T>(ArgReduceAttrs{ArgReduceOp::Max, {0}, last}, x)[0],
                              indices_of<T>(ArgReduceAttrs{ArgReduceOp::Min, {0}, last}, x)[0]};
}

// The arg reduction of a rank-1 tensor of enclosures (Interval or Envelope).
template <class E>
int64_t index_of(ArgReduceOp op, std::vector<E> v, bool last = false) {
  const Shape s = Shape::of({static_cast<int64_t>(v.size())});
  const Value<E> x = Tensor<E>::from(s, std::move(v)).value();
  return indices_of<E>(ArgReduceAttrs{op, {0}, last}, x)[0];
}

}  // namespace

// x [2, 3] = [[3, 1, 3], [0, 5, -2]]: argmax over axis 1: [0 (the first 3), 1]; argmin: [1, 2];
// over axis 0: argmax [0, 1, 0], argmin [1, 0, 1]; the output keeps the axis: [2, 1] and [1, 3].
TEMPLATE_TEST_CASE("argmax_reduce and argmin_reduce: one axis, ties to the first", "[reduce]", float, double, mp50) {
  using T = TestType;
  const Value<T> x = tensor<T>(Shape::of({2, 3}), {3, 1, 3, 0, 5, -2});
  const auto y = run_values<T>(ArgReduceAttrs{ArgReduceOp::Max, {1}}, {x});
  CHECK(shape_of(y[0]) == Shape::of({2, 1}));
  CHECK(std::get<Tensor<int64_t>>(y[0]).values() == std::vector<int64_t>{0, 1});
  CHECK(indices_of<T>(ArgReduceAttrs{ArgReduceOp::Min, {1}}, x) == std::vector<int64_t>{1, 2});
  CHECK(indices_of<T>(ArgReduceAttrs{ArgReduceOp::Max, {0}}, x) == std::vector<int64_t>{0, 1, 0});
  CHECK(indices_of<T>(ArgReduceAttrs{ArgReduceOp::Min, {-2}}, x) == std::vector<int64_t>{1, 0, 1});
}

// Several axes: the index counts row-major over the reduced axes. x [2, 2, 2] = 0..7 with x[0][1][1]
// = 9 and x[1][0][0] = -9: over axes [1, 2] per batch: argmax [3 (position (1, 1)), 3], argmin
// [0, 0]; over axes [0, 2]: per middle index j, positions (i, k) → 2i + k: j = 0 reads
// [0, 1, -9, 5]: argmax 3, argmin 2; j = 1 reads [2, 9, 6, 7]: argmax 1, argmin 0.
TEST_CASE("argmax_reduce over several axes: a row-major index over them", "[reduce]") {
  const Value<double> x = tensor(Shape::of({2, 2, 2}), {0, 1, 2, 9, -9, 5, 6, 7});
  CHECK(indices_of<double>(ArgReduceAttrs{ArgReduceOp::Max, {1, 2}}, x) == std::vector<int64_t>{3, 3});
  CHECK(indices_of<double>(ArgReduceAttrs{ArgReduceOp::Min, {1, 2}}, x) == std::vector<int64_t>{0, 0});
  CHECK(indices_of<double>(ArgReduceAttrs{ArgReduceOp::Max, {0, 2}}, x) == std::vector<int64_t>{3, 1});
  CHECK(indices_of<double>(ArgReduceAttrs{ArgReduceOp::Min, {2, 0}}, x) == std::vector<int64_t>{2, 0});
}

// NaN counts beyond every number, for both: the first NaN (NumPy's argmax and argmin); −0 and +0
// tie: the first. [1, NaN, 5, NaN] → 1 for both; [-0, +0] → 0 for both; [+inf, 1] → argmax 0.
// (In float and mp50: the fast path's envelope judgement leaves an argmax over NaN unknown.)
TEMPLATE_TEST_CASE("argmax_reduce and argmin_reduce: NaN, signed zeros, infinities, first and last", "[reduce]", float, mp50) {
  using T = TestType;
  const auto both = [](std::vector<double> v) { return max_and_min<T>(std::move(v), false); };
  CHECK(both({1, kNaN, 5, kNaN}) == std::vector<int64_t>{1, 1});
  CHECK(both({-0.0, 0.0}) == std::vector<int64_t>{0, 0});
  CHECK(both({std::numeric_limits<double>::infinity(), 1}) == std::vector<int64_t>{0, 1});
  CHECK(both({3}) == std::vector<int64_t>{0, 0});
  // last mirrors the reading (NumPy's argmax of the flipped group): the last NaN, the last of -0
  // and +0, and the same extremum where there is no tie.
  const auto last = [](std::vector<double> v) { return max_and_min<T>(std::move(v), true); };
  CHECK(last({1, kNaN, 5, kNaN}) == std::vector<int64_t>{3, 3});
  CHECK(last({-0.0, 0.0}) == std::vector<int64_t>{1, 1});
  CHECK(last({std::numeric_limits<double>::infinity(), 1}) == std::vector<int64_t>{0, 1});
  CHECK(last({3}) == std::vector<int64_t>{0, 0});
}

// Interval: [1/3 − ε, 1/3 + ε] twice can be either's maximum: unknown; against 1 the max is decided.
// Envelope [0.9, 1.1] and [1, 1]: argmax unknown; [0.9, 1.1] and [2, 2]: 1; a NaN side: unknown.
TEST_CASE("argmax_reduce under enclosures: decided where the sets part, unknown otherwise", "[reduce]") {
  const Interval third = Interval(1) / Interval(3);
  const auto interval_max = [](std::vector<Interval> v) { return index_of(ArgReduceOp::Max, std::move(v)); };
  CHECK(interval_max({third, third}) == kUnknownInteger);
  CHECK(interval_max({third, Interval(1), third}) == 1);
  CHECK(interval_max({Interval(1), third, Interval(1)}) == 0);  // exact points that tie: decided, the first
  const auto envelope_max = [](std::vector<Envelope> v) { return index_of(ArgReduceOp::Max, std::move(v)); };
  CHECK(envelope_max({Envelope(0.9, 1.1), Envelope(1.0)}) == kUnknownInteger);
  CHECK(envelope_max({Envelope(0.9, 1.1), Envelope(2.0)}) == 1);
  CHECK(envelope_max({Envelope(2.0), Envelope(2.0)}) == 0);  // points that tie: the first
  CHECK(envelope_max({Envelope(kNaN, kNaN), Envelope(2.0)}) == kUnknownInteger);
}

// last (ONNX select_last_index 1): ties to the last. x [2, 3] = [[3, 1, 3], [1, 5, 1]]: over axis 1
// argmax [2 (the last 3), 1], argmin [1, 2 (the last 1)], where the first index gives [0, 1] and
// [1, 0]; over axis 0 the columns [3, 1], [1, 5], [3, 1] have no tie: argmax [0, 1, 0].
// Several axes [1, 2] of [2, 2, 2] = [0, 9, 2, 9, -9, 5, -9, 7]: the rows [0, 9, 2, 9] and
// [-9, 5, -9, 7]: argmax [3, 3], argmin [0, 2].
TEMPLATE_TEST_CASE("argmax_reduce and argmin_reduce with last: ties to the last index", "[reduce]", float, double, mp50) {
  using T = TestType;
  const Value<T> x = tensor<T>(Shape::of({2, 3}), {3, 1, 3, 1, 5, 1});
  CHECK(indices_of<T>(ArgReduceAttrs{ArgReduceOp::Max, {1}, true}, x) == std::vector<int64_t>{2, 1});
  CHECK(indices_of<T>(ArgReduceAttrs{ArgReduceOp::Min, {1}, true}, x) == std::vector<int64_t>{1, 2});
  CHECK(indices_of<T>(ArgReduceAttrs{ArgReduceOp::Max, {1}}, x) == std::vector<int64_t>{0, 1});
  CHECK(indices_of<T>(ArgReduceAttrs{ArgReduceOp::Min, {1}}, x) == std::vector<int64_t>{1, 0});
  CHECK(indices_of<T>(ArgReduceAttrs{ArgReduceOp::Max, {0}, true}, x) == std::vector<int64_t>{0, 1, 0});
  const Value<T> y = tensor<T>(Shape::of({2, 2, 2}), {0, 9, 2, 9, -9, 5, -9, 7});
  CHECK(indices_of<T>(ArgReduceAttrs{ArgReduceOp::Max, {1, 2}, true}, y) == std::vector<int64_t>{3, 3});
  CHECK(indices_of<T>(ArgReduceAttrs{ArgReduceOp::Min, {1, 2}, true}, y) == std::vector<int64_t>{0, 2});
  CHECK(indices_of<T>(ArgReduceAttrs{ArgReduceOp::Max, {1, 2}}, y) == std::vector<int64_t>{1, 3});
}

// Under enclosures with last: decided only where the sets part, as for the first index.
TEST_CASE("argmax_reduce with last under enclosures: decided where the sets part, unknown otherwise", "[reduce]") {
  const Interval third = Interval(1) / Interval(3);
  const auto interval_max = [](std::vector<Interval> v) { return index_of(ArgReduceOp::Max, std::move(v), true); };
  CHECK(interval_max({third, third}) == kUnknownInteger);
  CHECK(interval_max({third, Interval(1), third}) == 1);
  CHECK(interval_max({Interval(1), third, Interval(1)}) == 2);  // exact points that tie: the last
  const auto envelope_min = [](std::vector<Envelope> v) { return index_of(ArgReduceOp::Min, std::move(v), true); };
  CHECK(envelope_min({Envelope(1.0), Envelope(0.9, 1.1)}) == kUnknownInteger);
  CHECK(envelope_min({Envelope(0.0), Envelope(0.9, 1.1)}) == 0);
  CHECK(envelope_min({Envelope(2.0), Envelope(2.0)}) == 1);  // points that tie: the last
  CHECK(envelope_min({Envelope(2.0), Envelope(kNaN, kNaN)}) == kUnknownInteger);
}

TEST_CASE("argmax_reduce obligations: real input, axes, non-empty reduced axes", "[reduce]") {
  CHECK(code_of(ArgReduceAttrs{ArgReduceOp::Max, {1}}, {Shape::of({2, 3})}) == "ok");
  CHECK(code_of(ArgReduceAttrs{ArgReduceOp::Max, {}}, {Shape::of({2, 3})}) == "attr.axes.empty");
  CHECK(code_of(ArgReduceAttrs{ArgReduceOp::Min, {2}}, {Shape::of({2, 3})}) == "shape.axis.out-of-range");
  CHECK(code_of(ArgReduceAttrs{ArgReduceOp::Min, {1, -1}}, {Shape::of({2, 3})}) == "shape.axis.duplicate");
  const auto empty = failure(ArgReduceAttrs{ArgReduceOp::Max, {1}}, {Shape::of({2, 0})});
  CHECK(empty.code == "shape.arg_reduce.empty-axis");
  CHECK(empty.message == "argmax_reduce: reduced axis 1 of input [2, 0] must have extent at least 1, got 0");
  CHECK(code_of(ArgReduceAttrs{ArgReduceOp::Max, {0}}, {Shape::of({2})}, {ElemKind::Logical}) == "kind.operand");
}

// x [2, 3] = [[1, 1, 0], [1, 1, 1]]: all over axis 1: [0, 1]; any over axis 0: [1, 1, 1]; all
// over [0, 1]: 0; any of [[0, 0]] over axis 1: 0.
TEMPLATE_TEST_CASE("all_reduce and any_reduce", "[reduce]", float, double, mp50) {
  using T = TestType;
  const Value<T> x = logical(Shape::of({2, 3}), {1, 1, 0, 1, 1, 1});
  const auto logical_of = [&](LogicalReduceAttrs a, const Value<T>& v) {
    return std::get<Tensor<uint8_t>>(run_values<T>(a, {v})[0]).values();
  };
  const auto all = run_values<T>(LogicalReduceAttrs{LogicalReduceOp::All, {1}}, {x});
  CHECK(shape_of(all[0]) == Shape::of({2, 1}));
  CHECK(std::get<Tensor<uint8_t>>(all[0]).values() == std::vector<uint8_t>{0, 1});
  CHECK(logical_of({LogicalReduceOp::Any, {0}}, x) == std::vector<uint8_t>{1, 1, 1});
  CHECK(logical_of({LogicalReduceOp::All, {0, 1}}, x) == std::vector<uint8_t>{0});
  CHECK(logical_of({LogicalReduceOp::Any, {1}}, logical(Shape::of({1, 2}), {0, 0})) == std::vector<uint8_t>{0});
}

// Kleene: all of [1, unknown] is unknown, of [0, unknown] false; any of [0, unknown] unknown, of
// [1, unknown] true.
TEST_CASE("all_reduce and any_reduce with unknown values", "[reduce]") {
  const Value<Interval> x = logical(Shape::of({2, 2}), {kTrue, kUnknown, kFalse, kUnknown});
  const auto all = run_values<Interval>(LogicalReduceAttrs{LogicalReduceOp::All, {1}}, {x});
  CHECK(std::get<Tensor<uint8_t>>(all[0]).values() == std::vector<uint8_t>{kUnknown, kFalse});
  const auto any = run_values<Interval>(LogicalReduceAttrs{LogicalReduceOp::Any, {1}}, {x});
  CHECK(std::get<Tensor<uint8_t>>(any[0]).values() == std::vector<uint8_t>{kTrue, kUnknown});
}

TEST_CASE("all_reduce obligations: a logical input and axes", "[reduce]") {
  CHECK(code_of(LogicalReduceAttrs{LogicalReduceOp::All, {0}}, {Shape::of({3})}, {ElemKind::Logical}) == "ok");
  CHECK(code_of(LogicalReduceAttrs{LogicalReduceOp::All, {0}}, {Shape::of({3})}, {ElemKind::Real}) == "kind.operand");
  CHECK(code_of(LogicalReduceAttrs{LogicalReduceOp::Any, {}}, {Shape::of({3})}, {ElemKind::Logical}) == "attr.axes.empty");
  CHECK(code_of(LogicalReduceAttrs{LogicalReduceOp::Any, {3}}, {Shape::of({3})}, {ElemKind::Logical}) ==
        "shape.axis.out-of-range");
}
