// The comparisons lt gt le ge eq ne (spec/ops/compare.hpp), the logical maps not and or
// (spec/ops/logical.hpp), integer and logical constants (spec/ops/const.hpp), and the
// three-valued logic of the enclosures (spec/truth.hpp): a comparison an interval cannot decide is
// unknown, and select under an unknown condition is the hull of both values. Expected values are
// worked out by hand in the comments.
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
std::vector<uint8_t> logical_values(const Value<T>& v) {
  return std::get<Tensor<uint8_t>>(v).values();
}

}  // namespace

// x = [1, 2, 3], y = [2, 2, 2]: lt [1,0,0], gt [0,0,1], le [1,1,0], ge [0,1,1], eq [0,1,0], ne [1,0,1].
TEMPLATE_TEST_CASE("compare: every relation per element", "[compare]", float, double, mp50) {
  using T = TestType;
  const std::vector<Value<T>> in = {tensor<T>(Shape::of({3}), {1, 2, 3}), tensor<T>(Shape::of({3}), {2, 2, 2})};
  const std::vector<std::pair<CompareOp, std::vector<uint8_t>>> cases = {
      {CompareOp::Lt, {1, 0, 0}}, {CompareOp::Gt, {0, 0, 1}}, {CompareOp::Le, {1, 1, 0}},
      {CompareOp::Ge, {0, 1, 1}}, {CompareOp::Eq, {0, 1, 0}}, {CompareOp::Ne, {1, 0, 1}}};
  for (const auto& [op, expected] : cases) {
    INFO(op_name(CompareAttrs{op}));
    const auto z = run_values<T>(CompareAttrs{op}, in);
    CHECK(shape_of(z[0]) == Shape::of({3}));
    CHECK(logical_values(z[0]) == expected);
  }
}

// IEEE 754: NaN is unordered, so every comparison with it is false but ne; −0 equals +0. (In
// float and mp50: the envelope of the fast path's judgement leaves NaN comparisons unknown, so
// tests/fastpath_op_elementwise_test_logical.cpp judges those against float.)
// x = [NaN, 1, -0], y = [1, NaN, +0]: lt [0,0,0], le [0,0,1], eq [0,0,1], ne [1,1,0].
TEMPLATE_TEST_CASE("compare: NaN is unordered and -0 equals +0", "[compare]", float, mp50) {
  using T = TestType;
  const std::vector<Value<T>> in = {tensor<T>(Shape::of({3}), {kNaN, 1, -0.0}), tensor<T>(Shape::of({3}), {1, kNaN, 0.0})};
  CHECK(logical_values(run_values<T>(CompareAttrs{CompareOp::Lt}, in)[0]) == std::vector<uint8_t>{0, 0, 0});
  CHECK(logical_values(run_values<T>(CompareAttrs{CompareOp::Le}, in)[0]) == std::vector<uint8_t>{0, 0, 1});
  CHECK(logical_values(run_values<T>(CompareAttrs{CompareOp::Eq}, in)[0]) == std::vector<uint8_t>{0, 0, 1});
  CHECK(logical_values(run_values<T>(CompareAttrs{CompareOp::Ne}, in)[0]) == std::vector<uint8_t>{1, 1, 0});
}

// NNEF aligns leading axes: x [2, 3] = [[1, 2, 3], [4, 5, 6]] against y [2] = [2, 5] compares row
// 0 with 2 and row 1 with 5: gt [[0, 0, 1], [0, 0, 1]].
TEST_CASE("compare: NNEF's left-aligned broadcasting", "[compare]") {
  const std::vector<Value<double>> in = {tensor(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6}), tensor(Shape::of({2}), {2, 5})};
  const auto z = run_values<double>(CompareAttrs{CompareOp::Gt, Broadcast::NnefLeft}, in);
  CHECK(shape_of(z[0]) == Shape::of({2, 3}));
  CHECK(logical_values(z[0]) == std::vector<uint8_t>{0, 0, 1, 0, 0, 1});
}

