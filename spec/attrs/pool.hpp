// The attributes of pool: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/pool.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/rules/window.hpp"

namespace nnref {

enum class PoolOp { Max, Avg, Sum };
// Ignore: padded positions take no part (max over the real elements; average divides by the
// number of real elements). Constant: padded positions are 0 and count (average divides by the
// window size). NNL pools have no padding, so both agree there. A sum reads the same either way.
enum class PoolBorder { Ignore, Constant };

// Input [N, C, s...] or [N, s..., C]; output keeps N and C. Same extent formula and padding modes
// as ConvAttrs. No parameters.
struct PoolAttrs {
  PoolOp op = PoolOp::Max;
  std::vector<int64_t> kernel;    // spatial window; its size is the spatial rank (≥ 1)
  std::vector<int64_t> stride;    // empty: all 1 (front-ends fill their own defaults)
  std::vector<int64_t> dilation;  // empty: all 1
  std::vector<std::pair<int64_t, int64_t>> padding;
  PadMode pad_mode = PadMode::Explicit;
  PoolBorder border = PoolBorder::Ignore;
  Layout layout = Layout::ChannelsFirst;
};

// Every pool obligation is a window obligation (spec/rules/window.hpp).
template <>
struct OpInfo<PoolAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
  static std::vector<PoolAttrs> prototypes() {
    PoolAttrs max, avg, sum;
    avg.op = PoolOp::Avg;
    sum.op = PoolOp::Sum;
    return {max, avg, sum};
  }
};

inline std::string op_name(const PoolAttrs& a) {
  return a.op == PoolOp::Max ? "max_pool" : a.op == PoolOp::Avg ? "avg_pool" : "sum_pool";
}
inline Arity arity(const PoolAttrs&) { return {1, 1}; }

}  // namespace nnref
