// The fast path's static memory plan: every value a step writes gets a slot in one arena, placed
// at prepare time by liveness. A value is live from its step until the step after which the plan
// frees it (Plan::frees, the oracle's liveness); freed space is reused first-fit. Values inside a
// fused group are never materialised, and reshape, flatten, squeeze and unsqueeze are views: their
// output is their input's bytes under another shape, kept until the last view of them dies.
#pragma once

#include <cstdint>
#include <vector>

#include "fastpath/fusion.hpp"
#include "fastpath/lower.hpp"

namespace nnref::fastpath {

inline constexpr int64_t kSlotAlignment = 64;  // bytes: a cache line, and every vector width

struct MemoryPlan {
  std::vector<std::vector<Slot>> slots;  // per node id, per output (a fused-away value: unused)
  int64_t arena_bytes = 0;               // the arena's size: the highest end of any slot
  int64_t live_peak_bytes = 0;           // the most bytes live at once, alignment included
};

MemoryPlan plan_memory(const Plan<float>& plan, const std::vector<FusedGroup>& groups);

// Whether the op's output is its input's bytes under another shape.
bool is_view(const CheckedOp& op);

}  // namespace nnref::fastpath
