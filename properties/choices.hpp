// A stream of choices (Hypothesis's idea): every random decision of a generator reads the next
// number from it, and a model is a pure function of its choices. A fresh stream draws from a seeded
// generator and records what it drew; a replayed stream reads a recorded (perhaps shrunk) list, and
// past its end reads 0. Every reader maps 0 to its simplest option (fewest nodes, smallest extent,
// first op, simplest value), so deleting choices or lowering them shrinks the model.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace nnref::properties {

class Choices {
 public:
  static Choices fresh(uint64_t seed);                     // draws, and records them
  static Choices replay(std::vector<uint64_t> recorded);  // reads, then 0

  uint64_t below(uint64_t n);               // in [0, n)
  int64_t between(int64_t lo, int64_t hi);  // in [lo, hi], lo the simplest
  bool flip(uint64_t one_in);               // true with probability 1/one_in; false the simplest
  double unit();                            // in [0, 1), 0 the simplest

  const std::vector<uint64_t>& recorded() const { return recorded_; }

 private:
  bool fresh_ = false;
  std::mt19937_64 rng_;
  std::vector<uint64_t> recorded_;
  size_t position_ = 0;
};

// 0, 1, -1, 2, -2, ...: the k-th simplest whole number (from the k-th choice, so that 0 is the
// simplest).
inline double zigzag(uint64_t k) {
  const auto m = static_cast<double>((k + 1) / 2);
  return k % 2 == 1 ? m : -m;
}

}  // namespace nnref::properties
