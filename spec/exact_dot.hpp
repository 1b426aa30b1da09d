// ExactDot: Σ w·a over MPFR values of at most 64 significant bits, accumulated in double with
// error-free transformations and finished in MPFR with directed rounding. The interval scalar's
// dot products use it for their endpoints: one MPFR fused multiply-add per endpoint and term cost
// ~35 ns, these few dozen double operations a fraction of that (no call: Dekker's product needs no
// FMA instruction, which the portable build cannot assume), and the result is tighter (one
// directed rounding per dot product instead of one per term).
//
// Why the result is a bound (round-to-nearest double arithmetic, no overflow, no underflow; the
// exponent limit below guarantees both):
//  - each value v is split exactly as v = hi + lo (hi its top 53 bits, lo the rest);
//  - w·a = w.hi·a.hi + (w.hi·a.lo + w.lo·a.hi + w.lo·a.lo); the first product is split exactly
//    into ph + pl by Dekker's product (Dekker 1971; Boldo 2006 proves it for factors split into
//    halves of 26 bits, the high half rounded to nearest), and ph enters the running sum by
//    Knuth's TwoSum, whose error e is exact; so Σ w·a = sum + Σ tail terms exactly, the tail
//    terms being pl, e and the three small products;
//  - the tail terms are added in double: with m of them, each at most one rounding of an exact
//    real term, |tail − Σ exact tail terms| ≤ γ(m)·Σ|exact tail terms| in any order of summation
//    (Higham, Accuracy and Stability of Numerical Algorithms, §3.1 and §4.2), and
//    Σ|exact| ≤ tail_abs/((1 − u)(1 − γ(m))) for tail_abs, the double sum of their magnitudes.
//    For m·u ≤ 0.1 that is below 1.25·m·u·tail_abs, and 2·m·u·tail_abs computed in double (one
//    rounding) is at least that;
//  - finish adds sum, tail and ∓ that bound to an MPFR accumulator, each addition rounded in the
//    accumulator's direction, so a lower (upper) endpoint stays a lower (upper) bound.
// m ≤ 5·n and n terms of 48+ bytes each fit in memory, so m·u ≤ 0.1 holds on any machine.
#pragma once

#include <gmp.h>
#include <mpfr.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>

namespace nnref {

static_assert(GMP_NUMB_BITS == 64, "ExactDot reads a 64-bit limb");

// A value held exactly as hi + lo (hi its top 53 bits, lo the rest), with hi held once more as
// big + small, each of at most 26 significant bits (big is hi rounded to nearest on 26 bits), so
// that a product of two his splits exactly into doubles (Dekker's product).
struct SplitValue {
  double hi = 0, lo = 0, big = 0, small = 0;
};

// v split, or nothing when v is NaN or infinite, wider than 64 bits, or so large or small (|v|
// outside 2^±400) that the products and sums of ExactDot could overflow or underflow.
inline std::optional<SplitValue> split_exactly(mpfr_srcptr v) {
  constexpr mpfr_exp_t max_exponent = 400;
  if (mpfr_zero_p(v)) return SplitValue{};
  if (!mpfr_regular_p(v) || mpfr_get_prec(v) > 64) return std::nullopt;
  const mpfr_exp_t e = mpfr_get_exp(v);  // v = ±0.m × 2^e with m the limb's 64 bits
  if (e < -max_exponent || e > max_exponent) return std::nullopt;
  const uint64_t m = *static_cast<const mp_limb_t*>(mpfr_custom_get_significand(v));
  const auto pow2 = [](mpfr_exp_t k) { return std::bit_cast<double>(static_cast<uint64_t>(k + 1023) << 52); };
  const int64_t hi = static_cast<int64_t>(m >> 11);            // 53 bits, × 2^(e−53)
  const int64_t big = ((hi + (int64_t{1} << 26)) >> 27) << 27;  // hi rounded to nearest on 26 bits
  const double scale = (mpfr_signbit(v) ? -1.0 : 1.0) * pow2(e - 53);
  return SplitValue{static_cast<double>(hi) * scale, static_cast<double>(m & 0x7FF) * (scale * 0x1p-11),
                    static_cast<double>(big) * scale, static_cast<double>(hi - big) * scale};
}

// [lo, hi] split as one value when it is a point (both endpoints the same number), or nothing: an
// interval, or a value split_exactly refuses. The upper endpoint is compared, not split again.
inline std::optional<SplitValue> split_point(mpfr_srcptr lo, mpfr_srcptr hi) {
  auto v = split_exactly(lo);
  if (!v || mpfr_get_prec(hi) > 64) return std::nullopt;
  const bool zero = mpfr_zero_p(lo);
  const bool same = zero ? mpfr_zero_p(hi) != 0
                         : mpfr_regular_p(hi) && mpfr_get_exp(hi) == mpfr_get_exp(lo) &&
                               mpfr_signbit(hi) == mpfr_signbit(lo) &&
                               *static_cast<const mp_limb_t*>(mpfr_custom_get_significand(hi)) ==
                                   *static_cast<const mp_limb_t*>(mpfr_custom_get_significand(lo));
  return same ? v : std::nullopt;
}

class ExactDot {
 public:
  void add(const SplitValue& w, const SplitValue& a) {
    const double ph = w.hi * a.hi;
    // ph + pl = w.hi·a.hi exactly (Dekker's product: every step below is exact)
    const double pl = ((w.big * a.big - ph) + w.big * a.small + w.small * a.big) + w.small * a.small;
    const double s = sum_ + ph, b = s - sum_;
    const double e = (sum_ - (s - b)) + (ph - b);  // s + e = sum_ + ph exactly (TwoSum)
    sum_ = s;
    const double small1 = w.hi * a.lo, small2 = w.lo * a.hi, small3 = w.lo * a.lo;
    // The five tail terms, summed here first (the bound holds for any order of summation).
    tail_ += ((pl + e) + (small1 + small2)) + small3;
    tail_abs_ += ((std::abs(pl) + std::abs(e)) + (std::abs(small1) + std::abs(small2))) + std::abs(small3);
    tail_terms_ += 5;
  }

  // r += the accumulated sum, rounded in direction rnd (MPFR_RNDD or MPFR_RNDU) with the tail's
  // error bound on that side.
  void finish(mpfr_ptr r, mpfr_rnd_t rnd) const {
    const double bound = 2.0 * static_cast<double>(tail_terms_) * 0x1p-53 * tail_abs_;
    mpfr_add_d(r, r, sum_, rnd);
    mpfr_add_d(r, r, tail_, rnd);
    mpfr_add_d(r, r, rnd == MPFR_RNDD ? -bound : bound, rnd);
  }

 private:
  double sum_ = 0, tail_ = 0, tail_abs_ = 0;
  int64_t tail_terms_ = 0;
};

}  // namespace nnref
