// The exact value's scalar at each precision, side by side in one run: Boost's fixed 61-bit MPFI
// type (mpfi_float_backend<18>, the Interval before its precision became a run-time property) and
// the run-time-precision Interval (mpfi_float_backend<0>) at 61, 128, 257 and 513 bits, on the two
// shapes of work a model gives them: a dot product of interval activations with point weights (a
// convolution's or a matrix product's inner loop, in Boost's operators, and in ScalarOps<Interval>::dot,
// ExactDot's path at 61 bits) and an elementwise chain (exp, a product, a sum). Prints nanoseconds
// per term (best of --repeat) and, for the variable type at 61 bits, its ratio to the fixed one.
//
//   build/bench/interval_bench [--terms N] [--repeat R]
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "spec/scalar_interval.hpp"

using namespace nnref;
using Fixed61 = boost::multiprecision::number<boost::multiprecision::mpfi_float_backend<18>,
                                              boost::multiprecision::et_off>;

namespace {

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

template <class F>
double best_ns_per(int repeat, int64_t n, F&& f) {
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < repeat; ++r) {
    const double t0 = cpu_seconds();
    f();
    best = std::min(best, cpu_seconds() - t0);
  }
  return best * 1e9 / static_cast<double>(n);
}

// Activations: intervals of width about 2^-40 around values in [-1, 1] (a deep layer's operands);
// weights: float32 points.
template <class T>
void operands(int64_t n, std::vector<T>& x, std::vector<T>& w) {
  std::mt19937_64 g(7);
  std::uniform_real_distribution<double> u(-1, 1);
  x.clear();
  w.clear();
  for (int64_t i = 0; i < n; ++i) {
    const double c = u(g);
    T a(c), b(c + std::ldexp(1.0, -40));
    T v;
    mpfi_interv_fr(v.backend().data(), &a.backend().data()->left, &b.backend().data()->right);
    x.push_back(v);
    w.push_back(T(static_cast<float>(u(g))));
  }
}

struct Row {
  double dot_ops, elementwise;
};

template <class T>
Row measure(int64_t n, int repeat) {
  std::vector<T> x, w;
  operands(n, x, w);
  volatile double sink = 0;
  Row row{};
  row.dot_ops = best_ns_per(repeat, n, [&] {
    T acc(0);
    for (int64_t i = 0; i < n; ++i) acc += x[static_cast<size_t>(i)] * w[static_cast<size_t>(i)];
    sink = sink + mpfr_get_d(&acc.backend().data()->left, MPFR_RNDD);
  });
  row.elementwise = best_ns_per(repeat, n, [&] {
    for (int64_t i = 0; i < n; ++i) {
      const T y = exp(x[static_cast<size_t>(i)]) * w[static_cast<size_t>(i)] + x[static_cast<size_t>(i)];
      sink = sink + mpfr_get_d(&y.backend().data()->right, MPFR_RNDU);
    }
  });
  return row;
}

double scalar_ops_dot(int64_t n, int repeat) {
  std::vector<Interval> x, w;
  operands(n, x, w);
  volatile double sink = 0;
  return best_ns_per(repeat, n, [&] {
    const Interval acc = ScalarOps<Interval>::dot(
        n, [&](int64_t i) -> const Interval& { return x[static_cast<size_t>(i)]; },
        [&](int64_t i) -> const Interval& { return w[static_cast<size_t>(i)]; }, Interval(0));
    sink = sink + mpfr_get_d(&acc.backend().data()->left, MPFR_RNDD);
  });
}

}  // namespace

int main(int argc, char** argv) {
  int64_t terms = 200000;
  int repeat = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--terms")) terms = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: interval_bench [--terms N] [--repeat R]\n");
      return 2;
    }
  }
  std::printf("ns per term, best of %d, %lld terms\n", repeat, static_cast<long long>(terms));
  std::printf("%-30s %12s %14s %18s\n", "scalar", "dot (ops)", "exp·w + x", "ScalarOps::dot");
  const Row fixed = measure<Fixed61>(terms, repeat);
  std::printf("%-30s %12.1f %14.1f %18s\n", "fixed mpfi<18>, 61 bits", fixed.dot_ops, fixed.elementwise, "");
  for (unsigned digits10 : {kIntervalDigits10, 38u, 77u, 154u}) {
    IntervalPrecision p(digits10);
    const Row v = measure<Interval>(terms, repeat);
    const double ops_dot = scalar_ops_dot(terms, repeat);
    const std::string name = "run-time mpfi<0>, " + std::to_string(interval_bits_of_digits10(digits10)) + " bits";
    std::printf("%-30s %12.1f %14.1f %18.1f", name.c_str(), v.dot_ops, v.elementwise, ops_dot);
    if (digits10 == kIntervalDigits10)
      std::printf("   (%.2fx, %.2fx the fixed type)", v.dot_ops / fixed.dot_ops, v.elementwise / fixed.elementwise);
    std::printf("\n");
  }
  return 0;
}
