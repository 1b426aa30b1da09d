// sum, mean, max and min over groups of positions (fastpath/group_layout.hpp), one output per
// group, in float32 (fastpath/ops/reduce.cpp). A group with a NaN gives NaN under max and min as
// under sum and mean (the spec's sc::max and sc::min propagate it). Groups [k_begin, k_end) of the
// layout's kept table: threads split them, each group is summed whole in one fixed order.
#pragma once

#include <cstdint>

#include "fastpath/group_layout.hpp"
#include "spec/ops/reduce.hpp"

namespace nnref::fastpath {

void reduce_groups(ReduceOp op, const float* x, const GroupLayout& g, int64_t k_begin, int64_t k_end, float* y);

}  // namespace nnref::fastpath
