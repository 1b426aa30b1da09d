// The one axis validator: axis attributes against the rank they index, counting from the end
// when negative, each named at most once.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/obligation.hpp"
#include "spec/shape.hpp"

namespace nnref {

inline constexpr ObligationSpec kAxisOutOfRange{
    ObligationKind::Shape, "shape.axis.out-of-range",
    "Every axis attribute names an axis of the tensor it indexes, counting from the end when negative: the axes of "
    "the reductions, layer_normalization, softmax, slice and squeeze, the channel_axis of batch_normalization, the "
    "axis of concat and split, the positions of unsqueeze (in the output), and the axis of flatten (0 to the rank, "
    "never negative).",
    "-rank(x) <= axis && axis < rank(x), for every axis (flatten: 0 <= axis && axis <= rank(x); unsqueeze: the "
    "output rank rank(x) + len(axes))",
    "`layer input = Input(shape: [32, 32, 3]); layer sm = Softmax(axis: 3);`: axis 3 of the per-sample shape is axis 4 "
    "of the [1, 32, 32, 3] tensor: error[shape.axis.out-of-range]."};

inline constexpr ObligationSpec kAxisDuplicate{
    ObligationKind::Shape, "shape.axis.duplicate",
    "No axis is named twice in a list of axes (negative axes counted from the end): reductions, "
    "layer_normalization, softmax, slice, squeeze, unsqueeze.",
    "a_i != a_j for every two entries i != j, each normalised to a + rank(x) when negative",
    "An IR sum_reduce with axes [1, -3] on a rank-4 input (both name axis 1): error[shape.axis.duplicate]."};

inline constexpr ObligationSpec kAxesEmpty{
    ObligationKind::Attribute, "attr.axes.empty",
    "An op that reduces or normalises over a list of axes names at least one (an empty list is an error, not \"all "
    "axes\"): the reductions, layer_normalization, softmax.",
    "len(axes) >= 1",
    "An IR sum_reduce with axes []: error[attr.axes.empty]."};

// Normalises an axis that may count from the end (-1 is the last). Returns -1 when out of range.
inline int64_t normalize_axis(int64_t axis, size_t rank) {
  const auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) return -1;
  return axis < 0 ? axis + r : axis;
}

// "softmax: axis 3 is out of range for an input of rank 3 (valid: -3 to 2)".
inline std::string axis_range_message(const std::string& op, const std::string& what, int64_t axis, size_t rank,
                                      int64_t lo, int64_t hi) {
  return op + ": " + what + " " + std::to_string(axis) + " is out of range for an input of rank " +
         std::to_string(rank) + " (valid: " + std::to_string(lo) + " to " + std::to_string(hi) + ")";
}

// One axis of a rank-`rank` tensor, normalised; nullopt (with the obligation refuted) when out of range.
template <class Dim>
std::optional<size_t> checked_axis(const std::string& op, const std::string& what, int64_t axis, size_t rank,
                                   ObligationSink<Dim>& sink) {
  const int64_t k = normalize_axis(axis, rank);
  const auto r = static_cast<int64_t>(rank);
  sink.require(k >= 0, kAxisOutOfRange, axis_range_message(op, what, axis, rank, -r, r - 1));
  if (k < 0) return std::nullopt;
  return static_cast<size_t>(k);
}

// A list of axes of a rank-`rank` tensor: each in range and none twice, and at least one unless
// `may_be_empty`. Normalised and ascending, or nullopt when one of these fails.
template <class Dim>
std::optional<std::vector<size_t>> checked_axes(const std::string& op, const std::vector<int64_t>& axes, size_t rank,
                                                bool may_be_empty, ObligationSink<Dim>& sink) {
  if (!may_be_empty) sink.require(!axes.empty(), kAxesEmpty, op + ": axes must name at least one axis");
  bool ok = may_be_empty || !axes.empty();
  std::vector<size_t> out;
  for (int64_t axis : axes) {
    const auto k = checked_axis(op, "axis", axis, rank, sink);
    const bool fresh = k && std::find(out.begin(), out.end(), *k) == out.end();
    if (k)
      sink.require(fresh, kAxisDuplicate,
                   op + ": axes " + dims_str(axes) + " name axis " + std::to_string(*k) + " more than once");
    ok = ok && fresh;
    if (fresh) out.push_back(*k);
  }
  if (!ok) return std::nullopt;
  std::sort(out.begin(), out.end());
  return out;
}

// mask[i]: axis i is among `axes` (already normalised).
inline std::vector<bool> axis_mask(const std::vector<size_t>& axes, size_t rank) {
  std::vector<bool> mask(rank, false);
  for (size_t axis : axes) mask[axis] = true;
  return mask;
}

}  // namespace nnref
