// fastpath_op_layout_test, matmul: every transpose combination, batch axes of rank 0 to 2, sizes
// around the vector widths and the product's blocks (6 rows, panels of 8 to 32 columns, 256 rows of
// K), judged by the spec's matmul over the Envelope scalar on every target with 1 and 2 threads.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <tuple>

#include "fastpath_op_layout_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

// A [batch..., m, k] and B [batch..., k, n], each laid out transposed on its last two axes if asked.
void check_matmul(const std::vector<int64_t>& batch, int64_t m, int64_t k, int64_t n, bool ta, bool tb, uint64_t seed) {
  std::vector<int64_t> a = batch, b = batch;
  a.push_back(ta ? k : m);
  a.push_back(ta ? m : k);
  b.push_back(tb ? n : k);
  b.push_back(tb ? k : n);
  INFO("m " << m << ", k " << k << ", n " << n << ", batch axes " << batch.size() << ", transpose_a " << ta
            << ", transpose_b " << tb);
  check_fast_op(MatMulAttrs{ta, tb},
                {random_value(std::move(Shape::make(a)).value(), seed, 2.0),
                 random_value(std::move(Shape::make(b)).value(), seed + 1, 2.0)});
}

}  // namespace

TEST_CASE("fastpath matmul: every transpose, sizes around the vector widths, inside the envelope") {
  uint64_t seed = 1000;
  for (bool ta : {false, true})
    for (bool tb : {false, true})
      for (const auto& [m, k, n] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{
               {1, 1, 1}, {4, 8, 16}, {7, 5, 9}, {13, 17, 33}, {6, 3, 32}, {2, 300, 5}, {1, 64, 1}})
        check_matmul({}, m, k, n, ta, tb, seed += 2);
}

TEST_CASE("fastpath matmul: batch axes, one and two of them, each batch its own product") {
  uint64_t seed = 2000;
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      check_matmul({3}, 5, 7, 9, ta, tb, seed += 2);
      check_matmul({2, 3}, 8, 4, 17, ta, tb, seed += 2);
      check_matmul({4, 1}, 1, 19, 3, ta, tb, seed += 2);
    }
}

TEST_CASE("fastpath matmul: an empty inner axis gives zeros") {
  check_fast_op(MatMulAttrs{}, {tensor(Shape::of({3, 0}), {}), tensor(Shape::of({0, 4}), {})});
  check_fast_op(MatMulAttrs{true, true}, {tensor(Shape::of({2, 0, 3}), {}), tensor(Shape::of({2, 4, 0}), {})});
  for_each_target([] {
    const auto y = run_fast(MatMulAttrs{}, {tensor(Shape::of({3, 0}), {}), tensor(Shape::of({0, 4}), {})}, {});
    CHECK(std::get<Tensor<float>>(y[0]).values() == std::vector<float>(12, 0.0f));
  });
}

TEST_CASE("fastpath matmul: NaN and infinities reach the products that read them, the same bits for any threads") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  std::vector<double> a(5 * 6, 0.5), b(6 * 7, 0.25);
  a[2 * 6 + 3] = nan;  // row 2 of C is NaN
  b[1 * 7 + 4] = inf;  // column 4 of C is +inf (or NaN in row 2)
  const Value<double> A = tensor(Shape::of({5, 6}), a), B = tensor(Shape::of({6, 7}), b);
  for_each_target([&] {
    const auto c = std::get<Tensor<float>>(run_fast(MatMulAttrs{}, {A, B}, {})[0]).values();
    for (int64_t i = 0; i < 5; ++i)
      for (int64_t j = 0; j < 7; ++j) {
        const float v = c[static_cast<size_t>(i * 7 + j)];
        INFO("C[" << i << ", " << j << "] = " << v << " on " << fastpath::current_target());
        if (i == 2) CHECK(std::isnan(v));
        else if (j == 4) CHECK(v == std::numeric_limits<float>::infinity());
        else CHECK(v == 0.75f);  // six products 0.125, exact
      }
  });
  const Value<double> big_a = random_value(Shape::of({2, 37, 300}), 9), big_b = random_value(Shape::of({2, 300, 41}), 10);
  const auto one = run_fast(MatMulAttrs{}, {big_a, big_b}, {}, 1), two = run_fast(MatMulAttrs{}, {big_a, big_b}, {}, 2);
  CHECK(std::get<Tensor<float>>(one[0]).values() == std::get<Tensor<float>>(two[0]).values());
}

TEST_CASE("fastpath matmul: the judge rejects a wrong product") {
  const Value<double> A = random_value(Shape::of({9, 20}), 31), B = random_value(Shape::of({20, 11}), 32);
  const auto env = run_values<Envelope>(MatMulAttrs{}, {value_as<Envelope>(A), value_as<Envelope>(B)});
  auto c = std::get<Tensor<float>>(run_fast(MatMulAttrs{}, {A, B}, {})[0]).values();
  CHECK(rejected(std::get<Tensor<Envelope>>(env[0]), c) == 0);
  c[50] += 0.01f;  // radius about γ(21)·Σ|a||b| ≤ 1.3e-6 · 20
  CHECK(rejected(std::get<Tensor<Envelope>>(env[0]), c) == 1);
}
