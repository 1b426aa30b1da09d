// interpolate (spec/ops/interpolate.hpp): values computed by hand over one and two axes, NaN where a
// tap's index leaves the axis, the obligation, and the float32 envelope holding both orders in which
// runtimes compute a bilinear resize (ONNX Runtime's flat sum of the corner terms, PyTorch's axes
// nested) while rejecting an answer off by 2^-16. Each double case also runs the fast path.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "op_test_support.hpp"
#include "spec/scalar_envelope.hpp"

using nnref::mp50;
using namespace nnref;
using namespace nnref::test;

namespace {

template <class T>
Tensor<T> interpolated(const InterpolateAttrs& a, const std::vector<Value<T>>& ins) {
  return std::get<Tensor<T>>(run_values<T>(a, ins)[0]);
}

}  // namespace

TEMPLATE_TEST_CASE("interpolate: the weighted taps of one and of two axes, by hand", "[interpolate]", float, double,
                   mp50) {
  using T = TestType;
  const auto x = tensor<T>(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6});
  // Axis 1 alone, two positions of two taps: 0.5·x[·, 0] + 0.5·x[·, 1] and 1·x[·, 1] + 0·x[·, 2].
  const auto cols = interpolated<T>(InterpolateAttrs{{1}}, {x, integers(Shape::of({2, 2}), {0, 1, 1, 2}),
                                                            tensor<T>(Shape::of({2, 2}), {0.5, 0.5, 1, 0})});
  CHECK(cols.shape() == Shape::of({2, 2}));
  check_values(cols, {1.5, 2, 4.5, 5});
  // Then axis 0 too, one position weighing rows 0 and 1 by 0.25 and 0.75 (axes given last first):
  // 0.25·1.5 + 0.75·4.5 = 3.75 and 0.25·2 + 0.75·5 = 4.25.
  const auto both =
      interpolated<T>(InterpolateAttrs{{-1, 0}},
                      {x, integers(Shape::of({2, 2}), {0, 1, 1, 2}), tensor<T>(Shape::of({2, 2}), {0.5, 0.5, 1, 0}),
                       integers(Shape::of({1, 2}), {0, 1}), tensor<T>(Shape::of({1, 2}), {0.25, 0.75})});
  CHECK(both.shape() == Shape::of({1, 2}));
  check_values(both, {3.75, 4.25});
  // One tap of three weights on a [3] input: 2·x[2] = 6, −1·x[0] = −1, 0.5·x[1] = 1.
  const auto line = interpolated<T>(InterpolateAttrs{{0}},
                                    {tensor<T>(Shape::of({3}), {1, 2, 3}), integers(Shape::of({3, 1}), {2, 0, 1}),
                                     tensor<T>(Shape::of({3, 1}), {2, -1, 0.5})});
  check_values(line, {6, -1, 1});
}

TEMPLATE_TEST_CASE("interpolate: an index outside the axis reads NaN, weighed 0 or not", "[interpolate]", float, double,
                   mp50) {
  using T = TestType;
  const auto x = tensor<T>(Shape::of({2}), {1, 2});
  const auto y = interpolated<T>(InterpolateAttrs{{0}}, {x, integers(Shape::of({3, 2}), {0, 2, -1, 1, 0, 1}),
                                                         tensor<T>(Shape::of({3, 2}), {1, 0, 0.5, 0.5, 0.5, 0.5})});
  CHECK(std::isnan(sc::to_double(y[0])));
  CHECK(std::isnan(sc::to_double(y[1])));
  CHECK(sc::to_double(y[2]) == 1.5);
}

TEST_CASE("interpolate: a tap weighed exactly 0 is not read on a finite x, and gives NaN on an infinite one",
          "[interpolate]") {
  const double inf = std::numeric_limits<double>::infinity();
  const auto y = interpolated<double>(InterpolateAttrs{{0}},
                                      {tensor(Shape::of({3}), {1, 2, inf}), integers(Shape::of({2, 2}), {0, 1, 1, 2}),
                                       tensor(Shape::of({2, 2}), {0.5, 0.5, 1, 0})});
  CHECK(y[0] == 1.5);
  CHECK(std::isnan(y[1]));  // 0·∞, as a runtime that multiplies every tap computes it
}

