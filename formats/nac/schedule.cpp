#include "formats/nac/schedule.hpp"

#include <algorithm>
#include <map>

#include "formats/nac/decode.hpp"

namespace nnref::nac {

namespace {

bool is_param_load(const Instruction& ins) { return ins.a == kOpInput && ins.b == kInputParam; }

int64_t bytes_of(const ScheduleOptions& o, size_t v) { return v < o.value_bytes.size() ? o.value_bytes[v] : 0; }

// When each value enters SRAM (its tick, or the tick its PRELOAD starts) and leaves it (its FREE's
// tick; never: the end).
struct Residency {
  std::vector<size_t> from, to;
};

Residency residency(const Program& p, const std::vector<std::vector<MemCommand>>& mmap) {
  const size_t n = p.ops.size();
  Residency r{std::vector<size_t>(n), std::vector<size_t>(n, n)};
  for (size_t v = 0; v < n; ++v) r.from[v] = v;
  for (size_t t = 0; t < mmap.size(); ++t)
    for (const MemCommand& c : mmap[t]) {
      if (c.action == MemAction::Preload && c.target < n) r.from[c.target] = std::min<size_t>(r.from[c.target], t);
      if (c.action == MemAction::Free && c.target < n) r.to[c.target] = std::min<size_t>(r.to[c.target], t);
    }
  return r;
}

// Resident bytes at each tick: values present from `from` up to (not including) `to`.
std::vector<int64_t> occupancy(const Program& p, const ScheduleOptions& o, const Residency& r) {
  std::vector<int64_t> use(p.ops.size() + 1, 0);
  for (size_t v = 0; v < p.ops.size(); ++v)
    for (size_t t = r.from[v]; t < r.to[v] && t < p.ops.size(); ++t) use[t] += bytes_of(o, v);
  return use;
}

// How many ticks before parameter load v its PRELOAD goes: preload_ahead, or with a cost estimate
// the fewest ticks before v whose cycles add up to its transfer's (all of them when none do).
size_t preload_lead(const ScheduleOptions& o, size_t v) {
  const bool estimated = v < o.tick_cycles.size() && v < o.load_cycles.size();
  if (!estimated) return std::min<size_t>(v, static_cast<size_t>(std::max(o.preload_ahead, 0)));
  int64_t hidden = 0;
  size_t lead = 0;
  while (lead < v && hidden < o.load_cycles[v]) hidden += o.tick_cycles[v - ++lead];
  return lead;
}

}  // namespace

std::vector<std::vector<size_t>> consumers(const Program& p) {
  std::vector<std::vector<size_t>> c(p.ops.size());
  for (size_t i = 0; i < p.ops.size(); ++i) {
    const Instruction& ins = p.ops[i];
    for (const Argument& a : ins.args)
      if (a.source >= 0) c[static_cast<size_t>(a.source)].push_back(i);
    for (int64_t s : ins.sources) c[static_cast<size_t>(s)].push_back(i);
  }
  for (auto& list : c) list.erase(std::unique(list.begin(), list.end()), list.end());
  return c;
}

std::vector<std::vector<MemCommand>> compute_schedule(const Program& p, const ScheduleOptions& o) {
  const size_t n = p.ops.size();
  const auto uses = consumers(p);
  std::vector<std::vector<MemCommand>> mmap(n);
  for (size_t v = 0; v + 1 < n; ++v) {
    const auto& c = uses[v];
    if (c.size() >= 2) mmap[v].push_back({MemAction::SaveResult, static_cast<uint16_t>(v)});
    if (c.size() == 1 && c[0] == v + 1 && !is_param_load(p.ops[v]))
      mmap[v].push_back({MemAction::Forward, static_cast<uint16_t>(v + 1)});
    const size_t last = c.empty() ? v : c.back();
    if (last + 1 < n) mmap[last + 1].push_back({MemAction::Free, static_cast<uint16_t>(v)});
  }
  // PRELOADs, latest parameter first is not needed: each takes the earliest tick within reach that
  // keeps SRAM within capacity over the ticks it adds.
  for (size_t v = 0; v < n; ++v) {
    if (!is_param_load(p.ops[v])) continue;
    const size_t lead = preload_lead(o, v);
    if (lead == 0) continue;
    const size_t earliest = v - lead;
    const std::vector<int64_t> use = occupancy(p, o, residency(p, mmap));
    for (size_t t = earliest; t < v; ++t) {
      bool fits = true;
      for (size_t u = t; u < v && o.sram_bytes; ++u) fits = fits && use[u] + bytes_of(o, v) <= *o.sram_bytes;
      if (!fits) continue;
      mmap[t].push_back({MemAction::Preload, static_cast<uint16_t>(v)});
      break;
    }
  }
  return mmap;
}

std::vector<ScheduleError> verify_schedule(const Program& p, const ScheduleOptions& o) {
  std::vector<ScheduleError> errors;
  if (!p.has_mmap) return errors;
  const size_t n = p.ops.size();
  const auto uses = consumers(p);
  auto error = [&](std::string code, size_t tick, const std::string& what) {
    errors.push_back({std::move(code), "MMAP tick " + std::to_string(tick) + " (" + instruction_label(p, tick) + "): " + what, tick});
  };
  std::map<uint16_t, size_t> freed;
  for (size_t t = 0; t < n; ++t)
    for (const MemCommand& c : p.mmap[t]) {
      const std::string target = instruction_label(p, c.target);
      switch (c.action) {
        case MemAction::SaveResult:
          if (c.target != t) error("nac.mmap.save-target", t, "SAVE_RESULT targets " + target + ", not the current instruction");
          break;
        case MemAction::Forward: {
          const auto& mine = uses[t];
          if (c.target != t + 1 || mine.size() != 1 || mine[0] != c.target)
            error("nac.mmap.forward", t,
                  "FORWARD -> " + std::to_string(c.target) + ", but the result's consumers are " +
                      std::to_string(mine.size()) + " (" + (mine.empty() ? "none" : "first " + std::to_string(mine[0])) +
                      "); FORWARD goes only to the sole consumer, the next instruction");
          break;
        }
        case MemAction::Free: {
          if (c.target >= t) {
            error("nac.mmap.free-unexecuted", t, "FREE of " + target + ", which has not run yet");
            break;
          }
          if (!freed.emplace(c.target, t).second) error("nac.mmap.double-free", t, "FREE of " + target + " a second time");
          for (size_t u : uses[c.target])
            if (u >= t) {
              error("nac.mmap.use-after-free", t,
                    "FREE of " + target + ", which " + instruction_label(p, u) + " still reads");
              break;
            }
          break;
        }
        case MemAction::Preload:
          if (!is_param_load(p.ops[c.target]))
            error("nac.mmap.preload", t, "PRELOAD of " + target + ", which is not a parameter load (<INPUT B=1>)");
          else if (c.target <= t)
            error("nac.mmap.preload", t, "PRELOAD of " + target + ", which does not run after this tick");
          break;
      }
    }
  if (o.sram_bytes) {
    const std::vector<int64_t> use = occupancy(p, o, residency(p, p.mmap));
    for (size_t t = 0; t < n; ++t)
      if (use[t] > *o.sram_bytes) {
        error("nac.mmap.sram", t,
              std::to_string(use[t]) + " bytes are resident, more than the SRAM capacity of " +
                  std::to_string(*o.sram_bytes));
        break;
      }
  }
  return errors;
}

}  // namespace nnref::nac
