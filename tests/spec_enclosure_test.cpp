// The enclosure scalars at hand-computed points: Interval (MPFI) answers comparisons and branches
// by the set of its values, and the float32 Envelope widens each operation by its stated error.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "spec/orderings.hpp"
#include "spec/reduce.hpp"
#include "spec/scalars.hpp"

using namespace nnref;

namespace {

Interval iv(double lo, double hi) {
  Interval r;
  mpfi_interv_d(r.backend().data(), lo, hi);
  return r;
}

void check_bounds(const Enclosure& e, double lo, double hi) {
  CHECK(e.lo == lo);
  CHECK(e.hi == hi);
}

}  // namespace

TEST_CASE("interval: max, min, relu of overlapping intervals are the hull of the endpoints' (no terminate)") {
  check_bounds(sc::enclosure(sc::max(iv(-1, 2), iv(0, 0.5))), 0, 2);
  check_bounds(sc::enclosure(sc::min(iv(-1, 2), iv(0, 0.5))), -1, 0.5);
  check_bounds(sc::enclosure(sc::relu(iv(-1, 2))), 0, 2);
  const Interval nan(std::nan(""));
  CHECK(sc::isnan(sc::max(iv(1, 2), nan)));
  CHECK(sc::isnan(sc::max(nan, iv(1, 2))));
}

TEST_CASE("interval: sqr is the square's range, sign and piecewise take both sides of 0") {
  // Layer norm's (x − μ)² with x = [−1, 2], μ = [0, 0.5]: x − μ = [−1.5, 2], squared [0, 4] (x·x gives [−3, 4]).
  check_bounds(sc::enclosure(sc::sqr(iv(-1, 2) - iv(0, 0.5))), 0, 4);
  check_bounds(sc::enclosure((iv(-1, 2) - iv(0, 0.5)) * (iv(-1, 2) - iv(0, 0.5))), -3, 4);
  check_bounds(sc::enclosure(sc::sign(iv(-1, 2))), -1, 1);
  check_bounds(sc::enclosure(sc::sign(iv(0, 2))), 0, 1);
  const auto leaky = [](const Interval& x) {
    return sc::piecewise_at_zero(x, [](const Interval& v) { return Interval(0.25) * v; }, [](const Interval& v) { return v; });
  };
  check_bounds(sc::enclosure(leaky(iv(-2, 3))), -0.5, 3);
  check_bounds(sc::enclosure(leaky(iv(-2, -1))), -0.5, -0.25);
  check_bounds(sc::enclosure(sc::floor(iv(-1.5, 2.5))), -2, 2);
}

TEST_CASE("interval: a decimal attribute is enclosed exactly, and dot products enclose the exact sum") {
  const Enclosure e = sc::enclosure(from_decimal<Interval>("1e-5"));
  CHECK(e.lo < e.hi);  // 10^-5 has no binary representation
  CHECK(mp50(e.lo) <= mp50("1e-5"));
  CHECK(mp50(e.hi) >= mp50("1e-5"));
  // Σ_{i<100} (i + 0.1)·(−1)^i·0.3 with 0.1 and 0.3 as decimals: exact value by hand,
  // −50·0.1·0.3·... computed in mp50 as the reference.
  std::vector<Interval> x, w;
  mp50 exact = 0;
  for (int i = 0; i < 100; ++i) {
    x.push_back(Interval(i) + from_decimal<Interval>("0.1"));
    w.push_back(from_decimal<Interval>(i % 2 ? "-0.3" : "0.3"));
    exact += (mp50(i) + mp50("0.1")) * mp50(i % 2 ? "-0.3" : "0.3");
  }
  const Interval d = dot_of<Interval>(100, [&](int64_t i) -> const Interval& { return x[i]; },
                                      [&](int64_t i) -> const Interval& { return w[i]; }, Interval(1));
  const Enclosure b = sc::enclosure(d);
  CHECK(mp50(b.lo) <= exact + 1);
  CHECK(mp50(b.hi) >= exact + 1);
  CHECK(b.hi - b.lo < 1e-14);
}

