// The shape of a reduction that keeps its axes (NNEF 1.0 §4.4): the input's, with extent 1 on
// every reduced axis.
#pragma once

#include <cstdint>
#include <vector>

#include "spec/dim.hpp"

namespace nnref {

// x with extent 1 on the given axes (already normalised).
template <class Dim>
Dims<Dim> kept_reduced(const Dims<Dim>& x, const std::vector<size_t>& axes) {
  Dims<Dim> out = x;
  for (size_t axis : axes) out[axis] = Dim(int64_t{1});
  return out;
}

}  // namespace nnref
