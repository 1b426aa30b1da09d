// Interval: the rigorous interpretation. Each value is an MPFI interval (Boost.Multiprecision's
// mpfi_float_backend<0>, whose precision is chosen at run time) that contains the exact real-number
// result for the given weights and inputs. Arithmetic and the transcendentals are MPFI's, which round
// every endpoint outward at whatever precision the endpoints have; the customization points below
// answer comparisons and branches by the set of values the interval holds. New values get 61-bit
// endpoints (Boost's 18 decimal digits: one machine word of significand, ExactDot's range) unless an
// IntervalPrecision raises it for a re-evaluation (cli/exact_value.hpp, docs/conformance.md).
#pragma once

#include <boost/multiprecision/mpfi.hpp>
#include <memory>

#include "spec/exact_dot.hpp"
#include "spec/scalar.hpp"

namespace nnref {

using Interval = boost::multiprecision::number<boost::multiprecision::mpfi_float_backend<0>,
                                               boost::multiprecision::et_off>;

// The precision values get when no IntervalPrecision is alive, in Boost's decimal digits: 61 bits.
inline constexpr unsigned kIntervalDigits10 = 18;
// Boost's own default is 20 digits (68 bits, two words): every unit that sees Interval sets the
// project's before its first use (an inline variable, initialized once, at static initialization).
inline const bool interval_default_precision_set = (Interval::default_precision(kIntervalDigits10), true);

// The bits of an endpoint for Boost's decimal digits (its digits10_2_2): 18 → 61, 38 → 128, 77 → 257.
unsigned interval_bits_of_digits10(unsigned digits10);
// The bits of x's endpoints.
unsigned interval_bits(const Interval& x);

// While it lives, new Interval values get `digits10` decimal digits (Boost's default precision of the
// type, one variable for the process). One at a time: a second waits for the first to end, so that
// two threads raising the precision do not interleave. Another thread making Intervals meanwhile gets
// the raised precision: tighter and slower, never less sound, as MPFI rounds outward at any precision.
class IntervalPrecision {
 public:
  explicit IntervalPrecision(unsigned digits10);
  ~IntervalPrecision();
  IntervalPrecision(const IntervalPrecision&) = delete;
  IntervalPrecision& operator=(const IntervalPrecision&) = delete;

