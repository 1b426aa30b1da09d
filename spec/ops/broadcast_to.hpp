// broadcast_to: the input repeated along its extent-1 and missing axes up to a target shape
// (one-directional: the target is the output shape; rules of spec/rules/broadcast.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"

namespace nnref {

struct BroadcastToAttrs {
  std::vector<int64_t> dims;  // the target shape
  Broadcast broadcast = Broadcast::NumpyRight;
};

inline constexpr ObligationSpec kBroadcastToNegativeExtent{
    ObligationKind::Attribute, "attr.broadcast_to.negative-extent",
    "The target shape of broadcast_to has no negative extent.", "T >= 0, for every entry T of dims",
    "An IR broadcast_to with dims [2, -1]: error[attr.broadcast_to.negative-extent]."};
inline constexpr ObligationSpec kBroadcastToRank{
    ObligationKind::Shape, "shape.broadcast_to.rank",
    "The input of broadcast_to has no more axes than the target shape (exactly as many under the Equal rule).",
    "rank(x) <= len(dims) (Equal: rank(x) == len(dims))",
    "An IR broadcast_to with dims [4] of an input [2, 4]: error[shape.broadcast_to.rank]."};
inline constexpr ObligationSpec kBroadcastToIncompatible{
    ObligationKind::Shape, "shape.broadcast_to.incompatible",
    "Every input extent of broadcast_to is the target extent or 1 (under Equal: the target extent), on the axes "
    "aligned by the broadcast rule.",
    "X == T || X == 1, for every aligned axis (Equal: X == T)",
    "An IR broadcast_to with dims [4, 6] of an input [4, 3]: error[shape.broadcast_to.incompatible]."};

template <>
struct OpInfo<BroadcastToAttrs> {
  static std::vector<const ObligationSpec*> obligations() {
    return {&kBroadcastToNegativeExtent, &kBroadcastToRank, &kBroadcastToIncompatible};
  }
};

inline std::string op_name(const BroadcastToAttrs&) { return "broadcast_to"; }
inline Arity arity(const BroadcastToAttrs&) { return {1, 1}; }

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const BroadcastToAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const bool nonneg = std::all_of(a.dims.begin(), a.dims.end(), [](int64_t d) { return d >= 0; });
  sink.require(nonneg, kBroadcastToNegativeExtent,
               "broadcast_to: target shape " + dims_str(a.dims) + " has a negative extent");
  const Dims<Dim>& in = inputs[0];
  const std::string what = "broadcast_to: input of shape " + dims_str(in) + " does not broadcast to " +
                           dims_str(a.dims) + " (" + rule_name(a.broadcast) + ")";
  const bool rank_ok = a.broadcast == Broadcast::Equal ? in.size() == a.dims.size() : in.size() <= a.dims.size();
  sink.require(rank_ok, kBroadcastToRank,
               what + ": the input has rank " + std::to_string(in.size()) + ", the target " +
                   std::to_string(a.dims.size()));
  if (!nonneg || !rank_ok) return std::nullopt;
  Dims<Dim> out;
  for (size_t i = 0; i < a.dims.size(); ++i) {
    const Dim x = aligned_extent(in, i, a.dims.size(), a.broadcast), t = Dim(a.dims[i]);
    // x must be t, or 1 when broadcasting.
    const PredOf<Dim> fits = a.broadcast == Broadcast::Equal ? x == t : combined_extent(x, t) == t;
    sink.require(fits, kBroadcastToIncompatible,
                 what + ": axis " + std::to_string(i) + " has extent " + dim_str(x) + ", target " + dim_str(t));
    out.push_back(t);
  }
  return ShapeOut<Dim>{{std::move(out)}, {}};
}

// y[i] = x[i], x read at index i of y with its missing and extent-1 axes held at 0.
template <Scalar T>
void evaluate(const Checked<BroadcastToAttrs>& op, const OpIO<T>& io) {
  Tensor<T>& y = io.out(0);
  broadcast_map(y.shape(), op.attrs().broadcast, [&](int64_t i, const T& x) { y[i] = x; }, io.in(0));
}

}  // namespace nnref
