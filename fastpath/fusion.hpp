// Which planned nodes the fast path computes as one step. A conv or linear is fused with the
// batch normalization over its output channels that follows it and with a relu after either,
// when each is the sole reader of the value before it (and that value is no graph output): the
// normalization becomes a per-channel fma in the product's epilogue, y = fma(t, a, offset − mean·a)
// with a = scale/sqrt(variance + ε), and relu a max in the same pass. docs/conformance.md
// ("Fusions") shows why both stay inside the float32 envelope of the unfused graph.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "fastpath/gemm.hpp"
#include "semantics/plan.hpp"

namespace nnref::fastpath {

// One step's nodes, as indices into plan.nodes: the head, and what its epilogue absorbed.
struct FusedGroup {
  size_t head = 0;
  std::optional<size_t> batch_norm, relu;

  size_t last() const { return relu ? *relu : batch_norm ? *batch_norm : head; }
  bool fused() const { return batch_norm || relu; }
};

// Every planned node in exactly one group, groups in plan order.
std::vector<FusedGroup> fuse(const Plan<float>& plan);

// A batch normalization's per-channel scale a = scale/sqrt(variance + ε) and shift
// offset + mean·(−a), computed in float32 as the derivation in docs/conformance.md assumes.
Epilogue batch_norm_epilogue(const Checked<BatchNormAttrs>& op, const Tensor<float>& mean, const Tensor<float>& variance,
                             const Tensor<float>& scale, const Tensor<float>& offset);

// The epilogue a group's head applies: the batch normalization's scale and shift per output
// channel, computed in float32 as the derivation in docs/conformance.md assumes, and the relu.
Epilogue epilogue_of(const FusedGroup& group, const Plan<float>& plan);

}  // namespace nnref::fastpath