 private:
  struct Held;
  std::unique_ptr<Held> held_;
};

// x^y enclosed: for a whole-number exponent the exact image of x^n, any sign of x (1/x^|n| over an
// x that holds 0 is MPFI's [−∞, ∞]); otherwise exp(y·log x) where x > 0, or x ≥ 0 with y > 0;
// NaN where a negative base meets an exponent that is not a whole number (no real value).
// Never throws (Boost's pow asks the sign of x, which an interval across 0 does not have).
Interval interval_pow(const Interval& x, const Interval& y);
// fmod(x, y) enclosed: x − q·y where trunc(x/y) is one integer q over the operands, else the bound
// every remainder keeps (x's sign, |r| < |y|, |r| ≤ |x|); NaN where y may be 0 or x infinite.
Interval interval_fmod(const Interval& x, const Interval& y);
// Each endpoint rounded to format f (ScalarOps<T>::round_to): rounding to nearest is monotone, so
// the image of [lo, hi] is [round(lo), round(hi)], exactly.
Interval interval_round_to(const Interval& x, const FloatFormat& f);

template <>
struct ScalarOps<Interval> {
  using I = Interval;
  // The object and its two endpoints' significands on the heap (a word each at 61 bits, with malloc's
  // header); a re-evaluation at more bits shrinks its memory budget by bytes_at (cli/exact_value.cpp).
  static constexpr int64_t bytes = sizeof(I) + 2 * 32;
  static constexpr int64_t bytes_at(unsigned bits) { return sizeof(I) + 2 * (24 + 8 * ((bits + 63) / 64)); }
  static I from_double(double x) { return I(x); }
  // MPFI encloses the decimal's exact value (mpfi_set_str rounds each endpoint outward).
  static I from_decimal(const std::string& s) { return I(s); }
  // clang-format off
  static I exp(const I& x)   { return apply(x, mpfi_exp); }
  static I log(const I& x)   { return apply(x, mpfi_log); }
  static I log2(const I& x)  { return apply(x, mpfi_log2); }
  static I sqrt(const I& x)  { return apply(x, mpfi_sqrt); }
  static I rsqrt(const I& x) { return I(1) / sqrt(x); }
  static I tanh(const I& x)  { return apply(x, mpfi_tanh); }
  static I sigmoid(const I& x) { return I(1) / (I(1) + exp(-x)); }  // x occurs once: no overestimate
  static I softplus(const I& x) { return log(exp(x) + I(1)); }
  static I sin(const I& x)   { return apply(x, mpfi_sin); }
  static I cos(const I& x)   { return apply(x, mpfi_cos); }
  static I tan(const I& x)   { return apply(x, mpfi_tan); }
  static I sinh(const I& x)  { return apply(x, mpfi_sinh); }
  static I cosh(const I& x)  { return apply(x, mpfi_cosh); }
  static I asin(const I& x)  { return apply(x, mpfi_asin); }
  static I acos(const I& x)  { return apply(x, mpfi_acos); }
  static I atan(const I& x)  { return apply(x, mpfi_atan); }
  static I asinh(const I& x) { return apply(x, mpfi_asinh); }
  static I acosh(const I& x) { return apply(x, mpfi_acosh); }
  static I atanh(const I& x) { return apply(x, mpfi_atanh); }
  static I abs(const I& x)   { return apply(x, mpfi_abs); }
  static I sqr(const I& x)   { return apply(x, mpfi_sqr); }
  // clang-format on
  static I floor(const I& x) { return endpoints(x, mpfr_floor); }
  static I ceil(const I& x) { return endpoints(x, mpfr_ceil); }
  static I round_even(const I& x) { return endpoints(x, mpfr_roundeven); }
  // erf is increasing: the image of [lo, hi] is [erf lo rounded down, erf hi rounded up].
  static I erf(const I& x) {
    if (isnan(x)) return x;
    I r = x;
    mpfr_erf(&r.backend().data()->left, &x.backend().data()->left, MPFR_RNDD);
    mpfr_erf(&r.backend().data()->right, &x.backend().data()->right, MPFR_RNDU);
    return r;
  }
  static I pow(const I& x, const I& y) { return interval_pow(x, y); }
  static I fmod(const I& x, const I& y) { return interval_fmod(x, y); }
  static I round_to(const I& x, const FloatFormat& f) { return interval_round_to(x, f); }
  static bool isnan(const I& x) { return mpfi_nan_p(x.backend().data()) != 0; }
  // max and min are monotone in each operand: the interval of their values is that of the
  // endpoints'. A NaN operand gives NaN, as for points.
  static I max(const I& a, const I& b) { return extremum(a, b, mpfr_max); }
  static I min(const I& a, const I& b) { return extremum(a, b, mpfr_min); }
  static I relu(const I& x) { return max(x, I(0)); }
  static I mid(const I& x) { return I(boost::multiprecision::median(x)); }
  // The hull of the signs the interval's values have.
  static I sign(const I& x) {
    if (isnan(x)) return x;
    return hull(I(sign_of(&x.backend().data()->left)), I(sign_of(&x.backend().data()->right)));
  }
  // The hull of both pieces' images where the interval holds values on both sides of 0.
  template <class Below, class Above>
  static I piecewise_at_zero(const I& x, Below&& below, Above&& at_or_above) {
    if (isnan(x) || mpfr_sgn(&x.backend().data()->left) >= 0) return at_or_above(x);
    if (mpfr_sgn(&x.backend().data()->right) < 0) return below(x);
    return hull(below(hull(lower(x), I(0))), at_or_above(hull(I(0), upper(x))));
  }
  template <class Term>
  static I sum(int64_t n, Term&& term, const I& init) {
    return dot(n, term, [](int64_t) -> const I& { return one(); }, init);
  }
  // init + Σ x(i)·w(i). For a point weight w the lower endpoint is Σ w·(x's lower endpoint if
  // w ≥ 0, else its upper), the upper endpoint likewise: two exact dot products (ExactDot), each
  // rounded once outward. Other terms (an interval weight, an endpoint ExactDot cannot split)
  // are added to the endpoints by MPFR, rounding down and up.
  template <class X, class W>
  static I dot(int64_t n, X&& x, W&& w, const I& init) {
    I acc = init;
    mpfr_ptr lo = &acc.backend().data()->left, hi = &acc.backend().data()->right;
    ExactDot exact_lo, exact_hi;
    for (int64_t i = 0; i < n; ++i) {
      const I &xi = x(i), &wi = w(i);
      mpfr_srcptr xl = &xi.backend().data()->left, xh = &xi.backend().data()->right;
      mpfr_srcptr wl = &wi.backend().data()->left, wh = &wi.backend().data()->right;
      const auto w_point = split_point(wl, wh), x_lo = split_exactly(xl), x_hi = split_exactly(xh);
      if (w_point && x_lo && x_hi) {
        const bool nonneg = w_point->hi >= 0;
        exact_lo.add(*w_point, nonneg ? *x_lo : *x_hi);
        exact_hi.add(*w_point, nonneg ? *x_hi : *x_lo);
      } else if (mpfr_equal_p(wl, wh) && mpfr_number_p(xl) && mpfr_number_p(xh)) {
        // A point weight over finite endpoints ExactDot cannot split (more than 64 bits: a
        // re-evaluation at a raised precision): each endpoint gains w times the x endpoint that
        // bounds it, by one fused multiply-add that MPFR rounds once in the endpoint's direction.
        const bool nonneg = mpfr_sgn(wl) >= 0;
        mpfr_fma(lo, wl, nonneg ? xl : xh, lo, MPFR_RNDD);
        mpfr_fma(hi, wl, nonneg ? xh : xl, hi, MPFR_RNDU);
      } else {
        const I p = xi * wi;
        mpfr_add(lo, lo, &p.backend().data()->left, MPFR_RNDD);
        mpfr_add(hi, hi, &p.backend().data()->right, MPFR_RNDU);
      }
    }
    exact_lo.finish(lo, MPFR_RNDD);
    exact_hi.finish(hi, MPFR_RNDU);
    return acc;
  }
  // Interval products enclose the exact product of every choice of factors, in any order.
  template <class Term>
  static I prod(int64_t n, Term&& term) {
    I acc(1);
    for (int64_t i = 0; i < n; ++i) acc = acc * term(i);
    return acc;
  }
  static double to_double(const I& x) { return mpfr_get_d(boost::multiprecision::median(x).backend().data(), MPFR_RNDN); }
  static Enclosure enclosure(const I& x) {
    return {mpfr_get_d(&x.backend().data()->left, MPFR_RNDD), mpfr_get_d(&x.backend().data()->right, MPFR_RNDU)};
  }

