// Positions of a tensor grouped by a set of axes, which the reductions, layer_normalization and
// softmax share: a group is the positions that differ only on those axes.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "spec/rules/axes.hpp"
#include "spec/shape.hpp"

namespace nnref {

// An axes attribute as tensor axes (-1 the last axis). Only for axes a shape rule has accepted, as a
// Checked witness guarantees: each is in range.
inline std::vector<size_t> normalized_axes(const std::vector<int64_t>& axes, const AxisDomain& d) {
  std::vector<size_t> out;
  for (int64_t axis : axes) out.push_back(static_cast<size_t>(normalize_axis(axis, d)));
  return out;
}

// The flat indices of a tensor split by a set of axes: element (k, r) is at outer[k] + inner[r],
// where k runs row-major over the other axes (the order of the reduced output) and r row-major
// over the chosen axes (the order of a parameter shaped like them). Costs one int64 per element.
struct AxisSplit {
  std::vector<int64_t> outer, inner;
};

// The offsets of every position of the axes i with mask[i] == picked, the others held at 0.
inline std::vector<int64_t> offsets_over(const Shape& shape, const std::vector<bool>& mask, bool picked) {
  std::vector<int64_t> strides = shape.strides(), offsets{0};
  for (size_t i = 0; i < shape.rank(); ++i) {
    if (mask[i] != picked) continue;
    std::vector<int64_t> next;
    next.reserve(offsets.size() * static_cast<size_t>(shape[i]));
    for (int64_t o : offsets)
      for (int64_t j = 0; j < shape[i]; ++j) next.push_back(o + j * strides[i]);
    offsets = std::move(next);
  }
  return offsets;
}

// `axes` normalised, in any order.
inline AxisSplit split_axes(const Shape& shape, const std::vector<size_t>& axes) {
  const std::vector<bool> mask = axis_mask(axes, shape.rank());
  return {offsets_over(shape, mask, false), offsets_over(shape, mask, true)};
}

// f(…f(f(at(0), at(1)), at(2))…, at(n−1)) for n ≥ 1 (the shape rules guarantee a non-empty group).
template <class T, class At, class F>
T fold(int64_t n, At&& at, F&& f) {
  T v = at(0);
  for (int64_t r = 1; r < n; ++r) v = f(v, at(r));
  return v;
}

}  // namespace nnref
