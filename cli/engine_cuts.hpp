// One of nnref's float32 engines judged at its own intermediate values (conform --engine f32|fast):
// the engine runs the model with every real node output made a graph output, and its values of
// them become cut points (docs/conformance.md, "Judged at intermediate values"), so that a deep
// model is judged op by op rather than through an envelope compounded past its values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/engines.hpp"
#include "cli/verdict.hpp"
#include "formats/model.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"

namespace nnref {

struct EngineAnswer {
  NamedTensors outputs;  // the graph's outputs, in its order
  std::vector<Cut> cuts;  // the engine's value of every other real op output (none for the hardware model)
};

// The engine's answer. The hardware model compiles the graph as it is (its program has the graph's
// outputs alone), and a run whose every value does not fit in max_memory is made again for the
// outputs alone: such answers have no cuts.
Result<EngineAnswer> engine_answer(Model& m, const std::vector<HostTensor>& inputs, int64_t max_memory,
                                   const EngineChoice& e);

}  // namespace nnref
