// broadcast_to: the input repeated along its extent-1 and missing axes up to a target shape
// (one-directional: the target is the output shape; rules of spec/rules/broadcast.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/broadcast_to.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"

namespace nnref {

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
