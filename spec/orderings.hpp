// The customization points of the comparisons, in their own header beside ScalarOps (which holds
// the arithmetic ones), per scalar as ScalarOps is: which orderings two scalars can stand in
// (spec/truth.hpp), and the least value holding two values (select under an unknown condition).
// A point stands in exactly one ordering; an enclosure in every ordering some pair of its values
// stands in, so that a comparison it cannot decide is unknown rather than guessed.
#pragma once

#include <cstdint>
#include <limits>

#include "spec/scalars.hpp"
#include "spec/truth.hpp"

namespace nnref {

template <class T>
struct OrderOps {
  // The one ordering of two points; kUnordered when either is NaN.
  static uint8_t orderings(const T& a, const T& b) {
    if (sc::isnan(a) || sc::isnan(b)) return kUnordered;
    return a < b ? kLess : b < a ? kGreater : kEqual;
  }
  // A point holds one value: a when they are equal, otherwise none, NaN. Point comparisons are
  // never unknown, so point evaluation reaches this only with equal operands.
  static T hull(const T& a, const T& b) { return a == b ? a : T(std::numeric_limits<double>::quiet_NaN()); }
};

// The orderings of [lo_a, hi_a] against [lo_b, hi_b]: less where lo_a < hi_b, greater where
// hi_a > lo_b, equal where the two overlap. A NaN enclosure bounds nothing: any ordering.
template <class Endpoint, class Less, class LessEqual>
uint8_t enclosure_orderings(const Endpoint& lo_a, const Endpoint& hi_a, const Endpoint& lo_b, const Endpoint& hi_b,
                            Less&& less, LessEqual&& less_equal) {
  uint8_t out = 0;
  if (less(lo_a, hi_b)) out |= kLess;
  if (less(lo_b, hi_a)) out |= kGreater;
  if (less_equal(lo_a, hi_b) && less_equal(lo_b, hi_a)) out |= kEqual;
  return out;
}

template <>
struct OrderOps<Interval> {
  static uint8_t orderings(const Interval& a, const Interval& b) {
    if (sc::isnan(a) || sc::isnan(b)) return kAnyOrdering;
    const auto* x = a.backend().data();
    const auto* y = b.backend().data();
    return enclosure_orderings<mpfr_srcptr>(
        &x->left, &x->right, &y->left, &y->right, [](mpfr_srcptr p, mpfr_srcptr q) { return mpfr_less_p(p, q) != 0; },
        [](mpfr_srcptr p, mpfr_srcptr q) { return mpfr_lessequal_p(p, q) != 0; });
  }
  static Interval hull(const Interval& a, const Interval& b) {
    Interval r;
    mpfi_union(r.backend().data(), a.backend().data(), b.backend().data());
    return r;
  }
};

template <>
struct OrderOps<Envelope> {
  // An exact NaN is unordered with every value (IEEE 754), whatever the other operand holds.
  static uint8_t orderings(const Envelope& a, const Envelope& b) {
    if (a.nan || b.nan) return kUnordered;
    if (sc::isnan(a) || sc::isnan(b)) return kAnyOrdering;
    return enclosure_orderings(a.lo, a.hi, b.lo, b.hi, [](double p, double q) { return p < q; },
                               [](double p, double q) { return p <= q; });
  }
  static Envelope hull(const Envelope& a, const Envelope& b) { return envelope::hull(a, b); }
};

namespace sc {
template <class T> uint8_t orderings(const T& a, const T& b) { return OrderOps<T>::orderings(a, b); }
template <class T> T hull(const T& a, const T& b) { return OrderOps<T>::hull(a, b); }
}  // namespace sc

}  // namespace nnref
