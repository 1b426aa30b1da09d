// Deconvolution (the transposed conv): hand-computed values (arithmetic in the comments), the
// adjoint identity with conv, and every obligation code.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "spec/ops/conv.hpp"
#include "spec/ops/deconv.hpp"

#include "op_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

// 1-D deconv attributes: one input and one output channel.
DeconvAttrs deconv1d(int64_t k) {
  DeconvAttrs a;
  a.out_channels = 1;
  a.kernel = {k};
  a.has_bias = false;
  return a;
}

const auto x123 = [] { return tensor(Shape::of({1, 1, 3}), {1, 2, 3}); };

}  // namespace

TEMPLATE_TEST_CASE("deconv 1-D stride 1: the full convolution", "[deconv]", float, double, mp50) {
  // X = (3 − 1)·1 + 2 = 4; y[i] = Σ_j x[i − j]·w[j]: 1, 2 + 10, 3 + 20, 30.
  auto w = tensor<TestType>(Shape::of({1, 1, 2}), {1, 10});
  auto y = run<TestType>(deconv1d(2), {tensor<TestType>(Shape::of({1, 1, 3}), {1, 2, 3})}, {w})[0];
  CHECK(y.shape() == Shape::of({1, 1, 4}));
  CHECK(doubles(y) == std::vector<double>{1, 12, 23, 30});
}

TEST_CASE("deconv 1-D stride 2: each input places the filter 2 apart, overlaps summed", "[deconv]") {
  // X = (3 − 1)·2 + 3 = 7; y[i] = Σ_j x[(i − j)/2]·w[j] over even i − j:
  // 1; 10·1; 2 + 100·1; 10·2; 3 + 100·2; 10·3; 100·3.
  auto a = deconv1d(3);
  a.stride = {2};
  auto w = tensor(Shape::of({1, 1, 3}), {1, 10, 100});
  CHECK(doubles(run(a, {x123()}, {w})[0]) == std::vector<double>{1, 10, 102, 20, 203, 30, 300});
  a.padding = {{1, 1}};  // X = 7 − 2 = 5: y[i] is the unpadded y[i + 1]
  CHECK(doubles(run(a, {x123()}, {w})[0]) == std::vector<double>{10, 102, 20, 203, 30});
  a.padding = {{0, -1}};  // negative padding after (ONNX output_padding 1): X = 8, the last reads no input
  CHECK(doubles(run(a, {x123()}, {w})[0]) == std::vector<double>{1, 10, 102, 20, 203, 30, 300, 0});
  a.padding = {{-2, 3}};  // X = 7 + 2 − 3 = 6: two positions before the input, then y[0..3] unpadded
  CHECK(doubles(run(a, {x123()}, {w})[0]) == std::vector<double>{0, 0, 1, 10, 102, 20});
}

TEST_CASE("deconv 1-D dilation 2 and a bias", "[deconv]") {
  // fd = (2 − 1)·2 + 1 = 3, X = 2 + 3 = 5; y[i] = 7 + x[i]·1 + x[i − 2]·10.
  auto a = deconv1d(2);
  a.dilation = {2};
  a.has_bias = true;
  auto w = tensor(Shape::of({1, 1, 2}), {1, 10});
  auto b = tensor(Shape::of({1}), {7});
  CHECK(doubles(run(a, {x123()}, {w, b})[0]) == std::vector<double>{7 + 1, 7 + 2, 7 + 3 + 10, 7 + 20, 7 + 30});
}

TEST_CASE("deconv 2-D stride 2 with a 2x2 filter: non-overlapping blocks x[k]·w", "[deconv]") {
  DeconvAttrs a;
  a.out_channels = 1;
  a.kernel = {2, 2};
  a.stride = {2, 2};
  a.has_bias = false;
  auto x = tensor(Shape::of({1, 1, 2, 2}), {1, 2, 3, 4});
  auto w = tensor(Shape::of({1, 1, 2, 2}), {1, 2, 3, 4});
  auto y = run(a, {x}, {w})[0];
  CHECK(y.shape() == Shape::of({1, 1, 4, 4}));
  // block (r, c) = x[r, c]·[[1, 2], [3, 4]]
  CHECK(doubles(y) == std::vector<double>{1, 2, 2, 4, 3, 4, 6, 8, 3, 6, 4, 8, 9, 12, 12, 16});
}