TEST_CASE("compare obligations: real operands, a logical result, broadcast shapes", "[compare]") {
  const Shape x = Shape::of({2, 3});
  CHECK(code_of(CompareAttrs{}, {x, Shape::of({2})}) == "ok");
  CHECK(code_of(CompareAttrs{}, {x, Shape::of({3})}) == "shape.broadcast.incompatible");
  CHECK(code_of(CompareAttrs{CompareOp::Lt, Broadcast::NumpyRight}, {x, Shape::of({3})}) == "ok");
  CHECK(code_of(CompareAttrs{}, {x}) == "graph.arity");
  const auto logical_operand = failure(CompareAttrs{CompareOp::Eq}, {x, x}, {ElemKind::Real, ElemKind::Logical});
  CHECK(logical_operand.code == "kind.operand");
  CHECK(logical_operand.message == "eq input 1 must be real, got logical");
  const auto c = Checked<CompareAttrs>::check(CompareAttrs{}, {x, x});
  REQUIRE(c.ok());
  CHECK(c->output_kind() == ElemKind::Logical);
}

// not [1, 0] = [0, 1]; and, or of x [2, 2] = [[1, 1], [0, 0]] with y [2] = ... left-aligned:
// y = [1, 0] holds row 0 at 1 and row 1 at 0; and [[1, 1], [0, 0]], or [[1, 1], [0, 0]]; with
// x = [[1, 0], [0, 1]]: and [[1, 0], [0, 0]], or [[1, 1], [0, 1]].
TEMPLATE_TEST_CASE("logical: not, and, or", "[logical]", float, double, mp50) {
  using T = TestType;
  CHECK(logical_values(run_values<T>(LogicalAttrs{LogicalOp::Not}, {logical(Shape::of({2}), {1, 0})})[0]) ==
        std::vector<uint8_t>{0, 1});
  const std::vector<Value<T>> in = {logical(Shape::of({2, 2}), {1, 0, 0, 1}), logical(Shape::of({2}), {1, 0})};
  CHECK(logical_values(run_values<T>(LogicalAttrs{LogicalOp::And}, in)[0]) == std::vector<uint8_t>{1, 0, 0, 0});
  CHECK(logical_values(run_values<T>(LogicalAttrs{LogicalOp::Or}, in)[0]) == std::vector<uint8_t>{1, 1, 0, 1});
}

TEST_CASE("logical obligations: arity by name, logical operands, broadcast shapes", "[logical]") {
  const Shape x = Shape::of({4});
  const std::vector<ElemKind> two = {ElemKind::Logical, ElemKind::Logical};
  CHECK(code_of(LogicalAttrs{LogicalOp::Not}, {x}, {ElemKind::Logical}) == "ok");
  CHECK(code_of(LogicalAttrs{LogicalOp::Not}, {x, x}, two) == "graph.arity");
  CHECK(code_of(LogicalAttrs{LogicalOp::Or}, {x}, {ElemKind::Logical}) == "graph.arity");
  CHECK(code_of(LogicalAttrs{LogicalOp::And}, {x, Shape::of({3})}, two) == "shape.broadcast.incompatible");
  const auto real_operand = failure(LogicalAttrs{LogicalOp::And}, {x, x}, {ElemKind::Logical, ElemKind::Real});
  CHECK(real_operand.message == "and input 1 must be logical, got real");
}

// A comparison feeds select: y = select(x < 0, -x, x) is |x|; x = [-2, 0, 3] gives [2, 0, 3].
TEST_CASE("compare feeds select", "[compare]") {
  const Tensor<double> x = tensor(Shape::of({3}), {-2, 0, 3});
  const Tensor<double> minus_x = tensor(Shape::of({3}), {2, 0, -3});
  const auto below = run_values<double>(CompareAttrs{CompareOp::Lt}, {x, tensor(Shape::of({1}), {0})});
  const auto y = run_values<double>(SelectAttrs{}, {below[0], minus_x, x});
  check_values(std::get<Tensor<double>>(y[0]), {2, 0, 3});
}

// Integer constants are whole numbers held as reals, logical ones true where nonzero.
TEMPLATE_TEST_CASE("const: integer and logical constants", "[const]", float, double, mp50) {
  using T = TestType;
  const auto ints = run_values<T>(ConstAttrs{{3}, ElemKind::Integer}, {}, {tensor<T>(Shape::of({3}), {-4, 0, 7})});
  CHECK(std::get<Tensor<int64_t>>(ints[0]).values() == std::vector<int64_t>{-4, 0, 7});
  const auto bools = run_values<T>(ConstAttrs{{3}, ElemKind::Logical}, {}, {tensor<T>(Shape::of({3}), {1, 0, 1})});
  CHECK(logical_values(bools[0]) == std::vector<uint8_t>{1, 0, 1});
}

