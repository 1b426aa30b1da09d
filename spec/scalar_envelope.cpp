#include "spec/scalar_envelope.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include <mpfi.h>

namespace nnref {
namespace {

RuntimeModel make_model(const std::string& name, int digits, int min_exponent, double max_finite, double ulps) {
  RuntimeModel m;
  m.name = name;
  m.digits = digits;
  m.u = std::ldexp(1.0, -digits);
  m.tiny = std::ldexp(1.0, min_exponent - 1);
  m.max_finite = max_finite;
  m.ulps = ulps;
  return m;
}

const RuntimeModel& float32_model() {
  static const RuntimeModel m = *runtime_model("f32");
  return m;
}

thread_local const RuntimeModel* active = nullptr;

// Our own rounding: a relative 2^-48 covers the few round-to-nearest steps of one widening.
constexpr double kOwnRounding = 0x1p-48;
constexpr double kInf = std::numeric_limits<double>::infinity();

double mag(const Envelope& e) { return std::max(std::abs(e.lo), std::abs(e.hi)); }

bool finite(const Envelope& e) { return std::isfinite(e.lo) && std::isfinite(e.hi); }

thread_local std::string first_lost;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}
std::string text(const Envelope& e) { return "[" + num(e.lo) + ", " + num(e.hi) + "]"; }

// The result of an operation on a finite operand, with a note when it bounds nothing on a side;
// `why()` words the note, built only then (almost no operation loses a bound).
template <class Why>
Envelope checked(Envelope r, const Envelope& operand, Why&& why) {
  if (finite(operand) && !finite(r)) envelope::note_lost(why() + " " + text(operand));
  return r;
}

// γ(k) = k·u/(1 − k·u), infinite when k·u ≥ 1 (no bound holds then).
double gamma(double k, double u) { return k * u < 1 ? k * u / (1 - k * u) : kInf; }

// Half an ulp of the runtime's format at magnitude s (s ≥ 0), for normal numbers u·2^⌊log₂ s⌋: what
// rounding to nearest moves a value of magnitude at most s by, at most u·s. Subnormals' are
// smaller, and `tiny` is added per rounding besides.
double half_ulp(double s, double u) {
  if (!(s > 0) || !std::isfinite(s)) return s;  // 0, ∞ and NaN (a lost bound) as they are
  int e = 0;
  std::frexp(s, &e);  // s = f·2^e, f in [0.5, 1): ⌊log₂ s⌋ = e − 1
  return std::ldexp(u, e - 1);
}

// Subnormal operands may be flushed to zero (DAZ): an operand whose envelope reaches into
// (−tiny, tiny) may also be 0.
Envelope flushed(const Envelope& e) {
  const double t = current_runtime().tiny;
  return e.lo < t && e.hi > -t ? envelope::hull(e, Envelope(0.0)) : e;
}

// [lo − d, hi + d], d = (k·u + 2^-48)·max(|lo|, |hi|) + tiny, a side past the largest finite
// number infinite: envelope::widen without its notes.
Envelope widened(Envelope e, double k) {
  const RuntimeModel& m = current_runtime();
  const double d = (k * m.u + kOwnRounding) * mag(e) + m.tiny;
  e.lo -= d;
  e.hi += d;
  if (e.hi > m.max_finite) e.hi = kInf;
  if (e.lo < -m.max_finite) e.lo = -kInf;
  return e;
}

// The rounding `r` of the exact image `exact`, noted where it loses a bound.
Envelope noted_rounding(const Envelope& r, const Envelope& exact) {
  if (envelope::isnan(r))
    envelope::note_lost("an infinite value " + text(exact) + " rounded: nnref bounds no arithmetic of infinities");
  return checked(r, exact,
                 [] { return "the result passes the largest finite " + current_runtime().name + " number:"; });
}

// The largest number of the runtime's format ≤ x, subnormals included (−∞ below −max_finite): x's
// significand cut to `digits` bits at its exponent, or at the smallest normal one. Exact in double.
double format_down(double x) {
  const RuntimeModel& m = current_runtime();
  if (!std::isfinite(x) || x == 0) return x;
  if (x > m.max_finite) return m.max_finite;
  if (x < -m.max_finite) return -kInf;
  const int quantum = std::max(std::ilogb(x), std::ilogb(m.tiny)) - (m.digits - 1);
  return std::ldexp(std::floor(std::ldexp(x, -quantum)), quantum);
}
double format_up(double x) { return -format_down(-x); }

// A bound of an exact result from its round-to-nearest double `rn` and the sign of the error
// exact − rn (0 when exact, NaN when unknown): rn itself where the exact result lies on its far
// side, else one double step toward `toward` (round to nearest errs by less than one step).
double directed(double rn, double error, double toward) {
  const bool holds = toward < 0 ? error >= 0 : error <= 0;
  return holds ? rn : std::nextafter(rn, toward);
}

// a + b bounded toward `toward`; TwoSum gives the error exactly (NaN when the sum overflows). An
// infinite operand's sum is exact.
double sum_bound(double a, double b, double toward) {
  const double s = a + b;
  if (!std::isfinite(a) || !std::isfinite(b)) return s;
  const double b_part = s - a;
  return directed(s, (a - (s - b_part)) + (b - b_part), toward);
}

// a·b bounded toward `toward`; fma gives the error exactly unless the product is near the
// subnormal doubles (then unknown). A zero or infinite operand's product is exact.
double product_bound(double a, double b, double toward) {
  const double p = a * b;
  if (a == 0 || b == 0 || !std::isfinite(a) || !std::isfinite(b)) return p;
  const double error = std::abs(p) >= 0x1p-960 ? std::fma(a, b, -p) : std::numeric_limits<double>::quiet_NaN();
  return directed(p, error, toward);
}

// 1/x (x ≠ 0) bounded toward `toward`; the residual 1 − r·x, exact by fma, has the error's sign
// times x's. 1/±∞ is 0 exactly.
double reciprocal_bound(double x, double toward) {
  const double r = 1 / x;
  if (!std::isfinite(x)) return r;
  const double residual = std::fma(-r, x, 1.0);
  return directed(r, x > 0 ? residual : -residual, toward);
}

// The exact image of a·b over the operands' envelopes, its sides rounded outward.
Envelope product(const Envelope& a, const Envelope& b) {
  Envelope r{kInf, -kInf};
  for (double x : {a.lo, a.hi})
    for (double y : {b.lo, b.hi}) {
      // 0·∞: the operands hold a zero and an unbounded side; every product is possible.
      if (std::isnan(x * y)) return {-kInf, kInf};
      r = {std::min(r.lo, product_bound(x, y, -kInf)), std::max(r.hi, product_bound(x, y, kInf))};
    }
  return r;
}

using MpfiFn = int (*)(mpfi_ptr, mpfi_srcptr);

const char* fn_name(envelope::Fn f) {
  using F = envelope::Fn;
  switch (f) {
    case F::Exp: return "exp";
    case F::Log: return "log";
    case F::Log2: return "log2";
    case F::Sqrt: return "sqrt";
    case F::Rsqrt: return "rsqrt";
    case F::Tanh: return "tanh";
    case F::Sigmoid: return "sigmoid";
    case F::Softplus: return "softplus";
    case F::Sin: return "sin";
    case F::Cos: return "cos";
    case F::Tan: return "tan";
    case F::Sinh: return "sinh";
    case F::Cosh: return "cosh";
    case F::Asin: return "asin";
    case F::Acos: return "acos";
    case F::Atan: return "atan";
    case F::Asinh: return "asinh";
    case F::Acosh: return "acosh";
    case F::Atanh: return "atanh";
    case F::Erf: return "erf";
  }
  return "?";
}

int sigmoid(mpfi_ptr r, mpfi_srcptr x) {  // 1/(1 + exp(−x)): x occurs once, so the image is exact
  mpfi_neg(r, x);
  mpfi_exp(r, r);
  mpfi_add_ui(r, r, 1);
  return mpfi_ui_div(r, 1, r);
}
int softplus(mpfi_ptr r, mpfi_srcptr x) {  // log(exp(x) + 1)
  mpfi_exp(r, x);
  mpfi_add_ui(r, r, 1);
  return mpfi_log(r, r);
}
int erf(mpfi_ptr r, mpfi_srcptr x) {  // increasing: the endpoints' images, rounded outward
  mpfr_erf(&r->left, &x->left, MPFR_RNDD);
  return mpfr_erf(&r->right, &x->right, MPFR_RNDU);
}
int rsqrt(mpfi_ptr r, mpfi_srcptr x) {
  mpfi_sqrt(r, x);
  return mpfi_ui_div(r, 1, r);
}

MpfiFn mpfi_function(envelope::Fn f) {
  using F = envelope::Fn;
  switch (f) {
    case F::Exp: return mpfi_exp;
    case F::Log: return mpfi_log;
    case F::Log2: return mpfi_log2;
    case F::Sqrt: return mpfi_sqrt;
    case F::Rsqrt: return rsqrt;
    case F::Tanh: return mpfi_tanh;
    case F::Sigmoid: return sigmoid;
    case F::Softplus: return softplus;
    case F::Sin: return mpfi_sin;
    case F::Cos: return mpfi_cos;
    case F::Tan: return mpfi_tan;
    case F::Sinh: return mpfi_sinh;
    case F::Cosh: return mpfi_cosh;
    case F::Asin: return mpfi_asin;
    case F::Acos: return mpfi_acos;
    case F::Atan: return mpfi_atan;
    case F::Asinh: return mpfi_asinh;
    case F::Acosh: return mpfi_acosh;
    case F::Atanh: return mpfi_atanh;
    case F::Erf: return erf;
  }
  return mpfi_exp;
}

// The exact image of [lo, hi] under f, rounded outward to doubles.
Envelope image(MpfiFn f, const Envelope& x) {
  mpfi_t v;
  mpfi_init2(v, 64);
  mpfi_interv_d(v, x.lo, x.hi);
  f(v, v);
  const Envelope r{mpfr_get_d(&v->left, MPFR_RNDD), mpfr_get_d(&v->right, MPFR_RNDU)};
  mpfi_clear(v);
  return r;
}

// A whole-number exponent a runtime may meet by multiplication: read exactly, |n| ≤ 2^20.
std::optional<int64_t> whole_exponent(const Envelope& y) {
  if (!(y.lo == y.hi) || !(std::abs(y.lo) <= 0x1p20) || y.lo != std::nearbyint(y.lo)) return std::nullopt;
  return static_cast<int64_t>(y.lo);
}

// v^m (m ≥ 1) rounded toward rnd, exactly as MPFR rounds it into a double.
double power(double v, int64_t m, mpfr_rnd_t rnd) {
  mpfr_t r;
  mpfr_init2(r, 53);
  mpfr_set_d(r, v, MPFR_RNDN);  // exact
  mpfr_pow_ui(r, r, static_cast<unsigned long>(m), rnd);
  const double d = mpfr_get_d(r, rnd);
  mpfr_clear(r);
  return d;
}

// The exact image of x^m over the envelope (m ≥ 1), rounded outward: monotone for odd m, and for
// even m the power of the magnitudes, 0 at its least when x holds 0.
Envelope power_image(const Envelope& x, int64_t m) {
  if (m % 2 == 1) return {power(x.lo, m, MPFR_RNDD), power(x.hi, m, MPFR_RNDU)};
  if (x.lo >= 0) return {power(x.lo, m, MPFR_RNDD), power(x.hi, m, MPFR_RNDU)};
  if (x.hi <= 0) return {power(-x.hi, m, MPFR_RNDD), power(-x.lo, m, MPFR_RNDU)};
  return {0.0, power(mag(x), m, MPFR_RNDU)};
}

// x^n for a whole n: a runtime's powf within the ulp allowance, or a product of k = |n| factors in
// any tree, then for n < 0 one division; the larger allowance covers both.
// n > 0: the product errs by γ(k − 1)·|x^k| plus, for partial products rounded in the subnormal
// range, (k − 1)·tiny·B·(1 + γ(k)) with B = max(1, |x|)^k (Product::finish's argument).
// n < 0: with |x^k| ≥ 2·tiny no partial product is subnormal (each lies between 1 and x^k), so the
// power is p(1 + θ), |θ| ≤ γ(k − 1), and its reciprocal, rounded once, 1/p within γ(2k − 1)
// relative; a power that may be smaller leaves its reciprocal anything up to ∞. A power past the
// largest finite number overflows to ∞, and its reciprocal is 0.
Envelope whole_power(const Envelope& x, int64_t n) {
  const RuntimeModel& m = current_runtime();
  if (n == 0) return Envelope(1.0);  // pow(x, 0) is 1 for every x, NaN included
  const Envelope b = flushed(x);
  if (n == 1) return b;
  const double k = std::abs(static_cast<double>(n));
  const double bound = power(std::max(1.0, mag(b)), static_cast<int64_t>(k), MPFR_RNDU);
  const Envelope p = power_image(b, static_cast<int64_t>(k));
  Envelope r = p;
  double rel = gamma(k - 1, m.u), extra = (k - 1) * m.tiny * bound * (1 + gamma(k, m.u)) + m.tiny;
  if (n < 0) {
    const double least = p.lo > 0 ? p.lo : p.hi < 0 ? -p.hi : 0.0;
    if (!(least >= 2 * m.tiny)) {
      if (finite(b))
        envelope::note_lost("pow: the base's envelope " + text(b) +
                            (least == 0 ? " holds 0" : " holds values whose power is subnormal") + " and the exponent " +
                            std::to_string(n) + " is negative");
      return {-kInf, kInf};
    }
    r = {std::nextafter(1 / p.hi, -kInf), std::nextafter(1 / p.lo, kInf)};
    if (bound > m.max_finite) r = envelope::hull(r, Envelope(0.0));
    rel = gamma(2 * k - 1, m.u);
    extra = m.tiny;  // the quotient rounded in the subnormal range
  }
  rel = std::max(rel, 2 * m.ulps * m.u) * (1 + kOwnRounding) + kOwnRounding;
  const double d = rel * mag(r) + extra;
  Envelope e{r.lo - d, r.hi + d};
  if (n > 0 && n % 2 == 0) e.lo = std::max(e.lo, 0.0);  // an even power is never negative
  if (e.hi > m.max_finite) e.hi = kInf;
  if (e.lo < -m.max_finite) e.lo = -kInf;
  return checked(e, b, [&] { return "pow: the power passes the largest finite " + m.name + " number:"; });
}

}  // namespace

