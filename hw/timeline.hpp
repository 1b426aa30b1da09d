// The timing of a NAC program on the modeled accelerator (docs/hw-model.md): the core runs one
// instruction per tick, the memory coprocessor runs each tick's MMAP commands beside it, and the
// core stalls when a parameter it loads is not yet in SRAM.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "formats/nac/program.hpp"
#include "hw/config.hpp"
#include "hw/cost.hpp"
#include "spec/result.hpp"

namespace nnref::hw {

// What instruction i asks of the machine.
struct TickWork {
  std::string op;          // its row of the per-op table: an IR op name, "input", "param", "output", ...
  OpCost cost;             // the core's cycles (a user input's or the outputs' DRAM transfer included)
  int64_t result_bytes = 0;  // what its result occupies in SRAM (a parameter: its stored bytes)
  int64_t core_dram_bytes = 0;  // bytes the core itself moves to or from DRAM (user inputs, outputs)
  bool param_load = false;    // <INPUT B=1>: the parameter must be in SRAM before the core goes on
};

inline constexpr const char* kStallPreloadLate = "preload-late";  // its PRELOAD had not finished
inline constexpr const char* kStallOnDemand = "on-demand";        // no PRELOAD: loaded at its tick

struct CoreSpan {
  int64_t start = 0;   // the tick's first cycle
  int64_t stall = 0;   // cycles waiting for its parameter, before it runs
  const char* stall_cause = nullptr;
  int64_t cycles = 0;  // then its own cycles
};

struct CoprocessorEvent {
  size_t tick = 0;              // the tick that issued it
  std::string what;             // "PRELOAD", "SAVE_RESULT", "FORWARD", "FREE", "LOAD" (on demand)
  size_t target = 0;
  int64_t start = 0, cycles = 0;
};

struct Timeline {
  std::vector<CoreSpan> core;  // one per tick
  std::vector<CoprocessorEvent> coprocessor;
  int64_t cycles = 0;          // when the core finishes the last instruction
  std::map<std::string, int64_t> stall_cycles, stall_count;  // by cause
  std::vector<int64_t> sram;   // resident bytes at each tick
  int64_t peak_sram = 0;
  int64_t dram_bytes = 0;      // PRELOADs, on-demand loads, user inputs and outputs
};

// The program's MMAP (none: every parameter on demand) over `work`. The resident bytes of a tick
// are every value from its tick (a parameter from its PRELOAD's) up to the tick of its FREE, as
// the schedule's memory model counts them (docs/nac.md); more than the SRAM holds is the error
// hw.sram.capacity naming the first such tick and its instruction.
Result<Timeline> simulate(const nac::Program& p, const std::vector<TickWork>& work, const Config& c);

}  // namespace nnref::hw
