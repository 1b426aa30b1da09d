// integer_binary (spec/ops/integer_binary.hpp): ONNX's arithmetic on int64 tensors, the same in
// every scalar. Every expected value is worked out by hand in the comment beside it (two's
// complement wrap-around, C's truncating division, the two signs of Mod), not read from the code.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <vector>

#include "op_test_support.hpp"

using nnref::mp50;
using namespace nnref;
using namespace nnref::test;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();  //  9223372036854775807 = 2^63 − 1
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();  // −9223372036854775808 = −2^63

Tensor<int64_t> ints(Shape s, std::vector<int64_t> v) { return Tensor<int64_t>::from(std::move(s), std::move(v)).value(); }

// z = x ∘ y of two integer tensors, through the op's witness and kernel in scalar T.
template <class T>
std::vector<int64_t> apply(IntegerOp op, const Tensor<int64_t>& x, const Tensor<int64_t>& y) {
  const std::vector<Value<T>> in{x, y};
  const auto z = run_values<T>(IntegerBinaryAttrs{op}, in);
  REQUIRE(z.size() == 1);
  return std::get<Tensor<int64_t>>(z[0]).values();
}

template <class T>
std::vector<int64_t> apply(IntegerOp op, const std::vector<int64_t>& x, const std::vector<int64_t>& y) {
  const auto n = static_cast<int64_t>(x.size());
  return apply<T>(op, ints(Shape::of({n}), x), ints(Shape::of({n}), y));
}

// z = x ∘ y with the result wrapped to `type`.
template <class T>
std::vector<int64_t> apply(IntegerOp op, IntegerType type, const std::vector<int64_t>& x, const std::vector<int64_t>& y) {
  const auto n = static_cast<int64_t>(x.size());
  const std::vector<Value<T>> in{ints(Shape::of({n}), x), ints(Shape::of({n}), y)};
  const auto z = run_values<T>(IntegerBinaryAttrs{op, Broadcast::NumpyRight, type}, in);
  return std::get<Tensor<int64_t>>(z[0]).values();
}

}  // namespace

// x = [7, −7, 3, −3], y = [2, 2, −5, 4]:
// add [9, −5, −2, 1]; sub [5, −9, 8, −7]; mul [14, −14, −15, −12]; min [2, −7, −5, −3]; max [7, 2, 3, 4].
TEMPLATE_TEST_CASE("integer_binary: add, sub, mul, min, max per element", "[integer_binary]", float, double, mp50) {
  using T = TestType;
  const std::vector<int64_t> x{7, -7, 3, -3}, y{2, 2, -5, 4};
  CHECK(apply<T>(IntegerOp::Add, x, y) == std::vector<int64_t>{9, -5, -2, 1});
  CHECK(apply<T>(IntegerOp::Sub, x, y) == std::vector<int64_t>{5, -9, 8, -7});
  CHECK(apply<T>(IntegerOp::Mul, x, y) == std::vector<int64_t>{14, -14, -15, -12});
  CHECK(apply<T>(IntegerOp::Min, x, y) == std::vector<int64_t>{2, -7, -5, -3});
  CHECK(apply<T>(IntegerOp::Max, x, y) == std::vector<int64_t>{7, 2, 3, 4});
}

// Division truncates toward zero: 7/2 = 3, −7/2 = −3 (not −4), 7/−2 = −3, −7/−2 = 3, 1/3 = 0.
// Mod (fmod 0) takes the divisor's sign, Python's %: 7 % 2 = 1, −7 % 2 = 1, 7 % −2 = −1, −7 % −2 = −1,
// 1 % 3 = 1. Fmod (fmod 1) the dividend's, C's fmod: 1, −1, 1, −1, 1.
TEMPLATE_TEST_CASE("integer_binary: truncating division and both signs of Mod", "[integer_binary]", float, double,
                   mp50) {
  using T = TestType;
  const std::vector<int64_t> x{7, -7, 7, -7, 1}, y{2, 2, -2, -2, 3};
  CHECK(apply<T>(IntegerOp::Div, x, y) == std::vector<int64_t>{3, -3, -3, 3, 0});
  CHECK(apply<T>(IntegerOp::Mod, x, y) == std::vector<int64_t>{1, 1, -1, -1, 1});
  CHECK(apply<T>(IntegerOp::Fmod, x, y) == std::vector<int64_t>{1, -1, 1, -1, 1});
  // A remainder of 0 keeps no sign: −6 % 3 = 0 and 6 % −3 = 0 in both.
  CHECK(apply<T>(IntegerOp::Mod, {-6, 6}, {3, -3}) == std::vector<int64_t>{0, 0});
  CHECK(apply<T>(IntegerOp::Fmod, {-6, 6}, {3, -3}) == std::vector<int64_t>{0, 0});
}