std::optional<RuntimeModel> runtime_model(const std::string& name, double ulps) {
  if (name == "f32") return make_model(name, 24, -125, 0x1.fffffep127, ulps);
  if (name == "f16") return make_model(name, 11, -13, 65504.0, ulps);
  if (name == "bf16") return make_model(name, 8, -125, 0x1.fep127, ulps);
  // f64 judges nnref's own f64 oracle (tests/properties_engines_test.cpp); conform offers the others.
  if (name == "f64") return make_model(name, 53, -1021, std::numeric_limits<double>::max(), ulps);
  return std::nullopt;
}

const RuntimeModel& current_runtime() { return active ? *active : float32_model(); }

RuntimeScope::RuntimeScope(const RuntimeModel& m) : previous_(active) { active = &m; }
RuntimeScope::~RuntimeScope() { active = previous_; }

namespace envelope {

void note_lost(const std::string& why) {
  if (first_lost.empty()) first_lost = why;
}
std::string take_lost() { return std::exchange(first_lost, {}); }

bool isnan(const Envelope& e) { return std::isnan(e.lo) || std::isnan(e.hi); }

Envelope from_input(double x) { return std::isnan(x) ? Envelope::not_a_number() : from_double(x); }

Envelope nan_operand(const std::string& op) {
  note_lost(op + " of NaN: IEEE 754 does not fix the result, and runtimes differ");
  return Envelope(std::numeric_limits<double>::quiet_NaN());
}

// Of an exact NaN and another value: NaN or that value, which no envelope holds but a lost bound.
Envelope hull(const Envelope& a, const Envelope& b) {
  if (a.nan != b.nan) return Envelope(std::numeric_limits<double>::quiet_NaN());
  if (isnan(a) || isnan(b)) return isnan(a) ? a : b;
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}

Envelope widen(Envelope e, double k) {
  if (isnan(e)) return e;
  return noted_rounding(widened(e, k), e);
}

Envelope correctly_rounded(const Envelope& exact) {
  if (isnan(exact)) return exact;
  const Envelope relative = widened(exact, 1);
  if (isnan(relative)) return noted_rounding(relative, exact);  // an infinity's arithmetic: a lost bound
  const RuntimeModel& m = current_runtime();
  double lo = format_down(exact.lo), hi = format_up(exact.hi);
  if (lo > 0 && lo < m.tiny) lo = 0;  // a subnormal result may be flushed to 0
  if (hi < 0 && hi > -m.tiny) hi = 0;
  return noted_rounding({std::max(lo, relative.lo), std::min(hi, relative.hi)}, exact);
}

// Rounding by the runtime (docs/conformance.md, "Sums in any order"): u·Σ|products| ≤ u·(mag + rad)
// for the n products, each rounded at most once (not at all when fused), and γ(n)·max(P̂, N̂) for
// the n additions (init counts as a term) in any order or tree, P̂ ≤ (1 + u)·positive and
// N̂ ≤ (1 + u)·negative being the sums of the rounded positive and negative terms; flushed
// subnormals: tiny per operand magnitude (an operand flushed to 0 moves its product by
// |other|·tiny) and per product and partial sum. Our own arithmetic: midpoint and radius of each
// operand within 2^-52 relative, so the midpoint products' balls, and with them `positive` and
// `negative`, may miss by 2^-50·(mag + rad) in all; the sums of DotSums are within γ_double(n+1) of
// the exact sums; one outward step on each side covers the final subtraction.
Envelope finish_dot(int64_t n, const DotSums& s, KnownSigns signs) {
  const RuntimeModel& m = current_runtime();
  const double k = static_cast<double>(n) + 1;
  const double own = gamma(k + 4, 0x1p-53);
  const double magnitude = s.mag + s.rad;
  const double sides = std::max(s.positive, s.negative) * (1 + own) + 0x1p-50 * magnitude;
  // Of the n additions, at most `rounding` = (terms not exactly 0) − 1 round, each a value of
  // magnitude at most S by at most half an ulp of S (docs/conformance.md, "Sums in any order").
  const double rounding = std::max(k - static_cast<double>(s.zeros) - 1, 0.0);
  const double partial = sides * (1 + m.u) * (1 + gamma(rounding, m.u)) * (1 + own);
  const double runtime = m.u * magnitude + rounding * half_ulp(partial, m.u) + m.tiny * (s.flush + 2 * k);
  const double r = (s.rad + runtime) * (1 + own) + (own + 0x1p-50) * magnitude + 0x1p-1074;
  const double mid = s.mid;
  Envelope e{std::nextafter(mid - r, -kInf), std::nextafter(mid + r, kInf)};
  if (signs.nonneg) e.lo = std::max(e.lo, 0.0);
  if (signs.nonpos) e.hi = std::min(e.hi, 0.0);
  if (e.hi > m.max_finite) e.hi = kInf;
  if (e.lo < -m.max_finite) e.lo = -kInf;
  if (std::isfinite(mid) && std::isfinite(s.mag) && std::isfinite(s.rad) && !finite(e))
    note_lost(std::isinf(gamma(rounding + 1, m.u)) ? "a sum of " + std::to_string(n + 1 - s.zeros) +
                                                         " terms not exactly 0: " + std::to_string(n + 1 - s.zeros) +
                                                         "·u ≥ 1 in " + m.name + ", no rounding bound holds"
                                                   : "a sum passes the largest finite " + m.name + " number");
  return e;
}

Envelope apply(Fn f, const Envelope& x) {
  if (x.nan) return nan_operand(fn_name(f));
  if (isnan(x)) return x;
  // sqrt is correctly rounded (IEEE 754); the others get the ulp allowance. An ulp of a normal
  // result y is at most 2u·|y|.
  const Envelope exact = checked(image(mpfi_function(f), flushed(x)), x, [&] {
    return std::string(fn_name(f)) + ": the operand's envelope leaves the function's domain or range:";
  });
  return f == Fn::Sqrt ? correctly_rounded(exact) : widen(exact, 2 * current_runtime().ulps);
}

// x^y: for a whole-number exponent, whole_power (any sign of x); otherwise exp(y·log x), which
// needs x > 0, or x ≥ 0 with y > 0 (0^y = 0); elsewhere a negative base may give NaN.
Envelope pow(const Envelope& x, const Envelope& y) {
  if (x.nan || y.nan) return nan_operand("pow");  // pow(NaN, 0) and pow(1, NaN) are 1
  if (isnan(x) || isnan(y)) return isnan(x) ? x : y;
  if (const auto n = whole_exponent(y)) return whole_power(x, *n);
  const Envelope b = flushed(x);
  if (!(b.lo > 0 || (b.lo >= 0 && y.lo > 0))) {
    if (finite(b) && finite(y))
      note_lost("pow: the base's envelope " + text(b) + " reaches " + (b.lo < 0 ? "below 0" : "0") +
                " and the exponent " + text(y) + " is not a whole number" + (b.lo < 0 ? "" : " > 0"));
    return {-kInf, kInf};
  }
  mpfi_t vx, vy;
  mpfi_init2(vx, 64);
  mpfi_init2(vy, 64);
  mpfi_interv_d(vx, b.lo, b.hi);
  mpfi_interv_d(vy, y.lo, y.hi);
  mpfi_log(vx, vx);
  mpfi_mul(vx, vx, vy);
  mpfi_exp(vx, vx);
  const Envelope r{mpfr_get_d(&vx->left, MPFR_RNDD), mpfr_get_d(&vx->right, MPFR_RNDU)};
  mpfi_clear(vx);
  mpfi_clear(vy);
  return widen(checked(r, b, [] { return std::string("pow: the power of the base's envelope"); }), 2 * current_runtime().ulps);
}

// fmod(x, y) as a runtime computes it, exactly, on operands in their envelopes (a subnormal one
// may be read as 0). trunc(x/y) is monotone in each operand where y keeps its sign, so over the box
// its extremes are at the corners; a corner quotient within a relative 2^-50 of an integer (our
// double division rounds it) counts on both sides. One integer q: r = x − q·y, increasing in x and
// monotone in y, so its corners bound it, each computed with one rounding (fma) and stepped
// outward. Otherwise what every remainder keeps: x's sign, |r| < max|y|, |r| ≤ |x|. A result
// side inside the subnormal range reaches 0 (a runtime may flush it).
Envelope fmod(const Envelope& x, const Envelope& y) {
  if (x.nan || y.nan) return nan_operand("fmod");
  if (isnan(x) || isnan(y)) return isnan(x) ? x : y;
  const Envelope a = flushed(x), d = flushed(y);
  if (!finite(a) || !finite(d) || (d.lo <= 0 && d.hi >= 0)) {
    if (finite(a) && finite(d)) note_lost("fmod: the divisor's envelope " + text(d) + " contains 0");
    return {-kInf, kInf};
  }
  Envelope r;
  if (a.lo == a.hi && d.lo == d.hi) {
    r = Envelope(std::fmod(a.lo, d.lo));
  } else {
    double qmin = kInf, qmax = -kInf;
    for (double xs : {a.lo, a.hi})
      for (double ys : {d.lo, d.hi}) {
        const double c = xs / ys, slack = std::fabs(c) * 0x1p-50;
        qmin = std::min(qmin, std::trunc(c - slack));
        qmax = std::max(qmax, std::trunc(c + slack));
      }
    if (qmin == qmax) {
      r = {kInf, -kInf};
      for (double xs : {a.lo, a.hi})
        for (double ys : {d.lo, d.hi}) {
          const double c = std::fma(-qmin, ys, xs);
          r = {std::min(r.lo, std::nextafter(c, -kInf)), std::max(r.hi, std::nextafter(c, kInf))};
        }
    } else {
      const double m = std::max(std::fabs(d.lo), std::fabs(d.hi));
      r = {a.lo >= 0 ? 0.0 : std::max(-m, a.lo), a.hi <= 0 ? 0.0 : std::min(m, a.hi)};
    }
  }
  const double tiny = current_runtime().tiny;
  if (r.lo > 0 && r.lo < tiny) r.lo = 0;
  if (r.hi < 0 && r.hi > -tiny) r.hi = 0;
  return r;
}

// A runtime multiplies the n factors x̂ᵢ (each in its envelope; a subnormal one may be read as 0)
// in some tree of n − 1 float multiplications, each fl(a·b) = a·b·(1 + δ) + η with |δ| ≤ u and
// |η| ≤ tiny (a result flushed or rounded in the subnormal range). Expanding the tree, the result
// is Π x̂ᵢ·Π(1 + δⱼ) plus each η times the factors multiplied after it, each with its (1 + δ):
// |result − Π x̂ᵢ| ≤ γ(n − 1)·|Π x̂ᵢ| + (n − 1)·tiny·B·(1 + u)^(n−1), B = Π max(1, |x̂ᵢ|), whatever
// the order. B also bounds every partial product, so when B·(1 + u)^n may pass the largest finite
// number an intermediate product may overflow to ±∞ and no bound holds. Our own arithmetic: the
// interval products are rounded to nearest in double, a relative 2^-53 each, covered with B's.
void Product::times(const Envelope& factor) {
  const Envelope f = flushed(factor);
  p_ = isnan(f) || isnan(p_) ? Envelope(std::numeric_limits<double>::quiet_NaN()) : product(p_, f);
  bound_ *= std::max(1.0, mag(f));
  ++n_;
}

Envelope Product::finish() const {
  if (isnan(p_) || n_ <= 1) return p_;  // no multiplication: the factor itself (1·x is exact in double)
  const RuntimeModel& m = current_runtime();
  const double k = static_cast<double>(n_);
  if (!(bound_ * (1 + gamma(k, m.u)) * (1 + gamma(k + 2, 0x1p-53)) <= m.max_finite)) {
    if (finite(p_))
      note_lost("a product of " + std::to_string(n_) + " factors: a partial product may pass the largest finite " +
                m.name + " number");
    return {-kInf, kInf};
  }
  const double own = gamma(k + 2, 0x1p-53);
  const double r = (gamma(k - 1, m.u) * mag(p_) + (k - 1) * m.tiny * bound_ * (1 + gamma(k, m.u))) * (1 + own) +
                   own * mag(p_) + 0x1p-1074;
  Envelope e{std::nextafter(p_.lo - r, -kInf), std::nextafter(p_.hi + r, kInf)};
  if (e.hi > m.max_finite) e.hi = kInf;
  if (e.lo < -m.max_finite) e.lo = -kInf;
  return e;
}

// A value the runtime reads from a file or an attribute: exact when its precision holds it,
// else rounded once.
Envelope from_double(double x) {
  const RuntimeModel& m = current_runtime();
  if (!std::isfinite(x)) return Envelope(x);
  int e = 0;
  const double frac = std::frexp(x, &e);
  const int min_exponent = std::ilogb(m.tiny) + 1;  // frexp's exponent of the smallest normal
  const int bits = m.digits - std::max(0, min_exponent - e);
  const double scaled = std::ldexp(frac, bits);
  if (bits > 0 && scaled == std::nearbyint(scaled) && std::abs(x) <= m.max_finite) return Envelope(x);
  return correctly_rounded(Envelope(x));
}

// A decimal attribute: its double is within 2^-53 relative of the decimal's value, which the
// widening by u (plus our 2^-48) covers, whether or not the runtime's precision holds the double.
Envelope from_decimal(const std::string& s) { return widen(Envelope(std::strtod(s.c_str(), nullptr)), 1); }

}  // namespace envelope

