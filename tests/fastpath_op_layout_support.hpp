// Helpers shared by the parts of fastpath_op_layout_test: random float32 operands as the doubles
// check_fast_op takes, and every non-empty subset of a rank's axes.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "fastpath_op_test_support.hpp"

namespace nnref::test {

// A real tensor of this shape, values float32 numbers uniform in [−scale, scale).
inline Value<double> random_value(const Shape& s, uint64_t seed, double scale = 1.0) {
  std::mt19937_64 gen(seed);
  std::vector<double> v;
  for (float x : random_floats(gen, s.count(), scale)) v.push_back(x);
  return tensor(s, v);
}

inline Tensor<double> random_param(const Shape& s, uint64_t seed, double scale = 1.0) {
  return std::get<Tensor<double>>(random_value(s, seed, scale));
}

// Every non-empty set of axes of a rank, as ascending lists.
inline std::vector<std::vector<int64_t>> axis_subsets(size_t rank) {
  std::vector<std::vector<int64_t>> all;
  for (uint32_t mask = 1; mask < (1u << rank); ++mask) {
    std::vector<int64_t> axes;
    for (size_t i = 0; i < rank; ++i)
      if (mask & (1u << i)) axes.push_back(static_cast<int64_t>(i));
    all.push_back(axes);
  }
  return all;
}

}  // namespace nnref::test
