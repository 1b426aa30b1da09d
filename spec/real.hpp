// A real-valued attribute as the model file states it: its double and, when it came from text,
// the exact decimal, so that the 50-digit and interval readings compute the model the file states
// (10⁻⁵, not the double nearest to it) while the double serves the checks and the point scalars.
#pragma once

#include <string>
#include <utility>

#include "spec/scalar.hpp"

namespace nnref {

struct Real {
  double value = 0.0;
  std::string decimal;  // empty: value is exact (a default, or set by a program)
  Real(double v = 0.0) : value(v) {}  // NOLINT: a double is a Real with no decimal
  Real(double v, std::string text) : value(v), decimal(std::move(text)) {}
};

template <class T>
T real_value(const Real& r) {
  return r.decimal.empty() ? from_double<T>(r.value) : from_decimal<T>(r.decimal);
}

}  // namespace nnref
