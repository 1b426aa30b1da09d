// NaN through the ops that take a maximum or minimum: a NaN anywhere among the operands gives NaN,
// whatever its position, in every scalar (as PyTorch's maximum, max_pool2d, amax and clamp do).
#include <catch2/catch.hpp>

#include <limits>

#include "spec/ops/binary.hpp"
#include "spec/ops/clamp.hpp"
#include "spec/ops/pool.hpp"
#include "spec/ops/reduce.hpp"
#include "spec/ops/softmax.hpp"
#include "spec/ops/unary.hpp"

#include "op_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <class T>
bool is_nan(const T& x) {
  return sc::isnan(x);
}

}  // namespace

TEMPLATE_TEST_CASE("max and min of two values: NaN first or second gives NaN", "[nan]", float, double, mp50) {
  using T = TestType;
  for (BinaryOp op : {BinaryOp::Max, BinaryOp::Min}) {
    auto y = run<T>(BinaryAttrs{op, Broadcast::Equal},
                    {tensor<T>(Shape::of({3}), {kNaN, 1, 2}), tensor<T>(Shape::of({3}), {1, kNaN, 5})})[0];
    CHECK(is_nan(y[0]));
    CHECK(is_nan(y[1]));
    CHECK_FALSE(is_nan(y[2]));
  }
}

TEMPLATE_TEST_CASE("max_pool and max/min_reduce: a NaN after the first element still gives NaN", "[nan]", float,
                   double, mp50) {
  using T = TestType;
  PoolAttrs pool;
  pool.op = PoolOp::Max;
  pool.kernel = {2};
  pool.stride = {2};
  // Windows {1, NaN} and {3, 4}.
  auto p = run<T>(pool, {tensor<T>(Shape::of({1, 1, 4}), {1, kNaN, 3, 4})})[0];
  CHECK(is_nan(p[0]));
  CHECK(sc::to_double(p[1]) == 4);
  for (ReduceOp op : {ReduceOp::Max, ReduceOp::Min}) {
    auto r = run<T>(ReduceAttrs{op, {1}, false}, {tensor<T>(Shape::of({2, 3}), {5, 7, kNaN, 1, 2, 3})})[0];
    CHECK(is_nan(r[0]));
    CHECK(sc::to_double(r[1]) == (op == ReduceOp::Max ? 3 : 1));
  }
}

TEMPLATE_TEST_CASE("relu, clamp and softmax of a NaN give NaN", "[nan]", float, double, mp50) {
  using T = TestType;
  auto relu = run<T>(UnaryAttrs{UnaryOp::Relu, 0.0}, {tensor<T>(Shape::of({2}), {kNaN, -1})})[0];
  CHECK(is_nan(relu[0]));
  CHECK(sc::to_double(relu[1]) == 0);
  auto clamp = run<T>(ClampAttrs{Broadcast::Equal}, {tensor<T>(Shape::of({2}), {kNaN, 9}),
                                                      tensor<T>(Shape::of({2}), {0, 0}),
                                                      tensor<T>(Shape::of({2}), {1, 1})})[0];
  CHECK(is_nan(clamp[0]));
  CHECK(sc::to_double(clamp[1]) == 1);
  // The row's maximum, taken to keep exp in range, must not drop the NaN in second place.
  auto soft = run<T>(SoftmaxAttrs{{-1}}, {tensor<T>(Shape::of({1, 3}), {0, kNaN, 1})})[0];
  for (int64_t i = 0; i < 3; ++i) CHECK(is_nan(soft[i]));
}
