// The fast path's comparison and logical lowerings (fastpath/ops/compare.cpp, logical.cpp) and its
// integer and logical constants (fastpath/ops/const.cpp), on every Highway target with 1 and 2
// threads, under every broadcast rule; their logical and integer answers must equal the spec's
// exactly (test::check_fast_op).
#include <catch2/catch.hpp>

#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "fastpath_op_exact_support.hpp"

using namespace nnref;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Values drawn from a few small integers, so that ties (eq, le, ge) are frequent.
Value<double> small_integers(std::mt19937_64& gen, const Shape& s) {
  std::uniform_int_distribution<int> u(-2, 2);
  std::vector<double> v;
  for (int64_t i = 0; i < s.count(); ++i) v.push_back(u(gen));
  return test::tensor(s, v);
}

Value<double> random_logical(std::mt19937_64& gen, const Shape& s) {
  std::bernoulli_distribution coin(0.5);
  std::vector<int> v;
  for (int64_t i = 0; i < s.count(); ++i) v.push_back(coin(gen) ? 1 : 0);
  return test::logical(s, v);
}

// Two operand shapes per rule: equal (sizes around the vector widths and one that is a multiple
// of nothing), one side broadcast, both sides, extent-1 axes, and one big enough for two threads.
std::vector<std::tuple<Broadcast, Shape, Shape>> operand_pairs() {
  return {
      {Broadcast::Equal, Shape::of({1}), Shape::of({1})},
      {Broadcast::Equal, Shape::of({16}), Shape::of({16})},
      {Broadcast::Equal, Shape::of({3, 37}), Shape::of({3, 37})},
      {Broadcast::NumpyRight, Shape::of({4, 5, 8}), Shape::of({8})},
      {Broadcast::NumpyRight, Shape::of({3, 1}), Shape::of({1, 9})},
      {Broadcast::NumpyRight, Shape::of({}), Shape::of({2, 33})},
      {Broadcast::NnefLeft, Shape::of({4, 5, 16}), Shape::of({4})},
      {Broadcast::NnefLeft, Shape::of({1, 6}), Shape::of({5, 1})},
      {Broadcast::NnefLeft, Shape::of({2, 8, 5, 5}), Shape::of({1, 8})},
      {Broadcast::NnefLeft, Shape::of({300, 400}), Shape::of({300})},
  };
}

}  // namespace

TEST_CASE("fastpath compare: every relation under every broadcast rule, exactly") {
  std::mt19937_64 gen(41);
  for (int op = 0; op <= static_cast<int>(CompareOp::Ne); ++op)
    for (const auto& [rule, xs, ys] : operand_pairs()) {
      const CompareAttrs a{static_cast<CompareOp>(op), rule};
      INFO(op_name(a) << " of " << xs.str() << " and " << ys.str() << " (" << rule_name(rule) << ")");
      test::check_fast_op(a, {small_integers(gen, xs), small_integers(gen, ys)});
    }
}

// Every pair of NaN, ±inf, ±0, a subnormal and a huge value, compared both ways: judged against
// the spec in float (the envelope leaves NaN and subnormal comparisons unknown).
TEST_CASE("fastpath compare: NaN, infinities, signed zeros, tiny and huge values") {
  const std::vector<double> specials = {kNaN, kInf, -kInf, 0.0, -0.0, 1e-40, -1e-40, 3e38, -3e38, 1.0};
  std::vector<double> xs, ys;
  for (double x : specials)
    for (double y : specials) {
      xs.push_back(x);
      ys.push_back(y);
    }
  const Shape s = Shape::of({static_cast<int64_t>(xs.size())});
  for (int op = 0; op <= static_cast<int>(CompareOp::Ne); ++op) {
    const CompareAttrs a{static_cast<CompareOp>(op), Broadcast::Equal};
    INFO(op_name(a));
    test::check_fast_op_in_float(a, {test::tensor(s, xs), test::tensor(s, ys)});
  }
}

TEST_CASE("fastpath logical: not, and, or under every broadcast rule, exactly") {
  std::mt19937_64 gen(42);
  for (const Shape& s : {Shape::of({1}), Shape::of({17}), Shape::of({3, 64}), Shape::of({70, 100})})
    test::check_fast_op(LogicalAttrs{LogicalOp::Not}, {random_logical(gen, s)});
  for (LogicalOp op : {LogicalOp::And, LogicalOp::Or})
    for (const auto& [rule, xs, ys] : operand_pairs()) {
      const LogicalAttrs a{op, rule};
      INFO(op_name(a) << " of " << xs.str() << " and " << ys.str() << " (" << rule_name(rule) << ")");
      test::check_fast_op(a, {random_logical(gen, xs), random_logical(gen, ys)});
    }
}

TEST_CASE("fastpath const: integer and logical constants, exactly") {
  const Shape s = Shape::of({2, 3});
  test::check_fast_op(ConstAttrs{{2, 3}, ElemKind::Integer}, {}, {test::tensor(s, {-16777216, -1, 0, 1, 5, 16777216})});
  test::check_fast_op(ConstAttrs{{2, 3}, ElemKind::Logical}, {}, {test::tensor(s, {1, 0, 0, 1, 1, 0})});
}
