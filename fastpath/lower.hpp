// How the fast path turns one planned node into a step of its program (fastpath/engine.hpp): every
// op of the list has a `lower_op` overload in fastpath/ops/<stem>.cpp that reads the node's
// witness, its parameters (already bound and converted to float by the plan) and where its values
// live, prepares what it can once (packed weights, index tables) and returns the step that
// computes the node at run time. The declarations come from the one op list, so an op without a
// fast kernel does not link: there is no silent call into the oracle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "fastpath/gemm.hpp"
#include "semantics/op.hpp"

namespace nnref::fastpath {

class ThreadPool;

// Where a value lives: bytes from the start of the engine's arena, its shape and element kind
// (reals as float, integers as int64_t, logical values as uint8_t, as the oracle holds them).
struct Slot {
  int64_t offset = 0;
  Shape shape;
  ElemKind kind = ElemKind::Real;
};

// What a step sees at run time.
struct Frame {
  std::byte* arena = nullptr;
  ThreadPool* pool = nullptr;

  template <class E>
  E* at(const Slot& s) const {
    return reinterpret_cast<E*>(arena + s.offset);
  }
};

using Step = std::function<void(const Frame&)>;

// One node as the lowering sees it.
struct NodeLowering {
  std::vector<Slot> inputs, outputs;
  std::vector<const Tensor<float>*> params;  // aligned with the witness's params; nullptr if absent
  Epilogue epilogue;  // conv and linear only: what fusion folded into them (fastpath/fusion.hpp)

  const float* param(size_t i) const { return params[i] ? params[i]->data().data() : nullptr; }
};

// The step of each op (an empty Step: nothing to compute, e.g. a view or an input).
#define NNREF_DECLARE_LOWERING(A, stem) Step lower_op(const Checked<A>& op, const NodeLowering& node);
NNREF_FOR_EACH_OP(NNREF_DECLARE_LOWERING)
#undef NNREF_DECLARE_LOWERING

}  // namespace nnref::fastpath
