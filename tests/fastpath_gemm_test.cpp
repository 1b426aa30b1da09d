// The fast path's matrix product on every Highway target this machine runs, against the exact
// product (double, whose own error is far below float32's) within the float32 envelope of a dot
// product: |c − exact| ≤ γ(k + 1)·(|bias| + Σ|a||b|), γ(n) = n·u/(1 − n·u), u = 2⁻²⁴.
#include <catch2/catch.hpp>
#include <hwy/targets.h>

#include <cmath>
#include <random>
#include <tuple>
#include <vector>

#include "fastpath/gemm.hpp"
#include "fastpath_test_support.hpp"

using namespace nnref;

namespace {

// The product of one shape under the target dispatch picks now, checked element by element.
void check_product(int64_t m, int64_t k, int64_t n, bool with_bias) {
  INFO("target " << fastpath::current_target() << ", m " << m << ", k " << k << ", n " << n);
  std::mt19937_64 gen(static_cast<uint64_t>(m * 1000003 + k * 1009 + n));
  const auto a = test::random_floats(gen, m * k), b = test::random_floats(gen, k * n, 3.0), bias = test::random_floats(gen, n, 2.0);
  const fastpath::PackedMatrix packed = fastpath::pack_b(b.data(), with_bias ? bias.data() : nullptr, k, n);
  std::vector<float> c(static_cast<size_t>(m * n), std::nanf(""));
  fastpath::gemm(a.data(), m, packed, c.data());
  int64_t outside = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double exact = with_bias ? bias[j] : 0.0, magnitude = std::abs(exact);
      for (int64_t t = 0; t < k; ++t) {
        exact += double(a[i * k + t]) * double(b[t * n + j]);
        magnitude += std::abs(double(a[i * k + t]) * double(b[t * n + j]));
      }
      // the double sum's own error, k·2⁻⁵³·magnitude, is added to the bound
      const double bound = (test::gamma_f32(k + 1) + static_cast<double>(k + 1) * 0x1p-53) * magnitude;
      if (!(std::abs(double(c[i * n + j]) - exact) <= bound)) ++outside;
    }
  CHECK(outside == 0);
}

}  // namespace

TEST_CASE("fastpath gemm: every target, shapes at and around the blocks' edges, within the float32 envelope") {
  REQUIRE(hwy::SupportedAndGeneratedTargets().size() >= 2);  // targets to compare
  test::for_each_target([] {
    for (const auto& [m, k, n] : {std::tuple{1, 1, 1}, {6, 8, 16}, {7, 3, 33}, {13, 257, 31}, {64, 600, 64},
                                 {5, 0, 9}, {100, 129, 70}})
      for (bool with_bias : {true, false}) check_product(m, k, n, with_bias);
  });
}
