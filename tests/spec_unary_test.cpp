// The unary elementwise maps (spec/ops/unary.hpp) at hand-computed points, in f32, f64 and mp50,
// and their obligations. Expected values are worked out by hand in the comments or are closed
// forms; ln 2, e and π are the usual constants.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "spec/ops/unary.hpp"

#include "op_test_support.hpp"

using nnref::mp50;

namespace {

using namespace nnref;
using namespace nnref::test;

constexpr double kE = 2.718281828459045235360;
constexpr double kPi = 3.141592653589793238463;

template <class T>
void check_unary(UnaryOp op, double alpha, const std::vector<double>& x, const std::vector<double>& expected) {
  UnaryAttrs a{op, alpha};
  INFO(op_name(a));
  auto y = run<T>(a, {tensor<T>(Shape::of({static_cast<int64_t>(x.size())}), x)});
  REQUIRE(y.size() == 1);
  CHECK(y[0].shape() == Shape::of({static_cast<int64_t>(x.size())}));
  check_values(y[0], expected);
}

}  // namespace

TEMPLATE_TEST_CASE("unary functions at hand-computed points", "[elementwise]", float, double, mp50) {
  using T = TestType;
  check_unary<T>(UnaryOp::Copy, 0, {2.5, -1}, {2.5, -1});
  check_unary<T>(UnaryOp::Neg, 0, {2.5, -1}, {-2.5, 1});
  check_unary<T>(UnaryOp::Rcp, 0, {4, -0.5}, {0.25, -2});
  check_unary<T>(UnaryOp::Exp, 0, {0, 1, kLn2}, {1, kE, 2});
  check_unary<T>(UnaryOp::Log, 0, {1, kE, 8}, {0, 1, 3 * kLn2});
  check_unary<T>(UnaryOp::Sin, 0, {0, kPi / 2, kPi / 6}, {0, 1, 0.5});
  check_unary<T>(UnaryOp::Cos, 0, {0, kPi, kPi / 3}, {1, -1, 0.5});
  check_unary<T>(UnaryOp::Tan, 0, {0, kPi / 4}, {0, 1});
  // sinh 1 = (e − 1/e)/2, cosh 1 = (e + 1/e)/2, tanh 1 = (e² − 1)/(e² + 1).
  check_unary<T>(UnaryOp::Sinh, 0, {0, 1}, {0, (kE - 1 / kE) / 2});
  check_unary<T>(UnaryOp::Cosh, 0, {0, 1}, {1, (kE + 1 / kE) / 2});
  check_unary<T>(UnaryOp::Tanh, 0, {0, 1}, {0, (kE * kE - 1) / (kE * kE + 1)});
  check_unary<T>(UnaryOp::Asin, 0, {0, 1, 0.5}, {0, kPi / 2, kPi / 6});
  check_unary<T>(UnaryOp::Acos, 0, {1, 0, -1}, {0, kPi / 2, kPi});
  check_unary<T>(UnaryOp::Atan, 0, {0, 1}, {0, kPi / 4});
  // asinh 0.75 = ln(0.75 + √1.5625) = ln 2; acosh 1.25 = ln(1.25 + √0.5625) = ln 2;
  // atanh 0.6 = ½·ln(1.6/0.4) = ln 2.
  check_unary<T>(UnaryOp::Asinh, 0, {0, 0.75}, {0, kLn2});
  check_unary<T>(UnaryOp::Acosh, 0, {1, 1.25}, {0, kLn2});
  check_unary<T>(UnaryOp::Atanh, 0, {0, 0.6}, {0, kLn2});
  check_unary<T>(UnaryOp::Abs, 0, {-3, 0, 2}, {3, 0, 2});
  check_unary<T>(UnaryOp::Sign, 0, {-2, 0, 5}, {-1, 0, 1});
  check_unary<T>(UnaryOp::Floor, 0, {-1.5, 1.5, 2}, {-2, 1, 2});
  check_unary<T>(UnaryOp::Ceil, 0, {-1.5, 1.5, 2}, {-1, 2, 2});
  // NNEF round(x) = floor(x + 0.5): halves go up, also below zero.
  check_unary<T>(UnaryOp::Round, 0, {2.5, -2.5, 1.4, -1.6}, {3, -2, 1, -2});
  check_unary<T>(UnaryOp::Sqr, 0, {-3, 0.5}, {9, 0.25});
  check_unary<T>(UnaryOp::Sqrt, 0, {16, 0.25}, {4, 0.5});
  check_unary<T>(UnaryOp::Rsqr, 0, {2, -0.5}, {0.25, 4});
  check_unary<T>(UnaryOp::Rsqrt, 0, {4, 0.25}, {0.5, 2});
  check_unary<T>(UnaryOp::Log2, 0, {8, 0.5, 1}, {3, -1, 0});
  check_unary<T>(UnaryOp::Relu, 0, {-2, 0, 3}, {0, 0, 3});
  // sigmoid(ln 3) = 1/(1 + 1/3) = 0.75; sigmoid(−ln 3) = 1/(1 + 3) = 0.25.
  check_unary<T>(UnaryOp::Sigmoid, 0, {0, kLn3, -kLn3}, {0.5, 0.75, 0.25});
  // elu with α = 2: −ln 2 ↦ 2·(½ − 1) = −1.
  check_unary<T>(UnaryOp::Elu, 2, {-kLn2, 0, 3}, {-1, 0, 3});
  check_unary<T>(UnaryOp::LeakyRelu, 0.1, {-2, 0, 3}, {-0.2, 0, 3});
  check_unary<T>(UnaryOp::LeakyRelu, 0.25, {-8}, {-2});
  // softplus(0) = ln 2, softplus(ln 3) = ln 4.
  check_unary<T>(UnaryOp::Softplus, 0, {0, kLn3}, {kLn2, 2 * kLn2});
  // erf 0.5, 1, 2 (tabulated to 30 places, e.g. OEIS A099286 for erf 1), and erf is odd.
  check_unary<T>(UnaryOp::Erf, 0, {0, 0.5, 1, -1, 2},
                 {0, 0.520499877813046537682746653892, 0.842700792949714869341220635083,
                  -0.842700792949714869341220635083, 0.995322265018952734162069256367});
  // ONNX round: halves to the even neighbour, 2.5 → 2, −2.5 → −2, 3.5 → 4, 0.5 → 0.
  check_unary<T>(UnaryOp::RoundEven, 0, {2.5, -2.5, 3.5, 0.5, 1.5, 1.4, -1.6, 7}, {2, -2, 4, 0, 2, 1, -2, 7});
}