TEST_CASE("envelope: a dot product of n terms is widened by u·Σ|terms| + n half ulps of (1 + γ(n))·(1 + u)·max(P, N) and holds float32 in any order") {
  const int n = 300;
  std::vector<float> xf, wf;
  double abs_sum = 0, exact = 0.5, positive = 0.5, negative = 0;
  for (int i = 1; i <= n; ++i) {  // from 1: sin(0) would be a term exactly 0 (the next test's case)
    xf.push_back(static_cast<float>(std::sin(i * 1.7) * 3));
    wf.push_back(static_cast<float>(std::cos(i * 0.3) / 7));
    const double t = double(xf.back()) * wf.back();
    abs_sum += std::abs(t);
    exact += t;
    (t > 0 ? positive : negative) += std::abs(t);
  }
  std::vector<Envelope> x(xf.begin(), xf.end()), w(wf.begin(), wf.end());
  const Envelope d = dot_of<Envelope>(n, [&](int64_t i) -> const Envelope& { return x[i]; },
                                      [&](int64_t i) -> const Envelope& { return w[i]; }, Envelope(0.5));
  // docs/conformance.md, "Sums in any order": the products' roundings and the additions' tree, each
  // addition at most half an ulp of S, every computed partial sum's bound.
  const double u = 0x1p-24, gamma = n * u / (1 - n * u);
  const double S = (1 + gamma) * (1 + u) * std::max(positive, negative);
  const double half_ulp = u * std::exp2(std::floor(std::log2(S)));
  const double bound = u * (abs_sum + 0.5) + n * half_ulp;
  const double radius = (d.hi - d.lo) / 2;
  INFO("S = " << S << ", half ulp " << half_ulp);
  CHECK(radius >= bound);
  CHECK(radius <= bound * 1.0001);
  CHECK(bound <= u * (abs_sum + 0.5) + gamma * (1 + u) * std::max(positive, negative));  // never above γ(n)·M
  CHECK(radius < 0.75 * (n + 1) * u / (1 - (n + 1) * u) * (abs_sum + 0.5));  // Higham's γ(n+1)·Σ|terms|, mixed signs
  CHECK(d.lo <= exact);
  CHECK(exact <= d.hi);
  // Forward, backward, pairwise and both sign-sorted float32 sums (every positive term first: the
  // partial sums reach P) all lie inside.
  float fwd = 0.5f, bwd = 0.5f;
  for (int i = 0; i < n; ++i) fwd += xf[i] * wf[i];
  for (int i = n - 1; i >= 0; --i) bwd += xf[i] * wf[i];
  std::vector<float> products;
  for (int i = 0; i < n; ++i) products.push_back(xf[i] * wf[i]);
  std::sort(products.begin(), products.end());
  float ascending = 0.5f, descending = 0.5f;
  for (float p : products) ascending += p;
  for (auto it = products.rbegin(); it != products.rend(); ++it) descending += *it;
  std::vector<float> level;
  for (int i = 0; i < n; ++i) level.push_back(xf[i] * wf[i]);
  while (level.size() > 1) {
    std::vector<float> next;
    for (size_t i = 0; i < level.size(); i += 2) next.push_back(i + 1 < level.size() ? level[i] + level[i + 1] : level[i]);
    level = next;
  }
  const float pairwise = level[0] + 0.5f;
  for (float v : {fwd, bwd, pairwise, ascending, descending}) {
    CHECK(d.lo <= v);
    CHECK(v <= d.hi);
  }
}

