// range (spec/ops/range.hpp): ONNX's Range, y[i] = start + i·delta for i < n = max(⌈(limit −
// start)/delta⌉, 0). Every expected value is worked out by hand in the comment beside it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "spec/scalar_interval.hpp"

#include "op_test_support.hpp"

using nnref::mp50;
using namespace nnref;
using namespace nnref::test;

namespace {

RangeAttrs real_range(double start, double limit, double delta) {
  RangeAttrs a;
  a.start = start, a.limit = limit, a.delta = delta;
  return a;
}

RangeAttrs integer_range(int64_t start, int64_t limit, int64_t delta) {
  RangeAttrs a;
  a.kind = ElemKind::Integer;
  a.istart = start, a.ilimit = limit, a.idelta = delta;
  return a;
}

template <class T>
std::vector<double> reals_of(const RangeAttrs& a) {
  const auto y = run_values<T>(a, std::vector<Value<T>>{});
  REQUIRE(y.size() == 1);
  return doubles(std::get<Tensor<T>>(y[0]));
}

template <class T>
std::vector<int64_t> ints_of(const RangeAttrs& a, const std::vector<Value<T>>& in = {}) {
  const auto y = run_values<T>(a, in);
  REQUIRE(y.size() == 1);
  return std::get<Tensor<int64_t>>(y[0]).values();
}

}  // namespace

// 3 to 10 by 2.5: (10 − 3)/2.5 = 2.8, n = 3: [3, 5.5, 8]. ONNX's node test
// test_range_float_type_positive_delta: 1 to 5 by 2: n = 2: [1, 3].
TEMPLATE_TEST_CASE("range: real start + i·delta", "[range]", float, double, mp50) {
  using T = TestType;
  CHECK(reals_of<T>(real_range(3, 10, 2.5)) == std::vector<double>{3, 5.5, 8});
  CHECK(reals_of<T>(real_range(1, 5, 2)) == std::vector<double>{1, 3});
  // 3 to 9 by 3: (9 − 3)/3 = 2 exactly, n = 2 (limit excluded): [3, 6].
  CHECK(reals_of<T>(real_range(3, 9, 3)) == std::vector<double>{3, 6});
  // A negative delta: 1 down to −1 by −0.5: (−1 − 1)/−0.5 = 4: [1, 0.5, 0, −0.5].
  CHECK(reals_of<T>(real_range(1, -1, -0.5)) == std::vector<double>{1, 0.5, 0, -0.5});
}

// ONNX's test_range_int32_type_negative_delta: 10 down to 6 by −3: (6 − 10)/−3 = 4/3, n = 2: [10, 7].
// −1 down to −10 by −3: (−10 + 1)/−3 = 3: [−1, −4, −7]. 0 to 5 by 1: [0, 1, 2, 3, 4].
TEMPLATE_TEST_CASE("range: integers", "[range]", float, double, mp50) {
  using T = TestType;
  CHECK(ints_of<T>(integer_range(10, 6, -3)) == std::vector<int64_t>{10, 7});
  CHECK(ints_of<T>(integer_range(-1, -10, -3)) == std::vector<int64_t>{-1, -4, -7});
  CHECK(ints_of<T>(integer_range(0, 5, 1)) == std::vector<int64_t>{0, 1, 2, 3, 4});
  // 2 to 9 by 3: (9 − 2)/3 = 7/3, n = 3: [2, 5, 8].
  CHECK(ints_of<T>(integer_range(2, 9, 3)) == std::vector<int64_t>{2, 5, 8});
}

// torch.arange(x.size(1)): start 0, limit extent 1 of the operand, delta 1. x [2, 4]: [0, 1, 2, 3].
// From extent 1 down to −1 by −2 over x [2, 4]: (−1 − 4)/−2 = 2.5, n = 3: [4, 2, 0].
TEST_CASE("range: start and limit computed from an operand's extents", "[range]") {
  using namespace size_code;
  RangeAttrs a = integer_range(0, 0, 1);
  a.computed = {kConstant, 0, kExtent, 0, 1};
  a.sources = {ElemKind::Real};
  const std::vector<Value<double>> x{tensor(Shape::of({2, 4}), std::vector<double>(8, 0.5))};
  CHECK(ints_of<double>(a, x) == std::vector<int64_t>{0, 1, 2, 3});
  a.computed = {kExtent, 0, 1, kConstant, -1};
  a.idelta = -2;
  CHECK(ints_of<double>(a, x) == std::vector<int64_t>{4, 2, 0});
  CHECK(out_shape(a, {Shape::of({7, 9})}) == Shape::of({5}));  // 9 − (−1) = 10, ⌈10/2⌉ = 5
}

TEST_CASE("range: delta 0, an empty range and non-finite reals are refused", "[range]") {
  CHECK(code_of(real_range(0, 5, 0), {}) == "attr.range.delta-zero");
  CHECK(code_of(integer_range(0, 5, 0), {}) == "attr.range.delta-zero");
  // 5 to 2 by 1: ⌈−3⌉ = −3, max(−3, 0) = 0 elements; 0 to 0: 0 elements.
  CHECK(code_of(integer_range(5, 2, 1), {}) == "shape.range.empty");
  CHECK(code_of(integer_range(0, 0, 1), {}) == "shape.range.empty");
  CHECK(code_of(real_range(2, 5, -1), {}) == "shape.range.empty");
  CHECK(failure(real_range(5, 2, 1), {}).message.find("has no element") != std::string::npos);
  CHECK(code_of(real_range(0, std::numeric_limits<double>::infinity(), 1), {}) == "attr.range.not-finite");
  CHECK(code_of(real_range(0, 1, std::numeric_limits<double>::quiet_NaN()), {}) == "attr.range.not-finite");
  // Computed: from extent 0 to 2 by 1 over x [N]: N = 3 has none (2 − 3 = −1).
  using namespace size_code;
  RangeAttrs a = integer_range(0, 0, 1);
  a.computed = {kExtent, 0, 0, kConstant, 2};
  a.sources = {ElemKind::Real};
  CHECK(code_of(a, {Shape::of({1})}) == "ok");
  CHECK(code_of(a, {Shape::of({3})}) == "shape.range.empty");
  // A program that leaves one value is malformed.
  a.computed = {kExtent, 0, 0};
  CHECK(code_of(a, {Shape::of({3})}) == "shape.size-program");
}

// The interval reading encloses the 50-digit one: start 0.1 (the decimal), delta 0.25: 0.1 to 1 is
// ⌈0.9/0.25⌉ = ⌈3.6⌉ = 4 elements, 0.1, 0.35, 0.6, 0.85.
TEST_CASE("range: Interval encloses mp50", "[range]") {
  RangeAttrs a = real_range(0.1, 1, 0.25);
  a.start = Real(0.1, "0.1");
  const auto exact = std::get<Tensor<mp50>>(run_values<mp50>(a, std::vector<Value<mp50>>{})[0]);
  const auto enclosed = std::get<Tensor<Interval>>(run_values<Interval>(a, std::vector<Value<Interval>>{})[0]);
  REQUIRE(exact.size() == 4);
  REQUIRE(enclosed.size() == 4);
  const double expected[] = {0.1, 0.35, 0.6, 0.85};
  for (int64_t i = 0; i < 4; ++i) {
    using B = decltype(boost::multiprecision::lower(enclosed[i]));
    const B v(exact[i].str(60));
    CHECK(boost::multiprecision::lower(enclosed[i]) <= v);
    CHECK(v <= boost::multiprecision::upper(enclosed[i]));
    CHECK(sc::to_double(exact[i]) == Approx(expected[i]).epsilon(1e-15));
  }
}
