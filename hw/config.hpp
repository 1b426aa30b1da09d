// The hardware model's parameters (docs/hw-model.md lists every key with its default): the MAC
// array, the vector unit, the special-function unit's latencies, the clock, the SRAM and the DRAM.
// `nnref hw run --config hw.json` overrides any of them.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "spec/result.hpp"

namespace nnref::hw {

struct Config {
  int64_t mac_rows = 16, mac_cols = 16;  // the MAC array: R×C outputs per tile
  int64_t vector_lanes = 16;             // elements the vector unit handles per step
  int64_t vector_cycles = 1;             // cycles per vector step
  // Cycles from issue to the first result of each special function; then one vector a cycle.
  std::map<std::string, int64_t> sfu_latency{
      {"exp", 20},  {"log", 24},  {"sqrt", 12},  {"rsqrt", 12}, {"reciprocal", 8}, {"pow", 40},
      {"tanh", 24}, {"sigmoid", 24}, {"softplus", 28}, {"sin", 24}, {"cos", 24}, {"tan", 32},
      {"sinh", 28}, {"cosh", 28}, {"asin", 32}, {"acos", 32}, {"atan", 32}, {"asinh", 32},
      {"acosh", 32}, {"atanh", 32}, {"erf", 28}};
  double clock_mhz = 1000;                 // for the trace's microseconds
  int64_t sram_bytes = int64_t{4} << 20;   // on-chip capacity
  int64_t dram_bytes_per_cycle = 32;       // DRAM bandwidth
  int64_t dram_latency = 200;              // cycles from a request to its first byte
  int64_t mmap_command_cycles = 1;         // the coprocessor's SAVE_RESULT, FORWARD and FREE
};

// The config file `path` over the defaults. Errors (exit code 2): hw.config.read, hw.config.json
// (not JSON, with its byte), hw.config.unknown-key, hw.config.type, hw.config.value (an integer
// outside [1, 2^40], a clock that is not positive);
// each names the file and the key.
Result<Config> read_config(const std::string& path);
Result<Config> parse_config(const std::string& text, const std::string& path);

// Cycles of one DRAM transfer of `bytes`: latency + ⌈bytes / bandwidth⌉.
int64_t dram_cycles(int64_t bytes, const Config& c);

}  // namespace nnref::hw
