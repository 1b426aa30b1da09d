// clamp (spec/ops/clamp.hpp): y = max(min(x, b), a), the three operands broadcast. Expected values
// are worked out by hand in the comments.
#include <catch2/catch.hpp>

#include <vector>

#include "spec/ops/clamp.hpp"

#include "op_test_support.hpp"

using nnref::mp50;
using namespace nnref;
using namespace nnref::test;

// x = [-2, 0.5, 3, 1] into [0, 1] (a and b of shape [1], broadcast): [0, 0.5, 1, 1].
TEMPLATE_TEST_CASE("clamp into a scalar range", "[clamp]", float, double, mp50) {
  using T = TestType;
  auto x = tensor<T>(Shape::of({4}), {-2, 0.5, 3, 1});
  auto y = run<T>(ClampAttrs{}, {x, tensor<T>(Shape::of({1}), {0}), tensor<T>(Shape::of({1}), {1})})[0];
  CHECK(y.shape() == Shape::of({4}));
  check_values(y, {0, 0.5, 1, 1});
}

// NNEF's rule aligns leading axes: a [2] is a per-row bound of x [2, 3].
// x = [[-5, 0, 5], [-5, 0, 5]], a = [-1, 1], b = [[4, 4, 4], [0.5, 2, 3]]:
// row 0: max(min(-5, 4), -1) = -1, max(min(0, 4), -1) = 0, max(min(5, 4), -1) = 4;
// row 1: max(min(-5, 0.5), 1) = 1, max(min(0, 2), 1) = 1, max(min(5, 3), 1) = 3.
TEMPLATE_TEST_CASE("clamp with per-row and per-element bounds", "[clamp]", float, double, mp50) {
  using T = TestType;
  auto x = tensor<T>(Shape::of({2, 3}), {-5, 0, 5, -5, 0, 5});
  auto a = tensor<T>(Shape::of({2}), {-1, 1});
  auto b = tensor<T>(Shape::of({2, 3}), {4, 4, 4, 0.5, 2, 3});
  auto y = run<T>(ClampAttrs{}, {x, a, b})[0];
  CHECK(y.shape() == Shape::of({2, 3}));
  check_values(y, {-1, 0, 4, 1, 1, 3});
}

// NNEF defines clamp as max(min(x, b), a), so an empty range [2, 1] gives a: max(min(0, 1), 2) = 2.
TEST_CASE("clamp with a > b gives a, as NNEF defines it", "[clamp]") {
  auto y = run(ClampAttrs{}, {tensor(Shape::of({1}), {0}), tensor(Shape::of({1}), {2}), tensor(Shape::of({1}), {1})})[0];
  check_values(y, {2});
}

TEST_CASE("clamp obligations", "[clamp]") {
  const Shape x = Shape::of({2, 3});
  CHECK(code_of(ClampAttrs{}, {x, x, x}) == "ok");
  CHECK(code_of(ClampAttrs{}, {x, x}) == "graph.arity");
  // Under NNEF's rule [3] aligns with axis 0 (extent 2): incompatible; under NumPy's with axis 1.
  CHECK(code_of(ClampAttrs{}, {x, Shape::of({3}), x}) == "shape.broadcast.incompatible");
  CHECK(code_of(ClampAttrs{Broadcast::NumpyRight}, {x, Shape::of({3}), x}) == "ok");
  CHECK(code_of(ClampAttrs{}, {x, x, Shape::of({2, 4})}) == "shape.broadcast.incompatible");
  CHECK(code_of(ClampAttrs{}, {x, x, x}, {ElemKind::Real, ElemKind::Logical, ElemKind::Real}) == "kind.operand");
  auto d = failure(ClampAttrs{}, {x, x, Shape::of({2, 4})});
  CHECK(d.message.find("axis 1 has extents 3 and 4") != std::string::npos);
}
