// nnref's own float32 engines as run, conform and bench name them: the oracle in float ("oracle",
// which conform calls "f32"), the fast path ("fast", fastpath/engine.hpp), with the fast path's
// thread count and forced Highway target, and the NAC hardware model ("hw", hw/engine.hpp) at its
// default config.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/model.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"
#include "spec/tensor.hpp"

namespace nnref {

struct EngineChoice {
  std::string engine = "oracle";  // oracle (f32) | fast | hw
  int threads = 1;                // fast: its threads
  std::string target;             // fast: a Highway target to force (empty: the best available)
};

bool is_fast(const EngineChoice& e);
bool is_hw(const EngineChoice& e);

// --threads and --target are the fast path's: an error when given with another engine, or when the
// target is not available here (which forces it otherwise, before any packing).
Status prepare_engine_choice(const EngineChoice& e);

// The model's outputs in float32 by the chosen engine; each checks the model (make_plan) first.
Result<std::vector<Tensor<float>>> run_float32(const Model& m, const std::vector<HostTensor>& inputs,
                                               int64_t max_memory, const EngineChoice& e);

}  // namespace nnref
