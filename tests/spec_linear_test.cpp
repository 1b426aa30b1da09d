// Affine ops (spec/ops/linear.hpp, spec/ops/matmul.hpp): linear in both weight layouts, matmul
// with transposes and batch axes. Expected values are worked out by hand in the comments.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "spec/ops/linear.hpp"
#include "spec/ops/matmul.hpp"

#include "op_test_support.hpp"

using nnref::mp50;

namespace {

using namespace nnref;
using namespace nnref::test;

}  // namespace

// x = [[1, 2, 3], [4, 5, 6]] and W (InOut, [in 3, units 2]) = [[1, 0], [0, 1], [1, 1]]:
// x·W = [[1 + 3, 2 + 3], [4 + 6, 5 + 6]] = [[4, 5], [10, 11]]; + b [0.5, −1] = [[4.5, 4], [10.5, 10]].
TEMPLATE_TEST_CASE("linear, both weight layouts, with and without bias", "[linear]", float, double, mp50) {
  using T = TestType;
  auto x = tensor<T>(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6});
  auto b = tensor<T>(Shape::of({2}), {0.5, -1});
  auto w_in_out = tensor<T>(Shape::of({3, 2}), {1, 0, 0, 1, 1, 1});
  auto w_out_in = tensor<T>(Shape::of({2, 3}), {1, 0, 1, 0, 1, 1});  // the transpose of w_in_out

  auto y = run<T>(LinearAttrs{2, WeightLayout::InOut, true}, {x}, {w_in_out, b})[0];
  CHECK(y.shape() == Shape::of({2, 2}));
  check_values(y, {4.5, 4, 10.5, 10});
  y = run<T>(LinearAttrs{2, WeightLayout::OutIn, true}, {x}, {w_out_in, b})[0];
  check_values(y, {4.5, 4, 10.5, 10});
  y = run<T>(LinearAttrs{2, WeightLayout::InOut, false}, {x}, {w_in_out})[0];
  check_values(y, {4, 5, 10, 11});
}

TEST_CASE("linear's sum starts from the bias", "[linear]") {
  // With b = 1 and terms 2^53·1, 2^53·(−1): (1 + 2^53) rounds to 2^53 (ties to even), so the result
  // is 0, where the sum first and the bias after would give 1.
  const double big = 9007199254740992.0;  // 2^53
  auto y = run(LinearAttrs{1, WeightLayout::InOut, true}, {tensor(Shape::of({1, 2}), {big, big})},
               {tensor(Shape::of({2, 1}), {1, -1}), tensor(Shape::of({1}), {1})})[0];
  CHECK(doubles(y) == std::vector<double>{0});
}

TEST_CASE("linear parameter shapes follow the layout and the input", "[linear]") {
  auto c = Checked<LinearAttrs>::check(LinearAttrs{5, WeightLayout::InOut, true}, {Shape::of({8, 3})});
  REQUIRE(c.ok());
  REQUIRE(c->params().size() == 2);
  CHECK(c->params()[0].role == "weight");
  CHECK(c->params()[0].shape == Shape::of({3, 5}));
  CHECK(c->params()[1].role == "bias");
  CHECK(c->params()[1].shape == Shape::of({5}));
  CHECK(c->params()[1].required);
  CHECK(c->outputs()[0] == Shape::of({8, 5}));
  c = Checked<LinearAttrs>::check(LinearAttrs{5, WeightLayout::OutIn, false}, {Shape::of({8, 3})});
  REQUIRE(c.ok());
  REQUIRE(c->params().size() == 1);
  CHECK(c->params()[0].shape == Shape::of({5, 3}));
}