TEMPLATE_TEST_CASE("round_even keeps the sign of a zero and passes NaN and infinities", "[elementwise]", float, double, mp50) {
  using T = TestType;
  const double inf = std::numeric_limits<double>::infinity();
  auto y = run<T>(UnaryAttrs{UnaryOp::RoundEven}, {tensor<T>(Shape::of({5}), {-0.5, -0.25, 0.5, -inf, inf})})[0];
  for (int64_t i = 0; i < 3; ++i) CHECK(sc::to_double(y[i]) == 0.0);
  CHECK(std::signbit(sc::to_double(y[0])));  // −0.5 → −0, as IEEE 754's roundToIntegralTiesToEven
  CHECK(std::signbit(sc::to_double(y[1])));
  CHECK_FALSE(std::signbit(sc::to_double(y[2])));
  CHECK(sc::to_double(y[3]) == -inf);
  CHECK(sc::to_double(y[4]) == inf);
  auto n = run<T>(UnaryAttrs{UnaryOp::RoundEven}, {tensor<T>(Shape::of({1}), {std::nan("")})})[0];
  CHECK(std::isnan(sc::to_double(n[0])));
}

// softplus(x) = log(1 + e^x) for x ≤ 0 is e^x − e^{2x}/2 + e^{3x}/3 − ... (alternating, so the
// error of a truncation is below the next term): at x = −10, −20, −40 the three terms give the
// value to better than 1e-17 relative. log(exp(x) + 1) in float32 rounds exp(x) + 1 near 1 and
// is thousands of ulps off at −10 (the float32 oracle's answer left the envelope, found by the
// property tests); in float32 the spec's evaluation is within one ulp of the true value, and for
// large x, where exp(x) overflows float32, it is x.
TEST_CASE("softplus in float32 is within an ulp where exp(x) + 1 cancels or overflows", "[elementwise]") {
  for (double x : {-10.0, -20.0, -40.0}) {
    const double e = std::exp(x), exact = e - e * e / 2 + e * e * e / 3;
    auto y = run<float>(UnaryAttrs{UnaryOp::Softplus, 0}, {tensor<float>(Shape::of({1}), {x})});
    const float got = y[0][0];
    INFO("x = " << x << ", softplus = " << got << ", exact " << exact);
    CHECK(std::abs(static_cast<double>(got) - exact) <= std::nextafter(static_cast<float>(exact), 1.0f) - static_cast<float>(exact));
  }
  auto big = run<float>(UnaryAttrs{UnaryOp::Softplus, 0}, {tensor<float>(Shape::of({1}), {100.0})});
  CHECK(big[0][0] == 100.0f);  // 100 + log1p(e^-100): e^-100 is far below half an ulp of 100
}

