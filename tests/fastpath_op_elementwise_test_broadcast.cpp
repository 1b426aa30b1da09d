// The fast path's binary, add_n, broadcast_to, clamp, prelu and select lowerings (fastpath/ops/)
// on every Highway target with 1 and 2 threads, under every broadcast rule, judged element by
// element with the spec's op over the Envelope scalar (test::check_fast_op); and a wrong answer
// shown to be rejected by the same judgement.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "fastpath_op_test_support.hpp"

using namespace nnref;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Value<double> random_value(std::mt19937_64& gen, const Shape& s, double lo = -10, double hi = 10) {
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v;
  for (int64_t i = 0; i < s.count(); ++i) v.push_back(static_cast<float>(u(gen)));
  return test::tensor(s, v);
}

// Shapes of two operands that combine under each rule: equal, one side broadcast, both sides, a
// scalar, extent-1 axes inside, and one pair big enough that two threads each take a part.
std::vector<std::tuple<Broadcast, Shape, Shape>> operand_pairs() {
  return {
      {Broadcast::Equal, Shape::of({1}), Shape::of({1})},
      {Broadcast::Equal, Shape::of({37}), Shape::of({37})},
      {Broadcast::Equal, Shape::of({2, 3, 17}), Shape::of({2, 3, 17})},
      {Broadcast::NumpyRight, Shape::of({4, 5, 16}), Shape::of({16})},
      {Broadcast::NumpyRight, Shape::of({16}), Shape::of({4, 5, 16})},
      {Broadcast::NumpyRight, Shape::of({4, 1, 7}), Shape::of({5, 1})},
      {Broadcast::NumpyRight, Shape::of({3, 1}), Shape::of({1, 9})},
      {Broadcast::NumpyRight, Shape::of({}), Shape::of({2, 33})},
      {Broadcast::NumpyRight, Shape::of({2, 3, 1, 5}), Shape::of({3, 8, 1})},
      {Broadcast::NumpyRight, Shape::of({2, 3, 8, 5}), Shape::of({3, 1, 1})},
      {Broadcast::NnefLeft, Shape::of({4, 5, 16}), Shape::of({4})},
      {Broadcast::NnefLeft, Shape::of({2, 3, 9}), Shape::of({2, 3})},
      {Broadcast::NnefLeft, Shape::of({1, 6}), Shape::of({5, 1})},
      {Broadcast::NnefLeft, Shape::of({4, 1, 3}), Shape::of({1, 7})},
      {Broadcast::NnefLeft, Shape::of({2, 8, 5, 5}), Shape::of({1, 8})},
      {Broadcast::NumpyRight, Shape::of({300, 400}), Shape::of({400})},
  };
}

}  // namespace

TEST_CASE("fastpath binary: every op under every broadcast rule inside the envelope") {
  std::mt19937_64 gen(21);
  for (int op = 0; op <= static_cast<int>(kLastBinaryOp); ++op) {
    for (const auto& [rule, xs, ys] : operand_pairs()) {
      const BinaryAttrs a{static_cast<BinaryOp>(op), rule};
      INFO(op_name(a) << " of " << xs.str() << " and " << ys.str() << " (" << rule_name(rule) << ")");
      // pow: a positive base (a negative one leaves the envelope unbounded: checked below).
      const bool pow = a.op == BinaryOp::Pow;
      test::check_fast_op(a, {random_value(gen, xs, pow ? 0.0 : -10, pow ? 4.0 : 10), random_value(gen, ys, pow ? -6 : -10, pow ? 6 : 10)});
    }
  }
}

TEST_CASE("fastpath binary: NaN, infinities and zeros as the spec") {
  const std::vector<double> x = {kNaN, 1, kNaN, kInf, -kInf, 0.0, -0.0, 2, -3, 5, 0.0, -kInf};
  const std::vector<double> y = {1, kNaN, kNaN, 1, kInf, -0.0, 0.0, kInf, -kInf, 0.0, 0.0, -kInf};
  const Shape s = Shape::of({static_cast<int64_t>(x.size())});
  for (int op = 0; op <= static_cast<int>(kLastBinaryOp); ++op) {
    const BinaryAttrs a{static_cast<BinaryOp>(op), Broadcast::Equal};
    INFO(op_name(a));
    test::check_fast_op(a, {test::tensor(s, x), test::tensor(s, y)});
    // The spec's formula on doubles (spec/ops/binary.hpp): NaN where it gives NaN, infinities and
    // min/max exactly.
    const Tensor<double> expected = test::run<double>(a, {test::tensor(s, x), test::tensor(s, y)})[0];
    test::for_each_target([&] {
      const auto z = std::get<Tensor<float>>(test::run_fast(a, {test::tensor(s, x), test::tensor(s, y)}, {})[0]);
      for (int64_t i = 0; i < s.count(); ++i) {
        INFO("x = " << x[static_cast<size_t>(i)] << ", y = " << y[static_cast<size_t>(i)] << " on " << fastpath::current_target());
        CHECK(std::isnan(z[i]) == std::isnan(expected[i]));
        if (std::isinf(expected[i]) || a.op == BinaryOp::Min || a.op == BinaryOp::Max)
          CHECK((std::isnan(expected[i]) || z[i] == expected[i]));
      }
    });
  }
}