TEST_CASE("linear obligations", "[linear]") {
  Diagnostic d = failure(LinearAttrs{4}, {Shape::of({2, 3, 5})});
  CHECK(d.code == "shape.linear.input-rank");
  CHECK(d.message.find("[2, 3, 5]") != std::string::npos);
  CHECK(d.message.find("Flatten") != std::string::npos);
  CHECK(failure(LinearAttrs{4}, {Shape::of({3})}).code == "shape.linear.input-rank");
  CHECK(failure(LinearAttrs{0}, {Shape::of({2, 3})}).code == "attr.linear.units");
  CHECK(failure(LinearAttrs{-3}, {Shape::of({2, 3})}).code == "attr.linear.units");
  CHECK(failure(LinearAttrs{4}, {Shape::of({2, 3}), Shape::of({2, 3})}).code == "graph.arity");
  // 2^62 units: the output [4, 2^62] and the weight [8, 2^62] do not fit a 64-bit count.
  CHECK(failure(LinearAttrs{int64_t{1} << 62}, {Shape::of({4, 8})}).code == "size.overflow");
}

// A = [[1, 2, 3], [4, 5, 6]], B = [[7, 8], [9, 10], [11, 12]]:
// C = [[7 + 18 + 33, 8 + 20 + 36], [28 + 45 + 66, 32 + 50 + 72]] = [[58, 64], [139, 154]].
TEMPLATE_TEST_CASE("matmul with and without transposes", "[linear]", float, double, mp50) {
  using T = TestType;
  auto A = tensor<T>(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6});
  auto At = tensor<T>(Shape::of({3, 2}), {1, 4, 2, 5, 3, 6});
  auto B = tensor<T>(Shape::of({3, 2}), {7, 8, 9, 10, 11, 12});
  auto Bt = tensor<T>(Shape::of({2, 3}), {7, 9, 11, 8, 10, 12});
  const std::vector<double> C = {58, 64, 139, 154};
  auto c = run<T>(MatMulAttrs{false, false}, {A, B})[0];
  CHECK(c.shape() == Shape::of({2, 2}));
  check_values(c, C);
  check_values(run<T>(MatMulAttrs{true, false}, {At, B})[0], C);
  check_values(run<T>(MatMulAttrs{false, true}, {A, Bt})[0], C);
  check_values(run<T>(MatMulAttrs{true, true}, {At, Bt})[0], C);
}

TEMPLATE_TEST_CASE("matmul over a batch axis", "[linear]", float, double, mp50) {
  using T = TestType;
  // Batch 0: [1, 2]·[3, 4]ᵀ = 3 + 8 = 11; batch 1: [5, 6]·[7, 8]ᵀ = 35 + 48 = 83.
  auto c = run<T>(MatMulAttrs{},
                  {tensor<T>(Shape::of({2, 1, 2}), {1, 2, 5, 6}), tensor<T>(Shape::of({2, 2, 1}), {3, 4, 7, 8})})[0];
  CHECK(c.shape() == Shape::of({2, 1, 1}));
  check_values(c, {11, 83});
  // Batch 0 of A = [[1, 0], [0, 2]] (given transposed: the same, it is symmetric), batch 1 = I;
  // B is given transposed, so B'0 = [[1, 3], [2, 4]] and B'1 = [[5, 7], [6, 8]].
  // C0 = [[1, 3], [4, 8]], C1 = B1 = [[5, 7], [6, 8]].
  auto d = run<T>(MatMulAttrs{true, true},
                  {tensor<T>(Shape::of({2, 2, 2}), {1, 0, 0, 2, 1, 0, 0, 1}),
                   tensor<T>(Shape::of({2, 2, 2}), {1, 2, 3, 4, 5, 6, 7, 8})})[0];
  CHECK(d.shape() == Shape::of({2, 2, 2}));
  check_values(d, {1, 3, 4, 8, 5, 7, 6, 8});
}

TEMPLATE_TEST_CASE("matmul batch axes broadcast as in binary operations (NNEF 1.0 §4.5.1)", "[linear]", float, double,
                   mp50) {
  using T = TestType;
  // A [2, 1, 1, 2]: A0 = [1, 2], A1 = [3, 4] along axis 0. B [1, 3, 2, 1]: B0 = [5, 6]ᵀ, B1 = [7, 8]ᵀ,
  // B2 = [1, 0]ᵀ along axis 1. C[i, j] = Ai·Bj: [17, 23, 1] and [39, 53, 3].
  auto c = run<T>(MatMulAttrs{}, {tensor<T>(Shape::of({2, 1, 1, 2}), {1, 2, 3, 4}),
                                  tensor<T>(Shape::of({1, 3, 2, 1}), {5, 6, 7, 8, 1, 0})})[0];
  CHECK(c.shape() == Shape::of({2, 3, 1, 1}));
  check_values(c, {17, 23, 1, 39, 53, 3});
  // The shapes of the NNEF conformance report: [2, 1, 3, 4] times [1, 3, 2, 4] with transpose_b.
  CHECK(out_shape(MatMulAttrs{false, true}, {Shape::of({2, 1, 3, 4}), Shape::of({1, 3, 2, 4})}) ==
        Shape::of({2, 3, 3, 2}));
}

