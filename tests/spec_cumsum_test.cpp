// cumsum (spec/ops/cumsum.hpp): the cumulative sum along one axis, of reals and of integers. Every
// expected value is worked out by hand in the comment beside it, not read from the code.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "op_test_support.hpp"
#include "spec/ops/cumsum.hpp"

using nnref::mp50;
using namespace nnref;
using namespace nnref::test;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();  //  9223372036854775807 = 2^63 − 1
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();  // −9223372036854775808 = −2^63

CumsumAttrs cumsum(int64_t axis, bool exclusive = false, bool reverse = false, ElemKind kind = ElemKind::Real,
                   IntegerType type = {}) {
  return CumsumAttrs{axis, exclusive, reverse, kind, type};
}

// The integer cumsum of a 1-D tensor, through the op's witness and kernel in scalar T.
template <class T>
std::vector<int64_t> integer_cumsum(const std::vector<int64_t>& x, bool exclusive, bool reverse, IntegerType type = {}) {
  const auto n = static_cast<int64_t>(x.size());
  const std::vector<Value<T>> in{Tensor<int64_t>::from(Shape::of({n}), x).value()};
  const auto y = run_values<T>(cumsum(0, exclusive, reverse, ElemKind::Integer, type), in);
  REQUIRE(y.size() == 1);
  REQUIRE(shape_of(y[0]) == Shape::of({n}));
  return std::get<Tensor<int64_t>>(y[0]).values();
}

}  // namespace

// x = [2, −1, 0.5, 4]:
//   forward:            [2, 2 − 1 = 1, 1 + 0.5 = 1.5, 1.5 + 4 = 5.5]
//   forward, exclusive: [0, 2, 1, 1.5]
//   reverse:            [2 − 1 + 0.5 + 4 = 5.5, −1 + 0.5 + 4 = 3.5, 0.5 + 4 = 4.5, 4]
//   reverse, exclusive: [3.5, 4.5, 4, 0]
TEMPLATE_TEST_CASE("cumsum: each direction, inclusive and exclusive, on a vector", "[cumsum]", float, double, mp50) {
  using T = TestType;
  const Shape s = Shape::of({4});
  const auto x = tensor<T>(s, {2, -1, 0.5, 4});
  check_values(run<T>(cumsum(0), {x})[0], {2, 1, 1.5, 5.5});
  check_values(run<T>(cumsum(0, true), {x})[0], {0, 2, 1, 1.5});
  check_values(run<T>(cumsum(0, false, true), {x})[0], {5.5, 3.5, 4.5, 4});
  check_values(run<T>(cumsum(0, true, true), {x})[0], {3.5, 4.5, 4, 0});
  CHECK(run<T>(cumsum(0), {x})[0].shape() == s);
}

// x [2, 3, 2] = 0, 1, …, 11, so x[a][b][c] = 6a + 2b + c. Along axis 1 (the middle), for each (a, c):
//   forward: y[a][b][c] = Σ_{b' ≤ b} (6a + 2b' + c):
//     (0, 0): 0, 0 + 2 = 2, 2 + 4 = 6     (0, 1): 1, 1 + 3 = 4, 4 + 5 = 9
//     (1, 0): 6, 6 + 8 = 14, 14 + 10 = 24 (1, 1): 7, 7 + 9 = 16, 16 + 11 = 27
//   row-major [a][b][c]: [0, 1, 2, 4, 6, 9, 6, 7, 14, 16, 24, 27]; axis −2 names the same axis.
//   reverse, exclusive: y[a][b][c] = Σ_{b' > b}:
//     (0, 0): 2 + 4 = 6, 4, 0  (0, 1): 3 + 5 = 8, 5, 0  (1, 0): 8 + 10 = 18, 10, 0  (1, 1): 9 + 11 = 20, 11, 0
//   row-major: [6, 8, 4, 5, 0, 0, 18, 20, 10, 11, 0, 0].
// Along axis 0: y[1][b][c] = x[0][b][c] + x[1][b][c] = 2·(2b + c) + 6: [0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16].
TEMPLATE_TEST_CASE("cumsum: an axis in the middle of a 3-D tensor, negative axes", "[cumsum]", float, double, mp50) {
  using T = TestType;
  const auto x = tensor<T>(Shape::of({2, 3, 2}), iota(12));
  const std::vector<double> forward{0, 1, 2, 4, 6, 9, 6, 7, 14, 16, 24, 27};
  check_values(run<T>(cumsum(1), {x})[0], forward);
  check_values(run<T>(cumsum(-2), {x})[0], forward);
  check_values(run<T>(cumsum(1, true, true), {x})[0], {6, 8, 4, 5, 0, 0, 18, 20, 10, 11, 0, 0});
  check_values(run<T>(cumsum(-3), {x})[0], {0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16});
}

// An axis of extent 1: the inclusive sum is the element, the exclusive one 0.
TEMPLATE_TEST_CASE("cumsum: an axis of extent 1", "[cumsum]", float, double, mp50) {
  using T = TestType;
  const auto x = tensor<T>(Shape::of({3, 1}), {1.5, -2, 7});
  check_values(run<T>(cumsum(1), {x})[0], {1.5, -2, 7});
  check_values(run<T>(cumsum(-1, true, true), {x})[0], {0, 0, 0});
}

