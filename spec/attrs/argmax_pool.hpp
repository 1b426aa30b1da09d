// The attributes of argmax_pool: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/argmax_pool.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "spec/attrs/pool.hpp"
#include "spec/op_rule.hpp"

namespace nnref {

// The window attributes of a pool; input [N, C, s...] (NNEF's windows over every axis are this op
// over [1, 1, x...], as the pools: docs/ops/pool.md). Ignore: padded positions take no part.
// Constant: padded positions are 0 and take part (an index may name one).
struct ArgmaxPoolAttrs {
  std::vector<int64_t> kernel;    // spatial window; its size is the spatial rank (≥ 1)
  std::vector<int64_t> stride;    // empty: all 1
  std::vector<int64_t> dilation;  // empty: all 1
  std::vector<std::pair<int64_t, int64_t>> padding;
  PadMode pad_mode = PadMode::Explicit;
  PoolBorder border = PoolBorder::Constant;
  static constexpr Layout layout = Layout::ChannelsFirst;  // NNEF's; read by the window rule
};

// Every obligation is a window obligation (spec/rules/window.hpp).
template <>
struct OpInfo<ArgmaxPoolAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const ArgmaxPoolAttrs&) { return "argmax_pool"; }
inline Arity arity(const ArgmaxPoolAttrs&) { return {1, 1}; }
inline Signature signature(const ArgmaxPoolAttrs&) { return {{ElemKind::Real}, ElemKind::Real, ElemKind::Integer}; }

}  // namespace nnref