TEST_CASE("fastpath pow: negative bases with integer exponents, by hand") {
  const BinaryAttrs a{BinaryOp::Pow, Broadcast::NumpyRight};
  const auto z = std::get<Tensor<float>>(
      test::run_fast(a, {test::tensor(Shape::of({2, 1}), {-2, -8}), test::tensor(Shape::of({4}), {3, 2, -1, 1.0 / 3})}, {})[0]);
  CHECK(z[0] == -8);
  CHECK(z[1] == 4);
  CHECK(z[2] == -0.5f);
  CHECK(std::isnan(z[3]));  // (−2)^(1/3): no real value
  CHECK(z[4] == -512);
  CHECK(z[5] == 64);
  CHECK(z[6] == -0.125f);
  CHECK(std::isnan(z[7]));
  // A whole exponent bounds the envelope for either sign of the base: the answers lie inside it.
  test::check_fast_op(a, {test::tensor(Shape::of({3, 1}), {-2, -8, -0.75}), test::tensor(Shape::of({5}), {3, 2, -1, -2, 4})});
}

TEST_CASE("fastpath add_n: 2, 3 and 7 inputs in several shapes inside the envelope") {
  std::mt19937_64 gen(22);
  for (const int n : {2, 3, 7}) {
    for (const Shape& s : {Shape::of({1}), Shape::of({17}), Shape::of({3, 33}), Shape::of({2, 50000})}) {
      INFO(n << " inputs of " << s.str());
      std::vector<Value<double>> ins;
      for (int k = 0; k < n; ++k) ins.push_back(random_value(gen, s, -1000, 1000));
      test::check_fast_op(AddNAttrs{}, ins);
    }
  }
  const Shape s = Shape::of({3});
  const auto y = std::get<Tensor<float>>(test::run_fast(
      AddNAttrs{}, {test::tensor(s, {1, kInf, kNaN}), test::tensor(s, {2, -kInf, 1}), test::tensor(s, {0.5, 1, 1})}, {})[0]);
  CHECK(y[0] == 3.5f);
  CHECK(std::isnan(y[1]));  // inf − inf
  CHECK(std::isnan(y[2]));
}

TEST_CASE("fastpath broadcast_to: every rule, copies and fills, element for element") {
  std::mt19937_64 gen(23);
  const std::vector<std::tuple<Broadcast, Shape, std::vector<int64_t>>> cases = {
      {Broadcast::Equal, Shape::of({3, 4}), {3, 4}},
      {Broadcast::NumpyRight, Shape::of({3}), {2, 4, 3}},
      {Broadcast::NumpyRight, Shape::of({4, 1}), {2, 4, 17}},
      {Broadcast::NumpyRight, Shape::of({}), {5}},
      {Broadcast::NnefLeft, Shape::of({2}), {2, 3, 4}},
      {Broadcast::NnefLeft, Shape::of({1, 5}), {3, 5, 2}},
  };
  for (const auto& [rule, in, dims] : cases) {
    INFO(in.str() << " to " << dims.size() << " axes (" << rule_name(rule) << ")");
    test::check_fast_op(BroadcastToAttrs{dims, rule}, {random_value(gen, in)});
  }
}

TEST_CASE("fastpath clamp: every rule, bounds broadcast, a lower bound above the upper, NaN") {
  std::mt19937_64 gen(24);
  for (const auto& [rule, xs, bs] : operand_pairs()) {
    INFO(xs.str() << " within bounds of " << bs.str() << " (" << rule_name(rule) << ")");
    test::check_fast_op(ClampAttrs{rule}, {random_value(gen, xs), random_value(gen, bs, -8, 0), random_value(gen, bs, 0, 8)});
    // Bounds crossed at random: where lo > hi the result is lo.
    test::check_fast_op(ClampAttrs{rule}, {random_value(gen, xs), random_value(gen, bs), random_value(gen, bs)});
  }
  const Shape s = Shape::of({5});
  const auto y = std::get<Tensor<float>>(test::run_fast(
      ClampAttrs{Broadcast::Equal},
      {test::tensor(s, {kNaN, 0, 0, 5, -kInf}), test::tensor(s, {0, kNaN, 2, 0, 0}), test::tensor(s, {1, 1, 1, kNaN, 1})}, {})[0]);
  CHECK(std::isnan(y[0]));
  CHECK(std::isnan(y[1]));
  CHECK(y[2] == 2.0f);  // lo = 2 > hi = 1: lo
  CHECK(std::isnan(y[3]));
  CHECK(y[4] == 0.0f);
}

