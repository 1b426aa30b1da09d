#include "spec/scalar_interval.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>

namespace nnref {

namespace {

mpfr_srcptr lo(const Interval& x) { return &x.backend().data()->left; }
mpfr_srcptr hi(const Interval& x) { return &x.backend().data()->right; }
mpfr_ptr lo(Interval& x) { return &x.backend().data()->left; }
mpfr_ptr hi(Interval& x) { return &x.backend().data()->right; }

Interval nan_interval() {
  Interval r;
  mpfr_set_nan(lo(r));
  mpfr_set_nan(hi(r));
  return r;
}

// x^m (m ≥ 1) over the interval, each endpoint rounded outward: monotone for odd m; for even m
// the power of the magnitudes, 0 at its least where x holds 0.
Interval power(const Interval& x, unsigned long m) {
  Interval r;
  const bool odd = m % 2 == 1;
  if (odd || mpfr_sgn(lo(x)) >= 0) {
    mpfr_pow_ui(lo(r), lo(x), m, MPFR_RNDD);
    mpfr_pow_ui(hi(r), hi(x), m, MPFR_RNDU);
  } else if (mpfr_sgn(hi(x)) <= 0) {
    mpfr_t a;
    mpfr_init2(a, mpfr_get_prec(lo(x)));
    mpfr_neg(a, hi(x), MPFR_RNDN);  // exact
    mpfr_pow_ui(lo(r), a, m, MPFR_RNDD);
    mpfr_neg(a, lo(x), MPFR_RNDN);
    mpfr_pow_ui(hi(r), a, m, MPFR_RNDU);
    mpfr_clear(a);
  } else {
    mpfr_t a;
    mpfr_init2(a, mpfr_get_prec(lo(x)));
    mpfr_neg(a, lo(x), MPFR_RNDN);
    mpfr_max(a, a, hi(x), MPFR_RNDN);  // the largest magnitude, exact
    mpfr_set_zero(lo(r), 1);
    mpfr_pow_ui(hi(r), a, m, MPFR_RNDU);
    mpfr_clear(a);
  }
  return r;
}

// The exponent as a whole number, when it is a point that is one.
bool whole(const Interval& y, long& n) {
  if (!mpfr_equal_p(lo(y), hi(y)) || !mpfr_integer_p(lo(y)) || !mpfr_fits_slong_p(lo(y), MPFR_RNDN)) return false;
  n = mpfr_get_si(lo(y), MPFR_RNDN);
  return true;
}

std::mutex& precision_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

unsigned interval_bits_of_digits10(unsigned digits10) {
  return static_cast<unsigned>(boost::multiprecision::detail::digits10_2_2(digits10));
}

unsigned interval_bits(const Interval& x) { return static_cast<unsigned>(mpfi_get_prec(x.backend().data())); }

struct IntervalPrecision::Held {
  std::unique_lock<std::mutex> lock{precision_mutex()};
  unsigned before = Interval::default_precision();
};

IntervalPrecision::IntervalPrecision(unsigned digits10) : held_(std::make_unique<Held>()) {
  Interval::default_precision(digits10);
}

IntervalPrecision::~IntervalPrecision() { Interval::default_precision(held_->before); }

namespace {

// r = x rounded to format f (ScalarOps<T>::round_to); every step exact at the endpoint's precision.
void round_endpoint(mpfr_ptr r, const FloatFormat& f) {
  if (!mpfr_regular_p(r)) return;  // ±0, ±∞, NaN stay
  const int sign = mpfr_sgn(r);
  const long q = std::max<long>(mpfr_get_exp(r) - 1, f.min_exponent) - (f.precision - 1);
  mpfr_mul_2si(r, r, -q, MPFR_RNDN);
  mpfr_roundeven(r, r);
  mpfr_mul_2si(r, r, q, MPFR_RNDN);
  if (std::fabs(mpfr_get_d(r, MPFR_RNDN)) > f.max_finite) mpfr_set_inf(r, sign);
}

bool finite_endpoints(const Interval& x) { return mpfr_number_p(lo(x)) && mpfr_number_p(hi(x)); }

}  // namespace

Interval interval_round_to(const Interval& x, const FloatFormat& f) {
  if (mpfi_nan_p(x.backend().data())) return x;
  Interval r = x;
  round_endpoint(lo(r), f);
  round_endpoint(hi(r), f);
  return r;
}

Interval interval_fmod(const Interval& x, const Interval& y) {
  if (mpfi_nan_p(x.backend().data()) || mpfi_nan_p(y.backend().data())) return nan_interval();
  if (!finite_endpoints(x) || !finite_endpoints(y) || mpfi_has_zero(y.backend().data())) return nan_interval();
  Interval q;
  mpfi_div(q.backend().data(), x.backend().data(), y.backend().data());
  mpfr_trunc(lo(q), lo(q));
  mpfr_trunc(hi(q), hi(q));
  Interval r;
  if (mpfr_equal_p(lo(q), hi(q))) {  // one integer q: r = x − q·y
    mpfi_mul_fr(r.backend().data(), y.backend().data(), lo(q));
    mpfi_sub(r.backend().data(), x.backend().data(), r.backend().data());
    return r;
  }
  // x's sign, |r| < max|y| = m (rounded up), |r| ≤ |x|.
  mpfr_t m;
  mpfr_init2(m, mpfi_get_prec(y.backend().data()));
  mpfi_mag(m, y.backend().data());
  r = x;
  if (mpfr_sgn(lo(x)) >= 0) mpfr_set_zero(lo(r), 1);
  else if (mpfr_cmpabs(lo(x), m) > 0) mpfr_neg(lo(r), m, MPFR_RNDD);
  if (mpfr_sgn(hi(x)) <= 0) mpfr_set_zero(hi(r), 1);
  else if (mpfr_cmp(hi(x), m) > 0) mpfr_set(hi(r), m, MPFR_RNDU);
  mpfr_clear(m);
  return r;
}

Interval interval_pow(const Interval& x, const Interval& y) {
  if (mpfi_nan_p(x.backend().data()) || mpfi_nan_p(y.backend().data())) return nan_interval();
  if (long n = 0; whole(y, n)) {
    if (n == 0) return Interval(1);
    const unsigned long m = n < 0 ? static_cast<unsigned long>(-(n + 1)) + 1 : static_cast<unsigned long>(n);
    Interval p = power(x, m);
    if (n > 0) return p;
    Interval r;
    mpfi_ui_div(r.backend().data(), 1, p.backend().data());
    return r;
  }
  const bool positive = mpfr_sgn(lo(x)) > 0, nonneg_to_positive = mpfr_sgn(lo(x)) >= 0 && mpfr_sgn(lo(y)) > 0;
  if (!positive && !nonneg_to_positive) return nan_interval();
  Interval r;
  mpfi_log(r.backend().data(), x.backend().data());
  mpfi_mul(r.backend().data(), r.backend().data(), y.backend().data());
  mpfi_exp(r.backend().data(), r.backend().data());
  return r;
}

}  // namespace nnref