TEST_CASE("interpolate obligations: taps as one [positions, taps] matrix per axis, axes of x", "[interpolate]") {
  const Shape x = Shape::of({2, 4});
  const std::vector<ElemKind> kinds{ElemKind::Real, ElemKind::Integer, ElemKind::Real};
  CHECK(failure(InterpolateAttrs{{1}}, {x, Shape::of({3, 2}), Shape::of({3, 1})}, kinds).message ==
        "interpolate: axis 1 has tap indices [3, 2] and weights [3, 1]; both must be one [positions, taps] matrix");
  CHECK(code_of(InterpolateAttrs{{1}}, {x, Shape::of({3, 2}), Shape::of({3, 2, 1})}, kinds) ==
        "shape.interpolate.taps");
  CHECK(code_of(InterpolateAttrs{{2}}, {x, Shape::of({3, 2}), Shape::of({3, 2})}, kinds) == "shape.axis.out-of-range");
  CHECK(code_of(InterpolateAttrs{{1, -1}},
                {x, Shape::of({3, 2}), Shape::of({3, 2}), Shape::of({3, 2}), Shape::of({3, 2})},
                {ElemKind::Real, ElemKind::Integer, ElemKind::Real, ElemKind::Integer, ElemKind::Real}) ==
        "shape.axis.duplicate");
  CHECK(code_of(InterpolateAttrs{{1}}, {x, Shape::of({3, 2}), Shape::of({3, 2})},
                {ElemKind::Real, ElemKind::Real, ElemKind::Real}) == "kind.operand");
  CHECK(out_shape(InterpolateAttrs{{1}}, {x, Shape::of({7, 3}), Shape::of({7, 3})}) == Shape::of({2, 7}));
}

// A bilinear resize of a [2, 2] patch to one point as float32 runtimes compute it: ONNX Runtime
// (upsample.cc) sums (dx·dy)·x over the four corners flat, PyTorch (UpSampleKernel.cpp) nests,
// (x00·dx0 + x01·dx1)·dy0 + (x10·dx0 + x11·dx1)·dy1; the weights are (1 − r, r) of a float32 r.
TEST_CASE("interpolate's envelope holds ONNX Runtime's flat and PyTorch's nested bilinear, not an answer 2^-16 off",
          "[interpolate][envelope]") {
  std::mt19937 gen(20261129);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f), ratio(0.0f, 1.0f);
  int differing = 0;
  for (int draw = 0; draw < 2000; ++draw) {
    float x[4];
    for (float& v : x) v = draw % 2 == 0 ? value(gen) : std::abs(value(gen));
    const float rx = ratio(gen), ry = ratio(gen);
    const float wx[2] = {1.0f - rx, rx}, wy[2] = {1.0f - ry, ry};
    float flat = 0;
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        const volatile float w = wy[i] * wx[j];  // volatile: no contraction into a fused multiply-add
        flat = i + j == 0 ? w * x[2 * i + j] : flat + w * x[2 * i + j];
      }
    const volatile float row0 = x[0] * wx[0] + x[1] * wx[1], row1 = x[2] * wx[0] + x[3] * wx[1];
    const volatile float nested = row0 * wy[0] + row1 * wy[1];
    differing += flat != nested;
    const auto y = interpolated<Envelope>(
        InterpolateAttrs{{0, 1}},
        {tensor<Envelope>(Shape::of({2, 2}), {x[0], x[1], x[2], x[3]}), integers(Shape::of({1, 2}), {0, 1}),
         tensor<Envelope>(Shape::of({1, 2}), {wy[0], wy[1]}), integers(Shape::of({1, 2}), {0, 1}),
         tensor<Envelope>(Shape::of({1, 2}), {wx[0], wx[1]})});
    const Enclosure e = sc::enclosure(y[0]);
    INFO("draw " << draw << ": flat " << flat << ", nested " << nested << ", envelope [" << e.lo << ", " << e.hi
                 << "]");
    CHECK_FALSE(e.rejects(flat));
    CHECK_FALSE(e.rejects(nested));
    // Teeth: the exact value moved by 2^-16 of the terms' magnitude is outside.
    double exact = 0, magnitude = 0;
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        exact += double(wy[i]) * wx[j] * x[2 * i + j];
        magnitude += std::abs(double(wy[i]) * wx[j] * x[2 * i + j]);
      }
    if (magnitude > 1e-3) {
      CHECK(e.rejects(exact + 0x1p-16 * magnitude));
      CHECK(e.rejects(exact - 0x1p-16 * magnitude));
    }
  }
  CHECK(differing > 100);  // the two orders often round apart: the test compares something
}
