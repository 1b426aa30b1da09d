// Normalisations (spec/ops/batch_norm.hpp, layer_norm.hpp, softmax.hpp): batch norm, layer norm,
// softmax. Expected values are worked out by hand in the comments.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "spec/ops/batch_norm.hpp"
#include "spec/ops/layer_norm.hpp"
#include "spec/ops/softmax.hpp"

#include "op_test_support.hpp"

using nnref::mp50;

namespace {

using namespace nnref;
using namespace nnref::test;

}  // namespace

TEMPLATE_TEST_CASE("batch_normalization on the last axis", "[normalization]", float, double, mp50) {
  using T = TestType;
  // x = [[1, 2], [3, 4]], channel c = column. mean [1, 2], variance [3, 15], ε = 1: denominators
  // √4 = 2 and √16 = 4; scale [2, 4], offset [10, 20].
  // y = [[10 + 2·0/2, 20 + 4·0/4], [10 + 2·2/2, 20 + 4·2/4]] = [[10, 20], [12, 22]].
  auto y = run<T>(BatchNormAttrs{1.0, -1}, {tensor<T>(Shape::of({2, 2}), {1, 2, 3, 4})},
                  {tensor<T>(Shape::of({2}), {1, 2}), tensor<T>(Shape::of({2}), {3, 15}),
                   tensor<T>(Shape::of({2}), {2, 4}), tensor<T>(Shape::of({2}), {10, 20})})[0];
  CHECK(y.shape() == Shape::of({2, 2}));
  check_values(y, {10, 20, 12, 22});
}

TEMPLATE_TEST_CASE("batch_normalization on axis 1 (NCHW)", "[normalization]", float, double, mp50) {
  using T = TestType;
  // x [2, 2, 2] = 1..8: channel 0 holds 1, 2, 5, 6 and channel 1 holds 3, 4, 7, 8.
  // mean [0, 4], variance [3, 0], ε = 1: denominators 2 and 1; scale [1, 2], offset [0, 10].
  // Channel 0: y = x/2; channel 1: y = 10 + 2·(x − 4).
  auto y = run<T>(BatchNormAttrs{1.0, 1}, {tensor<T>(Shape::of({2, 2, 2}), {1, 2, 3, 4, 5, 6, 7, 8})},
                  {tensor<T>(Shape::of({2}), {0, 4}), tensor<T>(Shape::of({2}), {3, 0}),
                   tensor<T>(Shape::of({2}), {1, 2}), tensor<T>(Shape::of({2}), {0, 10})})[0];
  check_values(y, {0.5, 1, 8, 10, 2.5, 3, 16, 18});
}

TEST_CASE("batch_normalization parameters and obligations", "[normalization]") {
  auto c = Checked<BatchNormAttrs>::check(BatchNormAttrs{1e-5, 1}, {Shape::of({8, 3, 5, 5})});
  REQUIRE(c.ok());
  REQUIRE(c->params().size() == 4);
  const char* roles[] = {"mean", "variance", "scale", "offset"};
  for (size_t i = 0; i < 4; ++i) {
    CHECK(c->params()[i].role == roles[i]);
    CHECK(c->params()[i].shape == Shape::of({3}));
  }
  Diagnostic d = failure(BatchNormAttrs{1e-5, 2}, {Shape::of({4, 3})});
  CHECK(d.code == "shape.axis.out-of-range");
  CHECK(d.message == "batch_normalization: channel axis 2 is out of range for an input of rank 2 (valid: -2 to 1)");
  CHECK(failure(BatchNormAttrs{1e-5, -3}, {Shape::of({4, 3})}).code == "shape.axis.out-of-range");
  d = failure(BatchNormAttrs{-1.0, 1}, {Shape::of({4, 3})});
  CHECK(d.code == "attr.epsilon.invalid");
  CHECK(d.message == "batch_normalization: epsilon must be a finite number ≥ 0, got -1.000000");
  CHECK(failure(BatchNormAttrs{}, {}).code == "graph.arity");
}

