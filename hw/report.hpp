// What `nnref hw run --stats` prints and `--trace` writes (docs/hw-model.md, "Statistics" and
// "Trace").
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "formats/nac/program.hpp"
#include "hw/config.hpp"
#include "hw/timeline.hpp"

namespace nnref::hw {

// One row of the per-op table: the instructions of one op, their cycles (stalls included) and share.
struct OpRow {
  std::string op;
  int64_t count = 0, cycles = 0;
};
std::vector<OpRow> op_table(const std::vector<TickWork>& work, const Timeline& t);  // most cycles first

// Useful multiply-accumulates over what the R×C array could do in the run's cycles.
double mac_utilisation(const std::vector<TickWork>& work, const Timeline& t, const Config& c);

void print_stats(std::ostream& out, const std::vector<TickWork>& work, const Timeline& t, const Config& c);

// Chrome trace-event JSON (Perfetto): one process, the tracks "core" (tid 1: each instruction and
// each stall) and "coprocessor" (tid 2: each MMAP command and on-demand load), ts and dur in µs at
// the configured clock, each event's cycles and tick in its args.
std::string trace_json(const nac::Program& p, const std::vector<TickWork>& work, const Timeline& t, const Config& c);

}  // namespace nnref::hw
