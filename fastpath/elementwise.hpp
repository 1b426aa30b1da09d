// The fast path's elementwise kernels over one run of a BroadcastRuns walk (fastpath/
// broadcast_runs.hpp): vector loops, compiled once per Highway target and chosen at run time.
// Each computes the spec's formula (spec/ops/*.hpp) step by step in float32, so that each step
// stays inside the float32 envelope of docs/conformance.md; the transcendentals are Highway's
// (hwy/contrib/math) with their ends handled (docs/fastpath.md lists the measured ulps).
#pragma once

#include <cstddef>
#include <cstdint>

#include "spec/ops/binary.hpp"
#include "spec/ops/unary.hpp"

namespace nnref::fastpath {

// One operand of a run: n elements from p (varies) or p[0] for all of them (a broadcast value).
struct RunIn {
  const float* p = nullptr;
  bool varies = true;
};

// Neg, Abs, Sqr, Sqrt, Rcp, Rsqr, Rsqrt, Exp, Log, Log2, Tanh, Sigmoid, Softplus, Relu, LeakyRelu,
// Elu, Sign, Floor, Ceil, Round (the others: fastpath/ops/unary.cpp).
void unary_run(UnaryOp op, float alpha, const float* x, int64_t n, float* y);
// Every BinaryOp but Pow.
void binary_run(BinaryOp op, RunIn x, RunIn y, int64_t n, float* z);
// max(min(x, hi), lo), NaN from any operand.
void clamp_run(RunIn x, RunIn lo, RunIn hi, int64_t n, float* y);
// x < 0 ? alpha·x : x.
void prelu_run(RunIn x, RunIn alpha, int64_t n, float* y);
// condition[i] != 0 ? t : f, the condition varying (a fixed one is a copy of t or f).
void select_run(const uint8_t* condition, RunIn t, RunIn f, int64_t n, float* y);
// y[i] = (…(x₀ + x₁) + …) + x_{k−1} at elements [start, start + n), input j at base + offsets[j].
void add_run(const std::byte* base, const int64_t* offsets, int64_t k, int64_t start, int64_t n, float* y);

}  // namespace nnref::fastpath
