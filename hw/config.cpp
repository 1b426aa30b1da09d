#include "hw/config.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace nnref::hw {

namespace {

using Json = nlohmann::json;

Diagnostic config_error(const std::string& code, const std::string& path, const std::string& message) {
  return make_error(code, "hw config '" + path + "': " + message, SourceLoc{path, 0, 0});
}

// Above it, sums of cycles over a program could overflow 64 bits.
constexpr int64_t kLargest = int64_t{1} << 40;

// An integer in [1, 2^40] at `key` (a JSON integer, not 2.0).
Status read_positive(const Json& j, const std::string& key, const std::string& path, int64_t& out) {
  if (!j.is_number_integer())
    return config_error("hw.config.type", path, "'" + key + "' is " + j.type_name() + "; it must be a positive integer");
  const bool huge = j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(kLargest);
  const int64_t v = huge ? kLargest + 1 : j.get<int64_t>();
  if (v <= 0 || v > kLargest)
    return config_error("hw.config.value", path, "'" + key + "' is " + j.dump() + "; it must be from 1 to 2^40");
  out = v;
  return {};
}

}  // namespace

Result<Config> parse_config(const std::string& text, const std::string& path) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error& e) {
    return config_error("hw.config.json", path, "not JSON at byte " + std::to_string(e.byte) + ": " + e.what());
  }
  if (!j.is_object()) return config_error("hw.config.type", path, "the config is " + std::string(j.type_name()) + "; it must be an object");
  Config c;
  const std::map<std::string, int64_t*> integers{
      {"mac_rows", &c.mac_rows},       {"mac_cols", &c.mac_cols},
      {"vector_lanes", &c.vector_lanes}, {"vector_cycles", &c.vector_cycles},
      {"sram_bytes", &c.sram_bytes},   {"dram_bytes_per_cycle", &c.dram_bytes_per_cycle},
      {"dram_latency", &c.dram_latency}, {"mmap_command_cycles", &c.mmap_command_cycles}};
  for (const auto& [key, value] : j.items()) {
    if (auto it = integers.find(key); it != integers.end()) {
      if (auto s = read_positive(value, key, path, *it->second); !s) return std::move(s).error();
    } else if (key == "clock_mhz") {
      if (!value.is_number())
        return config_error("hw.config.type", path, "'clock_mhz' is " + std::string(value.type_name()) + "; it must be a positive number");
      if (!(value.get<double>() > 0))
        return config_error("hw.config.value", path, "'clock_mhz' is " + value.dump() + "; it must be positive");
      c.clock_mhz = value.get<double>();
    } else if (key == "sfu_latency") {
      if (!value.is_object())
        return config_error("hw.config.type", path, "'sfu_latency' is " + std::string(value.type_name()) + "; it must be an object");
      for (const auto& [fn, latency] : value.items()) {
        auto it = c.sfu_latency.find(fn);
        if (it == c.sfu_latency.end())
          return config_error("hw.config.unknown-key", path, "'sfu_latency." + fn + "' is not a special function of the model");
        if (auto s = read_positive(latency, "sfu_latency." + fn, path, it->second); !s) return std::move(s).error();
      }
    } else {
      return config_error("hw.config.unknown-key", path, "'" + key + "' is not a key of the hardware config");
    }
  }
  return c;
}

Result<Config> read_config(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in && !in.eof()) return config_error("hw.config.read", path, "cannot be read");
  return parse_config(text.str(), path);
}

int64_t dram_cycles(int64_t bytes, const Config& c) {
  return c.dram_latency + bytes / c.dram_bytes_per_cycle + (bytes % c.dram_bytes_per_cycle != 0);
}

}  // namespace nnref::hw