TEST_CASE("unary functions in mp50 are accurate to ~45 digits", "[elementwise]") {
  auto y = run<mp50>(UnaryAttrs{UnaryOp::Exp}, {tensor<mp50>(Shape::of({1}), {1})});
  mp50 e("2.71828182845904523536028747135266249775724709369995957");  // e to 54 digits
  CHECK(abs(y[0][0] - e) < mp50("1e-45"));
  auto s = run<mp50>(UnaryAttrs{UnaryOp::Sigmoid}, {tensor<mp50>(Shape::of({1}), {0.5})});
  mp50 expected("0.622459331201854564638900565745508478753279365308910");  // 1/(1 + e^−0.5)
  CHECK(abs(s[0][0] - expected) < mp50("1e-45"));
  auto l = run<mp50>(UnaryAttrs{UnaryOp::Log2}, {tensor<mp50>(Shape::of({1}), {1024})});
  CHECK(abs(l[0][0] - 10) < mp50("1e-45"));
  auto f = run<mp50>(UnaryAttrs{UnaryOp::Erf}, {tensor<mp50>(Shape::of({1}), {1})});
  mp50 erf1("0.842700792949714869341220635082609259296066997966302908");  // erf 1 (OEIS A099286)
  CHECK(abs(f[0][0] - erf1) < mp50("1e-45"));
}

TEST_CASE("unary obligations: alpha and arity", "[elementwise]") {
  double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(failure(UnaryAttrs{UnaryOp::LeakyRelu, nan}, {Shape::of({2})}).code == "attr.unary.alpha");
  CHECK(failure(UnaryAttrs{UnaryOp::Elu, INFINITY}, {Shape::of({2})}).code == "attr.unary.alpha");
  CHECK(Checked<UnaryAttrs>::check(UnaryAttrs{UnaryOp::Relu, nan}, {Shape::of({2})}).ok());  // alpha unused
  Diagnostic d = failure(UnaryAttrs{UnaryOp::Relu}, {Shape::of({2}), Shape::of({2})});
  CHECK(d.code == "graph.arity");
  CHECK(d.message == "relu takes 1 input, got 2");
}

// ONNX Cast to float16 / bfloat16. binary16: 11 significand bits, normal from 2^-14, largest
// 65504, ulp at 1 is 2^-10; bfloat16: 8 bits, ulp at 1 is 2^-7. Each expectation by hand.
TEMPLATE_TEST_CASE("round_f16 and round_bf16 round to the format's nearest value, ties to even", "[elementwise]",
                   float, double, mp50) {
  using T = TestType;
  const double inf = std::numeric_limits<double>::infinity();
  check_unary<T>(UnaryOp::RoundF16, 0,
                 {1 + 0x1p-11,       // halfway between 1 and 1 + 2^-10: the even significand, 1
                  1 + 3 * 0x1p-11,   // halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even)
                  1 + 0x1p-11 + 0x1p-20,  // just above halfway: up
                  65504, 65519.5,    // the largest finite value; below its half ulp (65520): down
                  -3 * 0x1p-26,      // 0.75 of the smallest subnormal 2^-24: −2^-24
                  0x1p-25,           // halfway between 0 and 2^-24: 0 (even)
                  0.5, -1024.5},     // exact; 1024.5 at ulp 1 in [1024, 2048): halfway, to 1024 (even)
                 {1, 1 + 0x1p-9, 1 + 0x1p-10, 65504, 65504, -0x1p-24, 0, 0.5, -1024});
  check_unary<T>(UnaryOp::RoundBF16, 0,
                 {1 + 0x1p-8, 1 + 3 * 0x1p-8, 0x1.fep127, -0x1p-133, 0x1.5p-134, 3.0},
                 // halfway: to 1; halfway: to 1 + 2^-6; the largest finite; the smallest subnormal;
                 // 1.3125·2^-134 = 0.656·2^-133: to 2^-133; exact
                 {1, 1 + 0x1p-6, 0x1.fep127, -0x1p-133, 0x1p-133, 3.0});
  // Past the largest finite value by half an ulp or more: ±∞ (65520 is halfway, and 65504's
  // significand is odd). NaN, ±∞ and −0 stay.
  auto y = run<T>(UnaryAttrs{UnaryOp::RoundF16}, {tensor<T>(Shape::of({5}), {65520, -70000, -0.0, inf, std::nan("")})})[0];
  CHECK(sc::to_double(y[0]) == inf);
  CHECK(sc::to_double(y[1]) == -inf);
  CHECK(sc::to_double(y[2]) == 0.0);
  CHECK(std::signbit(sc::to_double(y[2])));
  CHECK(sc::to_double(y[3]) == inf);
  CHECK(std::isnan(sc::to_double(y[4])));
}