TEST_CASE("matmul obligations", "[linear]") {
  CHECK(failure(MatMulAttrs{}, {Shape::of({3}), Shape::of({3, 2})}).code == "shape.matmul.rank");
  CHECK(failure(MatMulAttrs{}, {Shape::of({2, 3}), Shape::of({1, 3, 2})}).code == "shape.matmul.rank-mismatch");
  Diagnostic d = failure(MatMulAttrs{}, {Shape::of({2, 2, 3}), Shape::of({3, 3, 2})});
  CHECK(d.code == "shape.matmul.batch-mismatch");
  CHECK(d.message == "matmul of shapes [2, 2, 3] and [3, 3, 2]: batch axis 0 has extents 2 and 3");
  d = failure(MatMulAttrs{}, {Shape::of({2, 3}), Shape::of({4, 2})});
  CHECK(d.code == "shape.matmul.inner-mismatch");
  CHECK(d.message ==
        "matmul of shapes [2, 3] and [4, 2] (transpose_a false, transpose_b false): inner extents 3 and "
        "4 differ");
  // transpose_b makes [4, 2] read as [2, 4]: inner 3 against 2.
  CHECK(failure(MatMulAttrs{false, true}, {Shape::of({2, 3}), Shape::of({4, 2})}).code ==
        "shape.matmul.inner-mismatch");
  CHECK(failure(MatMulAttrs{}, {Shape::of({2, 3})}).code == "graph.arity");
  // [2^32, 1]·[1, 2^32] has 2^64 elements.
  const int64_t big = int64_t{1} << 32;
  CHECK(failure(MatMulAttrs{}, {Shape::of({big, 1}), Shape::of({1, big})}).code == "size.overflow");
}

TEST_CASE("float, double and mp50 agree on linear and matmul within their precision", "[linear]") {
  // Entries of the form k/7 are inexact in every binary format, so the three readings differ
  // in rounding only: by ≲ 3 units of float (2^-24 ≈ 6e-8) resp. double rounding per term.
  std::vector<double> xv, wv;
  for (int i = 0; i < 12; ++i) xv.push_back((i - 5) / 7.0), wv.push_back((3 - i) / 7.0);
  auto yf = run<float>(MatMulAttrs{}, {tensor<float>(Shape::of({3, 4}), xv), tensor<float>(Shape::of({4, 3}), wv)})[0];
  auto yd =
      run<double>(MatMulAttrs{}, {tensor<double>(Shape::of({3, 4}), xv), tensor<double>(Shape::of({4, 3}), wv)})[0];
  auto ym = run<mp50>(MatMulAttrs{}, {tensor<mp50>(Shape::of({3, 4}), xv), tensor<mp50>(Shape::of({4, 3}), wv)})[0];
  for (int64_t i = 0; i < 9; ++i) {
    CHECK(std::abs(double(yf[i]) - double(ym[i])) < 1e-6);
    CHECK(std::abs(yd[i] - double(ym[i])) < 1e-14);
  }
  auto lf =
      run<float>(LinearAttrs{3, WeightLayout::InOut, false}, {tensor<float>(Shape::of({3, 4}), xv)},
                 {tensor<float>(Shape::of({4, 3}), wv)})[0];
  auto lm =
      run<mp50>(LinearAttrs{3, WeightLayout::InOut, false}, {tensor<mp50>(Shape::of({3, 4}), xv)},
                {tensor<mp50>(Shape::of({4, 3}), wv)})[0];
  for (int64_t i = 0; i < 9; ++i) CHECK(std::abs(double(lf[i]) - double(lm[i])) < 1e-6);
}