// Modulo 2^64: x = [2^63 − 1, 2, −3]:
//   forward: [2^63 − 1, 2^63 + 1 ≡ −2^63 + 1, −2^63 + 1 − 3 = −2^63 − 2 ≡ 2^63 − 2]
//   reverse: [2^63 − 1 + 2 − 3 = 2^63 − 2 (the wrap and back), 2 − 3 = −1, −3]
//   forward, exclusive: [0, 2^63 − 1, −2^63 + 1]
TEMPLATE_TEST_CASE("cumsum: integer sums wrap modulo 2^64", "[cumsum]", float, double, mp50) {
  using T = TestType;
  const std::vector<int64_t> x{kMax, 2, -3};
  CHECK(integer_cumsum<T>(x, false, false) == std::vector<int64_t>{kMax, kMin + 1, kMax - 1});
  CHECK(integer_cumsum<T>(x, false, true) == std::vector<int64_t>{kMax - 1, -1, -3});
  CHECK(integer_cumsum<T>(x, true, false) == std::vector<int64_t>{0, kMax, kMin + 1});
  // [1, 5, −2]: [1, 6, 4]; reverse exclusive [5 − 2 = 3, −2, 0].
  CHECK(integer_cumsum<T>({1, 5, -2}, false, false) == std::vector<int64_t>{1, 6, 4});
  CHECK(integer_cumsum<T>({1, 5, -2}, true, true) == std::vector<int64_t>{3, -2, 0});
}

// A narrower result type wraps each sum at its width (ONNX Runtime sums in the type itself):
//   int8  [100, 100, −56]: 100, 200 − 256 = −56, 144 − 256 = −112; exclusive [0, 100, −56]
//   uint16 [65535, 2, 3]: 65535, 65537 − 65536 = 1, 4; reversed [65540 − 65536 = 4, 5, 3]
TEMPLATE_TEST_CASE("cumsum: a narrower integer type wraps at its width", "[cumsum]", float, double, mp50) {
  using T = TestType;
  const IntegerType int8{IntegerWidth::Bits8, true}, uint16{IntegerWidth::Bits16, false};
  CHECK(integer_cumsum<T>({100, 100, -56}, false, false, int8) == std::vector<int64_t>{100, -56, -112});
  CHECK(integer_cumsum<T>({100, 100, -56}, true, false, int8) == std::vector<int64_t>{0, 100, -56});
  CHECK(integer_cumsum<T>({65535, 2, 3}, false, false, uint16) == std::vector<int64_t>{65535, 1, 4});
  CHECK(integer_cumsum<T>({65535, 2, 3}, false, true, uint16) == std::vector<int64_t>{4, 5, 3});
}

// An unknown term (kUnknownInteger) makes unknown every sum whose prefix holds it: x = [1, u, 2, 3]
//   forward [1, u, u, u]; forward exclusive [0, 1, u, u]; reverse [u, u, 5, 3]; reverse exclusive [u, 5, 3, 0].
// A sum that is exactly −2^63, the sentinel's value, reads as unknown, and the longer sums after it
// are known: [2^63 − 1, 1, 1] gives [2^63 − 1, 2^63 ≡ −2^63 (unknown), −2^63 + 1].
TEMPLATE_TEST_CASE("cumsum: an unknown integer makes the sums that hold it unknown", "[cumsum]", float, double, mp50) {
  using T = TestType;
  const int64_t u = kUnknownInteger;
  const std::vector<int64_t> x{1, u, 2, 3};
  CHECK(integer_cumsum<T>(x, false, false) == std::vector<int64_t>{1, u, u, u});
  CHECK(integer_cumsum<T>(x, true, false) == std::vector<int64_t>{0, 1, u, u});
  CHECK(integer_cumsum<T>(x, false, true) == std::vector<int64_t>{u, u, 5, 3});
  CHECK(integer_cumsum<T>(x, true, true) == std::vector<int64_t>{u, 5, 3, 0});
  CHECK(integer_cumsum<T>({kMax, 1, 1}, false, false) == std::vector<int64_t>{kMax, u, kMin + 1});
}

// x = [0.1, 0.2, 0.3, −0.6] as decimals (none a binary number): the sums 0.1, 0.3, 0.6 and 0 exactly,
// each enclosed by the Interval; the exclusive first sum is 0 exactly, a point.
TEST_CASE("cumsum: the Interval encloses the exact decimal sums", "[cumsum]") {
  std::vector<Interval> v;
  for (const char* d : {"0.1", "0.2", "0.3", "-0.6"}) v.push_back(from_decimal<Interval>(d));
  const Tensor<Interval> x = Tensor<Interval>::from(Shape::of({4}), v).value();
  const Tensor<Interval> y = run<Interval>(cumsum(0), {x})[0];
  const std::vector<mp50> exact{mp50("0.1"), mp50("0.3"), mp50("0.6"), mp50(0)};
  for (int64_t i = 0; i < 4; ++i) {
    INFO("element " << i);
    const Enclosure e = sc::enclosure(y[i]);
    CHECK(mp50(e.lo) <= exact[static_cast<size_t>(i)]);
    CHECK(exact[static_cast<size_t>(i)] <= mp50(e.hi));
    CHECK(e.hi - e.lo < 1e-15);
  }
  const Enclosure first = sc::enclosure(run<Interval>(cumsum(0, true), {x})[0][0]);
  CHECK(first.lo == 0.0);
  CHECK(first.hi == 0.0);
}

