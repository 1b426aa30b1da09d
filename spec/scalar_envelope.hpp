// Envelope: the conformance interpretation. Each value is an interval [lo, hi] of doubles that
// contains every result a correct implementation of the model in the runtime's precision (float32
// by default) can produce, whatever its order of summation, blocking or fusion of multiply-add.
// The error model of each operation (docs/conformance.md derives each line):
//   + − × sqrt       the exact image [lo, hi] of the operands' envelopes rounded outward to the
//                    runtime's format, [RD(lo), RU(hi)] (IEEE 754 rounds them correctly), each side
//                    kept within u·|result| + tiny of the image; a subnormal side reaches 0 (flush)
//   ÷                the same rounding of a·r, r the rounding of 1/b (a runtime may multiply by a
//                    rounded reciprocal)
//   exp, log, tanh, sigmoid, rsqrt, softplus, sin, ..., pow: by `ulps` units in the last place
//   pow with a whole-number exponent n: the exact image of x^n (any sign of x), widened by the
//                    larger of the ulp allowance and γ(|n|) (a product of |n| factors, then 1/·)
//   sum, dot of n terms with init: Σ of the terms' envelopes, widened by u·Σ|products| (each
//                    product rounded once, or fused) plus k − 1 half ulps of S = (1 + γ(k − 1))·
//                    (1 + u)·max(P, N), k the terms (init among them) not exactly 0, P and N the
//                    largest sums of the positive and of the negative terms, γ(k) = k·u/(1 − k·u):
//                    every partial sum of any order or tree lies in [−N, P], every computed one
//                    within S, and adding an exact 0 is exact (docs/conformance.md)
//   max, min, relu, floor, ceil, sign, abs, negation: exact images (no rounding)
// Every widening also adds `tiny` (the smallest normal number) per rounding, so that flushing
// subnormal results or operands to zero stays inside, and overflow past the largest finite number
// makes the side infinite. Our own double arithmetic is rounded too: a relative 2^-48 on every
// widening, outward steps in the dot product and error-free checks (TwoSum, fma) on the exact
// images of + − × ÷ keep the bounds rigorous.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "spec/scalar.hpp"

namespace nnref {

// What the runtime under judgement computes in.
struct RuntimeModel {
  std::string name;   // f32, f16, bf16; f64 for nnref's own f64 oracle (the property tests)
  double u = 0;       // unit roundoff: 2^-24, 2^-11, 2^-8, 2^-53
  double tiny = 0;    // the smallest positive normal number
  double max_finite = 0;
  int digits = 0;     // significand bits, the implicit one included
  double ulps = 4;    // allowance of the transcendentals, in units in the last place
};

// f32, f16, bf16 or f64 with the given transcendental allowance; nullopt for another name.
std::optional<RuntimeModel> runtime_model(const std::string& name, double ulps = 4);
// The model the Envelope scalar uses on this thread: float32 with 4 ulps unless a scope says else.
const RuntimeModel& current_runtime();
class RuntimeScope {
 public:
  explicit RuntimeScope(const RuntimeModel& m);
  ~RuntimeScope();
  RuntimeScope(const RuntimeScope&) = delete;
  RuntimeScope& operator=(const RuntimeScope&) = delete;

