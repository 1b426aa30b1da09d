// The machine's float32 peak as the fast path can reach it, for the benchmarks' "% of peak"
// (bench/fastpath_bench, and `nnref bench`): lanes of the Highway target dispatch picks × fused
// multiply-adds of that width per cycle per core × 2 flops × the measured clock × threads.
// docs/fastpath.md ("Peak") gives the derivation and its sources.
#pragma once

#include <optional>
#include <string>

namespace nnref::fastpath {

// How many fused multiply-adds of `vector_bits` one core starts per cycle, and where that number
// comes from (a CPU identified by CPUID and its vendor's optimization guide, or an assumption).
struct FmaRate {
  int per_cycle = 0;
  std::string source;
};

struct Peak {
  std::string cpu;     // cpu_name()
  std::string target;  // fastpath::current_target()
  int lanes = 0;       // float32 lanes of one vector of that target
  FmaRate fma;
  double hz = 0;  // cycles per second of one core while `threads` cores run, measured
  int threads = 0;
  double flops() const { return 2.0 * lanes * fma.per_cycle * hz * threads; }
  // "495.5 GFLOP/s = 2 threads × 2 FMA/cycle (source) × 16 lanes (AVX3) × 2 × 3.871 GHz measured"
  std::string derivation() const;
};

// The processor's brand string (CPUID leaves 0x80000002-4, as /proc/cpuinfo's "model name"), or
// "unknown CPU".
std::string cpu_name();

// float32 lanes of one vector of the target dispatch picks now (16 at AVX3, 8 at AVX2, 4 at SSE4).
int float_lanes();

// FMAs of `vector_bits` per cycle per core on this CPU (CPUID's vendor, family and model); an
// unknown CPU is assumed to start 2, and says so in `source`.
FmaRate fma_rate(int vector_bits);

// The clock: each of `threads` threads, all at once, times a chain of dependent integer adds (an
// add's latency is one cycle on x86 cores, so adds per second = cycles per second), best of many
// short runs so that a run preempted by another process does not count; the slowest thread's rate.
double measure_clock_hz(int threads);

// All of the above; `fma_override` replaces fma_rate (the user knows the CPU better).
Peak measure_peak(int threads, std::optional<int> fma_override = std::nullopt);

// The FMA rate the user set in environment variable NNREF_FMA_PER_CYCLE: nullopt when unset,
// or throws std::invalid_argument unless it is a whole number in [1, 16].
std::optional<int> fma_override_from_env();

// A whole number in [1, 16] from text, or nullopt.
std::optional<int> parse_fma_per_cycle(const std::string& text);

}  // namespace nnref::fastpath