// docs/conformance.md, "Terms exactly 0": of n + 1 leaves with z exactly 0, at most n − z additions
// round, whatever the order or tree.
TEST_CASE("envelope: terms exactly 0 add nothing and round nothing, in any order") {
  const std::vector<float> xf{0.0f, 1.1f, 0.0f, -2.3f, 0.0f, 3.7f, 0.0f}, wf{7.0f, 0.9f, -1.0f, 0.3f, 5.0f, 1.3f, 2.0f};
  const int n = static_cast<int>(xf.size());
  std::vector<Envelope> x(xf.begin(), xf.end()), w(wf.begin(), wf.end());
  const Envelope d = dot_of<Envelope>(
      n, [&](int64_t i) -> const Envelope& { return x[i]; }, [&](int64_t i) -> const Envelope& { return w[i]; },
      Envelope(0.0));
  double abs_sum = 0, positive = 0, negative = 0, exact = 0;
  for (int i = 0; i < n; ++i) {
    const double t = double(xf[i]) * wf[i];
    abs_sum += std::abs(t);
    exact += t;
    (t > 0 ? positive : negative) += std::abs(t);
  }
  // Three terms not exactly 0 (the init 0 and four zero products are exact): two additions round.
  const double u = 0x1p-24, rounding = 2, gamma = rounding * u / (1 - rounding * u);
  const double half_ulp = u * std::exp2(std::floor(std::log2((1 + gamma) * (1 + u) * std::max(positive, negative))));
  const double bound = u * abs_sum + rounding * half_ulp;
  const double radius = (d.hi - d.lo) / 2;
  CHECK(radius >= bound);
  CHECK(radius <= bound * 1.0001);
  CHECK(radius < u * abs_sum + n * half_ulp);  // n additions, as without the zeros' count
  CHECK(d.lo <= exact);
  CHECK(exact <= d.hi);
  // Every order of the seven products (each rounded to float32) summed in float32 from 0 lies inside.
  std::vector<int> order{0, 1, 2, 3, 4, 5, 6};
  do {
    float s = 0.0f;
    for (int i : order) s += xf[i] * wf[i];
    CHECK(d.lo <= s);
    CHECK(s <= d.hi);
  } while (std::next_permutation(order.begin(), order.end()));
  // A point 0 times an operand that is not finite is no exact 0 (0·∞ is NaN): the bound is lost.
  const Envelope inf(std::numeric_limits<double>::infinity());
  const Envelope lost = dot_of<Envelope>(
      1, [&](int64_t) -> const Envelope& { return x[0]; }, [&](int64_t) -> const Envelope& { return inf; },
      Envelope(0.0));
  CHECK(!sc::enclosure(lost).bounded());
}

TEST_CASE("envelope: values the runtime can hold exactly stay points, others are rounded once") {
  CHECK(from_double<Envelope>(0.5).lo == 0.5);
  CHECK(from_double<Envelope>(0.5).hi == 0.5);
  const Envelope tenth = from_double<Envelope>(0.1);
  CHECK(tenth.lo <= double(0.1f));
  CHECK(double(0.1f) <= tenth.hi);
  CHECK(tenth.hi - tenth.lo < 2 * 0.1 * 0x1p-24 * 1.001);  // one rounding: u·|x| each side
  // In float16 (u = 2^-11) 0.1 lies between 0.0999755859375 and 0.10003662109375.
  const RuntimeModel f16 = *runtime_model("f16");
  RuntimeScope scope(f16);
  const Envelope h = from_double<Envelope>(0.1);
  CHECK(h.lo == 0.0999755859375);  // its float16 neighbours
  CHECK(h.hi == 0.10003662109375);
  CHECK(from_double<Envelope>(1e5).hi == std::numeric_limits<double>::infinity());  // past 65504
}

TEST_CASE("envelope: exp holds the ulp allowance, sqr no dependency, max propagates NaN") {
  const Envelope e = sc::exp(Envelope(1.0));
  const double y = std::exp(1.0), allowance = 8 * 0x1p-24 * y;  // 4 ulps ≤ 8u·|y|
  CHECK(e.lo <= y - allowance * 0.99);
  CHECK(e.hi >= y + allowance * 0.99);
  CHECK(e.hi - e.lo < 2.01 * allowance);
  CHECK(sc::sqr(Envelope(-1.0, 2.0)).lo == 0.0);
  CHECK(sc::isnan(sc::max(Envelope(1.0), Envelope(std::nan("")))));
  const Envelope divisor_may_be_zero = Envelope(1.0) / Envelope(-1.0, 1.0);
  CHECK(divisor_may_be_zero.lo == -std::numeric_limits<double>::infinity());
}

