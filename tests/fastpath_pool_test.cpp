// The fast path's pooling on every Highway target this machine runs, judged by the spec's pool
// evaluated over the Envelope scalar (the float32 runtime model): every element inside, which for
// max pooling means equal to the exact maximum. Padding in both border modes, stride, dilation,
// channel counts around the vector width, and NaN.
#include <catch2/catch.hpp>
#include <hwy/targets.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "fastpath/gemm.hpp"
#include "fastpath/pool.hpp"
#include "fastpath_test_support.hpp"
#include "op_test_support.hpp"
#include "spec/scalars.hpp"

using namespace nnref;

namespace {

struct Case {
  int64_t h, w, c, k, stride, dilation, pad_before, pad_after;
};

void check_pool(const Case& t, fastpath::Pooling op, PoolBorder border, const std::vector<double>& values) {
  fastpath::WindowGeometry g{t.h, t.w, t.c, t.k, t.k, t.stride, t.stride, t.dilation, t.dilation, t.pad_before,
                             t.pad_before, 0, 0};
  g.out_h = (t.h + t.pad_before + t.pad_after - ((t.k - 1) * t.dilation + 1)) / t.stride + 1;
  g.out_w = (t.w + t.pad_before + t.pad_after - ((t.k - 1) * t.dilation + 1)) / t.stride + 1;
  INFO("target " << fastpath::current_target() << ", input " << t.h << "x" << t.w << "x" << t.c << ", kernel " << t.k
                 << ", stride " << t.stride << ", dilation " << t.dilation << ", pads " << t.pad_before << "/"
                 << t.pad_after << (op == fastpath::Pooling::Max ? ", max" : op == fastpath::Pooling::Avg ? ", avg" : ", sum")
                 << (border == PoolBorder::Constant ? ", constant" : ", ignore"));
  const std::vector<float> x(values.begin(), values.end());
  std::vector<float> y(static_cast<size_t>(g.out_h * g.out_w * t.c), -1.0f);
  fastpath::pool2d(x.data(), g, op, border == PoolBorder::Constant, y.data());

  PoolAttrs a;
  a.op = op == fastpath::Pooling::Max ? PoolOp::Max : op == fastpath::Pooling::Avg ? PoolOp::Avg : PoolOp::Sum;
  a.kernel = {t.k, t.k};
  a.stride = {t.stride, t.stride};
  a.dilation = {t.dilation, t.dilation};
  a.padding = {{t.pad_before, t.pad_after}, {t.pad_before, t.pad_after}};
  a.border = border;
  a.layout = Layout::ChannelsLast;
  const auto envelope = test::run<Envelope>(a, {test::tensor<Envelope>(Shape::of({1, t.h, t.w, t.c}), values)});
  REQUIRE(envelope[0].size() == static_cast<int64_t>(y.size()));
  CHECK(test::rejected(envelope[0], y) == 0);
}

}  // namespace

TEST_CASE("fastpath pool2d: every target, max, avg and sum in both border modes, inside the spec's float32 envelope") {
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> unit(-4.0, 4.0);
  const std::vector<Case> cases = {{6, 6, 3, 2, 2, 1, 0, 0},   {7, 5, 17, 3, 2, 1, 1, 1}, {9, 9, 33, 3, 1, 2, 2, 2},
                                   {4, 4, 16, 3, 3, 1, 0, 2},  {3, 3, 1, 3, 1, 1, 2, 2}};
  test::for_each_target([&] {
    for (const Case& t : cases) {
      std::vector<double> values;
      for (int64_t i = 0; i < t.h * t.w * t.c; ++i) values.push_back(static_cast<float>(unit(gen)));
      values[static_cast<size_t>(t.c / 2)] = std::numeric_limits<double>::quiet_NaN();  // pixel (0, 0), channel c/2
      for (auto op : {fastpath::Pooling::Max, fastpath::Pooling::Avg, fastpath::Pooling::Sum})
        for (auto border : {PoolBorder::Ignore, PoolBorder::Constant}) check_pool(t, op, border, values);
    }
  });
}

TEST_CASE("fastpath pool2d: a NaN in the window makes max, avg and sum NaN, as in the spec") {
  const std::vector<float> x = {1.0f, std::numeric_limits<float>::quiet_NaN(), 3.0f, 4.0f};
  const fastpath::WindowGeometry g{2, 2, 1, 2, 2, 2, 2, 1, 1, 0, 0, 1, 1};
  test::for_each_target([&] {
    for (auto op : {fastpath::Pooling::Max, fastpath::Pooling::Avg, fastpath::Pooling::Sum}) {
      float y = 0;
      fastpath::pool2d(x.data(), g, op, false, &y);
      CHECK(std::isnan(y));
    }
  });
}