TEST_CASE("fastpath prelu: every rule, a slope per channel or per element, signs, zero, NaN") {
  std::mt19937_64 gen(25);
  for (const auto& [rule, xs, as] : operand_pairs()) {
    INFO(xs.str() << " with slopes " << as.str() << " (" << rule_name(rule) << ")");
    test::check_fast_op(PreluAttrs{rule}, {random_value(gen, xs), random_value(gen, as, -1, 1)});
  }
  const Shape s = Shape::of({5});
  const auto y = std::get<Tensor<float>>(test::run_fast(
      PreluAttrs{Broadcast::Equal}, {test::tensor(s, {-2, 3, -0.0, kNaN, -kInf}), test::tensor(s, {0.5, 0.5, 0.5, 0.5, 0.5})}, {})[0]);
  CHECK(y[0] == -1.0f);
  CHECK(y[1] == 3.0f);
  CHECK((y[2] == 0.0f && std::signbit(y[2])));  // −0 is not below 0: it stays
  CHECK(std::isnan(y[3]));
  CHECK(y[4] == -std::numeric_limits<float>::infinity());
}

TEST_CASE("fastpath select: every rule, the condition varying or held fixed along a run, exactly") {
  std::mt19937_64 gen(26);
  std::bernoulli_distribution coin(0.5);
  const auto condition = [&](const Shape& s) {
    std::vector<int> c;
    for (int64_t i = 0; i < s.count(); ++i) c.push_back(coin(gen) ? 1 : 0);
    return test::logical(s, c);
  };
  const std::vector<std::tuple<Broadcast, Shape, Shape, Shape>> cases = {
      {Broadcast::Equal, Shape::of({37}), Shape::of({37}), Shape::of({37})},
      {Broadcast::NumpyRight, Shape::of({4, 17}), Shape::of({17}), Shape::of({4, 1})},
      {Broadcast::NumpyRight, Shape::of({4, 1}), Shape::of({4, 17}), Shape::of({17})},
      {Broadcast::NumpyRight, Shape::of({}), Shape::of({3, 5}), Shape::of({5})},
      {Broadcast::NnefLeft, Shape::of({2, 3}), Shape::of({2, 3, 9}), Shape::of({2})},
      {Broadcast::NnefLeft, Shape::of({2, 3, 9}), Shape::of({1}), Shape::of({2, 3, 9})},
      {Broadcast::NumpyRight, Shape::of({200, 300}), Shape::of({300}), Shape::of({200, 300})},
  };
  for (const auto& [rule, cs, ts, fs] : cases) {
    INFO("condition " << cs.str() << ", values " << ts.str() << " and " << fs.str() << " (" << rule_name(rule) << ")");
    const Value<double> c = condition(cs), t = random_value(gen, ts), f = random_value(gen, fs);
    // The envelope of a picked value is that value alone: the judgement is exact equality.
    test::check_fast_op(SelectAttrs{rule}, {c, t, f});
  }
}

TEST_CASE("fastpath elementwise: a wrong answer is rejected by the same judgement") {
  std::mt19937_64 gen(27);
  const Shape s = Shape::of({2, 19});
  for (const auto& [attrs, scale] : {std::pair{UnaryAttrs{UnaryOp::Exp}, 0x1p-19}, std::pair{UnaryAttrs{UnaryOp::Sqrt}, 0x1p-22}}) {
    const Value<double> x = random_value(gen, s, 0.5, 5);
    const auto envelope = test::run_values<Envelope>(attrs, {test::value_as<Envelope>(x)});
    auto y = std::get<Tensor<float>>(test::run_fast(attrs, {x}, {})[0]).values();
    CHECK(test::rejected(std::get<Tensor<Envelope>>(envelope[0]), y) == 0);
    y[5] *= static_cast<float>(1 + scale);  // ≥ 16 ulps off an exp (4 allowed), ≥ 2 off a sqrt (½ allowed)
    CHECK(test::rejected(std::get<Tensor<Envelope>>(envelope[0]), y) == 1);
  }
  const BinaryAttrs add{BinaryOp::Add, Broadcast::NumpyRight};
  const std::vector<Value<double>> ins = {random_value(gen, s, 1, 2), random_value(gen, Shape::of({19}), 1, 2)};
  const auto envelope = test::run_values<Envelope>(add, {test::value_as<Envelope>(ins[0]), test::value_as<Envelope>(ins[1])});
  auto z = std::get<Tensor<float>>(test::run_fast(add, ins, {})[0]).values();
  CHECK(test::rejected(std::get<Tensor<Envelope>>(envelope[0]), z) == 0);
  z[20] = std::nextafter(std::nextafter(z[20], 10.0f), 10.0f);  // two ulps: a sum may be off by a half
  CHECK(test::rejected(std::get<Tensor<Envelope>>(envelope[0]), z) == 1);
}
