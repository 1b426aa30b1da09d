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
#include "spec/size_program.hpp"
#include "spec/value.hpp"

namespace nnref {

// The target extents: dims, or the computed program's values, each computed one at least 1;
// nullopt when the program fails or a constant entry is negative.
template <class Dim>
std::optional<Dims<Dim>> broadcast_targets(const BroadcastToAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                           ObligationSink<Dim>& sink) {
  auto entries = size_entries(a.dims, a.computed, inputs, sink, "broadcast_to");
  if (!entries) return std::nullopt;
  Dims<Dim> targets;
  bool nonneg = true;
  for (size_t i = 0; i < entries->size(); ++i) {
    const SizeValue<Dim>& e = (*entries)[i];
    if (!e.constant)
      sink.require(e.value >= Dim(int64_t{1}), kBroadcastToComputedExtent,
                   "broadcast_to: target extent " + dim_str(e.value) + " at position " + std::to_string(i) +
                       ", computed from extents, may be below 1");
    nonneg = nonneg && (!e.constant || *e.constant >= 0);
    targets.push_back(e.value);
  }
  sink.require(nonneg, kBroadcastToNegativeExtent,
               "broadcast_to: target shape " + dims_str(targets) + " has a negative extent");
  if (!nonneg) return std::nullopt;
  return targets;
}

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const BroadcastToAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const std::optional<Dims<Dim>> targets = broadcast_targets(a, inputs, sink);
  if (!targets) return std::nullopt;
  const Dims<Dim>& in = inputs[0];
  const size_t n = targets->size();
  const std::string what = "broadcast_to: input of shape " + dims_str(in) + " does not broadcast to " +
                           dims_str(*targets) + " (" + rule_name(a.broadcast) + ")";
  const bool rank_ok = a.broadcast == Broadcast::Equal ? in.size() == n : in.size() <= n;
  sink.require(rank_ok, kBroadcastToRank,
               what + ": the input has rank " + std::to_string(in.size()) + ", the target " + std::to_string(n));
  if (!rank_ok) return std::nullopt;
  for (size_t i = 0; i < n; ++i) {
    const Dim x = aligned_extent(in, i, n, a.broadcast), t = (*targets)[i];
    // x must be t, or 1 when broadcasting.
    const PredOf<Dim> fits = a.broadcast == Broadcast::Equal ? x == t : combined_extent(x, t) == t;
    sink.require(fits, kBroadcastToIncompatible,
                 what + ": axis " + std::to_string(i) + " has extent " + dim_str(x) + ", target " + dim_str(t));
  }
  return ShapeOut<Dim>{{*targets}, {}};
}

// y[i] = x[i], x read at index i of y with its missing and extent-1 axes held at 0; elements of
// any kind (the op's kind), moved, not computed with.
template <Scalar T>
void evaluate(const Checked<BroadcastToAttrs>& op, const OpIO<T>& io) {
  with_element_type<T>(op.attrs().kind, [&]<class E>() {
    Tensor<E>& y = io.template out_as<E>(0);
    broadcast_map(y.shape(), op.attrs().broadcast, [&](int64_t i, const E& x) { y[i] = x; }, io.template in_as<E>(0));
  });
}

}  // namespace nnref