TEMPLATE_TEST_CASE("layer_normalization without and with affine", "[normalization]", float, double, mp50) {
  using T = TestType;
  // Rows [1, 3] and [2, 6], over the last axis, ε = 0: row 0 μ = 2, σ² = (1 + 1)/2 = 1 → [−1, 1];
  // row 1 μ = 4, σ² = (4 + 4)/2 = 4 → [−2/2, 2/2] = [−1, 1].
  auto x = tensor<T>(Shape::of({2, 2}), {1, 3, 2, 6});
  auto y = run<T>(LayerNormAttrs{{-1}, 0.0, false}, {x})[0];
  CHECK(y.shape() == Shape::of({2, 2}));
  check_values(y, {-1, 1, -1, 1});
  // Affine: scale [2, 3], offset [1, −1]: [−1·2 + 1, 1·3 − 1] = [−1, 2] on each row.
  y = run<T>(LayerNormAttrs{{-1}, 0.0, true}, {x},
             {tensor<T>(Shape::of({2}), {2, 3}), tensor<T>(Shape::of({2}), {1, -1})})[0];
  check_values(y, {-1, 2, -1, 2});
  // Over both axes: μ = (1 + 3 + 2 + 6)/4 = 3, σ² = (4 + 0 + 1 + 9)/4 = 3.5, ε = 0.5 → √4 = 2:
  // y = (x − 3)/2 = [−1, 0, −0.5, 1.5]; with scale [[1, 2], [3, 4]] and offset 0: [−1, 0, −1.5, 6].
  y = run<T>(LayerNormAttrs{{0, 1}, 0.5, false}, {x})[0];
  check_values(y, {-1, 0, -0.5, 1.5});
  y = run<T>(LayerNormAttrs{{1, 0}, 0.5, true}, {x},
             {tensor<T>(Shape::of({2, 2}), {1, 2, 3, 4}), tensor<T>(Shape::of({2, 2}), {0, 0, 0, 0})})[0];
  check_values(y, {-1, 0, -1.5, 6});
}

TEST_CASE("layer_normalization parameters and obligations", "[normalization]") {
  auto c = Checked<LayerNormAttrs>::check(LayerNormAttrs{{-1, 1}, 1e-5, true}, {Shape::of({2, 3, 4})});
  REQUIRE(c.ok());
  REQUIRE(c->params().size() == 2);
  CHECK(c->params()[0].role == "scale");
  CHECK(c->params()[0].shape == Shape::of({3, 4}));  // the normalised axes 1 and 2, ascending
  CHECK(c->params()[1].role == "offset");
  CHECK(c->params()[1].shape == Shape::of({3, 4}));
  CHECK(Checked<LayerNormAttrs>::check(LayerNormAttrs{{-1}}, {Shape::of({2, 3})})->params().empty());

  CHECK(failure(LayerNormAttrs{{}}, {Shape::of({2, 3})}).code == "attr.axes.empty");
  CHECK(failure(LayerNormAttrs{{2}}, {Shape::of({2, 3})}).code == "shape.axis.out-of-range");
  Diagnostic d = failure(LayerNormAttrs{{1, -1}}, {Shape::of({2, 3})});
  CHECK(d.code == "shape.axis.duplicate");
  CHECK(d.message == "layer_normalization: axes [1, -1] name axis 1 more than once");
  CHECK(failure(LayerNormAttrs{{1}, std::nan("")}, {Shape::of({2, 3})}).code == "attr.epsilon.invalid");
}

TEMPLATE_TEST_CASE("softmax over one axis", "[normalization]", float, double, mp50) {
  using T = TestType;
  // Row 0: exp of [0, ln 2, ln 3] is [1, 2, 3], sum 6 → [1/6, 1/3, 1/2].
  // Row 1: three equal values → 1/3 each (1000 overflows exp in float and double without the
  // max subtracted).
  auto y = run<T>(SoftmaxAttrs{{1}}, {tensor<T>(Shape::of({2, 3}), {0, kLn2, kLn3, 1000, 1000, 1000})})[0];
  CHECK(y.shape() == Shape::of({2, 3}));
  check_values(y, {1.0 / 6, 1.0 / 3, 0.5, 1.0 / 3, 1.0 / 3, 1.0 / 3});
  // Along axis 0 of [[0, ln 2], [ln 3, ln 4]]: columns [1, 3]/4 and [2, 4]/6.
  auto z = run<T>(SoftmaxAttrs{{-2}}, {tensor<T>(Shape::of({2, 2}), {0, kLn2, kLn3, 2 * kLn2})})[0];
  check_values(z, {0.25, 1.0 / 3, 0.75, 2.0 / 3});
}

TEMPLATE_TEST_CASE("softmax over two axes together", "[normalization]", float, double, mp50) {
  using T = TestType;
  // One group of four: exp of [0, ln 2, ln 3, ln 4] is [1, 2, 3, 4], sum 10.
  auto y = run<T>(SoftmaxAttrs{{0, 1}}, {tensor<T>(Shape::of({2, 2}), {0, kLn2, kLn3, 2 * kLn2})})[0];
  check_values(y, {0.1, 0.2, 0.3, 0.4});
  // [2, 2, 3] over axes 1 and 2: each of the two groups of six sums to 1.
  std::vector<double> v;
  for (int i = 0; i < 12; ++i) v.push_back(0.37 * i - 2);
  auto s = run<T>(SoftmaxAttrs{{1, 2}}, {tensor<T>(Shape::of({2, 2, 3}), v)})[0];
  for (int g = 0; g < 2; ++g) {
    double total = 0;
    for (int r = 0; r < 6; ++r) total += sc::to_double(s[g * 6 + r]);
    CHECK(total == Approx(1).margin(10 * tol<T>()));
  }
  // Within a group, consecutive values differ by 0.37 in x, so by a factor e^0.37 in y.
  CHECK(sc::to_double(s[1] / s[0]) == Approx(std::exp(0.37)).epsilon(10 * tol<T>()));
}

