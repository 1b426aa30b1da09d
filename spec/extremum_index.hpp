// The index of a group's extremum under every scalar, enclosures included: argmax and argmin
// (spec/ops/arg_reduce.hpp) and max pooling's index (spec/ops/argmax_pool.hpp) read it.
#pragma once

#include <cstdint>

#include "spec/axis_groups.hpp"
#include "spec/orderings.hpp"
#include "spec/scalar.hpp"
#include "spec/truth.hpp"

namespace nnref {

// The first index r of the group x(0..n−1) whose value is the extremum, NaN counting as beyond
// every number (so the first NaN, as NumPy and PyTorch); `beyond` is kGreater for the maximum,
// kLess for the minimum, and `extremum` sc::max or sc::min, which carry NaN. Under an enclosure the
// first index whose set can reach the extremum is the answer only if it certainly passes every
// earlier value and is certainly at least every later one (which no other index then can be);
// otherwise kUnknownInteger (spec/truth.hpp).
template <Scalar T, class At, class Extremum>
int64_t extremum_index(int64_t n, At&& at, uint8_t beyond, Extremum&& extremum) {
  for (int64_t r = 0; r < n; ++r)
    if (sc::orderings(at(r), at(r)) == kUnordered) return r;  // certainly NaN: a point NaN
  const T m = fold<T>(n, at, extremum);
  int64_t c = 0;
  while (c < n - 1 && (sc::orderings(at(c), m) & kEqual) == 0) ++c;
  if (c > 0 && sc::orderings(at(c), fold<T>(c, at, extremum)) != beyond) return kUnknownInteger;
  if (c < n - 1) {
    const uint8_t later = sc::orderings(at(c), fold<T>(n - c - 1, [&](int64_t r) { return at(c + 1 + r); }, extremum));
    if ((later & ~(beyond | kEqual)) != 0) return kUnknownInteger;
  }
  return c;
}

}  // namespace nnref
