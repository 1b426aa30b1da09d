// What a `nnref fuzz` campaign is made of: model k of a campaign with seed S is generated from the
// seed seed_of(S, k), so that any model of it can be regenerated alone, and shard i/n of it takes
// the models k ≡ i (mod n), so that n shards judge every model of the campaign exactly once.
#pragma once

#include <cstdint>
#include <string>

#include "spec/result.hpp"

namespace nnref {

// The generator's seed for model k of the campaign with seed `campaign` (SplitMix64 of both).
uint64_t seed_of(uint64_t campaign, int64_t k);

struct Shard {
  int64_t index = 0, count = 1;  // shard `index` of `count`
  bool takes(int64_t k) const { return k % count == index; }
  // The first model k ≥ from that the shard takes.
  int64_t first_from(int64_t from) const { return from + ((index - from % count) % count + count) % count; }
};

// "i/n" with 0 ≤ i < n (usage.shard otherwise).
Result<Shard> parse_shard(const std::string& text);

// A duration in seconds: "90", "90s", "10m", "2h", "1h30m" (usage.time otherwise; at least 1 s).
Result<double> parse_duration(const std::string& text);

}  // namespace nnref