TEMPLATE_TEST_CASE("log_softmax: x − max − log Σ exp(x − max), finite where softmax underflows", "[normalization]", float, double, mp50) {
  using T = TestType;
  const SoftmaxAttrs log_softmax{{1}, 0, true};
  CHECK(op_name(log_softmax) == "log_softmax");
  // Row 0: softmax [1/6, 1/3, 1/2] (above), so [−ln 6, −ln 3, −ln 2].
  // Row 1: [0, −1000]: Σ exp(x − max) = 1 + e^−1000, so [−ln(1 + e^−1000), −1000 − ln(1 + e^−1000)],
  // 0 and −1000 to any precision here (e^−1000 ≈ 5e−435); log of softmax would give log 0 = −∞.
  auto y = run<T>(log_softmax, {tensor<T>(Shape::of({2, 3}), {0, kLn2, kLn3, 0, -1000, 0})})[0];
  check_values(y, {-kLn2 - kLn3, -kLn3, -kLn2, -kLn2, -1000 - kLn2, -kLn2});
  auto z = run<T>(log_softmax, {tensor<T>(Shape::of({1, 2}), {0, -1000})})[0];
  check_values(z, {0, -1000});
  // Around a large maximum: [1000, 1000 + ln 3] → [−ln 4, ln 3 − ln 4].
  auto w = run<T>(log_softmax, {tensor<T>(Shape::of({1, 2}), {1000, 1000 + kLn3})})[0];
  CHECK(sc::to_double(w[0]) == Approx(-2 * kLn2).margin(1e3 * tol<T>()));
  CHECK(sc::to_double(w[1]) == Approx(kLn3 - 2 * kLn2).margin(1e3 * tol<T>()));
}

TEST_CASE("softmax obligations and empty inputs", "[normalization]") {
  CHECK(failure(SoftmaxAttrs{{}}, {Shape::of({2, 3})}).code == "attr.axes.empty");
  CHECK(failure(SoftmaxAttrs{{-3}}, {Shape::of({2, 3})}).code == "shape.axis.out-of-range");
  CHECK(failure(SoftmaxAttrs{{0, 0}}, {Shape::of({2, 3})}).code == "shape.axis.duplicate");
  // Every output extent must be at least 1, so an empty tensor is rejected, not evaluated.
  CHECK(failure(SoftmaxAttrs{{1}}, {Shape::of({2, 0})}).code == "shape.empty-extent");
}

TEST_CASE("float, double and mp50 agree on normalisations within their precision", "[normalization]") {
  // Inputs k/7 − 1 are inexact in binary, so the three readings differ by rounding only;
  // each output is O(1), so float lies within ~1e-6 and double within ~1e-14 of mp50.
  std::vector<double> v;
  for (int i = 0; i < 12; ++i) v.push_back(i / 7.0 - 1);
  auto sf = run<float>(SoftmaxAttrs{{1}}, {tensor<float>(Shape::of({3, 4}), v)})[0];
  auto sd = run<double>(SoftmaxAttrs{{1}}, {tensor<double>(Shape::of({3, 4}), v)})[0];
  auto sm = run<mp50>(SoftmaxAttrs{{1}}, {tensor<mp50>(Shape::of({3, 4}), v)})[0];
  auto lf = run<float>(LayerNormAttrs{{1}, 1e-3}, {tensor<float>(Shape::of({3, 4}), v)})[0];
  auto ld = run<double>(LayerNormAttrs{{1}, 1e-3}, {tensor<double>(Shape::of({3, 4}), v)})[0];
  auto lm = run<mp50>(LayerNormAttrs{{1}, 1e-3}, {tensor<mp50>(Shape::of({3, 4}), v)})[0];
  for (int64_t i = 0; i < 12; ++i) {
    CHECK(std::abs(double(sf[i]) - double(sm[i])) < 1e-6);
    CHECK(std::abs(sd[i] - double(sm[i])) < 1e-14);
    CHECK(std::abs(double(lf[i]) - double(lm[i])) < 1e-5);
    CHECK(std::abs(ld[i] - double(lm[i])) < 1e-13);
  }
}