// Modulo 2^64: (2^63 − 1) + 2 = −2^63 + 1; (2^63 − 1) · 2 = 2^64 − 2 ≡ −2; −2^63 − 1 ≡ 2^63 − 1;
// (2^63 − 1) · (2^63 − 1) = 2^126 − 2^64 + 1 ≡ 1; (−2^63 + 1) / −1 = 2^63 − 1.
TEMPLATE_TEST_CASE("integer_binary: + − × wrap modulo 2^64", "[integer_binary]", float, double, mp50) {
  using T = TestType;
  CHECK(apply<T>(IntegerOp::Add, {kMax}, {2}) == std::vector<int64_t>{kMin + 1});
  CHECK(apply<T>(IntegerOp::Mul, {kMax}, {2}) == std::vector<int64_t>{-2});
  CHECK(apply<T>(IntegerOp::Sub, {kMin + 1}, {2}) == std::vector<int64_t>{kMax});
  CHECK(apply<T>(IntegerOp::Mul, {kMax}, {kMax}) == std::vector<int64_t>{1});
  CHECK(apply<T>(IntegerOp::Div, {kMin + 1}, {-1}) == std::vector<int64_t>{kMax});
  // 5 mod −1 = 0 in both signs: −1 divides every integer.
  CHECK(apply<T>(IntegerOp::Mod, {5}, {-1}) == std::vector<int64_t>{0});
  CHECK(apply<T>(IntegerOp::Fmod, {5}, {-1}) == std::vector<int64_t>{0});
}

// A narrower result type wraps modulo 2^bits. uint8: 200 + 100 = 300 = 256 + 44 → 44; 3 − 5 = −2 → 254;
// 16 · 17 = 272 → 16. int8: −128 · −1 = 128 → −128; 100 + 100 = 200 → −56; −128 / −1 = 128 → −128.
// int32: (2^31 − 1) + 1 = 2^31 → −2^31. uint16: 0 − 1 → 65535. uint32: 2^32 − 1 + 2 = 2^32 + 1 → 1.
// int16: 200 · 200 = 40000 = 65536 − 25536 → −25536. Min and Mod stay in range: unchanged.
TEMPLATE_TEST_CASE("integer_binary: results wrap to a narrower type", "[integer_binary]", float, double, mp50) {
  using T = TestType;
  const IntegerType u8{IntegerWidth::Bits8, false}, i8{IntegerWidth::Bits8, true}, i32{IntegerWidth::Bits32, true};
  CHECK(apply<T>(IntegerOp::Add, u8, {200, 1}, {100, 2}) == std::vector<int64_t>{44, 3});
  CHECK(apply<T>(IntegerOp::Sub, u8, {3}, {5}) == std::vector<int64_t>{254});
  CHECK(apply<T>(IntegerOp::Mul, u8, {16}, {17}) == std::vector<int64_t>{16});
  CHECK(apply<T>(IntegerOp::Mul, i8, {-128}, {-1}) == std::vector<int64_t>{-128});
  CHECK(apply<T>(IntegerOp::Add, i8, {100, -100}, {100, -100}) == std::vector<int64_t>{-56, 56});
  CHECK(apply<T>(IntegerOp::Div, i8, {-128}, {-1}) == std::vector<int64_t>{-128});
  CHECK(apply<T>(IntegerOp::Add, i32, {2147483647}, {1}) == std::vector<int64_t>{-2147483648});
  CHECK(apply<T>(IntegerOp::Sub, IntegerType{IntegerWidth::Bits16, false}, {0}, {1}) == std::vector<int64_t>{65535});
  CHECK(apply<T>(IntegerOp::Add, IntegerType{IntegerWidth::Bits32, false}, {4294967295}, {2}) ==
        std::vector<int64_t>{1});
  CHECK(apply<T>(IntegerOp::Mul, IntegerType{IntegerWidth::Bits16, true}, {200}, {200}) == std::vector<int64_t>{-25536});
  CHECK(apply<T>(IntegerOp::Min, i8, {-128, 127}, {5, 5}) == std::vector<int64_t>{-128, 5});
  CHECK(apply<T>(IntegerOp::Mod, u8, {255}, {7}) == std::vector<int64_t>{3});  // 255 = 36 · 7 + 3
}