TEST_CASE("deconv channels and groups: the weight is [C, out/groups, k...]", "[deconv]") {
  auto x = tensor(Shape::of({1, 2, 2}), {1, 2, 3, 4});  // channel 0: 1 2, channel 1: 3 4
  DeconvAttrs a = deconv1d(2);
  // groups 1, one output channel: [1, 1]⊛ch0 + [10, 0]⊛ch1 = [1, 3, 2] + [30, 40, 0]
  auto w = tensor(Shape::of({2, 1, 2}), {1, 1, 10, 0});
  CHECK(doubles(run(a, {x}, {w})[0]) == std::vector<double>{31, 43, 2});
  // groups 2, one output channel a group: y0 = [1, 1]⊛ch0, y1 = [10, 0]⊛ch1
  a.groups = 2;
  a.out_channels = 2;
  CHECK(doubles(run(a, {x}, {w})[0]) == std::vector<double>{1, 3, 2, 30, 40, 0});
  // groups 2, two output channels a group, kernel 1: y0 = 1·ch0, y1 = 2·ch0, y2 = 3·ch1, y3 = 4·ch1
  a.out_channels = 4;
  a.kernel = {1};
  auto w1 = tensor(Shape::of({2, 2, 1}), {1, 2, 3, 4});
  CHECK(doubles(run(a, {x}, {w1})[0]) == std::vector<double>{1, 2, 2, 4, 9, 12, 12, 16});
  // batch 2: the second sample is the first times 10
  auto x2 = tensor(Shape::of({2, 2, 2}), {1, 2, 3, 4, 10, 20, 30, 40});
  CHECK(doubles(run(a, {x2}, {w1})[0]) ==
        std::vector<double>{1, 2, 2, 4, 9, 12, 12, 16, 10, 20, 20, 40, 90, 120, 120, 160});
}

// deconv is the adjoint of conv: Σ conv(u)·v = Σ u·deconv(v) for the same weight, stride, dilation,
// padding and groups whenever the down-scaled extent divides exactly. Integer values in [−4, 4]:
// every product and sum is exact in double.
TEST_CASE("deconv is the adjoint of conv over the same weight", "[deconv]") {
  std::mt19937_64 gen(7);
  std::uniform_int_distribution<int> dist(-4, 4);
  const auto fill = [&](const Shape& s) {
    std::vector<double> v(static_cast<size_t>(s.count()));
    for (double& e : v) e = dist(gen);
    return tensor(s, v);
  };
  struct Case {
    std::vector<int64_t> up, kernel, stride, dilation;
    std::vector<std::pair<int64_t, int64_t>> padding;
    int64_t channels, filters, groups;
  };
  const std::vector<Case> cases = {
      {{9}, {3}, {2}, {1}, {{1, 1}}, 2, 3, 1},
      {{7, 8}, {3, 2}, {2, 3}, {1, 2}, {{1, 1}, {0, 1}}, 4, 6, 2},
      {{5, 6}, {2, 3}, {1, 1}, {2, 1}, {{0, 0}, {1, 1}}, 3, 3, 3},
      {{4, 5, 6}, {2, 2, 3}, {2, 1, 3}, {1, 1, 1}, {{0, 0}, {1, 0}, {1, 2}}, 2, 2, 1},
  };
  for (const Case& k : cases) {
    ConvAttrs c;
    c.out_channels = k.filters;
    c.kernel = k.kernel, c.stride = k.stride, c.dilation = k.dilation, c.padding = k.padding;
    c.groups = k.groups;
    c.has_bias = false;
    std::vector<int64_t> up{2, k.channels};
    up.insert(up.end(), k.up.begin(), k.up.end());
    const Shape up_shape = std::move(Shape::make(up)).value();
    std::vector<int64_t> wd{k.filters, k.channels / k.groups};
    wd.insert(wd.end(), k.kernel.begin(), k.kernel.end());
    const auto w = fill(std::move(Shape::make(wd)).value());
    const auto u = fill(up_shape);
    const auto cu = run(c, {u}, {w})[0];
    DeconvAttrs d;
    d.out_channels = k.channels;
    d.kernel = k.kernel, d.stride = k.stride, d.dilation = k.dilation, d.padding = k.padding;
    d.groups = k.groups;
    d.has_bias = false;
    const auto v = fill(cu.shape());
    const auto dv = run(d, {v}, {w})[0];
    REQUIRE(dv.shape() == up_shape);  // the cases divide exactly: deconv's extents are conv's input's
    double lhs = 0, rhs = 0;
    for (int64_t i = 0; i < cu.size(); ++i) lhs += cu[i] * v[i];
    for (int64_t i = 0; i < u.size(); ++i) rhs += u[i] * dv[i];
    INFO("conv output " << cu.shape().str());
    CHECK(lhs == rhs);
  }
}

