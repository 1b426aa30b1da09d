// The Envelope's correctly rounded operations (+ − × ÷ sqrt, a read value): the exact image rounded
// outward to the runtime's format, [RD(lo), RU(hi)], with flushed subnormals and overflow to ±∞.
// Expected bounds are written by hand; the random cases compare with the machine's float32.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "spec/scalars.hpp"

using namespace nnref;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void check_bounds(const Envelope& e, double lo, double hi) {
  CHECK(e.lo == lo);
  CHECK(e.hi == hi);
}

bool holds(const Envelope& e, float v) { return e.lo <= v && v <= e.hi; }

// The float32 numbers the envelope holds are one, or two adjacent ones.
bool one_float32_step(const Envelope& e) {
  float first = static_cast<float>(e.lo), last = static_cast<float>(e.hi);
  if (first < e.lo) first = std::nextafter(first, INFINITY);
  if (last > e.hi) last = std::nextafter(last, -INFINITY);
  return first == last || std::nextafter(first, INFINITY) == last;
}

}  // namespace

TEST_CASE("envelope: an exact result of + - x / is a point, an inexact one its two float32 neighbours") {
  // ceil((5 − 1)/2) in Range's expanded body: 4 and 2 are float32 numbers, 1/2 too.
  check_bounds((Envelope(5.0) - Envelope(1.0)) / Envelope(2.0), 2, 2);
  check_bounds(Envelope(3.0) * Envelope(0.25) + Envelope(-1.0), -0.25, -0.25);
  // 1/3 = 0x1.5555...p-2: cut to 23 fraction bits below, one float32 step above.
  check_bounds(Envelope(1.0) / Envelope(3.0), 0x1.555554p-2, 0x1.555556p-2);
  check_bounds(Envelope(-1.0) / Envelope(3.0), -0x1.555556p-2, -0x1.555554p-2);
  // 1 + 2^-24 lies halfway between 1 and its float32 successor 1 + 2^-23.
  check_bounds(Envelope(1.0) + Envelope(0x1p-24), 1, 1 + 0x1p-23);
  // 1 + 2^-30 rounds to 1: its float32 successor lies 2^-23 away, beyond the relative bound u·|r|.
  const Envelope near_one = Envelope(1.0) + Envelope(0x1p-30);
  CHECK(near_one.lo == 1);
  CHECK(near_one.hi < 1 + 0x1p-23);
  // √2 = 0x1.6a09e667...: below, 0x1.6a09e6p0; its successor 0x1.6a09e8p0 lies beyond u·√2.
  const Envelope root = sc::sqrt(Envelope(2.0));
  CHECK(root.lo == 0x1.6a09e6p0);
  CHECK(root.hi > std::sqrt(2.0));
  CHECK(root.hi < 0x1.6a09e8p0);
  check_bounds(sc::sqrt(Envelope(4.0)), 2, 2);
  // An interval operand: the image [1/4, 1/2] of 1/[2, 4] is exact at both ends.
  check_bounds(Envelope(1.0) / Envelope(2.0, 4.0), 0.25, 0.5);
  // A value read from a file: 0.1 between its two float32 neighbours, 0.5 a point.
  check_bounds(from_double<Envelope>(0.1), 0x1.99999ap-4 - 0x1p-27, 0x1.99999ap-4);
  check_bounds(from_double<Envelope>(0.5), 0.5, 0.5);
}

TEST_CASE("envelope: a subnormal result may be flushed to 0, a result past the largest float32 overflows") {
  // 2^-130 is a float32 subnormal: exactly that, or 0 when flushed.
  check_bounds(Envelope(0x1p-100) * Envelope(0x1p-30), 0, 0x1p-130);
  check_bounds(Envelope(-0x1p-100) * Envelope(0x1p-30), -0x1p-130, 0);
  // 2^-160 is below float32's least subnormal 2^-149: 0 or 2^-149.
  check_bounds(Envelope(0x1p-80) * Envelope(0x1p-80), 0, 0x1p-149);
  // The largest float32 plus a quarter of its ulp (2^104): rounds to it, or up to +∞.
  const double max_f32 = 0x1.fffffep127;
  check_bounds(Envelope(max_f32) + Envelope(0x1p103), max_f32, kInf);
  envelope::take_lost();
  const Envelope past = Envelope(0x1p127) * Envelope(3.0);  // 1.5·2^128: every rounding to nearest is +∞
  CHECK(past.hi == kInf);
  CHECK(past.lo > max_f32);
  CHECK(past.lo <= 3 * 0x1p127);
  CHECK(envelope::take_lost() == "the result passes the largest finite f32 number: [5.10424e+38, 5.10424e+38]");
}

TEST_CASE("envelope: float16 and bfloat16 round to their own grids") {
  {
    const RuntimeModel f16 = *runtime_model("f16");
    RuntimeScope scope(f16);
    check_bounds(Envelope(1.0) / Envelope(3.0), 0x1.554p-2, 0x1.558p-2);  // 10 fraction bits
    check_bounds(from_double<Envelope>(0.1), 0.0999755859375, 0.10003662109375);
    check_bounds(Envelope(0x1p-10) * Envelope(0x1p-10), 0, 0x1p-20);  // a float16 subnormal (tiny 2^-14)
    check_bounds(Envelope(0x1p-13) * Envelope(0x1p-13), 0, 0x1p-24);  // 2^-26: 0 or the least subnormal
    check_bounds(Envelope(65504.0) + Envelope(8.0), 65504, kInf);     // a quarter ulp past the largest
    envelope::take_lost();
  }
  const RuntimeModel bf16 = *runtime_model("bf16");
  RuntimeScope scope(bf16);
  check_bounds(Envelope(1.0) / Envelope(3.0), 0x1.54p-2, 0x1.56p-2);  // 7 fraction bits
  check_bounds(Envelope(1.0) + Envelope(0x1p-8), 1, 1 + 0x1p-7);      // halfway
  check_bounds(Envelope(0x1p-100) * Envelope(0x1p-30), 0, 0x1p-130);  // float32's exponent range
}

TEST_CASE("envelope: float32's own + - x / and fma on random operands lie in one float32 step") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> mantissa(-2.0f, 2.0f);
  std::uniform_int_distribution<int> exponent(-20, 20);
  const auto draw = [&] { return std::ldexp(mantissa(rng), exponent(rng)); };
  for (int i = 0; i < 2000; ++i) {
    const float a = draw(), b = draw(), c = draw();
    const Envelope x(a), y(b), z(c);
    const Envelope sum = x + y, difference = x - y, product = x * y, quotient = x / y;
    CHECK(holds(sum, a + b));
    CHECK(holds(difference, a - b));
    CHECK(holds(product, a * b));
    CHECK(holds(quotient, a / b));
    CHECK(holds(quotient, a * (1.0f / b)));        // a runtime may multiply by a rounded reciprocal
    CHECK(holds(product + z, std::fma(a, b, c)));  // a contraction of x·y + z rounds once
    CHECK(one_float32_step(sum));
    CHECK(one_float32_step(difference));
    CHECK(one_float32_step(product));
  }
}
