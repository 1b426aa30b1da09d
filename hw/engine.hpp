// The hardware model as an engine (docs/hw-model.md): a NAC program (a .nac file, or any model
// compiled to NAC in memory) executed tick by tick: its arithmetic by the model's own kernels
// (hw/kernels.hpp) over the plan of the model it lowers to, its timing by the cost model and the
// MMAP schedule (hw/timeline.hpp).
#pragma once

#include <optional>
#include <vector>

#include "formats/nac/nac.hpp"
#include "hw/config.hpp"
#include "hw/timeline.hpp"
#include "semantics/plan.hpp"

namespace nnref::hw {

// The program to run for a loaded model: a .nac model's own file, with its own MMAP; any other
// model compiled to NAC in memory, its MMAP computed with each PRELOAD's lead from the cost model
// (nac::ScheduleOptions::tick_cycles) or `preload_ahead` ticks when given, within the SRAM.
Result<nac::LoadedProgram> program_for(const Model& m, const Config& c, std::optional<int> preload_ahead,
                                       int64_t max_memory);

// For `nnref nac compile`: the cost model's estimate of each instruction's cycles and of each
// parameter's DRAM transfer (nac::ScheduleOptions::tick_cycles, load_cycles) for the program the
// writer makes of `m` with `w`'s quantization.
Result<std::pair<std::vector<int64_t>, std::vector<int64_t>>> preload_estimates(const Model& m, const nac::WriteOptions& w,
                                                                                const Config& c, int64_t max_memory);

// What each instruction of the program asks of the machine, from the plan of its model.
std::vector<TickWork> tick_work(const nac::LoadedProgram& lp, const Plan<float>& plan, const Config& c);

struct Run {
  std::vector<Tensor<float>> outputs;
  std::vector<TickWork> work;
  Timeline timeline;
};

Result<Run> run(const nac::LoadedProgram& lp, const std::vector<HostTensor>& inputs, const Config& c,
                int64_t max_memory);

}  // namespace nnref::hw
