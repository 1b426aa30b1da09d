#include "hw/report.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

namespace nnref::hw {

std::vector<OpRow> op_table(const std::vector<TickWork>& work, const Timeline& t) {
  std::map<std::string, OpRow> rows;
  for (size_t i = 0; i < work.size(); ++i) {
    OpRow& r = rows[work[i].op];
    r.op = work[i].op;
    r.count += 1;
    r.cycles += t.core[i].stall + t.core[i].cycles;
  }
  std::vector<OpRow> out;
  for (auto& [name, row] : rows) out.push_back(row);
  std::stable_sort(out.begin(), out.end(), [](const OpRow& a, const OpRow& b) { return a.cycles > b.cycles; });
  return out;
}

double mac_utilisation(const std::vector<TickWork>& work, const Timeline& t, const Config& c) {
  int64_t macs = 0;
  for (const TickWork& w : work) macs += w.cost.macs;
  return t.cycles == 0 ? 0.0 : static_cast<double>(macs) / (static_cast<double>(c.mac_rows * c.mac_cols) * static_cast<double>(t.cycles));
}

void print_stats(std::ostream& out, const std::vector<TickWork>& work, const Timeline& t, const Config& c) {
  char line[160];
  int64_t macs = 0, stalls = 0;
  for (const TickWork& w : work) macs += w.cost.macs;
  for (const auto& [cause, cycles] : t.stall_cycles) stalls += cycles;
  std::snprintf(line, sizeof line, "cycles: %lld (%.3f us at %g MHz), %zu ticks\n", static_cast<long long>(t.cycles),
                static_cast<double>(t.cycles) / c.clock_mhz, c.clock_mhz, work.size());
  out << line;
  out << "stalls: " << stalls << " cycles";
  for (const char* cause : {kStallPreloadLate, kStallOnDemand}) {
    auto cycles = t.stall_cycles.find(cause);
    auto count = t.stall_count.find(cause);
    out << ", " << cause << " " << (cycles == t.stall_cycles.end() ? 0 : cycles->second) << " ("
        << (count == t.stall_count.end() ? 0 : count->second) << ")";
  }
  out << "\n";
  std::snprintf(line, sizeof line, "MAC utilisation: %.2f%% (%lld MACs on %lldx%lld)\n", 100 * mac_utilisation(work, t, c),
                static_cast<long long>(macs), static_cast<long long>(c.mac_rows), static_cast<long long>(c.mac_cols));
  out << line;
  out << "peak SRAM: " << t.peak_sram << " bytes of " << c.sram_bytes << "\n";
  out << "DRAM: " << t.dram_bytes << " bytes\n";
  std::snprintf(line, sizeof line, "%-22s %6s %12s %7s\n", "op", "count", "cycles", "share");
  out << line;
  for (const OpRow& r : op_table(work, t)) {
    std::snprintf(line, sizeof line, "%-22s %6lld %12lld %6.1f%%\n", r.op.c_str(), static_cast<long long>(r.count),
                  static_cast<long long>(r.cycles), t.cycles == 0 ? 0.0 : 100.0 * static_cast<double>(r.cycles) / static_cast<double>(t.cycles));
    out << line;
  }
}

std::string trace_json(const nac::Program& p, const std::vector<TickWork>& work, const Timeline& t, const Config& c) {
  using Json = nlohmann::json;
  constexpr int kCore = 1, kCoprocessor = 2;
  const double us = 1.0 / c.clock_mhz;
  Json events = Json::array();
  events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", 1}, {"args", {{"name", "nnref hw"}}}});
  events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", 1}, {"tid", kCore}, {"args", {{"name", "core"}}}});
  events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", 1}, {"tid", kCoprocessor}, {"args", {{"name", "coprocessor"}}}});
  auto event = [&](int tid, const std::string& name, int64_t start, int64_t cycles, Json args) {
    args["cycles"] = cycles;
    events.push_back({{"ph", "X"}, {"pid", 1}, {"tid", tid}, {"name", name}, {"ts", static_cast<double>(start) * us},
                      {"dur", static_cast<double>(cycles) * us}, {"args", std::move(args)}});
  };
  for (size_t i = 0; i < t.core.size(); ++i) {
    const CoreSpan& s = t.core[i];
    if (s.stall > 0) event(kCore, std::string("stall: ") + s.stall_cause, s.start, s.stall, {{"tick", i}});
    event(kCore, work[i].op, s.start + s.stall, s.cycles,
          {{"tick", i}, {"instruction", p.ops[i].name}, {"unit", unit_name(work[i].cost.unit)}});
  }
  for (const CoprocessorEvent& e : t.coprocessor)
    event(kCoprocessor, e.what + " -> " + std::to_string(e.target), e.start, e.cycles, {{"tick", e.tick}, {"target", e.target}});
  return Json{{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}}.dump(1) + "\n";
}

}  // namespace nnref::hw
