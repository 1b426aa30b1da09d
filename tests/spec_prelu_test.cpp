// prelu (spec/ops/prelu.hpp): y = alpha·x where x < 0, else x, the operands broadcast. Expected
// values are worked out by hand in the comments.
#include <catch2/catch.hpp>

#include <vector>

#include "spec/ops/prelu.hpp"
#include "spec/ops/unary.hpp"

#include "op_test_support.hpp"

using nnref::mp50;
using namespace nnref;
using namespace nnref::test;

// One slope for all: x = [-2, -0.5, 0, 3], alpha = 0.25: [-0.5, -0.125, 0, 3].
TEMPLATE_TEST_CASE("prelu with one slope", "[prelu]", float, double, mp50) {
  using T = TestType;
  auto y = run<T>(PreluAttrs{}, {tensor<T>(Shape::of({4}), {-2, -0.5, 0, 3}), tensor<T>(Shape::of({1}), {0.25})})[0];
  CHECK(y.shape() == Shape::of({4}));
  check_values(y, {-0.5, -0.125, 0, 3});
}

// NNEF's rule aligns leading axes: alpha [2] is a slope per row of x [2, 2].
// x = [[-1, 2], [-4, -3]], alpha = [0.1, 0.5]: [[-0.1, 2], [-2, -1.5]].
TEMPLATE_TEST_CASE("prelu with a slope per row", "[prelu]", float, double, mp50) {
  using T = TestType;
  auto y = run<T>(PreluAttrs{}, {tensor<T>(Shape::of({2, 2}), {-1, 2, -4, -3}), tensor<T>(Shape::of({2}), {0.1, 0.5})})[0];
  CHECK(y.shape() == Shape::of({2, 2}));
  check_values(y, {-0.1, 2, -2, -1.5});
}

// With one slope, prelu is leaky_relu: the same values, to the last bit.
TEST_CASE("prelu with a scalar slope equals leaky_relu", "[prelu]") {
  const std::vector<double> xs = {-3.7, -1e-300, 0, 2.5, 1e300, -1e300};
  auto x = tensor(Shape::of({6}), xs);
  auto p = run(PreluAttrs{}, {x, tensor(Shape::of({1}), {0.01})})[0];
  auto l = run(UnaryAttrs{UnaryOp::LeakyRelu, 0.01}, {x})[0];
  CHECK(doubles(p) == doubles(l));
}

TEST_CASE("prelu obligations", "[prelu]") {
  const Shape x = Shape::of({2, 3});
  CHECK(code_of(PreluAttrs{}, {x, Shape::of({2})}) == "ok");
  CHECK(code_of(PreluAttrs{}, {x}) == "graph.arity");
  // Under NNEF's rule a slope per channel [3] of [2, 3] aligns with axis 0: incompatible; NumPy's fits.
  CHECK(code_of(PreluAttrs{}, {x, Shape::of({3})}) == "shape.broadcast.incompatible");
  CHECK(code_of(PreluAttrs{Broadcast::NumpyRight}, {x, Shape::of({3})}) == "ok");
  CHECK(code_of(PreluAttrs{}, {x, x}, {ElemKind::Real, ElemKind::Integer}) == "kind.operand");
}