 private:
  const RuntimeModel* previous_;
};

// A side that is NaN bounds nothing (a lost bound), unless `nan` says the value is exactly NaN:
// an input's NaN, which IEEE 754's arithmetic carries (docs/conformance.md, "Exact NaN and ±∞").
// [+∞, +∞] and [−∞, −∞] are exact infinities: every result the envelope holds is that infinity.
struct Envelope {
  double lo = 0.0, hi = 0.0;
  bool nan = false;
  Envelope() = default;
  Envelope(double v) : lo(v), hi(v) {}  // NOLINT: an exact value, as for the point scalars
  Envelope(double l, double h) : lo(l), hi(h) {}
  static Envelope not_a_number() {
    Envelope e(std::numeric_limits<double>::quiet_NaN());
    e.nan = true;
    return e;
  }
};

Envelope operator+(const Envelope& a, const Envelope& b);
Envelope operator-(const Envelope& a, const Envelope& b);
Envelope operator*(const Envelope& a, const Envelope& b);
Envelope operator/(const Envelope& a, const Envelope& b);
inline Envelope operator-(const Envelope& a) { return a.nan ? a : Envelope{-a.hi, -a.lo}; }

namespace envelope {
// Why an envelope lost a bound: an operation whose operands were finite notes, where its result
// gets a side that bounds nothing (NaN or infinite), what happened ("pow: the base's envelope
// reaches below 0 and the exponent is not a whole number"). The first note on this thread since
// the last take_lost() is kept; conform names it at the first node that lost a bound.
void note_lost(const std::string& why);
std::string take_lost();
// [lo − d, hi + d], d = (k·u + 2^-48)·max(|lo|, |hi|) + tiny; a side past the largest finite
// number becomes infinite.
Envelope widen(Envelope e, double k);
// What a correctly rounded operation (+ − × ÷ sqrt, a conversion) gives of a value in `exact`,
// the exact image rounded outward: [RD(lo), RU(hi)] in the runtime's format, within widen(·, 1).
Envelope correctly_rounded(const Envelope& exact);
Envelope hull(const Envelope& a, const Envelope& b);
bool isnan(const Envelope& e);
// A value read from a run's input file: exact, NaN included (Envelope::not_a_number).
Envelope from_input(double x);
// What an operation whose result IEEE 754 does not fix for a NaN operand gives one (a runtime's
// max, sign, approximated transcendental may drop it): a lost bound, noted with the operation.
Envelope nan_operand(const std::string& op);
// What a dot product of n terms and an initial value accumulates for its envelope (Envelope's dot
// below): the sum of the midpoint products, Σ|midpoint products|, Σ radii, Σ operand magnitudes
// (for flushed subnormals), and the largest sums the positive and the negative terms may reach.
struct DotSums {
  double mid = 0, mag = 0, rad = 0, flush = 0;
  double positive = 0, negative = 0;  // Σ max(hi, 0) and Σ max(−lo, 0) over the terms' envelopes
  int64_t zeros = 0;                  // terms exactly 0 (an operand the point 0, the other finite), init among them
};
// The signs every term (and the initial value) is known to have: a float sum of terms that are
// all ≥ 0 is ≥ 0 in any order, so the side that midpoint and radius would carry past 0 stops there.
struct KnownSigns {
  bool nonneg = true, nonpos = true;
  void add_product(const Envelope& a, const Envelope& b) {
    nonneg = nonneg && ((a.lo >= 0 && b.lo >= 0) || (a.hi <= 0 && b.hi <= 0));
    nonpos = nonpos && ((a.lo >= 0 && b.hi <= 0) || (a.hi <= 0 && b.lo >= 0));
  }
};
Envelope finish_dot(int64_t n, const DotSums& s, KnownSigns signs);
// The runtime's transcendental f, from MPFI's enclosure of f's image: see scalar_envelope.cpp.
enum class Fn { Exp, Log, Log2, Sqrt, Rsqrt, Tanh, Sigmoid, Softplus, Sin, Cos, Tan, Sinh, Cosh, Asin, Acos, Atan,
                Asinh, Acosh, Atanh, Erf };
Envelope apply(Fn f, const Envelope& x);
Envelope pow(const Envelope& x, const Envelope& y);
// A runtime's fmod is exact (IEEE 754's remainder family): x − q·y over the operands' envelopes
// where trunc(x/y) is one integer q, else the bound every remainder keeps; NaN where y may be 0.
Envelope fmod(const Envelope& x, const Envelope& y);
// The product of n factors in any order and tree of float multiplications: see scalar_envelope.cpp.
class Product {
 public:
  void times(const Envelope& factor);
  Envelope finish() const;

