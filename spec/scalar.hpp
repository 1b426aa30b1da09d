// The Scalar concept (TorchLean's Context α): what an interpretation of the reals must provide.
// The evaluator and every op are templates over it; float, double and mp50 instantiate it now,
// intervals and conformance balls later. Elementary functions are reached through sc:: so that
// std:: overloads (float, double) and ADL overloads (Boost.Multiprecision) are found alike.
#pragma once

#include <cmath>
#include <concepts>

#include <boost/multiprecision/cpp_bin_float.hpp>

namespace nnref {

using mp50 = boost::multiprecision::cpp_bin_float_50;

template <class T>
T from_double(double x) {
  return T(x);
}

namespace sc {
// clang-format off
template <class T> T exp(const T& x)   { using std::exp;   return T(exp(x)); }
template <class T> T log(const T& x)   { using std::log;   return T(log(x)); }
template <class T> T sqrt(const T& x)  { using std::sqrt;  return T(sqrt(x)); }
template <class T> T tanh(const T& x)  { using std::tanh;  return T(tanh(x)); }
template <class T> T abs(const T& x)   { using std::abs;   return T(abs(x)); }
template <class T> T sin(const T& x)   { using std::sin;   return T(sin(x)); }
template <class T> T cos(const T& x)   { using std::cos;   return T(cos(x)); }
template <class T> T tan(const T& x)   { using std::tan;   return T(tan(x)); }
template <class T> T sinh(const T& x)  { using std::sinh;  return T(sinh(x)); }
template <class T> T cosh(const T& x)  { using std::cosh;  return T(cosh(x)); }
template <class T> T asin(const T& x)  { using std::asin;  return T(asin(x)); }
template <class T> T acos(const T& x)  { using std::acos;  return T(acos(x)); }
template <class T> T atan(const T& x)  { using std::atan;  return T(atan(x)); }
template <class T> T asinh(const T& x) { using std::asinh; return T(asinh(x)); }
template <class T> T acosh(const T& x) { using std::acosh; return T(acosh(x)); }
template <class T> T atanh(const T& x) { using std::atanh; return T(atanh(x)); }
template <class T> T floor(const T& x) { using std::floor; return T(floor(x)); }
template <class T> T ceil(const T& x)  { using std::ceil;  return T(ceil(x)); }
template <class T> T pow(const T& x, const T& y) { using std::pow; return T(pow(x, y)); }
template <class T> bool isnan(const T& x) { using std::isnan; return isnan(x); }
// A NaN operand, in either position, gives NaN (as torch.maximum, IEEE 754-2019 maximum): a
// comparison alone would keep the other operand when the NaN comes second.
template <class T> T max(const T& a, const T& b) { return sc::isnan(b) ? b : a < b ? b : a; }
template <class T> T min(const T& a, const T& b) { return sc::isnan(b) ? b : b < a ? b : a; }
template <class T> double to_double(const T& x) { return static_cast<double>(x); }
// clang-format on
}  // namespace sc

template <class T>
concept Scalar = std::regular<T> && requires(T a, T b, double d) {
  { a + b } -> std::convertible_to<T>;
  { a - b } -> std::convertible_to<T>;
  { a * b } -> std::convertible_to<T>;
  { a / b } -> std::convertible_to<T>;
  { -a } -> std::convertible_to<T>;
  { a < b } -> std::convertible_to<bool>;
  { a == b } -> std::convertible_to<bool>;
  { from_double<T>(d) } -> std::same_as<T>;
  { sc::exp(a) } -> std::same_as<T>;
  { sc::log(a) } -> std::same_as<T>;
  { sc::sqrt(a) } -> std::same_as<T>;
  { sc::tanh(a) } -> std::same_as<T>;
  { sc::to_double(a) } -> std::same_as<double>;
};

static_assert(Scalar<float> && Scalar<double> && Scalar<mp50>);

// Every scalar the evaluator is instantiated in: X(ARG, scalar) for each. CMake reads this list
// (spec/CMakeLists.txt) to generate one translation unit per op and scalar.
#define NNREF_FOR_EACH_SCALAR(X, ARG) X(ARG, float) X(ARG, double) X(ARG, mp50)

}  // namespace nnref
