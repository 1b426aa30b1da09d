// The fast path's reductions and layer_normalization (fastpath/ops/reduce.cpp, layer_norm.cpp) on
// every Highway target with 1 and 2 threads, judged by the spec's op over the Envelope scalar
// (check_fast_op); NaN, infinities and signed zeros checked value by value against what the spec
// computes for them; and results identical for every thread count. Matmul, cumsum and the layout
// ops are in the parts fastpath_op_layout_test_*.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "fastpath_op_layout_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

const std::vector<Shape> kReduceShapes = {Shape::of({7}),        Shape::of({3, 5}),    Shape::of({2, 3, 17}),
                                          Shape::of({4, 1, 9, 8}), Shape::of({2, 16, 3}), Shape::of({5, 33}),
                                          Shape::of({1, 1}),     Shape::of({3, 4, 5, 4})};

std::vector<float> floats_of(const Value<float>& v) { return std::get<Tensor<float>>(v).values(); }

}  // namespace

TEST_CASE("fastpath reduce: every op over every set of axes, keep_dims or not, inside the envelope") {
  uint64_t seed = 1;
  for (const Shape& s : kReduceShapes)
    for (const auto& axes : axis_subsets(s.rank()))
      for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod})
        for (bool keep : {true, false}) {
          INFO("shape " << s.str() << ", " << axes.size() << " axes from " << axes[0] << ", keep_dims " << keep);
          ReduceAttrs a{op, axes, keep};
          check_fast_op(a, {random_value(s, seed++, 10.0)});
        }
}

TEST_CASE("fastpath reduce: negative axes and axes out of order name the same groups") {
  const Value<double> x = random_value(Shape::of({3, 4, 5}), 7, 3.0);
  check_fast_op(ReduceAttrs{ReduceOp::Sum, {-1, 0}, false}, {x});
  check_fast_op(ReduceAttrs{ReduceOp::Max, {2, -2}, true}, {x});
}

TEST_CASE("fastpath prod_reduce: values near 1 over long groups, and an empty axis gives 1") {
  // Factors in [0.9, 1.1] so that products of up to 60 stay normal: the envelope's radius is
  // about γ(n − 1)·|Π| and the fast path's lanes multiply in another order than the spec.
  std::mt19937_64 gen(5);
  std::uniform_real_distribution<double> near_one(0.9, 1.1);
  std::vector<double> v;
  for (int i = 0; i < 3 * 60; ++i) v.push_back(static_cast<float>(near_one(gen)));
  const Value<double> x = tensor(Shape::of({3, 60}), v);
  check_fast_op(ReduceAttrs{ReduceOp::Prod, {1}, false}, {x});
  check_fast_op(ReduceAttrs{ReduceOp::Prod, {0}, true}, {x});
  check_fast_op(ReduceAttrs{ReduceOp::Prod, {2}, false}, {tensor(Shape::of({2, 3, 0}), {})});
  for_each_target([] {
    const auto y = floats_of(run_fast(ReduceAttrs{ReduceOp::Prod, {1}, false}, {tensor(Shape::of({2, 0, 3}), {})}, {})[0]);
    CHECK(y == std::vector<float>(6, 1.0f));
    // 2·3·4·5·6·7·8·9·10 = 3,628,800, exact in float32 in any order
    const auto f = floats_of(run_fast(ReduceAttrs{ReduceOp::Prod, {0}, false},
                                      {tensor(Shape::of({9}), {2, 3, 4, 5, 6, 7, 8, 9, 10})}, {})[0]);
    CHECK(f == std::vector<float>{3628800.0f});
  });
}

TEST_CASE("fastpath reduce: sum over an empty axis is 0") {
  check_fast_op(ReduceAttrs{ReduceOp::Sum, {1}, true}, {tensor(Shape::of({2, 0, 3}), {})});
  check_fast_op(ReduceAttrs{ReduceOp::Sum, {2}, false}, {tensor(Shape::of({2, 3, 0}), {})});
  for_each_target([] {
    const auto y = floats_of(run_fast(ReduceAttrs{ReduceOp::Sum, {1}, false}, {tensor(Shape::of({2, 0, 3}), {})}, {})[0]);
    CHECK(y == std::vector<float>(6, 0.0f));
  });
}

TEST_CASE("fastpath reduce: NaN, infinities, signed zeros and overflow as the spec computes them") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  // Rows of 19 (over the run) and columns of 19 (across it); each row and column has one special
  // case: a NaN at the start, middle or end (max and min must not drop it wherever it sits in a
  // vector), +inf with −inf, only +inf, −0 with 0, and two values whose float sum overflows.
  const int64_t n = 19;
  std::vector<std::vector<double>> rows = {
      {nan}, {}, {}, {inf, -inf}, {inf}, {-0.0, 0.0}, {3e38, 3e38}, {-3e38, -3e38}};
  std::vector<double> data;
  for (size_t r = 0; r < rows.size(); ++r)
    for (int64_t j = 0; j < n; ++j) data.push_back(j < static_cast<int64_t>(rows[r].size()) ? rows[r][j] : 0.25 * j);
  data[1 * n + 9] = nan;       // row 1: NaN in the middle
  data[2 * n + n - 1] = nan;   // row 2: NaN last, in the padded tail
  const Shape s = Shape::of({static_cast<int64_t>(rows.size()), n});
  const Value<double> x = tensor(s, data);
  for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod})
    for (int64_t axis : {0, 1}) {
      const ReduceAttrs a{op, {axis}, false};
      const auto expected = std::get<Tensor<float>>(run_values<float>(a, {value_as<float>(x)})[0]).values();
      for_each_target([&] {
        INFO(op_name(a) << " over axis " << axis << " on " << fastpath::current_target());
        const auto y = floats_of(run_fast(a, {x}, {})[0]);
        REQUIRE(y.size() == expected.size());
        for (size_t i = 0; i < y.size(); ++i) {
          INFO("element " << i << ": " << y[i] << ", the spec's " << expected[i]);
          if (std::isnan(expected[i])) CHECK(std::isnan(y[i]));
          else if (std::isinf(expected[i]) || expected[i] == 0.0f || op == ReduceOp::Max || op == ReduceOp::Min)
            CHECK(y[i] == expected[i]);  // exact: extrema, infinities, zeros
        }
      });
      check_fast_op(a, {x});
    }
}

