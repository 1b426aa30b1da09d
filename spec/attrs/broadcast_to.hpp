// The attributes of broadcast_to: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/broadcast_to.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
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

}  // namespace nnref
