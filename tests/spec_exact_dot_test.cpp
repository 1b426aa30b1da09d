// The interval scalar's dot product (ExactDot for point weights, MPFR for the rest) against the
// exact sums of its endpoints, computed in 1130-bit MPFR arithmetic where every sum below is exact.
#include <catch2/catch.hpp>
#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "spec/reduce.hpp"
#include "spec/scalars.hpp"

using namespace nnref;

namespace {

using Wide = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<340>,
                                           boost::multiprecision::et_off>;  // 340 digits: 1130 bits

Wide wide(mpfr_srcptr v) {
  Wide r;
  mpfr_set(r.backend().data(), v, MPFR_RNDN);  // exact: 61 ≤ 1130 bits
  return r;
}
mpfr_srcptr left(const Interval& x) { return &x.backend().data()->left; }
mpfr_srcptr right(const Interval& x) { return &x.backend().data()->right; }

// A 61-bit interval around d1 + d2·2^-40 (an exact value of ~93 bits): both endpoints use every bit.
Interval wide_interval(double d1, double d2) { return Interval(d1) + Interval(d2) * Interval(std::ldexp(1.0, -40)); }

// Checks dot_of(x, w, init) against the exact endpoint sums: it must enclose them, and be no
// wider than 2^-57·(Σ|terms| + |init|) on each side (a few roundings at 61 bits, not one a term).
void check_dot(const std::vector<Interval>& x, const std::vector<Interval>& w, const Interval& init) {
  Wide lo = wide(left(init)), hi = wide(right(init)), magnitude = abs(lo) + abs(hi);
  for (size_t i = 0; i < x.size(); ++i) {
    const Wide a = wide(left(x[i])), b = wide(right(x[i])), c = wide(left(w[i])), d = wide(right(w[i]));
    const Wide p[] = {a * c, a * d, b * c, b * d};
    lo += *std::min_element(std::begin(p), std::end(p));
    hi += *std::max_element(std::begin(p), std::end(p));
    magnitude += abs(a * c) + abs(b * d);
  }
  const Interval r = dot_of<Interval>(static_cast<int64_t>(x.size()), [&](int64_t i) -> const Interval& { return x[i]; },
                                      [&](int64_t i) -> const Interval& { return w[i]; }, init);
  CHECK(wide(left(r)) <= lo);
  CHECK(wide(right(r)) >= hi);
  const Wide slack = ldexp(magnitude, -57);
  CHECK(lo - wide(left(r)) <= slack);
  CHECK(wide(right(r)) - hi <= slack);
}

}  // namespace

TEST_CASE("interval dot: point weights of 53 and 61 bits over 61-bit intervals, mixed signs and magnitudes") {
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  std::vector<Interval> x, w;
  for (int i = 0; i < 3000; ++i) {
    x.push_back(wide_interval(std::ldexp(unit(gen), exponent(gen)), unit(gen)));
    // every third weight is a point of 61 bits (the midpoint of a decimal's enclosure), the others doubles
    w.push_back(i % 3 == 0 ? sc::mid(from_decimal<Interval>(i % 2 ? "-0.1" : "0.7")) * Interval(std::ldexp(1.0, exponent(gen)))
                           : Interval(std::ldexp(unit(gen), exponent(gen))));
  }
  check_dot(x, w, wide_interval(0.5, 0.25));
}

TEST_CASE("interval dot: the splitting of significands at their edges (all ones, halfway at bit 26)") {
  const double all_ones = std::nextafter(2.0, 0.0);          // 2 − 2^-52: 53 ones
  const double halfway = 1.0 + std::ldexp(1.0, -26);         // rounds on 26 bits exactly at a tie
  const double below_halfway = std::nextafter(halfway, 0.0);
  const std::vector<double> values = {all_ones, -all_ones, halfway, below_halfway, -below_halfway, 1.0, 0.0};
  std::vector<Interval> x, w;
  for (double a : values)
    for (double b : values) {
      x.push_back(wide_interval(a, b));
      w.push_back(Interval(b == 0.0 ? a : b));
    }
  check_dot(x, w, Interval(0));
}

TEST_CASE("interval dot: interval weights, zeros and huge or tiny terms take MPFR's path and still enclose") {
  std::vector<Interval> x = {wide_interval(3.0, 1.0), wide_interval(-2.0, 0.5), Interval(0), Interval(std::ldexp(1.0, 500)),
                             Interval(std::ldexp(1.0, -500)), wide_interval(1.0, -1.0)};
  std::vector<Interval> w = {wide_interval(0.25, 0.5), Interval(0.5), Interval(7.0), Interval(3.0), Interval(5.0), Interval(0)};
  check_dot(x, w, Interval(1));
}

TEST_CASE("interval dot: a NaN term makes the sum NaN") {
  const std::vector<Interval> x = {Interval(1.0), Interval(std::numeric_limits<double>::quiet_NaN())};
  const std::vector<Interval> w = {Interval(2.0), Interval(3.0)};
  const Interval r = dot_of<Interval>(2, [&](int64_t i) -> const Interval& { return x[i]; },
                                      [&](int64_t i) -> const Interval& { return w[i]; }, Interval(0));
  CHECK(sc::isnan(r));
}
