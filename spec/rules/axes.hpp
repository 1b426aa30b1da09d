// The one axis validator: axis attributes against the rank they index, counting from the end
// when negative, each named at most once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/dim.hpp"
#include "spec/obligation.hpp"
#include "spec/shape.hpp"

namespace nnref {

inline constexpr ObligationSpec kAxisOutOfRange{
    ObligationKind::Shape, "shape.axis.out-of-range",
    "Every axis attribute names an axis of the tensor it indexes, counting from the end when negative: the axes of "
    "the reductions, layer_normalization, softmax, slice and squeeze, the channel_axis of batch_normalization, the "
    "axis of concat and split, the positions of unsqueeze (in the output), and the axis of flatten (0 to the rank, "
    "never negative). Where the op's axes count per sample (NNL's Concat and Softmax), only the axes after the batch "
    "axis can be named.",
    "-r <= axis && axis < r, for every axis, where r = rank(x) minus the leading batch axes the op's axes do not "
    "count (NNL: 1; otherwise 0) (flatten: 0 <= axis && axis <= rank(x); unsqueeze: the output rank rank(x) + "
    "len(axes))",
    "`layer input = Input(shape: [16, 16, 4]); layer sm = Softmax(axis: -4);`: NNL axes count the per-sample shape "
    "[16, 16, 4], whose axes are -3..2 (-4 would be the batch axis of the [1, 16, 16, 4] tensor): "
    "error[shape.axis.out-of-range]."};

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

// What an axis attribute counts: the axes of a tensor of rank `rank` after its first `batch_axes`.
// Formats whose models name every axis leave batch_axes 0; NNL counts per-sample axes (its batch
// axis, axis 0 of every tensor, is not addressable), so its axis attributes say batch_axes 1.
// Either way an axis counts from the end when negative: -1 is the last.
struct AxisDomain {
  AxisDomain(size_t r) : rank(r) {}  // every axis addressable
  template <class Dim>
  AxisDomain(const Dims<Dim>& x, size_t batch) : rank(x.size()), batch_axes(batch) {
    if (batch > 0 && batch <= x.size())
      per_sample = dims_str(Dims<Dim>(x.begin() + static_cast<ptrdiff_t>(batch), x.end()));
  }
  // The number of addressable axes (0 when the tensor has no more axes than batch axes).
  size_t counted() const { return rank > batch_axes ? rank - batch_axes : 0; }

  size_t rank;
  size_t batch_axes = 0;
  std::string per_sample;  // the extents of the counted axes, for messages, when batch_axes > 0
};

// The tensor axis an axis attribute names (-1 the last). Returns -1 when out of range.
inline int64_t normalize_axis(int64_t axis, const AxisDomain& d) {
  const auto r = static_cast<int64_t>(d.counted());
  if (axis < -r || axis >= r) return -1;
  return axis < 0 ? axis + static_cast<int64_t>(d.rank) : axis + static_cast<int64_t>(d.batch_axes);
}

// The axis a message names for tensor axis k: k itself, or counted per sample after batch axes.
inline std::string axis_label(size_t k, size_t batch_axes) {
  if (batch_axes == 0) return "axis " + std::to_string(k);
  if (k < batch_axes) return batch_axes == 1 ? "the batch axis" : "batch axis " + std::to_string(k);
  return "per-sample axis " + std::to_string(k - batch_axes);
}

// "softmax: axis 3 is out of range for an input of rank 3 (valid: -3 to 2)".
inline std::string axis_range_message(const std::string& op, const std::string& what, int64_t axis, size_t rank,
                                      int64_t lo, int64_t hi) {
  return op + ": " + what + " " + std::to_string(axis) + " is out of range for an input of rank " +
         std::to_string(rank) + " (valid: " + std::to_string(lo) + " to " + std::to_string(hi) + ")";
}

// As above over a domain; with batch axes, in per-sample terms: "softmax: axis 5 is out of range:
// the input has per-sample axes -3..2 (per-sample shape [16, 16, 4])".
inline std::string axis_range_message(const std::string& op, const std::string& what, int64_t axis,
                                      const AxisDomain& d) {
  const auto r = static_cast<int64_t>(d.counted());
  if (d.batch_axes == 0) return axis_range_message(op, what, axis, d.rank, -r, r - 1);
  const std::string head = op + ": " + what + " " + std::to_string(axis) + " is out of range: the input has ";
  if (r == 0) return head + "no per-sample axes";
  return head + "per-sample axes " + std::to_string(-r) + ".." + std::to_string(r - 1) + " (per-sample shape " +
         d.per_sample + ")";
}

// One axis of the domain, as a tensor axis; nullopt (with the obligation refuted) when out of range.
template <class Dim>
std::optional<size_t> checked_axis(const std::string& op, const std::string& what, int64_t axis,
                                   const AxisDomain& d, ObligationSink<Dim>& sink) {
  const int64_t k = normalize_axis(axis, d);
  sink.require(k >= 0, kAxisOutOfRange, axis_range_message(op, what, axis, d));
  if (k < 0) return std::nullopt;
  return static_cast<size_t>(k);
}

// A list of axes of the domain: each in range and none twice, and at least one unless
// `may_be_empty`. Tensor axes, ascending, or nullopt when one of these fails.
template <class Dim>
std::optional<std::vector<size_t>> checked_axes(const std::string& op, const std::vector<int64_t>& axes,
                                                const AxisDomain& d, bool may_be_empty, ObligationSink<Dim>& sink) {
  if (!may_be_empty) sink.require(!axes.empty(), kAxesEmpty, op + ": axes must name at least one axis");
  bool ok = may_be_empty || !axes.empty();
  std::vector<size_t> out;
  for (int64_t axis : axes) {
    const auto k = checked_axis(op, "axis", axis, d, sink);
    const bool fresh = k && std::find(out.begin(), out.end(), *k) == out.end();
    if (k)
      sink.require(fresh, kAxisDuplicate,
                   op + ": axes " + dims_str(axes) + " name " + axis_label(*k, d.batch_axes) + " more than once");
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
