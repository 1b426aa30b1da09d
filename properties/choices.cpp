#include "properties/choices.hpp"

#include <utility>

namespace nnref::properties {

Choices Choices::fresh(uint64_t seed) {
  Choices c;
  c.fresh_ = true;
  c.rng_.seed(seed);
  return c;
}

Choices Choices::replay(std::vector<uint64_t> recorded) {
  Choices c;
  c.recorded_ = std::move(recorded);
  return c;
}

// The recorded value is the option taken (not the raw draw), so that lowering a recorded value
// picks a simpler option. A replayed value out of range wraps.
uint64_t Choices::below(uint64_t n) {
  if (n == 0) n = 1;
  uint64_t v = 0;
  if (fresh_) {
    v = rng_() % n;  // the modulo's bias is irrelevant for the small n a generator asks for
    recorded_.push_back(v);
  } else if (position_ < recorded_.size()) {
    v = recorded_[position_++] % n;
  }
  return v;
}

int64_t Choices::between(int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo) + 1));
}

bool Choices::flip(uint64_t one_in) { return below(one_in) == one_in - 1; }

double Choices::unit() { return static_cast<double>(below(uint64_t{1} << 53)) * 0x1.0p-53; }

}  // namespace nnref::properties