namespace {

// Π factors in float32, multiplied in the given order, left to right.
float float_product(const std::vector<float>& factors, const std::vector<size_t>& order) {
  float p = 1.0f;
  for (size_t i : order) p *= factors[i];
  return p;
}

Envelope envelope_product(const std::vector<float>& factors) {
  return ScalarOps<Envelope>::prod(static_cast<int64_t>(factors.size()),
                                   [&](int64_t i) { return Envelope(double(factors[static_cast<size_t>(i)])); });
}

}  // namespace

TEST_CASE("envelope: a product of n factors holds float32 in every order, underflow included") {
  // Five factors: every one of the 120 orders, multiplied in float32, lies inside; the radius is
  // about γ(4)·|Π| (4 roundings).
  const std::vector<float> f{1.1f, -0.3f, 7.25f, 0.9999f, 3.0e-3f};
  const Envelope e = envelope_product(f);
  std::vector<size_t> order{0, 1, 2, 3, 4};
  const double exact = 1.1f * double(-0.3f) * 7.25f * double(0.9999f) * double(3.0e-3f);
  CHECK(e.lo <= exact);
  CHECK(exact <= e.hi);
  CHECK(e.hi - e.lo < 2 * 4.01 * 0x1p-24 * std::abs(exact));
  do {
    const float p = float_product(f, order);
    CHECK(e.lo <= p);
    CHECK(p <= e.hi);
  } while (std::next_permutation(order.begin(), order.end()));
  // 1e-25·1e-25 underflows to 0 in float32 (below 2^-149), 1e-25·1e15 does not: the orders give 0
  // and about 1e-20, and both are correct float32 products.
  const std::vector<float> g{1e-25f, 1e-25f, 1e15f, 1e15f};
  const Envelope u = envelope_product(g);
  CHECK(float_product(g, {0, 1, 2, 3}) == 0.0f);
  CHECK(float_product(g, {0, 2, 1, 3}) > 0.9e-20f);
  std::vector<size_t> o4{0, 1, 2, 3};
  do {
    const float p = float_product(g, o4);
    CHECK(u.lo <= p);
    CHECK(p <= u.hi);
  } while (std::next_permutation(o4.begin(), o4.end()));
  // 1e30·1e30 overflows to +inf in float32 although the product of all four is about 1: no bound.
  const Envelope big = envelope_product({1e-30f, 1e-30f, 1e30f, 1e30f});
  CHECK(std::isinf(big.lo));
  CHECK(std::isinf(big.hi));
  // The empty product is exactly 1, one factor is itself.
  CHECK(envelope_product({}).lo == 1.0);
  CHECK(envelope_product({}).hi == 1.0);
  CHECK(envelope_product({0.1f}).lo == double(0.1f));
}

TEST_CASE("envelope and interval: erf within the ulp allowance of the exact value, round_even exact") {
  // erf 1 = 0.8427007929497148693 (OEIS A099286).
  const Envelope e = sc::erf(Envelope(1.0));
  const double y = 0.8427007929497148693, allowance = 8 * 0x1p-24 * y;
  CHECK(e.lo <= y - allowance * 0.99);
  CHECK(e.hi >= y + allowance * 0.99);
  CHECK(e.hi - e.lo < 2.01 * allowance);
  const Enclosure i = sc::enclosure(sc::erf(iv(-1, 1)));
  CHECK(i.lo <= -y);
  CHECK(i.lo > -y - 1e-15);
  CHECK(i.hi >= y);
  CHECK(i.hi < y + 1e-15);
  check_bounds(sc::enclosure(sc::round_even(iv(0.5, 2.5))), 0, 2);
  const Envelope r = sc::round_even(Envelope(-1.5, 3.5));
  CHECK(r.lo == -2.0);
  CHECK(r.hi == 4.0);
}

