// The Scalar concept (TorchLean's Context α): what an interpretation of the reals must provide.
// The evaluator and every op are templates over it. Points (float, double, mp50) compute one value
// per operation; enclosures (Interval in spec/scalar_interval.hpp, Envelope in
// spec/scalar_envelope.hpp) compute a set that soundly contains every value the operation can take.
//
// An op never compares or branches on values itself: everything beyond + − × ÷ goes through the
// customization point ScalarOps<T> (reached as sc::name), so that an enclosure can answer soundly
// where `a < b` has no honest meaning. The concept below lists every such function, so a scalar
// that lacks one fails there, not deep inside an op.
#pragma once

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <boost/multiprecision/cpp_bin_float.hpp>

namespace nnref {

using mp50 = boost::multiprecision::cpp_bin_float_50;

// A value as two doubles lo ≤ hi: the enclosure of an interval or envelope, or a point twice.
// A narrower float format a model may round to (ONNX's Cast to float16 or bfloat16): significand
// bits (the implicit one included), the exponent of its smallest normal number, its largest finite
// value.
struct FloatFormat {
  int precision = 0;
  int min_exponent = 0;
  double max_finite = 0;
};
inline constexpr FloatFormat kBinary16{11, -14, 65504.0};
inline constexpr FloatFormat kBfloat16{8, -126, 0x1.fep127};

struct Enclosure {
  double lo = 0.0, hi = 0.0;
  // Exactly NaN (lo and hi are NaN too): an input's NaN, which IEEE 754 operations carry as NaN.
  bool nan = false;
  double midpoint() const { return 0.5 * lo + 0.5 * hi; }
  // The half-width, rounded up: [midpoint − radius, midpoint + radius] holds [lo, hi].
  double radius() const { return std::nextafter(0.5 * hi - 0.5 * lo, HUGE_VAL); }
  // Both sides finite. A side that is NaN or infinite bounds nothing.
  bool bounded() const { return std::isfinite(lo) && std::isfinite(hi); }
  // An exact value that is not a real number: NaN, or +∞ or −∞ on both sides.
  bool special() const { return nan || (lo == hi && std::isinf(lo)); }
  // Whether an envelope rejects the answer a: a fails one of its finite sides (a NaN answer fails
  // any); an exact NaN rejects every answer but NaN (any payload), an exact ±∞ every other value.
  // conform's verdict and the engines' differential tests use this one rule.
  bool rejects(double a) const {
    if (nan) return !std::isnan(a);
    if (special()) return !(a == lo);
    return (std::isfinite(lo) && !(a >= lo)) || (std::isfinite(hi) && !(a <= hi));
  }
};

// Specialised per scalar: PointOps below for the points, one specialisation per enclosure type.
template <class T>
struct ScalarOps;

// The points' customization points: each function computes its formula once, in T.
template <class T>
struct PointOps {
  static constexpr int64_t bytes = sizeof(T);  // memory per value, for the budget
  static T from_double(double x) { return T(x); }
  // The nearest T to the decimal (float and double round once, mp50 to its 166 bits).
  static T from_decimal(const std::string& s) {
    if constexpr (std::is_same_v<T, float>) return std::strtof(s.c_str(), nullptr);
    else if constexpr (std::is_same_v<T, double>) return std::strtod(s.c_str(), nullptr);
    else return T(s);
  }
  // clang-format off
  static T exp(const T& x)   { using std::exp;   return T(exp(x)); }
  static T log(const T& x)   { using std::log;   return T(log(x)); }
  static T log2(const T& x)  { using std::log;   return T(log(x) / log(T(2))); }
  static T sqrt(const T& x)  { using std::sqrt;  return T(sqrt(x)); }
  static T rsqrt(const T& x) { return T(1) / sqrt(x); }
  static T tanh(const T& x)  { using std::tanh;  return T(tanh(x)); }
  static T sigmoid(const T& x) { return T(1) / (T(1) + exp(-x)); }
  // log(exp(x) + 1) as max(x, 0) + log1p(exp(−|x|)): the same number, without the cancellation
  // of exp(x) + 1 rounded near 1 (thousands of float32 ulps at x = −10) or the overflow of exp(x).
  static T softplus(const T& x) {
    using std::exp;
    using std::log1p;
    return max(x, T(0)) + T(log1p(exp(-abs(x))));
  }
  static T sin(const T& x)   { using std::sin;   return T(sin(x)); }
  static T cos(const T& x)   { using std::cos;   return T(cos(x)); }
  static T tan(const T& x)   { using std::tan;   return T(tan(x)); }
  static T sinh(const T& x)  { using std::sinh;  return T(sinh(x)); }
  static T cosh(const T& x)  { using std::cosh;  return T(cosh(x)); }
  static T asin(const T& x)  { using std::asin;  return T(asin(x)); }
  static T acos(const T& x)  { using std::acos;  return T(acos(x)); }
  static T atan(const T& x)  { using std::atan;  return T(atan(x)); }
  static T asinh(const T& x) { using std::asinh; return T(asinh(x)); }
  static T acosh(const T& x) { using std::acosh; return T(acosh(x)); }
  static T atanh(const T& x) { using std::atanh; return T(atanh(x)); }
  static T abs(const T& x)   { using std::abs;   return T(abs(x)); }
  static T floor(const T& x) { using std::floor; return T(floor(x)); }
  static T ceil(const T& x)  { using std::ceil;  return T(ceil(x)); }
  static T erf(const T& x)   { using std::erf;   return T(erf(x)); }
  static T pow(const T& x, const T& y) { using std::pow; return T(pow(x, y)); }
  // The nearest integer, halves to the even one (ONNX's Round, IEEE 754 roundToIntegralTiesToEven);
  // floor and ceil keep x's sign, and so does this (−0.5 → −0).
  static T round_even(const T& x) {
    if constexpr (std::is_floating_point_v<T>) {
      return std::nearbyint(x);  // in the default rounding mode, ties to even
    } else {
      using std::floor;
      using std::fmod;
      const T r = floor(x), d = x - r;
      const T n = d < T(0.5) ? r : d > T(0.5) ? r + T(1) : fmod(r, T(2)) == T(0) ? r : r + T(1);
      return n == T(0) && x < T(0) ? T(-0.0) : n;
    }
  }
  // x rounded to the nearest value of format f, ties to even; past the largest finite value ±∞
  // (IEEE 754's overflow under round to nearest); ±0, ±∞ and NaN stay. Exact: a scaling by a
  // power of two, a rounding to an integer, and the scaling back.
  static T round_to(const T& x, const FloatFormat& f) {
    using std::abs;
    using std::frexp;
    using std::ldexp;
    const T inf = T(HUGE_VAL);
    if (!(abs(x) > T(0)) || !(abs(x) < inf)) return x;
    int e = 0;
    frexp(x, &e);  // |x| in [2^(e−1), 2^e)
    const int q = std::max(e - 1, f.min_exponent) - (f.precision - 1);
    const T y = ldexp(round_even(ldexp(x, -q)), q);
    if (abs(y) > T(f.max_finite)) return x < T(0) ? -inf : inf;
    return y;
  }
  // C's fmod (ONNX Mod with fmod = 1): x − y·trunc(x/y) with the exact quotient, x's sign; exact in
  // every binary float format. NaN for y = 0 or an infinite x.
  static T fmod(const T& x, const T& y) {
    using std::fmod;
    const T r = T(fmod(x, y));
    return r == T(0) && x < T(0) ? T(-0.0) : r;  // x's sign on a zero too (C's; Boost's mp50 gives +0)
  }
  static bool isnan(const T& x) { using std::isnan; return isnan(x); }
  // A NaN operand, in either position, gives NaN (as torch.maximum, IEEE 754-2019 maximum): a
  // comparison alone would keep the other operand when the NaN comes second.
  static T max(const T& a, const T& b) { return isnan(b) ? b : a < b ? b : a; }
  static T min(const T& a, const T& b) { return isnan(b) ? b : b < a ? b : a; }
  static T relu(const T& x) { return max(x, T(0)); }
  static T sqr(const T& x)  { return x * x; }
  static T mid(const T& x)  { return x; }
  // −1, 0 or 1; NaN stays NaN.
  static T sign(const T& x) { return x > T(0) ? T(1) : x < T(0) ? T(-1) : x; }
  // below(x) where x < 0, else at_or_above(x): a function defined piecewise at 0.
  template <class Below, class Above>
  static T piecewise_at_zero(const T& x, Below&& below, Above&& at_or_above) {
    return x < T(0) ? below(x) : at_or_above(x);
  }
  // init + Σ_{i<n} term(i), accumulated left to right.
  template <class Term>
  static T sum(int64_t n, Term&& term, const T& init) {
    T acc = init;
    for (int64_t i = 0; i < n; ++i) acc = acc + term(i);
    return acc;
  }
  // init + Σ_{i<n} x(i)·w(i), accumulated left to right.
  template <class X, class W>
  static T dot(int64_t n, X&& x, W&& w, const T& init) {
    T acc = init;
    for (int64_t i = 0; i < n; ++i) acc = acc + x(i) * w(i);
    return acc;
  }
  // Π_{i<n} term(i), multiplied left to right; 1 for n = 0.
  template <class Term>
  static T prod(int64_t n, Term&& term) {
    T acc = T(1);
    for (int64_t i = 0; i < n; ++i) acc = acc * term(i);
    return acc;
  }
  static double to_double(const T& x) { return static_cast<double>(x); }
  static Enclosure enclosure(const T& x) { return {to_double(x), to_double(x)}; }
  // clang-format on
};

template <class T>
  requires std::floating_point<T> || std::same_as<T, mp50>
struct ScalarOps<T> : PointOps<T> {};

template <class T>
T from_double(double x) {
  return ScalarOps<T>::from_double(x);
}
template <class T>
T from_decimal(const std::string& s) {
  return ScalarOps<T>::from_decimal(s);
}

// The customization points as functions, sc::exp(x) for ScalarOps<T>::exp(x).
namespace sc {
// clang-format off
template <class T> T exp(const T& x)      { return ScalarOps<T>::exp(x); }
template <class T> T log(const T& x)      { return ScalarOps<T>::log(x); }
template <class T> T log2(const T& x)     { return ScalarOps<T>::log2(x); }
template <class T> T sqrt(const T& x)     { return ScalarOps<T>::sqrt(x); }
template <class T> T rsqrt(const T& x)    { return ScalarOps<T>::rsqrt(x); }
template <class T> T tanh(const T& x)     { return ScalarOps<T>::tanh(x); }
template <class T> T sigmoid(const T& x)  { return ScalarOps<T>::sigmoid(x); }
template <class T> T softplus(const T& x) { return ScalarOps<T>::softplus(x); }
template <class T> T sin(const T& x)      { return ScalarOps<T>::sin(x); }
template <class T> T cos(const T& x)      { return ScalarOps<T>::cos(x); }
template <class T> T tan(const T& x)      { return ScalarOps<T>::tan(x); }
template <class T> T sinh(const T& x)     { return ScalarOps<T>::sinh(x); }
template <class T> T cosh(const T& x)     { return ScalarOps<T>::cosh(x); }
template <class T> T asin(const T& x)     { return ScalarOps<T>::asin(x); }
template <class T> T acos(const T& x)     { return ScalarOps<T>::acos(x); }
template <class T> T atan(const T& x)     { return ScalarOps<T>::atan(x); }
template <class T> T asinh(const T& x)    { return ScalarOps<T>::asinh(x); }
template <class T> T acosh(const T& x)    { return ScalarOps<T>::acosh(x); }
template <class T> T atanh(const T& x)    { return ScalarOps<T>::atanh(x); }
template <class T> T abs(const T& x)      { return ScalarOps<T>::abs(x); }
template <class T> T floor(const T& x)    { return ScalarOps<T>::floor(x); }
template <class T> T ceil(const T& x)     { return ScalarOps<T>::ceil(x); }
template <class T> T erf(const T& x)      { return ScalarOps<T>::erf(x); }
template <class T> T round_even(const T& x) { return ScalarOps<T>::round_even(x); }
template <class T> T pow(const T& x, const T& y) { return ScalarOps<T>::pow(x, y); }
template <class T> T fmod(const T& x, const T& y) { return ScalarOps<T>::fmod(x, y); }
template <class T> T round_to(const T& x, const FloatFormat& f) { return ScalarOps<T>::round_to(x, f); }
template <class T> bool isnan(const T& x) { return ScalarOps<T>::isnan(x); }
template <class T> T max(const T& a, const T& b) { return ScalarOps<T>::max(a, b); }
template <class T> T min(const T& a, const T& b) { return ScalarOps<T>::min(a, b); }
template <class T> T relu(const T& x)     { return ScalarOps<T>::relu(x); }
template <class T> T sqr(const T& x)      { return ScalarOps<T>::sqr(x); }
template <class T> T mid(const T& x)      { return ScalarOps<T>::mid(x); }
template <class T> T sign(const T& x)     { return ScalarOps<T>::sign(x); }
template <class T, class Below, class Above>
T piecewise_at_zero(const T& x, Below&& below, Above&& at_or_above) {
  return ScalarOps<T>::piecewise_at_zero(x, below, at_or_above);
}
// The midpoint (or the point itself) as a double, and the enclosure as two doubles rounded outward.
template <class T> double to_double(const T& x) { return ScalarOps<T>::to_double(x); }
template <class T> Enclosure enclosure(const T& x)    { return ScalarOps<T>::enclosure(x); }
// clang-format on
}  // namespace sc

template <class T>
concept Scalar = std::copyable<T> && std::default_initializable<T> && requires(T a, T b, double d, std::string s, T (*f)(const T&), T (*term)(int64_t)) {
  { a + b } -> std::convertible_to<T>;
  { a - b } -> std::convertible_to<T>;
  { a * b } -> std::convertible_to<T>;
  { a / b } -> std::convertible_to<T>;
  { -a } -> std::convertible_to<T>;
  { ScalarOps<T>::from_double(d) } -> std::same_as<T>;
  { ScalarOps<T>::from_decimal(s) } -> std::same_as<T>;
  { ScalarOps<T>::exp(a) } -> std::same_as<T>;
  { ScalarOps<T>::log(a) } -> std::same_as<T>;
  { ScalarOps<T>::log2(a) } -> std::same_as<T>;
  { ScalarOps<T>::sqrt(a) } -> std::same_as<T>;
  { ScalarOps<T>::rsqrt(a) } -> std::same_as<T>;
  { ScalarOps<T>::tanh(a) } -> std::same_as<T>;
  { ScalarOps<T>::sigmoid(a) } -> std::same_as<T>;
  { ScalarOps<T>::softplus(a) } -> std::same_as<T>;
  { ScalarOps<T>::sin(a) } -> std::same_as<T>;
  { ScalarOps<T>::cos(a) } -> std::same_as<T>;
  { ScalarOps<T>::tan(a) } -> std::same_as<T>;
  { ScalarOps<T>::sinh(a) } -> std::same_as<T>;
  { ScalarOps<T>::cosh(a) } -> std::same_as<T>;
  { ScalarOps<T>::asin(a) } -> std::same_as<T>;
  { ScalarOps<T>::acos(a) } -> std::same_as<T>;
  { ScalarOps<T>::atan(a) } -> std::same_as<T>;
  { ScalarOps<T>::asinh(a) } -> std::same_as<T>;
  { ScalarOps<T>::acosh(a) } -> std::same_as<T>;
  { ScalarOps<T>::atanh(a) } -> std::same_as<T>;
  { ScalarOps<T>::abs(a) } -> std::same_as<T>;
  { ScalarOps<T>::floor(a) } -> std::same_as<T>;
  { ScalarOps<T>::ceil(a) } -> std::same_as<T>;
  { ScalarOps<T>::erf(a) } -> std::same_as<T>;
  { ScalarOps<T>::round_even(a) } -> std::same_as<T>;
  { ScalarOps<T>::pow(a, b) } -> std::same_as<T>;
  { ScalarOps<T>::fmod(a, b) } -> std::same_as<T>;
  { ScalarOps<T>::round_to(a, kBinary16) } -> std::same_as<T>;
  { ScalarOps<T>::isnan(a) } -> std::same_as<bool>;
  { ScalarOps<T>::max(a, b) } -> std::same_as<T>;
  { ScalarOps<T>::min(a, b) } -> std::same_as<T>;
  { ScalarOps<T>::relu(a) } -> std::same_as<T>;
  { ScalarOps<T>::sqr(a) } -> std::same_as<T>;
  { ScalarOps<T>::mid(a) } -> std::same_as<T>;
  { ScalarOps<T>::sign(a) } -> std::same_as<T>;
  { ScalarOps<T>::piecewise_at_zero(a, f, f) } -> std::same_as<T>;
  { ScalarOps<T>::sum(int64_t{1}, term, b) } -> std::same_as<T>;
  { ScalarOps<T>::dot(int64_t{1}, term, term, b) } -> std::same_as<T>;
  { ScalarOps<T>::prod(int64_t{1}, term) } -> std::same_as<T>;
  { ScalarOps<T>::to_double(a) } -> std::same_as<double>;
  { ScalarOps<T>::enclosure(a) } -> std::same_as<Enclosure>;
  { ScalarOps<T>::bytes } -> std::convertible_to<int64_t>;
};

static_assert(Scalar<float> && Scalar<double> && Scalar<mp50>);

}  // namespace nnref
