// The pool lowering (fastpath/ops/pool.cpp): max, avg and sum, both borders, every padding mode, both
// layouts, spatial rank 1 to 3, stride and dilation, channel counts around the vector widths, NaN
// and infinities in the windows.
#include <catch2/catch.hpp>

#include <limits>
#include <random>
#include <vector>

#include "fastpath_op_test_support.hpp"

using namespace nnref;

namespace {

// Values uniform in [−4, 4), with NaN, ±inf and −0 sprinkled in when `special`.
Tensor<double> pool_input(std::mt19937_64& gen, const Shape& s, bool special) {
  std::uniform_real_distribution<double> unit(-4.0, 4.0);
  const double inf = std::numeric_limits<double>::infinity();
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(), inf, -inf, -0.0, 3e38, 1e-40};
  std::vector<double> v;
  for (int64_t i = 0; i < s.count(); ++i)
    v.push_back(special && i % 23 == 5 ? specials[(i / 23) % 6] : static_cast<double>(static_cast<float>(unit(gen))));
  return test::tensor(s, v);
}

void check_pool(const PoolAttrs& a, const std::vector<int64_t>& dims, bool special, uint64_t seed) {
  std::mt19937_64 gen(seed);
  const Shape x = std::move(Shape::make(dims)).value();
  INFO(op_name(a) << " over " << x.str() << ", pad mode " << static_cast<int>(a.pad_mode) << ", border "
                  << static_cast<int>(a.border) << (a.layout == Layout::ChannelsLast ? ", channels last" : ", channels first"));
  test::check_fast_op(a, {Value<double>(pool_input(gen, x, special))});
}

}  // namespace

TEST_CASE("fastpath pool lowering: max, avg and sum, both borders, every padding mode, rank 1 to 3, both layouts") {
  for (PoolOp op : {PoolOp::Max, PoolOp::Avg, PoolOp::Sum})
    for (PoolBorder border : {PoolBorder::Ignore, PoolBorder::Constant})
      for (PadMode mode : {PadMode::Explicit, PadMode::Valid, PadMode::SameUpper, PadMode::SameLower, PadMode::ExplicitCeil})
        for (Layout layout : {Layout::ChannelsLast, Layout::ChannelsFirst})
          for (bool special : {false, true}) {
            PoolAttrs a;
            a.op = op;
            a.border = border;
            a.pad_mode = mode;
            a.layout = layout;
            const bool last = layout == Layout::ChannelsLast;
            a.kernel = {3, 2};
            a.stride = {2, 1};
            a.dilation = {1, 2};
            a.padding = {{1, 2}, {0, 1}};
            check_pool(a, last ? std::vector<int64_t>{2, 7, 6, 17} : std::vector<int64_t>{2, 17, 7, 6}, special, 1);
            a.kernel = {4};
            a.stride = {3};
            a.dilation = {};
            a.padding = {{2, 3}};
            check_pool(a, last ? std::vector<int64_t>{1, 13, 8} : std::vector<int64_t>{1, 8, 13}, special, 2);
            a.kernel = {2, 2, 3};
            a.stride = {1, 2, 1};
            a.dilation = {2, 1, 1};
            a.padding = {{0, 1}, {1, 1}, {2, 0}};
            check_pool(a, last ? std::vector<int64_t>{2, 4, 5, 3, 5} : std::vector<int64_t>{2, 5, 4, 5, 3}, special, 3);
            // No padding, 8x5 with kernel (3, 2), stride 2: ExplicitCeil's last windows overhang
            // (⌈5/2⌉ + 1 = 4 rows, ⌈3/2⌉ + 1 = 3 columns, floor 3 and 2).
            a.kernel = {3, 2};
            a.stride = {2, 2};
            a.dilation = {};
            a.padding = {};
            check_pool(a, last ? std::vector<int64_t>{2, 8, 5, 3} : std::vector<int64_t>{2, 3, 8, 5}, special, 4);
          }
}

TEST_CASE("fastpath pool lowering: a window wholly in the padding gives 0, one channel, a single output") {
  for (PoolOp op : {PoolOp::Max, PoolOp::Avg, PoolOp::Sum})
    for (PoolBorder border : {PoolBorder::Ignore, PoolBorder::Constant})
      for (Layout layout : {Layout::ChannelsLast, Layout::ChannelsFirst}) {
        PoolAttrs a;
        a.op = op;
        a.border = border;
        a.layout = layout;
        a.kernel = {2};
        a.stride = {2};
        a.padding = {{3, 0}};  // the first window reads only padding
        const bool last = layout == Layout::ChannelsLast;
        check_pool(a, last ? std::vector<int64_t>{1, 4, 1} : std::vector<int64_t>{1, 1, 4}, false, 4);
        a.kernel = {3, 3};
        a.stride = {};
        a.padding = {};
        check_pool(a, last ? std::vector<int64_t>{1, 3, 3, 1} : std::vector<int64_t>{1, 1, 3, 3}, true, 5);
      }
}

// NNEF's windows over every axis reach the IR as a pool over [1, 1, x...] (docs/ops/pool.md): one
// sample, one channel, spatial rank 4, as a local response normalization across channels makes it.
TEST_CASE("fastpath pool lowering: a window over every axis of a rank-4 tensor, viewed as [1, 1, x...]") {
  for (PoolOp op : {PoolOp::Max, PoolOp::Avg, PoolOp::Sum})
    for (PoolBorder border : {PoolBorder::Ignore, PoolBorder::Constant}) {
      PoolAttrs a;
      a.op = op;
      a.border = border;
      a.kernel = {1, 5, 1, 2};
      a.stride = {1, 1, 2, 1};
      a.padding = {{0, 0}, {2, 2}, {0, 1}, {1, 0}};
      check_pool(a, {1, 1, 2, 9, 5, 4}, true, 6);
      a.pad_mode = PadMode::SameUpper;
      check_pool(a, {1, 1, 3, 7, 4, 3}, false, 7);
    }
}
