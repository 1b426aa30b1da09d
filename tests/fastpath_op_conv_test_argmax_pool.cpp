// The argmax_pool, sample and desample lowerings (fastpath/ops/argmax_pool.cpp, sample.cpp) on
// every Highway target with 1 and 2 threads: argmax_pool's indices equal the spec's, sample's and
// desample's values lie in the spec's float32 envelope. Both borders, every padding mode, spatial
// rank 1 to 3, stride and dilation, windows over the padding, indices outside the window; and a
// wrong desample answer rejected.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "fastpath_op_test_support.hpp"

using namespace nnref;

namespace {

const Shape shape(const std::vector<int64_t>& dims) { return std::move(Shape::make(dims)).value(); }

// Small integers in [−4, 4] (ties the argmax must break to the first), with −0 and ±2^100 when
// `special` (no NaN and no infinity: an envelope leaves an argmax over them undecided, which no
// float answers).
Tensor<double> small_values(std::mt19937_64& gen, const Shape& s, bool special) {
  std::uniform_int_distribution<int> d(-4, 4);
  const double specials[] = {0x1p100, -0x1p100, -0.0, 0x1p100};
  std::vector<double> v;
  for (int64_t i = 0; i < s.count(); ++i) v.push_back(special && i % 7 == 3 ? specials[(i / 7) % 4] : d(gen));
  return test::tensor(s, v);
}

// Reals in [−4, 4) with NaN, ±inf, −0 and a subnormal when `special`.
Tensor<double> real_values(std::mt19937_64& gen, const Shape& s, bool special) {
  std::uniform_real_distribution<double> unit(-4.0, 4.0);
  const double inf = std::numeric_limits<double>::infinity();
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(), inf, -inf, -0.0, 1e-40};
  std::vector<double> v;
  for (int64_t i = 0; i < s.count(); ++i)
    v.push_back(special && i % 11 == 4 ? specials[(i / 11) % 5] : static_cast<double>(static_cast<float>(unit(gen))));
  return test::tensor(s, v);
}

// Indices in [lo, hi].
Tensor<int64_t> indices(std::mt19937_64& gen, const Shape& s, int64_t lo, int64_t hi) {
  std::uniform_int_distribution<int64_t> d(lo, hi);
  std::vector<int64_t> v;
  for (int64_t i = 0; i < s.count(); ++i) v.push_back(d(gen));
  return Tensor<int64_t>::from(s, std::move(v)).value();
}

struct Case {
  std::vector<int64_t> kernel, stride, dilation;
  std::vector<std::pair<int64_t, int64_t>> padding;
  std::vector<int64_t> input;
};

// Rank 1 to 3, stride, dilation, padding beyond the window (a window wholly in the padding), one
// channel and channel counts around the vector widths.
const std::vector<Case> kCases = {
    {{3, 2}, {2, 1}, {1, 2}, {{1, 2}, {0, 1}}, {2, 17, 7, 6}},
    {{4}, {3}, {}, {{2, 3}}, {1, 8, 13}},
    {{2}, {2}, {}, {{3, 0}}, {1, 1, 4}},
    {{2, 2, 3}, {1, 2, 1}, {2, 1, 1}, {{0, 1}, {1, 1}, {2, 0}}, {2, 5, 4, 5, 3}},
    {{1, 1}, {}, {}, {{0, 0}, {0, 0}}, {3, 16, 2, 2}},
};

template <class A>
void set_window(A& a, const Case& c, PadMode mode) {
  a.kernel = c.kernel;
  a.stride = c.stride;
  a.dilation = c.dilation;
  a.padding = c.padding;
  a.pad_mode = mode;
}

int64_t volume(const std::vector<int64_t>& kernel) {
  int64_t v = 1;
  for (int64_t k : kernel) v *= k;
  return v;
}

}  // namespace