TEST_CASE("deconv parameters and output shape", "[deconv][shape]") {
  DeconvAttrs a;
  a.out_channels = 6;
  a.kernel = {3, 2};
  a.stride = {2, 1};
  a.padding = {{1, 0}, {0, -1}};
  a.groups = 3;
  auto c = Checked<DeconvAttrs>::check(a, {Shape::of({2, 9, 4, 5})});
  REQUIRE(c.ok());
  // height (4 − 1)·2 + 3 − 1 = 8, width (5 − 1)·1 + 2 + 1 = 7
  CHECK(c->outputs()[0] == Shape::of({2, 6, 8, 7}));
  CHECK(c->params()[0].role == "weight");
  CHECK(c->params()[0].shape == Shape::of({9, 2, 3, 2}));
  CHECK(c->params()[1].shape == Shape::of({6}));
}

TEST_CASE("deconv obligations", "[deconv][shape]") {
  const auto ok = deconv1d(3);
  const Shape in = Shape::of({1, 2, 5});
  REQUIRE(code_of(ok, {in}) == "ok");
  auto with = [&](auto edit) {
    DeconvAttrs a = ok;
    edit(a);
    return code_of(a, {in});
  };
  CHECK(code_of(ok, {}) == "graph.arity");
  CHECK(code_of(ok, {Shape::of({1, 2, 5, 5})}) == "shape.window.input-rank");
  CHECK(with([](DeconvAttrs& a) { a.kernel = {}; }) == "attr.window.attribute-length");
  CHECK(with([](DeconvAttrs& a) { a.stride = {1, 1}; }) == "attr.window.attribute-length");
  CHECK(with([](DeconvAttrs& a) { a.dilation = {1, 1}; }) == "attr.window.attribute-length");
  CHECK(with([](DeconvAttrs& a) { a.padding = {{0, 0}, {0, 0}}; }) == "attr.window.attribute-length");
  CHECK(with([](DeconvAttrs& a) { a.kernel = {0}; }) == "attr.window.kernel-nonpositive");
  CHECK(with([](DeconvAttrs& a) { a.stride = {0}; }) == "attr.window.stride-nonpositive");
  CHECK(with([](DeconvAttrs& a) { a.dilation = {-1}; }) == "attr.window.dilation-nonpositive");
  CHECK(with([](DeconvAttrs& a) { a.groups = 0; }) == "attr.deconv.groups-nonpositive");
  CHECK(with([](DeconvAttrs& a) { a.out_channels = 0; }) == "attr.deconv.out-channels-indivisible");
  CHECK(with([](DeconvAttrs& a) { a.out_channels = 3, a.groups = 2; }) == "attr.deconv.out-channels-indivisible");
  CHECK(code_of([&] { auto a = ok; a.groups = 2, a.out_channels = 2; return a; }(), {Shape::of({1, 3, 5})}) ==
        "shape.deconv.channels-indivisible");
  // X = (5 − 1) + 3 − 4 − 3 = 0: an empty output
  CHECK(with([](DeconvAttrs& a) { a.padding = {{4, 3}}; }) == "shape.empty-extent");
  CHECK(with([](DeconvAttrs& a) { a.padding = {{4, 4}}; }) == "shape.negative-extent");
  const int64_t huge = int64_t{1} << 62;
  CHECK(with([&](DeconvAttrs& a) { a.stride = {huge}; }) == "size.deconv.extent-overflow");   // 4·2^62
  CHECK(with([&](DeconvAttrs& a) { a.padding = {{-huge, -huge}}; }) == "size.deconv.extent-overflow");
  CHECK(with([&](DeconvAttrs& a) { a.padding = {{huge, -huge}}; }) == "size.deconv.extent-overflow");
  const Diagnostic d = failure([&] { auto a = ok; a.stride = {huge}; return a; }(), {in});
  CHECK(d.message == "deconv output width (5 - 1) * 4611686018427387904 + 3 with padding (0, 0) does not fit a "
                     "64-bit index");
}
