// The float32 peak the benchmarks divide by (fastpath/peak.hpp): lanes per target, the FMA rate's
// override, the formula, and a clock measurement in the range of real x86 clocks.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>

#include "fastpath/gemm.hpp"
#include "fastpath/peak.hpp"
#include "fastpath_test_support.hpp"

namespace fp = nnref::fastpath;

TEST_CASE("float_lanes is the float32 width of each target dispatch picks", "[fastpath][peak]") {
  // Register widths from the instruction sets: AVX-512 512 bits, AVX2 256, SSE 128.
  const std::map<std::string, int> lanes = {{"AVX3_DL", 16}, {"AVX3", 16}, {"AVX2", 8}, {"SSE4", 4},
                                            {"SSSE3", 4},    {"EMU128", 4}, {"SCALAR", 1}};
  nnref::test::for_each_target([&] {
    const std::string target = fp::current_target();
    INFO(target);
    REQUIRE(lanes.count(target) == 1);
    CHECK(fp::float_lanes() == lanes.at(target));
  });
}

TEST_CASE("the peak is lanes x FMAs per cycle x 2 flops x clock x threads", "[fastpath][peak]") {
  fp::Peak p;
  p.lanes = 16;
  p.fma.per_cycle = 2;
  p.hz = 4e9;
  p.threads = 2;
  CHECK(p.flops() == 512e9);  // 16 · 2 · 2 · 4e9 · 2
  p.lanes = 8;
  p.fma.per_cycle = 1;
  p.threads = 1;
  CHECK(p.flops() == 64e9);
}

TEST_CASE("the FMA rate is known or assumed, and halves no more than the vector doubles", "[fastpath][peak]") {
  for (const int bits : {128, 256, 512}) {
    const auto rate = fp::fma_rate(bits);
    CHECK(rate.per_cycle >= 1);
    CHECK(rate.per_cycle <= 2);
    CHECK_FALSE(rate.source.empty());
  }
  CHECK(fp::fma_rate(512).per_cycle <= fp::fma_rate(256).per_cycle);
  CHECK(fp::fma_rate(256).per_cycle <= fp::fma_rate(128).per_cycle);
}

TEST_CASE("NNREF_FMA_PER_CYCLE overrides the FMA rate, a whole number from 1 to 16", "[fastpath][peak]") {
  CHECK(fp::parse_fma_per_cycle("1") == 1);
  CHECK(fp::parse_fma_per_cycle("16") == 16);
  for (const char* bad : {"", "0", "17", "2x", "-1", " 2", "1.5", "999"}) CHECK_FALSE(fp::parse_fma_per_cycle(bad));
  ::unsetenv("NNREF_FMA_PER_CYCLE");
  CHECK_FALSE(fp::fma_override_from_env());
  ::setenv("NNREF_FMA_PER_CYCLE", "3", 1);
  CHECK(fp::fma_override_from_env() == 3);
  CHECK(fp::measure_peak(1, fp::fma_override_from_env()).fma.per_cycle == 3);
  ::setenv("NNREF_FMA_PER_CYCLE", "0", 1);
  CHECK_THROWS_AS(fp::fma_override_from_env(), std::invalid_argument);
  ::unsetenv("NNREF_FMA_PER_CYCLE");
}

TEST_CASE("the measured clock is one of a real x86 core's, on one thread and on two", "[fastpath][peak]") {
  // x86 server and desktop cores run between about 1 and 6 GHz; a chain the compiler folded, or a
  // rate in the wrong unit, would land far outside [0.3, 8] GHz.
  for (const int threads : {1, 2}) {
    const double hz = fp::measure_clock_hz(threads);
    INFO(threads << " thread(s): " << hz << " Hz");
    CHECK(hz > 0.3e9);
    CHECK(hz < 8e9);
  }
}