TEST_CASE("envelope and interval: fmod exact on points, bounded over boxes, unbounded across a zero divisor") {
  check_bounds(sc::enclosure(sc::fmod(iv(5.5, 5.5), iv(2, 2))), 1.5, 1.5);
  // 5.2..5.8 over 2: one quotient 2, r = x − 2·2 in [1.2, 1.8].
  const Enclosure one_q = sc::enclosure(sc::fmod(iv(5.25, 5.75), iv(2, 2)));
  check_bounds(one_q, 1.25, 1.75);
  // 5..7 over 2: quotients 2 and 3; every remainder in [0, 2) (x ≥ 0, |r| < 2).
  const Enclosure two_q = sc::enclosure(sc::fmod(iv(5, 7), iv(2, 2)));
  CHECK(two_q.lo <= 0);
  CHECK(two_q.hi >= 1);
  CHECK(two_q.hi <= 2);
  CHECK(std::isnan(sc::enclosure(sc::fmod(iv(1, 2), iv(-1, 1))).lo));
  const Envelope p = sc::fmod(Envelope(-5.5), Envelope(2.0));
  CHECK(p.lo == -1.5);
  CHECK(p.hi == -1.5);
  const Envelope b = sc::fmod(Envelope(5.25, 5.75), Envelope(2.0));
  CHECK(b.lo <= 1.25);
  CHECK(b.lo > 1.2499);
  CHECK(b.hi >= 1.75);
  CHECK(b.hi < 1.7501);
  const Envelope across = sc::fmod(Envelope(-7.0, 7.0), Envelope(2.0, 3.0));
  CHECK(across.lo == -3.0);  // x's sign, |r| < max|y| = 3
  CHECK(across.hi == 3.0);
  const Envelope zero = sc::fmod(Envelope(1.0), Envelope(-1.0, 1.0));
  CHECK(std::isinf(zero.lo));
  CHECK(std::isinf(zero.hi));
}

TEST_CASE("envelope and interval: rounding to float16 is the monotone image of the sides") {
  // [1 + 2^-11, 1 + 3·2^-11]: both sides halfway, to 1 and to 1 + 2^-9.
  check_bounds(sc::enclosure(sc::round_to(iv(1 + 0x1p-11, 1 + 3 * 0x1p-11), kBinary16)), 1, 1 + 0x1p-9);
  const Envelope e = sc::round_to(Envelope(0.1, 70000.0), kBinary16);
  CHECK(e.lo == 0.0999755859375);  // binary16 0x2E66, the nearest to 0.1
  CHECK(std::isinf(e.hi));
}

namespace {

// Every float32 value x^n may be computed as in a correct runtime: powf (glibc's, correctly
// rounded here) and the left-to-right product of |n| factors, inverted for n < 0.
std::vector<float> float32_powers(float x, int n) {
  float p = 1.0f;
  for (int i = 0; i < std::abs(n); ++i) p *= x;
  return {std::pow(x, static_cast<float>(n)), n < 0 ? 1.0f / p : p};
}

}  // namespace

TEST_CASE("envelope: pow with a whole exponent is bounded for a base of either sign, and holds float32's answers") {
  for (const int n : {2, 3, 4, -1, -2, -3}) {
    for (const float x : {-2.0f, -0.75f, -0.1f, 0.3f, 1.5f, 3.0f}) {
      INFO("x = " << x << ", n = " << n);
      const Envelope e = sc::pow(Envelope(double(x)), Envelope(double(n)));
      REQUIRE(sc::enclosure(e).bounded());
      const double exact = std::pow(double(x), n);
      CHECK(e.lo <= exact);
      CHECK(exact <= e.hi);
      for (float y : float32_powers(x, n)) {
        CHECK(e.lo <= y);
        CHECK(y <= e.hi);
      }
      // Within the allowance: 4 ulps (8u) or γ(2|n| − 1), whichever is larger, and a little more.
      const double allowance = std::max(8.0, 2.0 * std::abs(n) - 1) * 0x1p-24 * std::abs(exact);
      CHECK(e.hi - e.lo <= 2.01 * allowance + 1e-37);
    }
  }
  // An even power of an envelope across 0 is [0, max²]: never below 0, as x·x in float32 is not.
  const Envelope sq = sc::pow(Envelope(-2.0, 1.5), Envelope(2.0));
  CHECK(sq.lo == 0.0);
  CHECK(sq.hi >= 4.0);
  CHECK(sq.hi <= 4.0 * (1 + 0x1p-20));
  const Envelope cube = sc::pow(Envelope(-2.0, 1.5), Envelope(3.0));
  CHECK(cube.lo <= -8.0);
  CHECK(cube.hi >= 3.375);
  CHECK(cube.lo >= -8.0 * (1 + 0x1p-20));
  // pow(x, 0) = 1, pow(x, 1) = x exactly.
  CHECK(sc::enclosure(sc::pow(Envelope(-3.0, 2.0), Envelope(0.0))).lo == 1.0);
  check_bounds(sc::enclosure(sc::pow(Envelope(-3.0, 2.0), Envelope(1.0))), -3.0, 2.0);
}

