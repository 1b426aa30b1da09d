// The attributes of broadcast_to: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/broadcast_to.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"
#include "spec/size_program.hpp"

namespace nnref {

// The target shape: dims, or computed dims (an export's cls_token.expand(x.size(0), -1, -1)): a
// size program (spec/size_program.hpp) over the extents of the operands after the first, whose
// kinds `sources` lists; its constant entries read as dims' do, the others must be at least 1.
struct BroadcastToAttrs {
  std::vector<int64_t> dims;
  Broadcast broadcast = Broadcast::NumpyRight;
  std::vector<int64_t> computed{};  // when not empty, the dims (dims is then empty)
  std::vector<ElemKind> sources{};
  ElemKind kind = ElemKind::Real;  // of the input and the output: repeating elements holds any kind
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
inline constexpr ObligationSpec kBroadcastToComputedExtent{
    ObligationKind::Shape, "shape.broadcast_to.computed-extent",
    "An entry of broadcast_to's target shape that the model computes from extents (not a constant) is at least 1: "
    "nnref holds no empty tensors.",
    "T_i >= 1, for every computed entry T_i",
    "An ONNX Expand of x [1, 4] to [Shape(y)[0] - 1, 4], y [N, 3], N a size symbol over 1..8: refuted, "
    "counterexample N = 1."};

template <>
struct OpInfo<BroadcastToAttrs> {
  static std::vector<const ObligationSpec*> obligations() {
    return {&kBroadcastToNegativeExtent, &kBroadcastToRank, &kBroadcastToIncompatible, &kBroadcastToComputedExtent};
  }
};

inline std::string op_name(const BroadcastToAttrs&) { return "broadcast_to"; }
inline Arity arity(const BroadcastToAttrs& a) {
  const int n = 1 + static_cast<int>(a.sources.size());
  return {n, n};
}
inline Signature signature(const BroadcastToAttrs& a) {
  std::vector<ElemKind> operands{a.kind};
  operands.insert(operands.end(), a.sources.begin(), a.sources.end());
  return {operands, ElemKind::Real, a.kind};
}

}  // namespace nnref
