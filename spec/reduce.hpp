// The one reduction every sum and dot product goes through (DESIGN idea 2), so that an
// interpretation can account for a sum as a whole rather than term by term.
#pragma once

#include <cstdint>

#include "spec/scalar.hpp"

namespace nnref {

// Σ_{i<n} term(i), accumulated left to right in T, starting from init.
template <Scalar T, class Term>
T sum_of(int64_t n, Term&& term, T init = T(0)) {
  T acc = init;
  for (int64_t i = 0; i < n; ++i) acc = acc + term(i);
  return acc;
}

}  // namespace nnref