TEST_CASE("envelope: a bound that cannot hold is lost with a named reason") {
  envelope::take_lost();
  const Envelope root = sc::pow(Envelope(-0.5, 2.0), Envelope(0.5));
  CHECK(!sc::enclosure(root).bounded());
  CHECK(envelope::take_lost().find("pow: the base's envelope [-0.5, 2] reaches below 0") == 0);
  const Envelope inverse = sc::pow(Envelope(-0.5, 2.0), Envelope(-1.0));
  CHECK(!sc::enclosure(inverse).bounded());
  CHECK(envelope::take_lost().find("holds 0 and the exponent -1 is negative") != std::string::npos);
  (void)(Envelope(1.0) / Envelope(-1.0, 1.0));
  CHECK(envelope::take_lost() == "division: the divisor's envelope [-1, 1] contains 0");
  CHECK(envelope::take_lost().empty());
}

TEST_CASE("envelope: a sum of terms that are all >= 0 stays >= 0, a sum of terms <= 0 stays <= 0") {
  // Four squares of values near 0: midpoint ± radius would reach below 0; no float sum does.
  const std::vector<Envelope> squares{sc::sqr(Envelope(-1e-3, 1e-3)), Envelope(0.0), sc::sqr(Envelope(-2e-3, 1e-3)),
                                      Envelope(0.0, 1e-6)};
  const Envelope s = ScalarOps<Envelope>::sum(4, [&](int64_t i) { return squares[static_cast<size_t>(i)]; }, Envelope(0.0));
  CHECK(s.lo == 0.0);
  CHECK(s.hi >= 1e-6 + 4e-6 + 1e-6);
  const Envelope n = ScalarOps<Envelope>::sum(2, [&](int64_t i) { return -squares[static_cast<size_t>(i)]; }, Envelope(0.0));
  CHECK(n.hi == 0.0);
  // A mixed sum keeps its radius on both sides.
  const Envelope mixed = ScalarOps<Envelope>::sum(2, [](int64_t i) { return i == 0 ? Envelope(-1.0) : Envelope(1.0); }, Envelope(0.0));
  CHECK(mixed.lo < 0.0);
  CHECK(mixed.hi > 0.0);
}

TEST_CASE("interval: pow encloses x^n for a base of either sign, and never throws") {
  check_bounds(sc::enclosure(sc::pow(iv(-1, 2), Interval(2))), 0, 4);
  check_bounds(sc::enclosure(sc::pow(iv(-2, -1), Interval(3))), -8, -1);
  check_bounds(sc::enclosure(sc::pow(iv(-2, -1), Interval(2))), 1, 4);
  check_bounds(sc::enclosure(sc::pow(iv(-2, -1), Interval(-1))), -1, -0.5);
  const Enclosure root = sc::enclosure(sc::pow(iv(0, 4), Interval(0.5)));  // exp(0.5·log x), rounded outward
  CHECK(root.lo == 0);
  CHECK(root.hi >= 2);
  CHECK(root.hi <= 2 + 1e-15);
  check_bounds(sc::enclosure(sc::pow(iv(-3, 5), Interval(0))), 1, 1);
  const Enclosure pole = sc::enclosure(sc::pow(iv(-1, 2), Interval(-1)));
  CHECK(pole.lo == -std::numeric_limits<double>::infinity());
  CHECK(pole.hi == std::numeric_limits<double>::infinity());
  // A negative base with an exponent that is not a whole number has no real value.
  CHECK(sc::isnan(sc::pow(iv(-1, 2), Interval(0.5))));
  CHECK(sc::isnan(sc::pow(iv(-1, 2), iv(1.5, 2.5))));
  CHECK_NOTHROW(sc::pow(iv(-1, 1), iv(-1, 1)));
}