TEST_CASE("fastpath argmax_pool lowering: both borders, every padding mode, rank 1 to 3") {
  std::mt19937_64 gen(31);
  for (const Case& c : kCases)
    for (PoolBorder border : {PoolBorder::Ignore, PoolBorder::Constant})
      for (PadMode mode : {PadMode::Explicit, PadMode::Valid, PadMode::SameUpper, PadMode::SameLower})
        for (bool special : {false, true}) {
          ArgmaxPoolAttrs a;
          a.border = border;
          set_window(a, c, mode);
          if (!Checked<ArgmaxPoolAttrs>::check(a, {shape(c.input)})) continue;  // Valid: the window may not fit
          INFO("argmax_pool over " << shape(c.input).str() << ", pad mode " << static_cast<int>(mode) << ", border "
                                   << static_cast<int>(border));
          test::check_fast_op(a, {Value<double>(small_values(gen, shape(c.input), special))});
        }
}

TEST_CASE("fastpath sample and desample lowerings: every padding mode, rank 1 to 3, indices outside the window") {
  std::mt19937_64 gen(32);
  for (const Case& c : kCases)
    for (PadMode mode : {PadMode::Explicit, PadMode::Valid, PadMode::SameUpper, PadMode::SameLower})
      for (bool special : {false, true}) {
        SampleAttrs a;
        set_window(a, c, mode);
        const auto checked = Checked<ArgmaxPoolAttrs>::check(ArgmaxPoolAttrs{a.kernel, a.stride, a.dilation, a.padding, mode},
                                                             {shape(c.input)});
        if (!checked) continue;
        const Shape up = shape(c.input), down = checked->outputs()[0];
        const int64_t v = volume(c.kernel);
        INFO("over " << up.str() << " and " << down.str() << ", pad mode " << static_cast<int>(mode));
        test::check_fast_op(a, {Value<double>(real_values(gen, up, special)), Value<double>(indices(gen, down, -1, v))});
        a.op = SampleOp::Desample;
        a.output_shape = up.dims();
        test::check_fast_op(a, {Value<double>(real_values(gen, down, special)), Value<double>(indices(gen, down, 0, v))});
      }
}

// sample of argmax_pool's index on the same input, through the fast path: max_pool's values.
TEST_CASE("fastpath sample of argmax_pool's index is max_pool's value") {
  std::mt19937_64 gen(33);
  const Case& c = kCases[0];
  ArgmaxPoolAttrs arg;
  set_window(arg, c, PadMode::Explicit);
  SampleAttrs sample;
  set_window(sample, c, PadMode::Explicit);
  PoolAttrs max;
  set_window(max, c, PadMode::Explicit);
  max.border = PoolBorder::Constant;
  const Value<double> x(real_values(gen, shape(c.input), false));
  const auto index = std::get<Tensor<int64_t>>(test::run_fast(arg, {x}, {})[0]);
  const auto sampled = std::get<Tensor<float>>(test::run_fast(sample, {x, Value<double>(index)}, {})[0]).values();
  const auto pooled = std::get<Tensor<float>>(test::run_fast(max, {x}, {})[0]).values();
  CHECK(std::vector<float>(sampled.begin(), sampled.end()) == std::vector<float>(pooled.begin(), pooled.end()));
}

TEST_CASE("fastpath desample: the judgement rejects an answer off by one") {
  std::mt19937_64 gen(34);
  SampleAttrs a;
  a.op = SampleOp::Desample;
  a.kernel = {3};
  a.output_shape = {1, 1, 6};
  const Tensor<double> x = real_values(gen, shape({1, 1, 4}), false);
  const Tensor<int64_t> index = Tensor<int64_t>::from(shape({1, 1, 4}), {2, 1, 0, 0}).value();  // all at 2, then 3
  const auto envelope = test::run_values<Envelope>(
      a, {test::value_as<Envelope>(Value<double>(x)), Value<Envelope>(index)});
  const auto& expected = std::get<Tensor<Envelope>>(envelope[0]);
  auto y = std::get<Tensor<float>>(test::run_fast(a, {Value<double>(x), Value<double>(index)}, {})[0]).values();
  REQUIRE(test::rejected(expected, y) == 0);
  // Element 2 sums three terms within γ(4)·Σ|terms| ≤ 12·2^-21: moved by 2^-8 of its magnitude plus one.
  y[2] += std::abs(y[2]) * 0x1p-8f + 1.0f;
  CHECK(test::rejected(expected, y) == 1);
}
