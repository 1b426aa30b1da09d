// The float32 peak (fastpath/peak.hpp): the vector width per Highway target, the FMA rate per CPU,
// the clock measured.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fastpath/peak.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {

int FloatLanes() { return static_cast<int>(hwy::HWY_NAMESPACE::Lanes(hwy::HWY_NAMESPACE::ScalableTag<float>())); }

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>
#include <cstdio>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <latch>
#include <limits>
#include <stdexcept>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "fastpath/gemm.hpp"
#include "fastpath/peak.hpp"

namespace nnref::fastpath {

HWY_EXPORT(FloatLanes);

int float_lanes() { return HWY_DYNAMIC_DISPATCH(FloatLanes)(); }

namespace {

struct Cpu {
  std::string vendor;
  unsigned family = 0, model = 0;
};

Cpu identify_cpu() {
  Cpu cpu;
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return cpu;
  char vendor[13] = {};
  std::memcpy(vendor, &ebx, 4);
  std::memcpy(vendor + 4, &edx, 4);
  std::memcpy(vendor + 8, &ecx, 4);
  cpu.vendor = vendor;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return cpu;
  // CPUID leaf 1: the displayed family and model (Intel SDM vol. 2A, "CPUID"; AMD APM vol. 3).
  cpu.family = (eax >> 8) & 0xF;
  cpu.model = (eax >> 4) & 0xF;
  if (cpu.family == 0xF) cpu.family += (eax >> 20) & 0xFF;
  if (cpu.family == 0x6 || cpu.family >= 0xF) cpu.model |= ((eax >> 16) & 0xF) << 4;
#endif
  return cpu;
}

bool in(unsigned v, unsigned lo, unsigned hi) { return lo <= v && v <= hi; }

// An FMA pipe `datapath` bits wide takes vector_bits / datapath cycles per wider instruction.
FmaRate pipes(int count, int datapath, int vector_bits, std::string source) {
  const int per_cycle = vector_bits <= datapath ? count : std::max(1, count * datapath / vector_bits);
  return {per_cycle, std::move(source)};
}

std::string hex(unsigned v) {
  static const char* digits = "0123456789ABCDEF";
  std::string s;
  do s.insert(s.begin(), digits[v % 16]); while (v /= 16);
  return "0x" + s;
}

}  // namespace

std::string cpu_name() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned regs[12] = {};
  for (unsigned leaf = 0; leaf < 3; ++leaf)
    if (!__get_cpuid(0x80000002 + leaf, &regs[4 * leaf], &regs[4 * leaf + 1], &regs[4 * leaf + 2], &regs[4 * leaf + 3]))
      return "unknown CPU";
  char brand[49] = {};
  std::memcpy(brand, regs, 48);
  std::string s = brand;
  s.erase(0, s.find_first_not_of(' '));
  s.erase(s.find_last_not_of(' ') + 1);
  if (!s.empty()) return s;
#endif
  return "unknown CPU";
}