namespace {

// IEEE 754: an arithmetic operation with a NaN operand gives NaN, whatever the other operand.
bool nan_operand(const Envelope& a, const Envelope& b) { return a.nan || b.nan; }

}  // namespace

Envelope operator+(const Envelope& a, const Envelope& b) {
  if (nan_operand(a, b)) return Envelope::not_a_number();
  const Envelope x = flushed(a), y = flushed(b);
  return envelope::correctly_rounded({sum_bound(x.lo, y.lo, -kInf), sum_bound(x.hi, y.hi, kInf)});
}
Envelope operator-(const Envelope& a, const Envelope& b) {
  if (nan_operand(a, b)) return Envelope::not_a_number();
  const Envelope x = flushed(a), y = flushed(b);
  return envelope::correctly_rounded({sum_bound(x.lo, -y.hi, -kInf), sum_bound(x.hi, -y.lo, kInf)});
}
Envelope operator*(const Envelope& a, const Envelope& b) {
  if (nan_operand(a, b)) return Envelope::not_a_number();
  return envelope::correctly_rounded(product(flushed(a), flushed(b)));
}
// A runtime divides correctly rounded, or multiplies by a correctly rounded reciprocal: the
// reciprocal's envelope holds 1/b exactly, so the product's exact image holds a/b, and its
// rounding holds both answers.
Envelope operator/(const Envelope& a, const Envelope& b) {
  if (nan_operand(a, b)) return Envelope::not_a_number();
  const Envelope d = flushed(b);
  if (d.lo <= 0 && d.hi >= 0) {  // the divisor may be 0
    if (finite(a) && finite(d)) envelope::note_lost("division: the divisor's envelope " + text(d) + " contains 0");
    return {-kInf, kInf};
  }
  const Envelope reciprocal =
      envelope::correctly_rounded({reciprocal_bound(d.hi, -kInf), reciprocal_bound(d.lo, kInf)});
  return envelope::correctly_rounded(product(flushed(a), reciprocal));
}

}  // namespace nnref
