// Max, average and sum pooling: hand-computed values (arithmetic in the comments) and obligation codes.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "spec/ops/pool.hpp"
#include "spec/ops/transpose.hpp"

#include "op_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

PoolAttrs pool1d(PoolOp op, int64_t k, int64_t s) {
  PoolAttrs a;
  a.op = op;
  a.kernel = {k};
  a.stride = {s};
  return a;
}

}  // namespace

TEST_CASE("pool names", "[pool]") {
  CHECK(op_name(pool1d(PoolOp::Max, 1, 1)) == "max_pool");
  CHECK(op_name(pool1d(PoolOp::Avg, 1, 1)) == "avg_pool");
  CHECK(op_name(pool1d(PoolOp::Sum, 1, 1)) == "sum_pool");
}

TEST_CASE("sum pool adds the real elements of its window, whatever the border", "[pool]") {
  auto a = pool1d(PoolOp::Sum, 3, 2);
  a.padding = {{1, 1}};  // padded [p, 1, 2, 3, 4, p], windows {p,1,2}, {2,3,4}
  auto x = tensor(Shape::of({1, 1, 4}), {1, 2, 3, 4});
  for (PoolBorder border : {PoolBorder::Ignore, PoolBorder::Constant}) {
    a.border = border;
    CHECK(doubles(run(a, {x})[0]) == std::vector<double>{1 + 2, 2 + 3 + 4});
  }
  // A window wholly in the padding sums nothing: 0. Padded [p, p, 5, p, p] with kernel 1: p, p, 5, p, p.
  auto lone = pool1d(PoolOp::Sum, 1, 1);
  lone.padding = {{2, 2}};
  CHECK(doubles(run(lone, {tensor(Shape::of({1, 1, 1}), {5})})[0]) == std::vector<double>{0, 0, 5, 0, 0});
  // 2-D with dilation 2 over a 3x3 input: the four corners, 1 + 3 + 7 + 9.
  PoolAttrs corners;
  corners.op = PoolOp::Sum;
  corners.kernel = {2, 2};
  corners.dilation = {2, 2};
  CHECK(doubles(run(corners, {tensor(Shape::of({1, 1, 3, 3}), {1, 2, 3, 4, 5, 6, 7, 8, 9})})[0]) == std::vector<double>{20});
}

TEST_CASE("max pool with stride 3 and kernel 2", "[pool]") {
  // out ⌊(5−2)/3⌋+1 = 2: windows {0,1}, {3,4}
  auto x = tensor(Shape::of({1, 1, 5}), {1, 3, 2, 5, 4});
  CHECK(doubles(run(pool1d(PoolOp::Max, 2, 3), {x})[0]) == std::vector<double>{3, 5});
}

TEST_CASE("avg pool with padding: Ignore divides by the real count, Constant by the window", "[pool]") {
  auto a = pool1d(PoolOp::Avg, 3, 2);
  a.padding = {{1, 1}};  // padded [p, 1, 2, 3, 4, p], out ⌊(6−3)/2⌋+1 = 2, windows {p,1,2}, {2,3,4}
  auto x = tensor(Shape::of({1, 1, 4}), {1, 2, 3, 4});
  a.border = PoolBorder::Ignore;
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{(1 + 2) / 2.0, (2 + 3 + 4) / 3.0});
  a.border = PoolBorder::Constant;
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{(0 + 1 + 2) / 3.0, (2 + 3 + 4) / 3.0});
}

TEST_CASE("max pool with padding: Constant counts the padded zeros, Ignore does not", "[pool]") {
  auto a = pool1d(PoolOp::Max, 2, 1);
  a.padding = {{1, 0}};  // padded [p, −1, −2, −3], windows {p,−1}, {−1,−2}, {−2,−3}
  auto x = tensor(Shape::of({1, 1, 3}), {-1, -2, -3});
  a.border = PoolBorder::Ignore;
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{-1, -1, -2});
  a.border = PoolBorder::Constant;
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{0, -1, -2});
}

TEST_CASE("pool window entirely in the padding gives 0", "[pool]") {
  auto a = pool1d(PoolOp::Avg, 1, 1);
  a.padding = {{1, 1}};  // windows {p}, {5}, {p}
  auto x = tensor(Shape::of({1, 1, 1}), {5});
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{0, 5, 0});
  a.op = PoolOp::Max;
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{0, 5, 0});
}

TEST_CASE("pool same padding and dilation", "[pool]") {
  auto a = pool1d(PoolOp::Max, 2, 2);
  a.pad_mode = PadMode::SameLower;  // in 5: out ⌈5/2⌉ = 3, total (3−1)·2 + 2 − 5 = 1 → (1, 0)
  auto x = tensor(Shape::of({1, 1, 5}), {4, 1, 3, 2, 5});
  // padded [p, 4, 1, 3, 2, 5]: windows {p,4}, {1,3}, {2,5}
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{4, 3, 5});
  a.pad_mode = PadMode::SameUpper;  // (0, 1): windows {4,1}, {3,2}, {5,p}
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{4, 3, 5});
  a = pool1d(PoolOp::Avg, 2, 1);
  a.dilation = {3};  // window 4, out 2: {x0, x3}, {x1, x4}
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{(4 + 2) / 2.0, (1 + 5) / 2.0});
}

