// The fast path: an engine over the plan of the core (semantics/plan.hpp, the engine seam) that
// computes in float32 with Highway kernels. `prepare` lowers the plan once: it fuses (fastpath/
// fusion.hpp), places every value in one arena by liveness (fastpath/memory_plan.hpp), packs the
// weights and builds one step per group (fastpath/lower.hpp). `run` then copies the inputs into
// the arena and runs the steps, with no allocation. docs/fastpath.md describes the whole.
#pragma once

#include <hwy/aligned_allocator.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "semantics/plan.hpp"

namespace nnref::fastpath {

struct EngineOptions {
  int threads = 1;
  int64_t max_memory = int64_t{4} << 30;  // bytes: the arena must fit
};

class Engine {
 public:
  // The plan (and its graph) must outlive the engine.
  static Result<std::unique_ptr<Engine>> prepare(const Plan<float>& plan, const EngineOptions& options);

  // The outputs, in the graph's order, valid until the next run. The inputs are checked against the
  // plan first (check_inputs), as every engine does.
  Result<const std::vector<Tensor<float>>*> run(const std::vector<HostTensor>& inputs);

  int64_t arena_bytes() const { return arena_bytes_; }
  int64_t live_peak_bytes() const { return live_peak_bytes_; }
  size_t step_count() const { return steps_.size(); }

 private:
  Engine(const Plan<float>& plan, int threads) : plan_(plan), pool_(threads) {}

  const Plan<float>& plan_;
  ThreadPool pool_;
  std::vector<Step> steps_;
  std::vector<Slot> inputs_, outputs_;  // the slots of the Input nodes and of the graph's outputs
  hwy::AlignedFreeUniquePtr<std::byte[]> arena_;
  int64_t arena_bytes_ = 0, live_peak_bytes_ = 0;
  std::vector<Tensor<float>> results_;
};

}  // namespace nnref::fastpath