 private:
  Envelope p_{1.0};
  double bound_ = 1;  // Π max(1, |factor|): bounds every partial product's magnitude
  int64_t n_ = 0;
};
Envelope from_decimal(const std::string& s);
Envelope from_double(double x);
}  // namespace envelope

template <>
struct ScalarOps<Envelope> {
  using E = Envelope;
  static constexpr int64_t bytes = sizeof(E);
  using Fn = envelope::Fn;
  static E from_double(double x) { return envelope::from_double(x); }
  static E from_decimal(const std::string& s) { return envelope::from_decimal(s); }
  // clang-format off
  static E exp(const E& x)      { return envelope::apply(Fn::Exp, x); }
  static E log(const E& x)      { return envelope::apply(Fn::Log, x); }
  static E log2(const E& x)     { return envelope::apply(Fn::Log2, x); }
  static E sqrt(const E& x)     { return envelope::apply(Fn::Sqrt, x); }
  static E rsqrt(const E& x)    { return envelope::apply(Fn::Rsqrt, x); }
  static E tanh(const E& x)     { return envelope::apply(Fn::Tanh, x); }
  static E sigmoid(const E& x)  { return envelope::apply(Fn::Sigmoid, x); }
  static E softplus(const E& x) { return envelope::apply(Fn::Softplus, x); }
  static E sin(const E& x)      { return envelope::apply(Fn::Sin, x); }
  static E cos(const E& x)      { return envelope::apply(Fn::Cos, x); }
  static E tan(const E& x)      { return envelope::apply(Fn::Tan, x); }
  static E sinh(const E& x)     { return envelope::apply(Fn::Sinh, x); }
  static E cosh(const E& x)     { return envelope::apply(Fn::Cosh, x); }
  static E asin(const E& x)     { return envelope::apply(Fn::Asin, x); }
  static E acos(const E& x)     { return envelope::apply(Fn::Acos, x); }
  static E atan(const E& x)     { return envelope::apply(Fn::Atan, x); }
  static E asinh(const E& x)    { return envelope::apply(Fn::Asinh, x); }
  static E acosh(const E& x)    { return envelope::apply(Fn::Acosh, x); }
  static E atanh(const E& x)    { return envelope::apply(Fn::Atanh, x); }
  static E erf(const E& x)      { return envelope::apply(Fn::Erf, x); }
  static E pow(const E& x, const E& y) { return envelope::pow(x, y); }
  static E fmod(const E& x, const E& y) { return envelope::fmod(x, y); }
  // A runtime rounds to the narrower format correctly (it is a conversion): the exact, monotone
  // image of the envelope's sides.
  static E round_to(const E& x, const FloatFormat& f) {
    if (x.nan) return x;  // a conversion keeps NaN
    return {PointOps<double>::round_to(x.lo, f), PointOps<double>::round_to(x.hi, f)};
  }
  static E floor(const E& x)    { return {std::floor(x.lo), std::floor(x.hi)}; }
  static E ceil(const E& x)     { return {std::ceil(x.lo), std::ceil(x.hi)}; }
  static E round_even(const E& x) { return {std::nearbyint(x.lo), std::nearbyint(x.hi)}; }
  static bool isnan(const E& x) { return envelope::isnan(x); }
  // clang-format on
  static E abs(const E& x) {
    if (isnan(x)) return x;
    if (x.lo >= 0) return x;
    if (x.hi <= 0) return -x;
    return {0.0, std::max(-x.lo, x.hi)};
  }
  // |x|·|x|: the product of the one interval [min|x|, max|x|] with itself, never negative.
  static E sqr(const E& x) {
    const E a = abs(x);
    return a * a;
  }
  static E max(const E& a, const E& b) {
    if (a.nan || b.nan) return envelope::nan_operand("max");
    if (isnan(a) || isnan(b)) return isnan(a) ? a : b;
    return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
  }
  static E min(const E& a, const E& b) {
    if (a.nan || b.nan) return envelope::nan_operand("min");
    if (isnan(a) || isnan(b)) return isnan(a) ? a : b;
    return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
  }
  static E relu(const E& x) { return max(x, E(0.0)); }
  // A point inside: what a runtime subtracts for range (softmax's max) is its own choice, exact.
  static E mid(const E& x) {
    if (isnan(x) || std::isinf(x.lo) || std::isinf(x.hi)) return E(isnan(x) ? x.lo : x.hi);
    return E(enclosure(x).midpoint());
  }
  static E sign(const E& x) {
    if (x.nan) return envelope::nan_operand("sign");
    if (isnan(x)) return x;
    const auto s = [](double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0; };
    return {s(x.lo), s(x.hi)};
  }
  template <class Below, class Above>
  static E piecewise_at_zero(const E& x, Below&& below, Above&& at_or_above) {
    if (x.nan) return envelope::nan_operand("a function defined piecewise at 0");
    if (isnan(x) || x.lo >= 0) return at_or_above(x);
    if (x.hi < 0) return below(x);
    return envelope::hull(below(E(x.lo, 0.0)), at_or_above(E(0.0, x.hi)));
  }
  template <class Term>
  static E sum(int64_t n, Term&& term, const E& init) {
    const E one(1.0);
    return dot(n, term, [&](int64_t) -> const E& { return one; }, init);
  }
  // a·b is exactly 0 whatever a runtime holds: one operand is the point 0 and the other finite.
  static bool exact_zero_product(const E& a, const E& b) {
    const auto zero = [](const E& e) { return e.lo == 0 && e.hi == 0; };
    const auto finite = [](const E& e) { return std::isfinite(e.lo) && std::isfinite(e.hi); };
    return (zero(a) && finite(b)) || (zero(b) && finite(a));
  }
  // Each term's operands as midpoint ± radius; the sums of DotSums, so that the rounding bound
  // applies once to the whole sum.
  template <class X, class W>
  static E dot(int64_t n, X&& x, W&& w, const E& init) {
    envelope::DotSums s;
    s.zeros = init.lo == 0 && init.hi == 0;
    s.mid = 0.5 * init.lo + 0.5 * init.hi;
    s.rad = 0.5 * init.hi - 0.5 * init.lo;
    s.mag = std::abs(s.mid);
    s.positive = std::max(init.hi, 0.0);
    s.negative = std::max(-init.lo, 0.0);
    envelope::KnownSigns signs;
    signs.add_product(init, E(1.0));
    for (int64_t i = 0; i < n; ++i) {
      const E &a = x(i), &b = w(i);
      signs.add_product(a, b);
      // A term exactly 0 (a relu's 0, padding) adds nothing and rounds nothing.
      if (a.lo == a.hi && b.lo == b.hi) {  // two finite points (most terms when judged at intermediates)
        const double p = a.lo * b.lo;
        if (std::isfinite(p)) {  // else an infinite operand: the general case's NaN radius loses the bound
          s.zeros += (a.lo == 0) | (b.lo == 0);  // without a branch: a relu's zeros fall at random
          s.mid += p;
          s.mag += std::abs(p);
          s.positive += std::max(p, 0.0);
          s.negative += std::max(-p, 0.0);
          s.flush += std::abs(a.lo) + std::abs(b.lo);
          continue;
        }
      } else if (exact_zero_product(a, b)) {
        ++s.zeros;
        continue;
      }
      const double am = 0.5 * a.lo + 0.5 * a.hi, ar = 0.5 * a.hi - 0.5 * a.lo;
      const double bm = 0.5 * b.lo + 0.5 * b.hi, br = 0.5 * b.hi - 0.5 * b.lo;
      const double p = am * bm, r = ar * std::abs(bm) + std::abs(am) * br + ar * br;  // a·b ∈ p ± r
      s.mid += p;
      s.mag += std::abs(p);
      s.rad += r;
      s.positive += std::max(p + r, 0.0);
      s.negative += std::max(r - p, 0.0);
      s.flush += std::abs(am) + ar + std::abs(bm) + br;
    }
    return envelope::finish_dot(n, s, signs);
  }
  template <class Term>
  static E prod(int64_t n, Term&& term) {
    envelope::Product p;
    for (int64_t i = 0; i < n; ++i) p.times(term(i));
    return p.finish();
  }
  static double to_double(const E& x) { return mid(x).lo; }
  // A NaN side means a NaN result is possible (sqrt of an envelope reaching below 0, abs of NaN):
  // no side bounds such an element, so it has no finite side to reject an answer with; an exact
  // NaN is one answer, NaN.
  static Enclosure enclosure(const E& x) {
    if (isnan(x)) return {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(), x.nan};
    return {x.lo, x.hi};
  }
};

static_assert(Scalar<Envelope>);

}  // namespace nnref