TEST_CASE("2-D pool keeps N and C, in both layouts", "[pool]") {
  PoolAttrs a;
  a.op = PoolOp::Max;
  a.kernel = {2, 2};
  a.stride = {2, 2};
  std::vector<double> xv;  // x[n][c][h][w] = 1000n + 100c + 10h + w, [2, 3, 4, 4]
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 3; ++c)
      for (int h = 0; h < 4; ++h)
        for (int w = 0; w < 4; ++w) xv.push_back(1000 * n + 100 * c + 10 * h + w);
  auto x = tensor(Shape::of({2, 3, 4, 4}), xv);
  auto y = run(a, {x})[0];
  REQUIRE(y.shape() == Shape::of({2, 3, 2, 2}));
  // max over {2i, 2i+1} × {2j, 2j+1} is at (2i+1, 2j+1)
  for (int n = 0; n < 2; ++n)
    for (int c = 0; c < 3; ++c)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          CHECK(sc::to_double(y[((n * 3 + c) * 2 + i) * 2 + j]) == 1000 * n + 100 * c + 10 * (2 * i + 1) + 2 * j + 1);
  a.layout = Layout::ChannelsLast;
  auto x_nhwc = run(TransposeAttrs{{0, 2, 3, 1}}, {x})[0];
  auto y_nhwc = run(a, {x_nhwc})[0];
  REQUIRE(y_nhwc.shape() == Shape::of({2, 2, 2, 3}));
  CHECK(run(TransposeAttrs{{0, 3, 1, 2}}, {y_nhwc})[0].values() == y.values());
}

TEST_CASE("pool float, double and mp50 agree", "[pool]") {
  auto a = pool1d(PoolOp::Avg, 3, 1);
  const std::vector<double> xv{0.1, 0.2, 0.7};
  auto yf = run<float>(a, {tensor<float>(Shape::of({1, 1, 3}), xv)})[0];
  auto ym = run<mp50>(a, {tensor<mp50>(Shape::of({1, 1, 3}), xv)})[0];
  CHECK(sc::to_double(yf[0]) == Approx(1.0 / 3).margin(1e-6));
  CHECK(sc::to_double(ym[0]) == Approx(1.0 / 3).margin(1e-15));
  // The sum 0.1 + 0.2 + 0.7 = 1 in mp50 within its 50 digits' rounding of the terms.
  a.op = PoolOp::Sum;
  CHECK(sc::to_double(run<mp50>(a, {tensor<mp50>(Shape::of({1, 1, 3}), xv)})[0][0]) == Approx(1.0).margin(1e-15));
}

TEST_CASE("pool obligations", "[pool][shape]") {
  const auto ok = pool1d(PoolOp::Max, 2, 1);
  const Shape in = Shape::of({1, 2, 5});
  REQUIRE(code_of(ok, {in}) == "ok");
  auto with = [&](auto edit) {
    PoolAttrs a = ok;
    edit(a);
    return code_of(a, {in});
  };
  CHECK(code_of(ok, {in, in}) == "graph.arity");
  CHECK(code_of(ok, {Shape::of({2, 5})}) == "shape.window.input-rank");
  CHECK(with([](PoolAttrs& a) { a.stride = {1, 1}; }) == "attr.window.attribute-length");
  CHECK(with([](PoolAttrs& a) { a.kernel = {-2}; }) == "attr.window.kernel-nonpositive");
  CHECK(with([](PoolAttrs& a) { a.stride = {0}; }) == "attr.window.stride-nonpositive");
  CHECK(with([](PoolAttrs& a) { a.dilation = {0}; }) == "attr.window.dilation-nonpositive");
  CHECK(with([](PoolAttrs& a) { a.padding = {{0, -1}}; }) == "attr.window.padding-negative");
  CHECK(with([](PoolAttrs& a) { a.kernel = {7}; }) == "shape.window.exceeds-input");
  const int64_t huge = int64_t{1} << 62;
  CHECK(with([&](PoolAttrs& a) { a.kernel = {huge}; }) == "shape.window.exceeds-input");
  CHECK(with([&](PoolAttrs& a) { a.padding = {{huge, huge}}; }) == "size.window.extent-overflow");
}

TEST_CASE("pool with a window of 2^80 positions reads its one real element", "[pool]") {
  // Kernel 2^40 × 2^40 with padding 2^40 − 1 before on both axes, over one element: the padded
  // extent is 2^40, one output position, and its only real position is the window's last, whose
  // offset in the kernel, (2^40 − 1)·2^40 + 2^40 − 1, does not fit an int64 (and is not needed).
  const int64_t k = int64_t{1} << 40;
  PoolAttrs a;
  a.kernel = {k, k};
  a.padding = {{k - 1, 0}, {k - 1, 0}};
  auto x = tensor(Shape::of({1, 1, 1, 1}), {-3});
  a.op = PoolOp::Max;
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{-3});
  a.border = PoolBorder::Constant;  // the padded zeros count
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{0});
  a.op = PoolOp::Avg;
  a.border = PoolBorder::Ignore;
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{-3});
}
