// Helpers shared by the fastpath_*_test.cpp kernel tests: run a check under every Highway target
// this machine supports, random float32 operands, the float32 worst-case factor γ(n), and the
// envelope's verdict on a kernel's answers.
#pragma once

#include <hwy/targets.h>

#include <cstdint>
#include <random>
#include <vector>

#include "spec/scalars.hpp"
#include "spec/tensor.hpp"

namespace nnref::test {

// check() once per target the machine runs and Highway compiled, each time with dispatch forced
// to that target; dispatch is free again afterwards.
template <class F>
void for_each_target(F&& check) {
  for (const uint32_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    check();
  }
  hwy::SetSupportedTargetsForTest(0);
}

// γ(n) = n·u/(1 − n·u) with u = 2⁻²⁴: a float32 sum of n terms (in any order, each term at most one
// rounding) errs by at most γ(n)·Σ|terms|.
inline double gamma_f32(int64_t n) {
  const double nu = static_cast<double>(n) * 0x1p-24;
  return nu / (1 - nu);
}

// count float32 values uniform in [−scale, scale).
inline std::vector<float> random_floats(std::mt19937_64& gen, int64_t count, double scale = 1.0) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<float> v(static_cast<size_t>(count));
  for (float& x : v) x = static_cast<float>(scale * unit(gen));
  return v;
}

// How many of a kernel's answers y the spec's float32 envelope of the same op rejects, by the rule
// nnref conform applies (Enclosure::rejects).
inline int64_t rejected(const Tensor<Envelope>& envelope, const std::vector<float>& y) {
  int64_t count = 0;
  for (size_t i = 0; i < y.size(); ++i) count += sc::enclosure(envelope[static_cast<int64_t>(i)]).rejects(y[i]) ? 1 : 0;
  return count;
}

}  // namespace nnref::test