TEST_CASE("fastpath reduce and layer_normalization: the same bits with 1, 2 and 3 threads") {
  const Value<double> x = random_value(Shape::of({6, 40, 9}), 11, 5.0);
  for (const auto& axes : axis_subsets(3)) {
    const ReduceAttrs sum{ReduceOp::Sum, axes, true};
    const LayerNormAttrs norm{axes, Real{1e-3, "1e-3"}, false};
    for (int threads : {2, 3}) {
      CHECK(floats_of(run_fast(sum, {x}, {}, threads)[0]) == floats_of(run_fast(sum, {x}, {}, 1)[0]));
      CHECK(floats_of(run_fast(norm, {x}, {}, threads)[0]) == floats_of(run_fast(norm, {x}, {}, 1)[0]));
    }
  }
}

TEST_CASE("fastpath layer_normalization: every set of axes, affine or not, inside the envelope") {
  uint64_t seed = 100;
  for (const Shape& s : {Shape::of({9}), Shape::of({3, 17}), Shape::of({2, 5, 8}), Shape::of({2, 1, 7, 16}),
                         Shape::of({3, 33})})
    for (const auto& axes : axis_subsets(s.rank()))
      for (bool affine : {false, true}) {
        INFO("shape " << s.str() << ", " << axes.size() << " axes from " << axes[0] << ", affine " << affine);
        const LayerNormAttrs a{axes, Real{1e-5, "1e-5"}, affine};
        std::vector<Tensor<double>> ps;
        if (affine) {
          std::vector<int64_t> p;
          for (int64_t ax : axes) p.push_back(s[static_cast<size_t>(ax)]);
          const Shape ps_shape = std::move(Shape::make(p)).value();
          ps = {random_param(ps_shape, seed++, 2.0), random_param(ps_shape, seed++, 2.0)};
        }
        check_fast_op(a, {random_value(s, seed++, 4.0)}, ps);
      }
}

TEST_CASE("fastpath layer_normalization: a constant group, a large epsilon, large and tiny values") {
  check_fast_op(LayerNormAttrs{{1}, Real{1e-5, "1e-5"}, false}, {tensor(Shape::of({2, 5}), std::vector<double>(10, 3.5))});
  check_fast_op(LayerNormAttrs{{-1}, Real{0.5, "0.5"}, false}, {random_value(Shape::of({4, 21}), 5)});
  check_fast_op(LayerNormAttrs{{0, 1}, Real{1e-5, "1e-5"}, false}, {random_value(Shape::of({3, 11}), 6, 1e15)});
  check_fast_op(LayerNormAttrs{{0}, Real{1e-30, "1e-30"}, false}, {random_value(Shape::of({10, 3}), 8, 1e-12)});
}

TEST_CASE("fastpath layer_normalization: a NaN or an infinity makes its group NaN, as in the spec") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  std::vector<double> data(3 * 18, 0.5);
  for (size_t i = 0; i < data.size(); ++i) data[i] = 0.125 * static_cast<double>(i % 7);
  data[5] = nan;
  data[18 + 17] = inf;
  const Value<double> x = tensor(Shape::of({3, 18}), data);
  for (int64_t axis : {0, 1}) {
    const LayerNormAttrs a{{axis}, Real{1e-5, "1e-5"}, false};
    const auto expected = std::get<Tensor<float>>(run_values<float>(a, {value_as<float>(x)})[0]).values();
    for_each_target([&] {
      const auto y = floats_of(run_fast(a, {x}, {})[0]);
      for (size_t i = 0; i < y.size(); ++i) {
        INFO("axis " << axis << ", element " << i << " on " << fastpath::current_target());
        CHECK(std::isnan(y[i]) == std::isnan(expected[i]));
      }
    });
  }
}

TEST_CASE("fastpath reduce and layer_normalization: the judge rejects a wrong answer") {
  const Value<double> x = random_value(Shape::of({4, 37}), 21, 3.0);
  const ReduceAttrs sum{ReduceOp::Sum, {1}, false};
  const auto env = run_values<Envelope>(sum, {value_as<Envelope>(x)});
  auto y = floats_of(run_fast(sum, {x}, {})[0]);
  CHECK(rejected(std::get<Tensor<Envelope>>(env[0]), y) == 0);
  y[2] += 0.01f;  // the envelope's radius here is about γ(38)·Σ|x| ≈ 2.3e-6 · 55
  CHECK(rejected(std::get<Tensor<Envelope>>(env[0]), y) == 1);

  const LayerNormAttrs norm{{1}, Real{1e-5, "1e-5"}, false};
  const auto env_norm = run_values<Envelope>(norm, {value_as<Envelope>(x)});
  auto z = floats_of(run_fast(norm, {x}, {})[0]);
  CHECK(rejected(std::get<Tensor<Envelope>>(env_norm[0]), z) == 0);
  z[40] += 0.01f;  // the outputs are of order 1, their radius of order 1e-6
  CHECK(rejected(std::get<Tensor<Envelope>>(env_norm[0]), z) == 1);
}
