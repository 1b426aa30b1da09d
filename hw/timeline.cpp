#include "hw/timeline.hpp"

#include <algorithm>
#include <optional>

#include "formats/nac/decode.hpp"

namespace nnref::hw {

namespace {

std::vector<int64_t> resident_bytes(const nac::Program& p, const std::vector<TickWork>& work) {
  const size_t n = p.ops.size();
  std::vector<size_t> from(n), to(n, n);
  for (size_t v = 0; v < n; ++v) from[v] = v;
  for (size_t t = 0; t < p.mmap.size() && p.has_mmap; ++t)
    for (const nac::MemCommand& c : p.mmap[t]) {
      if (c.action == nac::MemAction::Preload) from[c.target] = std::min(from[c.target], t);
      if (c.action == nac::MemAction::Free) to[c.target] = std::min<size_t>(to[c.target], t);
    }
  std::vector<int64_t> use(n, 0);
  for (size_t v = 0; v < n; ++v)
    for (size_t t = from[v]; t < to[v]; ++t) use[t] += work[v].result_bytes;
  return use;
}

}  // namespace

Result<Timeline> simulate(const nac::Program& p, const std::vector<TickWork>& work, const Config& c) {
  const size_t n = p.ops.size();
  Timeline tl;
  tl.sram = resident_bytes(p, work);
  for (size_t t = 0; t < n; ++t) {
    if (tl.sram[t] > c.sram_bytes)
      return make_error("hw.sram.capacity", "tick " + std::to_string(t) + " (" + nac::instruction_label(p, t) + "): " +
                                                std::to_string(tl.sram[t]) + " bytes are resident, more than the SRAM capacity of " +
                                                std::to_string(c.sram_bytes));
    tl.peak_sram = std::max(tl.peak_sram, tl.sram[t]);
  }
  std::vector<std::optional<int64_t>> arrival(n);  // when each PRELOADed parameter is in SRAM
  int64_t now = 0, coprocessor_free = 0;
  // The coprocessor runs its commands one after another, each from when it is issued or the
  // previous one ends, whichever is later.
  auto issue = [&](size_t tick, std::string what, size_t target, int64_t cycles) {
    const int64_t start = std::max(now, coprocessor_free);
    coprocessor_free = start + cycles;
    tl.coprocessor.push_back({tick, std::move(what), target, start, cycles});
    return coprocessor_free;
  };
  for (size_t t = 0; t < n; ++t) {
    CoreSpan span;
    span.start = now;
    if (work[t].param_load) {
      const int64_t bytes = work[t].result_bytes;
      const bool preloaded = arrival[t].has_value();
      if (!preloaded) tl.dram_bytes += bytes;
      const int64_t ready = preloaded ? *arrival[t] : issue(t, "LOAD", t, dram_cycles(bytes, c));
      if (ready > now) {
        span.stall = ready - now;
        span.stall_cause = preloaded ? kStallPreloadLate : kStallOnDemand;
        tl.stall_cycles[span.stall_cause] += span.stall;
        tl.stall_count[span.stall_cause] += 1;
      }
    }
    if (p.has_mmap)
      for (const nac::MemCommand& m : p.mmap[t]) {
        if (m.action == nac::MemAction::Preload) {
          const int64_t bytes = work[m.target].result_bytes;
          tl.dram_bytes += bytes;
          arrival[m.target] = issue(t, nac::mem_action_name(m.action), m.target, dram_cycles(bytes, c));
        } else {
          issue(t, nac::mem_action_name(m.action), m.target, c.mmap_command_cycles);
        }
      }
    span.cycles = work[t].cost.cycles;
    tl.dram_bytes += work[t].core_dram_bytes;
    now += span.stall + span.cycles;
    tl.core.push_back(span);
  }
  tl.cycles = now;
  return tl;
}

}  // namespace nnref::hw