TEST_CASE("envelope: an exact NaN is unordered with everything and kept by arithmetic and conversion but lost elsewhere") {
  const Envelope nan = Envelope::not_a_number(), inf(std::numeric_limits<double>::infinity());
  const Envelope lost(std::numeric_limits<double>::quiet_NaN());
  // IEEE 754: NaN compares unordered with every value, itself and an unbounded envelope included;
  // an infinity equals itself and exceeds every finite value.
  for (const Envelope& other : {nan, lost, inf, Envelope(1.0), Envelope(-2.0, 3.0)}) {
    CHECK(sc::orderings(nan, other) == kUnordered);
    CHECK(sc::orderings(other, nan) == kUnordered);
  }
  CHECK(sc::orderings(inf, inf) == kEqual);
  CHECK(sc::orderings(-inf, Envelope(-1e308, 1e308)) == kLess);
  CHECK(sc::orderings(lost, Envelope(1.0)) == kAnyOrdering);  // a lost bound decides nothing
  // A NaN operand of + − × ÷ gives NaN, whatever the other holds; so do negation, abs and rounding.
  for (const Envelope& r : {nan + Envelope(1.0), Envelope(2.0) - nan, nan * Envelope(0.0), Envelope(1.0) / nan,
                            nan / Envelope(-1.0, 1.0), nan + lost, -nan, sc::abs(nan), sc::round_to(nan, kBinary16)})
    CHECK(sc::enclosure(r).nan);
  // Where IEEE 754 leaves NaN's result to the implementation (max, sign, a runtime's exp, pow(NaN, 0)
  // = 1), or a select may take NaN or a number: a lost bound, with its reason.
  envelope::take_lost();
  for (const Envelope& r : {sc::max(nan, Envelope(0.0)), sc::sign(nan), sc::exp(nan), sc::pow(nan, Envelope(0.0)),
                            sc::hull(nan, Envelope(1.0))}) {
    CHECK(sc::isnan(r));
    CHECK_FALSE(sc::enclosure(r).nan);
  }
  CHECK(envelope::take_lost() == "max of NaN: IEEE 754 does not fix the result, and runtimes differ");
  CHECK(sc::enclosure(sc::hull(nan, nan)).nan);
  // An input's NaN is exact; NaN read as a weight (possibly an IR literal for "undefined") is not.
  CHECK(sc::enclosure(envelope::from_input(std::nan(""))).nan);
  CHECK_FALSE(sc::enclosure(from_double<Envelope>(std::nan(""))).nan);
  check_bounds(sc::enclosure(envelope::from_input(0.1)), sc::enclosure(from_double<Envelope>(0.1)).lo,
               sc::enclosure(from_double<Envelope>(0.1)).hi);
}

TEST_CASE("enclosure: an exact NaN accepts only NaN and an exact infinity only itself") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  const Enclosure n = sc::enclosure(Envelope::not_a_number());
  CHECK(n.special());
  CHECK_FALSE(n.rejects(nan));
  CHECK_FALSE(n.rejects(-std::nan("1")));  // any payload, any sign
  for (double a : {0.0, 1.0, inf, -inf}) CHECK(n.rejects(a));
  const Enclosure p = sc::enclosure(Envelope(inf));
  CHECK(p.special());
  CHECK_FALSE(p.rejects(inf));
  for (double a : {nan, -inf, 3.4e38}) CHECK(p.rejects(a));
  // A side that is infinite alone bounds nothing there (an overflow): not exact.
  const Enclosure overflow = sc::enclosure(Envelope(3.4e38, inf));
  CHECK_FALSE(overflow.special());
  CHECK_FALSE(overflow.rejects(inf));
  CHECK(overflow.rejects(1.0));
  CHECK_FALSE(sc::enclosure(Envelope(std::nan(""))).special());  // a lost bound
}
