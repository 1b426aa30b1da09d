// The softmax lowering (fastpath/ops/softmax.cpp): the last axis (softmax_rows), a run of axes
// that ends there, a run in the middle (softmax_strided), axes that are not consecutive (the plain
// loop), NNL's batch axis, extents around the vector widths, and groups with NaN, ±inf, huge and
// tiny values.
#include <catch2/catch.hpp>

#include <limits>
#include <random>
#include <vector>

#include "fastpath_op_test_support.hpp"

using namespace nnref;

namespace {

// Values uniform in [−30, 30); with `special`, some groups get a NaN, +inf, −inf, −0, huge or tiny values.
Tensor<double> softmax_input(std::mt19937_64& gen, const Shape& s, bool special) {
  std::uniform_real_distribution<double> unit(-30.0, 30.0);
  const double inf = std::numeric_limits<double>::infinity();
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(), inf, -inf, -0.0, 3e38, -3e38, 1e-40};
  std::vector<double> v;
  for (int64_t i = 0; i < s.count(); ++i)
    v.push_back(special && i % 29 == 3 ? specials[(i / 29) % 7] : static_cast<double>(static_cast<float>(unit(gen))));
  return test::tensor(s, v);
}

// softmax and log_softmax over the same groups.
void check_softmax(std::vector<int64_t> axes, const std::vector<int64_t>& dims, size_t batch_axes = 0) {
  SoftmaxAttrs a;
  a.axes = std::move(axes);
  a.batch_axes = batch_axes;
  const Shape x = std::move(Shape::make(dims)).value();
  for (bool log : {false, true})
    for (bool special : {false, true}) {
      a.log = log;
      std::mt19937_64 gen(static_cast<uint64_t>(x.count()));
      INFO(op_name(a) << " over " << x.str() << (special ? " with special values" : ""));
      test::check_fast_op(a, {Value<double>(softmax_input(gen, x, special))});
    }
}

}  // namespace

TEST_CASE("fastpath softmax lowering: the last axis and a run of axes ending there") {
  check_softmax({-1}, {3, 17});
  check_softmax({1}, {5, 1});
  check_softmax({1}, {2, 16});
  check_softmax({1, 2}, {3, 4, 5});
  check_softmax({0}, {33});
  check_softmax({-1}, {2, 3, 8}, 1);  // NNL's batch axis
}

TEST_CASE("fastpath softmax lowering: a run of axes in the middle, vectorized over the positions after it") {
  check_softmax({1}, {2, 7, 3});
  check_softmax({0}, {5, 16});
  check_softmax({1}, {3, 4, 19});
  check_softmax({1, 2}, {2, 3, 2, 9});
  check_softmax({0}, {1, 4});
}

TEST_CASE("fastpath softmax lowering: axes that are not consecutive") {
  check_softmax({0, 2}, {3, 5, 4});
  check_softmax({1, 3}, {2, 3, 2, 5});
  check_softmax({2, 0}, {4, 3, 17});
}

TEST_CASE("fastpath softmax lowering: groups all −inf, with +inf, with NaN, huge and tiny, along every kind of axes") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  // six groups of three along the last axis: all −inf (NaN: −inf − −inf), +inf (NaN), NaN (NaN),
  // tiny and zeros, the largest float32 twice, a spread that underflows one term
  const std::vector<double> v = {-inf, -inf, -inf, inf, 1, 2,         nan,    1, 2,
                                 1e-40, 0, -0.0,   3.4e38, 3.4e38, -3.4e38, 88, 88, -100};
  for (bool log : {false, true}) {
    for (std::vector<int64_t> axes : std::vector<std::vector<int64_t>>{{1}, {0}, {0, 1}}) {
      SoftmaxAttrs a;
      a.axes = axes;
      a.log = log;
      test::check_fast_op(a, {Value<double>(test::tensor(Shape::of({6, 3}), v))});
    }
    SoftmaxAttrs a;
    a.axes = {0, 2};
    a.log = log;
    test::check_fast_op(a, {Value<double>(test::tensor(Shape::of({2, 3, 3}), v))});
  }
}

TEST_CASE("fastpath log_softmax: finite where the softmax underflows, and a wrong answer is rejected") {
  // Rows [0, −200, −1000] and [1000, 999, 0]: exp underflows for −200 and −1000 (and 0 − 1000), so
  // log(softmax) would be −inf there, and log_softmax is about −200, −1000, −1000.3.
  SoftmaxAttrs a;
  a.axes = {1};
  a.log = true;
  const Value<double> x = test::tensor(Shape::of({2, 3}), {0, -200, -1000, 1000, 999, 0});
  test::check_fast_op(a, {x});
  test::for_each_target([&] {
    const auto y = std::get<Tensor<float>>(test::run_fast(a, {x}, {})[0]).values();
    CHECK(y[1] == -200.0f);
    CHECK(y[2] == -1000.0f);
    // log(1 + e^-1) = 0.31326168751822286 (1000 − 999 = 1): row 1 is [−0.3133, −1.3133, −1000.3133]
    CHECK(y[3] == Approx(-0.31326168751822286).epsilon(1e-6));
    CHECK(y[5] == Approx(-1000.31326168751822286).epsilon(1e-6));
  });
  // The judge discriminates: the same answer with one element moved by 1e-3 is rejected.
  const auto envelope = std::get<Tensor<Envelope>>(test::run_values<Envelope>(a, {test::value_as<Envelope>(x)})[0]);
  const Enclosure e = sc::enclosure(envelope[4]);  // −1.3133: radius about γ(3)·1000
  CHECK_FALSE(e.rejects(-1.31326168751822286));
  CHECK(e.rejects(-1.31326168751822286 + 1e-3));
}
