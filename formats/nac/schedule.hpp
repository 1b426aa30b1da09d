// The MMAP schedule (§4): computed from liveness by the writer, and verified for any file. The
// memory model both use is in docs/nac.md ("The MMAP schedule").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/nac/program.hpp"

namespace nnref::nac {

struct ScheduleOptions {
  int preload_ahead = 2;                // PRELOAD a parameter this many ticks before its load
  // A cost model's estimate (hw/): each instruction's cycles on the core and, for each parameter
  // load, the cycles of its DRAM transfer. When given, a parameter's lead is the fewest ticks
  // whose cycles cover its transfer, instead of preload_ahead (docs/nac.md).
  std::vector<int64_t> tick_cycles, load_cycles;
  std::optional<int64_t> sram_bytes;    // on-chip capacity; none: unbounded
  std::vector<int64_t> value_bytes;     // per instruction, the bytes of its result (empty: unknown)
};

struct ScheduleError {
  std::string code;
  std::string message;  // names the tick and the instruction
  size_t tick = 0;
};

// The instructions that read each instruction's result (D sources and <OUTPUT> sources), in order.
std::vector<std::vector<size_t>> consumers(const Program& p);

// SAVE_RESULT, FORWARD, FREE and PRELOAD per tick, from liveness; PRELOADs are moved later (or
// dropped) where they would put SRAM over capacity.
std::vector<std::vector<MemCommand>> compute_schedule(const Program& p, const ScheduleOptions& o);

// Every violation of the memory model, in tick order (empty: the schedule is sound). A program
// without MMAP has nothing to verify.
std::vector<ScheduleError> verify_schedule(const Program& p, const ScheduleOptions& o);

}  // namespace nnref::nac