// x [2, 1] = [[10], [20]], y [3] = [1, 2, 3] under NumPy broadcasting: z [2, 3] = x − y =
// [[9, 8, 7], [19, 18, 17]]. Under NNEF's rule (leading axes aligned) y [2] = [1, 2] against
// x [2, 3] = [[1, 2, 3], [4, 5, 6]] reads y[0] on row 0 and y[1] on row 1: x · y = [[1, 2, 3], [8, 10, 12]].
TEMPLATE_TEST_CASE("integer_binary: broadcasting", "[integer_binary]", float, double, mp50) {
  using T = TestType;
  CHECK(apply<T>(IntegerOp::Sub, ints(Shape::of({2, 1}), {10, 20}), ints(Shape::of({3}), {1, 2, 3})) ==
        std::vector<int64_t>{9, 8, 7, 19, 18, 17});
  const std::vector<Value<T>> nnef{ints(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6}), ints(Shape::of({2}), {1, 2})};
  const auto z = run_values<T>(IntegerBinaryAttrs{IntegerOp::Mul, Broadcast::NnefLeft}, nnef);
  CHECK(std::get<Tensor<int64_t>>(z[0]).values() == std::vector<int64_t>{1, 2, 3, 8, 10, 12});
  CHECK(shape_of(z[0]) == Shape::of({2, 3}));
}

// An unknown operand (kUnknownInteger) gives an unknown result, whichever side it is on: even
// min(unknown, −2^63 + 1) is not taken as the known operand. A zero divisor gives no value (ONNX
// defines none): unknown, in Div, Mod and Fmod alike; 0 / 5 = 0 is a known value.
TEMPLATE_TEST_CASE("integer_binary: unknown operands and zero divisors give unknown", "[integer_binary]", float, double,
                   mp50) {
  using T = TestType;
  const int64_t u = kUnknownInteger;
  CHECK(apply<T>(IntegerOp::Add, {u, 1}, {1, u}) == std::vector<int64_t>{u, u});
  CHECK(apply<T>(IntegerOp::Min, {u, kMin + 1}, {kMin + 1, u}) == std::vector<int64_t>{u, u});
  CHECK(apply<T>(IntegerOp::Div, {7, 0}, {0, 5}) == std::vector<int64_t>{u, 0});
  CHECK(apply<T>(IntegerOp::Mod, {7}, {0}) == std::vector<int64_t>{u});
  CHECK(apply<T>(IntegerOp::Fmod, {-7}, {0}) == std::vector<int64_t>{u});
}

TEST_CASE("integer_binary: operand kinds and shapes are checked", "[integer_binary]") {
  const IntegerBinaryAttrs add{IntegerOp::Add};
  // A real operand is refused: the op computes on integers only.
  CHECK(code_of(add, {Shape::of({2}), Shape::of({2})}, {ElemKind::Real, ElemKind::Integer}) == "kind.operand");
  CHECK(code_of(add, {Shape::of({2}), Shape::of({2})}, {ElemKind::Integer, ElemKind::Integer}) == "ok");
  // [2] and [3] do not broadcast: neither extent is 1.
  const Diagnostic d = failure(add, {Shape::of({2}), Shape::of({3})}, {ElemKind::Integer, ElemKind::Integer});
  CHECK(d.code == "shape.broadcast.incompatible");
  CHECK(op_name(IntegerBinaryAttrs{IntegerOp::Fmod}) == "integer_fmod");
}