 private:
  static const I& one() {
    static const I v(1);
    return v;
  }
  static I apply(const I& x, int (*f)(mpfi_ptr, mpfi_srcptr)) {
    I r;
    f(r.backend().data(), x.backend().data());
    return r;
  }
  static I endpoints(const I& x, int (*f)(mpfr_ptr, mpfr_srcptr)) {
    I r = x;
    f(&r.backend().data()->left, &x.backend().data()->left);
    f(&r.backend().data()->right, &x.backend().data()->right);
    return r;
  }
  static I extremum(const I& a, const I& b, int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t)) {
    if (isnan(a)) return a;
    if (isnan(b)) return b;
    I r;
    f(&r.backend().data()->left, &a.backend().data()->left, &b.backend().data()->left, MPFR_RNDD);
    f(&r.backend().data()->right, &a.backend().data()->right, &b.backend().data()->right, MPFR_RNDU);
    return r;
  }
  static I lower(const I& x) { return I(boost::multiprecision::lower(x)); }
  static I upper(const I& x) { return I(boost::multiprecision::upper(x)); }
  static I hull(const I& a, const I& b) {
    I r;
    mpfi_union(r.backend().data(), a.backend().data(), b.backend().data());
    return r;
  }
  static int sign_of(mpfr_srcptr v) { return mpfr_sgn(v) > 0 ? 1 : mpfr_sgn(v) < 0 ? -1 : 0; }
};

static_assert(Scalar<Interval>);

}  // namespace nnref