// x = [10^8, 1, −10^8, 1], float32 numbers: the exact sums are [10^8, 10^8 + 1, 1, 2]; a float32
// running sum gives [10^8, 10^8 (10^8 + 1 rounds to it: the spacing there is 8), 0, 1]. The Envelope
// holds both, its radius for y[i] at least γ(i + 2)·Σ_{j ≤ i} |x_j| (u = 2^−24, docs/conformance.md).
// Reverse and exclusive, the sums are exact [1 − 10^8 + 1, −10^8 + 1, 1, 0]; a float32 running sum from
// the end gives [−10^8, −10^8, 1, 0] (1 − 10^8 rounds to −10^8, and so does −10^8 + 1), inside too.
TEST_CASE("cumsum: the Envelope holds the exact sums and a float32 running sum", "[cumsum]") {
  const std::vector<double> xs{1e8, 1, -1e8, 1};
  const auto x = tensor<Envelope>(Shape::of({4}), xs);
  const Tensor<Envelope> y = run<Envelope>(cumsum(0), {x})[0];
  const std::vector<double> exact{1e8, 1e8 + 1, 1, 2};
  float running = 0.0f;
  double positive = 0, negative = 0;
  for (int64_t i = 0; i < 4; ++i) {
    INFO("element " << i);
    const double xi = xs[static_cast<size_t>(i)];
    running += static_cast<float>(xi);
    (xi > 0 ? positive : negative) += std::abs(xi);
    // A sum of i + 1 terms and the init 0 (docs/conformance.md, "Sums in any order"): u·Σ|x| plus i half
    // ulps of S = (1 + γ(i))·(1 + u)·max(P, N), adding the exact 0 rounding nothing.
    const double u = 0x1p-24, n = static_cast<double>(i), gamma = n * u / (1 - n * u);
    const double S = (1 + gamma) * (1 + u) * std::max(positive, negative);
    CHECK(y[i].lo <= exact[static_cast<size_t>(i)]);
    CHECK(exact[static_cast<size_t>(i)] <= y[i].hi);
    CHECK(y[i].lo <= running);
    CHECK(running <= y[i].hi);
    CHECK((y[i].hi - y[i].lo) / 2 >= u * (positive + negative) + n * u * std::exp2(std::floor(std::log2(S))));
  }
  const Tensor<Envelope> r = run<Envelope>(cumsum(0, true, true), {x})[0];
  const std::vector<double> exact_r{-1e8 + 2, -1e8 + 1, 1, 0}, running_r{-1e8, -1e8, 1, 0};
  for (int64_t i = 0; i < 4; ++i) {
    INFO("reverse exclusive element " << i);
    CHECK(r[i].lo <= exact_r[static_cast<size_t>(i)]);
    CHECK(exact_r[static_cast<size_t>(i)] <= r[i].hi);
    CHECK(r[i].lo <= running_r[static_cast<size_t>(i)]);
    CHECK(running_r[static_cast<size_t>(i)] <= r[i].hi);
  }
  CHECK(r[3].lo == 0.0);  // the empty sum is 0 exactly
  CHECK(r[3].hi == 0.0);
}

TEST_CASE("cumsum: the axis, the kind and the operand's kind are checked", "[cumsum]") {
  const Shape s = Shape::of({2, 3, 2});
  CHECK(code_of(cumsum(2), {s}) == "ok");
  CHECK(code_of(cumsum(-3), {s}) == "ok");
  CHECK(code_of(cumsum(-4), {s}) == "shape.axis.out-of-range");
  const Diagnostic d = failure(cumsum(3), {s});
  CHECK(d.code == "shape.axis.out-of-range");
  CHECK(d.message == "cumsum: axis 3 is out of range for an input of rank 3 (valid: -3 to 2)");
  // A scalar has no axis to sum along.
  CHECK(code_of(cumsum(0), {Shape()}) == "shape.axis.out-of-range");
  // A logical cumsum adds no numbers.
  const Diagnostic k = failure(cumsum(0, false, false, ElemKind::Logical), {Shape::of({2})}, {ElemKind::Logical});
  CHECK(k.code == "attr.cumsum.kind");
  // The operand has the op's kind.
  CHECK(code_of(cumsum(0, false, false, ElemKind::Integer), {Shape::of({2})}, {ElemKind::Real}) == "kind.operand");
  CHECK(code_of(cumsum(0, false, false, ElemKind::Integer), {Shape::of({2})}, {ElemKind::Integer}) == "ok");
}
