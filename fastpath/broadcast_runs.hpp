// How an elementwise op with broadcast operands walks its output: the output's axes of extent 1
// dropped and the neighbours every operand reads contiguously (or holds fixed) merged, the last
// merged axis is the inner run that a vector loop covers, the axes before it an outer loop. In
// that run each operand either varies (stride 1) or is one broadcast value (stride 0). Runs are
// cut into chunks, the work items that threads share. Built once, at lowering; walking it
// allocates nothing.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "fastpath/threads.hpp"
#include "spec/rules/broadcast.hpp"
#include "spec/shape.hpp"

namespace nnref::fastpath {


inline constexpr size_t kMaxRunOperands = 3;  // clamp and select read three

// One work item: `n` output elements from `out`; operand k starts at `in[k]` and advances with
// the output if it varies, else stays at one element.
struct Run {
  int64_t out = 0, n = 0;
  std::array<int64_t, kMaxRunOperands> in{};
};

class BroadcastRuns {
 public:
  // The operands' shapes broadcast to `out` under `rule` (the shapes the op's checker accepted).
  BroadcastRuns(const Shape& out, const std::vector<Shape>& operands, Broadcast rule);

  bool varies(size_t k) const { return varies_[k]; }

  // body(run) for every work item, split over the pool's threads (each item written by one).
  template <class Body>
  void for_each(ThreadPool* pool, Body&& body) const {
    parallel(pool, [&](int64_t begin, int64_t end) {
      for (int64_t item = begin; item < end; ++item) body(run(item));
    });
  }

 private:
  Run run(int64_t item) const;
  void parallel(ThreadPool* pool, RangeBody body) const;

  size_t operands_ = 0;
  int64_t inner_ = 0, chunk_ = 1, chunks_per_row_ = 0, items_ = 0;
  std::vector<int64_t> outer_dims_;                       // the outer axes, outermost first
  std::array<std::vector<int64_t>, kMaxRunOperands> outer_strides_;  // per operand, per outer axis
  std::array<bool, kMaxRunOperands> varies_{};
};

}  // namespace nnref::fastpath