// x = 1/3 in an interval is a set of width > 0 around 1/3: compared with itself every ordering is
// possible, so lt, eq and ne are unknown (the exact values are equal; a point decides eq true).
// Against 1 it is decided: lt true, eq false.
TEST_CASE("compare under an interval: decided where the sets part, unknown where they overlap", "[compare]") {
  const Interval third = Interval(1) / Interval(3);
  const auto in = [](const Interval& a, const Interval& b) {
    return std::vector<Value<Interval>>{Tensor<Interval>::from(Shape::of({1}), {a}).value(),
                                        Tensor<Interval>::from(Shape::of({1}), {b}).value()};
  };
  for (CompareOp op : {CompareOp::Lt, CompareOp::Eq, CompareOp::Ne}) {
    INFO(op_name(CompareAttrs{op}));
    CHECK(logical_values(run_values<Interval>(CompareAttrs{op}, in(third, third))[0]) == std::vector<uint8_t>{kUnknown});
  }
  CHECK(logical_values(run_values<Interval>(CompareAttrs{CompareOp::Le}, in(third, Interval(1)))[0]) ==
        std::vector<uint8_t>{kTrue});
  CHECK(logical_values(run_values<Interval>(CompareAttrs{CompareOp::Eq}, in(third, Interval(1)))[0]) ==
        std::vector<uint8_t>{kFalse});
  const Tensor<mp50> point_third = Tensor<mp50>::from(Shape::of({1}), {mp50(1) / 3}).value();
  CHECK(logical_values(run_values<mp50>(CompareAttrs{CompareOp::Eq}, {point_third, point_third})[0]) ==
        std::vector<uint8_t>{kTrue});
}

// Envelopes [0.9, 1.1] and [1, 1]: lt, eq unknown; against [2, 2]: lt true. A NaN side bounds
// nothing: unknown. select under the unknown condition: the hull of [5, 5] and [-1, -1], [-1, 5].
TEST_CASE("compare and select under the envelope", "[compare]") {
  const auto one = [](Envelope e) { return Tensor<Envelope>::from(Shape::of({1}), {e}).value(); };
  const Envelope around_one(0.9, 1.1);
  const auto lt = [&](Envelope a, Envelope b) {
    return logical_values(run_values<Envelope>(CompareAttrs{CompareOp::Lt}, {one(a), one(b)})[0])[0];
  };
  CHECK(lt(around_one, Envelope(1.0)) == kUnknown);
  CHECK(lt(around_one, Envelope(2.0)) == kTrue);
  CHECK(lt(Envelope(2.0), around_one) == kFalse);
  CHECK(lt(Envelope(kNaN, kNaN), Envelope(2.0)) == kUnknown);
  const auto y = run_values<Envelope>(SelectAttrs{}, {logical(Shape::of({1}), {kUnknown}), one(Envelope(5.0)), one(Envelope(-1.0))});
  const Envelope h = std::get<Tensor<Envelope>>(y[0])[0];
  CHECK(h.lo == -1.0);
  CHECK(h.hi == 5.0);
}

// Kleene's logic: an unknown operand decides nothing that the other does not decide.
TEST_CASE("three-valued logic: not, and, or with unknown operands", "[logical]") {
  const Value<Interval> x = logical(Shape::of({3}), {kFalse, kTrue, kUnknown});
  const Value<Interval> u = logical(Shape::of({1}), {kUnknown});
  CHECK(logical_values(run_values<Interval>(LogicalAttrs{LogicalOp::Not}, {x})[0]) ==
        std::vector<uint8_t>{kTrue, kFalse, kUnknown});
  CHECK(logical_values(run_values<Interval>(LogicalAttrs{LogicalOp::And}, {x, u})[0]) ==
        std::vector<uint8_t>{kFalse, kUnknown, kUnknown});
  CHECK(logical_values(run_values<Interval>(LogicalAttrs{LogicalOp::Or}, {x, u})[0]) ==
        std::vector<uint8_t>{kUnknown, kTrue, kUnknown});
}