FmaRate fma_rate(int vector_bits) {
  const Cpu cpu = identify_cpu();
  const std::string id = cpu.vendor + " family " + hex(cpu.family) + " model " + hex(cpu.model);
  if (cpu.vendor == "AuthenticAMD") {
    // AMD's Software Optimization Guides, "Floating-Point Unit": FMAs issue to pipes FP0 and FP1.
    if (cpu.family == 0x1A) {
      // EPYC 9005 (models 0x00-0x1F) and Ryzen 9000 desktop (0x40-0x4F) have the full 512-bit
      // datapath; the mobile parts execute 512-bit instructions as two 256-bit halves.
      const bool full = in(cpu.model, 0x00, 0x1F) || in(cpu.model, 0x40, 0x4F);
      return pipes(2, full ? 512 : 256, vector_bits,
                   id + " (Zen 5): 2 FMA pipes, " + (full ? "512" : "256") +
                       " bits wide (AMD, Software Optimization Guide for the Zen 5 Microarchitecture, pub. 58455)");
    }
    if (cpu.family == 0x19) {
      const bool zen4 = in(cpu.model, 0x10, 0x1F) || in(cpu.model, 0x60, 0x7F) || in(cpu.model, 0xA0, 0xAF);
      return pipes(2, 256, vector_bits,
                   id + (zen4 ? " (Zen 4): 2 FMA pipes, 256 bits wide, a 512-bit FMA takes one for two cycles "
                                "(AMD, Software Optimization Guide for the Zen 4 Microarchitecture, pub. 57647)"
                              : " (Zen 3): 2 FMA pipes, 256 bits wide (AMD, Software Optimization Guide for "
                                "AMD Family 19h Processors, pub. 56665)"));
    }
    if (cpu.family == 0x17) {
      const bool zen2 = cpu.model >= 0x30;
      return pipes(2, zen2 ? 256 : 128, vector_bits,
                   id + (zen2 ? " (Zen 2): 2 FMA pipes, 256 bits wide (AMD, Software Optimization Guide for AMD "
                                "Family 17h Models 30h and Greater, pub. 56305)"
                              : " (Zen, Zen+): 2 FMA pipes, 128 bits wide (AMD, Software Optimization Guide for "
                                "AMD Family 17h Processors, pub. 55723)"));
    }
  }
  return {2, id + ": not in the table, assumed 2 FMAs per cycle as on most x86 cores since Haswell and Zen 2 "
                  "(some Xeons start 1 at 512 bits); set NNREF_FMA_PER_CYCLE if it differs"};
}

namespace {

// Dependent integer adds per second on this thread: the best of many short chains.
double add_chain_rate() {
  constexpr int kAddsPerLoop = 64;
  constexpr int64_t kLoops = 1 << 14;  // about a quarter of a millisecond per run at 4 GHz
  constexpr int kRuns = 200;
  double best = 0;
  uint64_t x = 0, y = 1;
  asm volatile("" : "+r"(y));  // y is not a constant: the chain is add reg, reg
  for (int run = 0; run < kRuns; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < kLoops; ++i) {
#pragma GCC unroll 64
      for (int j = 0; j < kAddsPerLoop; ++j) {
        x += y;
        asm volatile("" : "+r"(x));  // each add waits for the one before and is not folded
      }
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::max(best, double(kLoops) * kAddsPerLoop / s);
  }
  asm volatile("" : : "r"(x));
  return best;
}

}  // namespace

double measure_clock_hz(int threads) {
  threads = std::max(threads, 1);
  std::vector<double> rate(static_cast<size_t>(threads));
  std::latch ready(threads);
  auto measure = [&](int t) {
    ready.arrive_and_wait();  // every thread runs its chains at the same time, as the kernels do
    rate[static_cast<size_t>(t)] = add_chain_rate();
  };
  std::vector<std::thread> others;
  for (int t = 1; t < threads; ++t) others.emplace_back(measure, t);
  measure(0);
  for (auto& t : others) t.join();
  return *std::min_element(rate.begin(), rate.end());
}

std::optional<int> parse_fma_per_cycle(const std::string& text) {
  if (text.empty() || text.size() > 2 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  const int v = std::stoi(text);
  if (v < 1 || v > 16) return std::nullopt;
  return v;
}

std::optional<int> fma_override_from_env() {
  const char* text = std::getenv("NNREF_FMA_PER_CYCLE");
  if (!text) return std::nullopt;
  auto v = parse_fma_per_cycle(text);
  if (!v) throw std::invalid_argument(std::string("NNREF_FMA_PER_CYCLE='") + text + "': expected a whole number from 1 to 16");
  return v;
}

std::string Peak::derivation() const {
  char text[256];
  std::snprintf(text, sizeof text, "%.1f GFLOP/s = %d thread(s) x %d FMA/cycle x %d lanes (%s) x 2 flops x %.3f GHz (measured)",
                flops() / 1e9, threads, fma.per_cycle, lanes, target.c_str(), hz / 1e9);
  return std::string(text) + "; FMA rate: " + fma.source;
}

Peak measure_peak(int threads, std::optional<int> fma_override) {
  Peak p;
  p.cpu = cpu_name();
  p.target = current_target();
  p.lanes = float_lanes();
  p.fma = fma_override ? FmaRate{*fma_override, "set by the user"} : fma_rate(32 * p.lanes);
  p.threads = std::max(threads, 1);
  p.hz = measure_clock_hz(p.threads);
  return p;
}

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
