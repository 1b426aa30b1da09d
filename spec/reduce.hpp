// The two reductions every sum and dot product goes through (DESIGN idea 2), so that an
// interpretation can account for a sum as a whole rather than term by term: the float32 envelope
// bounds the rounding of n terms in any order by γ(n+1)·Σ|terms| once (spec/scalar_envelope.hpp).
#pragma once

#include <cstdint>

#include "spec/scalar.hpp"

namespace nnref {

// init + Σ_{i<n} term(i).
template <Scalar T, class Term>
T sum_of(int64_t n, Term&& term, const T& init = from_double<T>(0.0)) {
  return ScalarOps<T>::sum(n, term, init);
}

// init + Σ_{i<n} x(i)·w(i): a dot product whose accumulator starts at init (a bias, or 0).
template <Scalar T, class X, class W>
T dot_of(int64_t n, X&& x, W&& w, const T& init = from_double<T>(0.0)) {
  return ScalarOps<T>::dot(n, x, w, init);
}

}  // namespace nnref
