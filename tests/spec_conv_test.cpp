// Convolution: hand-computed values (arithmetic in the comments) and every obligation code.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "spec/ops/conv.hpp"
#include "spec/ops/transpose.hpp"

#include "op_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

// 1-D conv attributes: one spatial axis.
ConvAttrs conv1d(int64_t oc, int64_t k) {
  ConvAttrs a;
  a.out_channels = oc;
  a.kernel = {k};
  a.has_bias = false;
  return a;
}

}  // namespace

TEST_CASE("conv 2-D valid, 2x2 kernel of ones", "[conv]") {
  ConvAttrs a;
  a.out_channels = 1;
  a.kernel = {2, 2};
  a.pad_mode = PadMode::Valid;
  a.has_bias = false;
  auto x = tensor(Shape::of({1, 1, 3, 3}), {1, 2, 3, 4, 5, 6, 7, 8, 9});
  auto w = tensor(Shape::of({1, 1, 2, 2}), {1, 1, 1, 1});
  auto y = run(a, {x}, {w})[0];
  CHECK(y.shape() == Shape::of({1, 1, 2, 2}));
  // 1+2+4+5, 2+3+5+6, 4+5+7+8, 5+6+8+9
  CHECK(doubles(y) == std::vector<double>{12, 16, 24, 28});
}

TEST_CASE("conv 1-D same padding, odd total: upper puts it after, lower before", "[conv]") {
  // in 4, k 2, s 1: out ⌈4/1⌉ = 4, total = (4−1)·1 + 2 − 4 = 1.
  auto a = conv1d(1, 2);
  auto x = tensor(Shape::of({1, 1, 4}), {1, 2, 3, 4});
  auto w = tensor(Shape::of({1, 1, 2}), {1, 10});
  a.pad_mode = PadMode::SameUpper;  // (0, 1): y[i] = x[i] + 10·x[i+1]
  CHECK(doubles(run(a, {x}, {w})[0]) == std::vector<double>{1 + 20, 2 + 30, 3 + 40, 4 + 0});
  a.pad_mode = PadMode::SameLower;  // (1, 0): y[i] = x[i−1] + 10·x[i]
  CHECK(doubles(run(a, {x}, {w})[0]) == std::vector<double>{0 + 10, 1 + 20, 2 + 30, 3 + 40});
}

TEST_CASE("conv same padding with stride 2: output ceil(in/stride)", "[conv]") {
  // in 5, k 3, s 2: out ⌈5/2⌉ = 3, total = (3−1)·2 + 3 − 5 = 2 → (1, 1) either way.
  auto a = conv1d(1, 3);
  a.stride = {2};
  a.pad_mode = PadMode::SameUpper;
  auto x = tensor(Shape::of({1, 1, 5}), {1, 2, 3, 4, 5});
  auto w = tensor(Shape::of({1, 1, 3}), {1, 1, 1});
  // windows over padded [0,1,2,3,4,5,0] at 0, 2, 4: 0+1+2, 2+3+4, 4+5+0
  CHECK(doubles(run(a, {x}, {w})[0]) == std::vector<double>{3, 9, 9});
  // in 6, k 3, s 2: out 3, total = 2·2 + 3 − 6 = 1, odd: Upper (0, 1), Lower (1, 0).
  auto x6 = tensor(Shape::of({1, 1, 6}), {1, 2, 3, 4, 5, 6});
  CHECK(doubles(run(a, {x6}, {w})[0]) == std::vector<double>{1 + 2 + 3, 3 + 4 + 5, 5 + 6 + 0});
  a.pad_mode = PadMode::SameLower;
  CHECK(doubles(run(a, {x6}, {w})[0]) == std::vector<double>{0 + 1 + 2, 2 + 3 + 4, 4 + 5 + 6});
}

TEST_CASE("conv 1-D strides 2 and 3", "[conv]") {
  auto a = conv1d(1, 3);
  auto x = tensor(Shape::of({1, 1, 7}), {1, 2, 3, 4, 5, 6, 7});
  auto w = tensor(Shape::of({1, 1, 3}), {1, 1, 1});
  a.stride = {2};  // out ⌊(7−3)/2⌋+1 = 3
  CHECK(doubles(run(a, {x}, {w})[0]) == std::vector<double>{1 + 2 + 3, 3 + 4 + 5, 5 + 6 + 7});
  a.stride = {3};  // out ⌊(7−3)/3⌋+1 = 2
  CHECK(doubles(run(a, {x}, {w})[0]) == std::vector<double>{1 + 2 + 3, 4 + 5 + 6});
}

TEST_CASE("conv explicit asymmetric padding (1, 2)", "[conv]") {
  auto a = conv1d(1, 2);
  a.padding = {{1, 2}};  // padded [0, 1, 2, 3, 0, 0], out ⌊(6−2)/1⌋+1 = 5
  auto x = tensor(Shape::of({1, 1, 3}), {1, 2, 3});
  auto w = tensor(Shape::of({1, 1, 2}), {1, 10});
  CHECK(doubles(run(a, {x}, {w})[0]) == std::vector<double>{0 + 10, 1 + 20, 2 + 30, 3 + 0, 0});
}

TEST_CASE("conv non-square 2x3 kernel", "[conv]") {
  ConvAttrs a;
  a.out_channels = 1;
  a.kernel = {2, 3};
  a.has_bias = false;
  std::vector<double> xv;  // x[h][w] = 10h + w, 3 x 4
  for (int h = 0; h < 3; ++h)
    for (int w = 0; w < 4; ++w) xv.push_back(10 * h + w);
  auto y = run(a, {tensor(Shape::of({1, 1, 3, 4}), xv)}, {tensor(Shape::of({1, 1, 2, 3}), std::vector<double>(6, 1))})[0];
  REQUIRE(y.shape() == Shape::of({1, 1, 2, 2}));
  // Σ_{a<2} Σ_{b<3} 10(i+a) + (j+b) = 3·(20i + 10) + 2·(3j + 3) = 60i + 6j + 36
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) CHECK(sc::to_double(y[i * 2 + j]) == 60 * i + 6 * j + 36);
}

TEST_CASE("conv dilation 2", "[conv]") {
  auto a = conv1d(1, 2);
  a.dilation = {2};  // window (2−1)·2+1 = 3, out 7 − 3 + 1 = 5, y[i] = x[i] + x[i+2] = 2i + 4
  auto x = tensor(Shape::of({1, 1, 7}), {1, 2, 3, 4, 5, 6, 7});
  CHECK(doubles(run(a, {x}, {tensor(Shape::of({1, 1, 2}), {1, 1})})[0]) == std::vector<double>{4, 6, 8, 10, 12});
}

TEST_CASE("conv groups 2 and depthwise", "[conv]") {
  SECTION("groups 2: output channel m sees input channels of its group only") {
    auto a = conv1d(2, 1);
    a.groups = 2;
    auto x = tensor(Shape::of({1, 4, 1}), {1, 2, 3, 4});
    auto w = tensor(Shape::of({2, 2, 1}), {1, 10, 100, 1000});
    // y0 = 1·1 + 2·10, y1 = 3·100 + 4·1000
    CHECK(doubles(run(a, {x}, {w})[0]) == std::vector<double>{21, 4300});
  }
  SECTION("depthwise, groups = C = 3") {
    auto a = conv1d(3, 2);
    a.groups = 3;
    std::vector<double> xv;  // x[c][i] = (c+1)(i+1)
    for (int c = 0; c < 3; ++c)
      for (int i = 0; i < 3; ++i) xv.push_back((c + 1) * (i + 1));
    auto w = tensor(Shape::of({3, 1, 2}), {1, -1, 1, -1, 1, -1});
    // y[c][i] = x[c][i] − x[c][i+1] = −(c+1)
    CHECK(doubles(run(a, {tensor(Shape::of({1, 3, 3}), xv)}, {w})[0]) == std::vector<double>{-1, -1, -2, -2, -3, -3});
  }
}

TEST_CASE("conv bias starts the sum", "[conv]") {
  auto a = conv1d(2, 1);
  a.has_bias = true;
  auto x = tensor(Shape::of({1, 1, 3}), {1, 2, 3});
  auto w = tensor(Shape::of({2, 1, 1}), {2, -1});
  auto b = tensor(Shape::of({2}), {5, 0.5});
  // channel 0: 2x + 5; channel 1: −x + 0.5
  CHECK(doubles(run(a, {x}, {w, b})[0]) == std::vector<double>{7, 9, 11, -0.5, -1.5, -2.5});
  // The order shows in rounding: with b = 1 and terms 2^53·1, 2^53·(−1), (1 + 2^53) rounds to 2^53
  // (ties to even) and the result is 0, where the sum first and the bias after would give 1.
  auto a2 = conv1d(1, 2);
  a2.has_bias = true;
  const double big = 9007199254740992.0;  // 2^53
  CHECK(doubles(run(a2, {tensor(Shape::of({1, 1, 2}), {big, big})}, {tensor(Shape::of({1, 1, 2}), {1, -1}),
                                                                    tensor(Shape::of({1}), {1})})[0]) ==
        std::vector<double>{0});
}

TEST_CASE("conv 3-D", "[conv]") {
  ConvAttrs a;
  a.out_channels = 1;
  a.kernel = {2, 2, 2};
  a.padding = {{0, 0}, {0, 0}, {1, 0}};
  a.has_bias = false;
  // x all ones [1,1,2,2,2]; out [1,1,1,1,2]: the first window has 4 of its 8 positions in the padding.
  auto y = run(a, {tensor(Shape::of({1, 1, 2, 2, 2}), std::vector<double>(8, 1))},
               {tensor(Shape::of({1, 1, 2, 2, 2}), std::vector<double>(8, 1))})[0];
  CHECK(y.shape() == Shape::of({1, 1, 1, 1, 2}));
  CHECK(doubles(y) == std::vector<double>{4, 8});
}

TEST_CASE("conv ChannelsLast equals ChannelsFirst up to transposition", "[conv]") {
  ConvAttrs a;
  a.out_channels = 4;
  a.kernel = {2, 3};
  a.stride = {2, 1};
  a.padding = {{1, 0}, {0, 2}};
  a.groups = 2;
  std::vector<double> xv, wv, bv{0.5, -1, 2, 3};
  for (int i = 0; i < 2 * 4 * 3 * 4; ++i) xv.push_back((i * 7) % 11 - 5);
  for (int i = 0; i < 4 * 2 * 2 * 3; ++i) wv.push_back((i * 5) % 7 - 3);
  auto x_nchw = tensor(Shape::of({2, 4, 3, 4}), xv);
  auto w = tensor(Shape::of({4, 2, 2, 3}), wv);
  auto b = tensor(Shape::of({4}), bv);
  auto y_nchw = run(a, {x_nchw}, {w, b})[0];
  auto x_nhwc = run(TransposeAttrs{{0, 2, 3, 1}}, {x_nchw})[0];
  a.layout = Layout::ChannelsLast;
  auto y_nhwc = run(a, {x_nhwc}, {w, b})[0];
  // out H ⌊(3+1−2)/2⌋+1 = 2, W ⌊(4+2−3)/1⌋+1 = 4
  CHECK(y_nchw.shape() == Shape::of({2, 4, 2, 4}));
  CHECK(y_nhwc.shape() == Shape::of({2, 2, 4, 4}));
  CHECK(run(TransposeAttrs{{0, 3, 1, 2}}, {y_nhwc})[0].values() == y_nchw.values());
}

TEST_CASE("conv float, double and mp50 agree", "[conv]") {
  auto a = conv1d(1, 3);
  a.padding = {{1, 1}};
  a.has_bias = true;
  const std::vector<double> xv{0.1, -0.7, 1.3, 2.9, -3.3}, wv{0.25, 1.0 / 3, -0.2}, bv{0.01};
  auto yf = run<float>(a, {tensor<float>(Shape::of({1, 1, 5}), xv)},
                {tensor<float>(Shape::of({1, 1, 3}), wv), tensor<float>(Shape::of({1}), bv)})[0];
  auto yd = run<double>(a, {tensor<double>(Shape::of({1, 1, 5}), xv)},
                {tensor<double>(Shape::of({1, 1, 3}), wv), tensor<double>(Shape::of({1}), bv)})[0];
  auto ym = run<mp50>(a, {tensor<mp50>(Shape::of({1, 1, 5}), xv)},
                {tensor<mp50>(Shape::of({1, 1, 3}), wv), tensor<mp50>(Shape::of({1}), bv)})[0];
  REQUIRE(yd.size() == 5);
  for (int64_t i = 0; i < 5; ++i) {
    CHECK(sc::to_double(yf[i]) == Approx(yd[i]).margin(1e-5));
    CHECK(sc::to_double(ym[i]) == Approx(yd[i]).margin(1e-14));
  }
  // y[0] = 0·0.25 + 0.1/3 + (−0.7)(−0.2) + 0.01
  CHECK(yd[0] == Approx(0.1 / 3 + 0.14 + 0.01));
}

TEST_CASE("conv shape rule: output and parameter shapes", "[conv][shape]") {
  ConvAttrs a;
  a.out_channels = 6;
  a.kernel = {3, 3};
  a.groups = 2;
  a.layout = Layout::ChannelsLast;
  auto c = Checked<ConvAttrs>::check(a, {Shape::of({2, 5, 7, 4})});
  REQUIRE(c.ok());
  CHECK(c->outputs()[0] == Shape::of({2, 3, 5, 6}));
  REQUIRE(c->params().size() == 2);
  CHECK(c->params()[0].role == "weight");
  CHECK(c->params()[0].shape == Shape::of({6, 2, 3, 3}));
  CHECK(c->params()[1].role == "bias");
  CHECK(c->params()[1].shape == Shape::of({6}));
}

TEST_CASE("conv obligations", "[conv][shape]") {
  const auto ok = conv1d(2, 3);  // fits [1, 2, 5]
  const Shape in = Shape::of({1, 2, 5});
  REQUIRE(code_of(ok, {in}) == "ok");
  auto with = [&](auto edit) {
    ConvAttrs a = ok;
    edit(a);
    return code_of(a, {in});
  };
  CHECK(code_of(ok, {}) == "graph.arity");
  CHECK(code_of(ok, {in, in}) == "graph.arity");
  CHECK(code_of(ok, {Shape::of({1, 2, 5, 5})}) == "shape.window.input-rank");
  CHECK(with([](ConvAttrs& a) { a.kernel = {}; }) == "attr.window.attribute-length");
  CHECK(with([](ConvAttrs& a) { a.stride = {1, 1}; }) == "attr.window.attribute-length");
  CHECK(with([](ConvAttrs& a) { a.dilation = {1, 1}; }) == "attr.window.attribute-length");
  CHECK(with([](ConvAttrs& a) { a.padding = {{0, 0}, {0, 0}}; }) == "attr.window.attribute-length");
  CHECK(with([](ConvAttrs& a) { a.kernel = {0}; }) == "attr.window.kernel-nonpositive");
  CHECK(with([](ConvAttrs& a) { a.stride = {0}; }) == "attr.window.stride-nonpositive");
  CHECK(with([](ConvAttrs& a) { a.dilation = {-1}; }) == "attr.window.dilation-nonpositive");
  CHECK(with([](ConvAttrs& a) { a.padding = {{-1, 0}}; }) == "attr.window.padding-negative");
  CHECK(with([](ConvAttrs& a) { a.groups = 0; }) == "attr.conv.groups-nonpositive");
  CHECK(with([](ConvAttrs& a) { a.out_channels = 0; }) == "attr.conv.out-channels-nonpositive");
  CHECK(with([](ConvAttrs& a) { a.out_channels = 3, a.groups = 2; }) == "attr.conv.out-channels-indivisible");
  CHECK(code_of([&] { auto a = ok; a.groups = 2; return a; }(), {Shape::of({1, 3, 5})}) ==
        "shape.conv.channels-indivisible");
  CHECK(with([](ConvAttrs& a) { a.kernel = {6}; }) == "shape.window.exceeds-input");
  CHECK(with([](ConvAttrs& a) { a.dilation = {3}; }) == "shape.window.exceeds-input");  // (3−1)·3+1 = 7 > 5
}

TEST_CASE("conv window exceeds-input message names the extents", "[conv][shape]") {
  ConvAttrs a;
  a.out_channels = 1;
  a.kernel = {5, 1};
  auto c = Checked<ConvAttrs>::check(a, {Shape::of({1, 1, 3, 3})});
  REQUIRE_FALSE(c.ok());
  CHECK(c.error().code == "shape.window.exceeds-input");
  CHECK(c.error().message == "conv window of height 5 does not fit the padded input height 3 (3 + 0 + 0)");
}

TEST_CASE("conv absurd attributes give a diagnostic or a small exact shape, never a crash", "[conv][shape]") {
  const int64_t huge = int64_t{1} << 62;
  const Shape in = Shape::of({1, 1, 5});
  auto a = conv1d(1, 1);
  a.stride = {huge};  // ⌊(5−1)/2^62⌋+1 = 1: a valid conv with one output position
  auto c = Checked<ConvAttrs>::check(a, {in});
  REQUIRE(c.ok());
  CHECK(c->outputs()[0] == Shape::of({1, 1, 1}));
  a = conv1d(1, huge);
  CHECK(code_of(a, {in}) == "shape.window.exceeds-input");
  a.stride = {huge};
  a.dilation = {huge};  // window (2^62−1)·2^62+1 saturates
  CHECK(code_of(a, {in}) == "shape.window.exceeds-input");
  a = conv1d(1, 1);
  a.padding = {{huge, huge}};  // 5 + 2^63 does not fit int64
  CHECK(code_of(a, {in}) == "size.window.extent-overflow");
  a = conv1d(4, 1);
  a.padding = {{huge, 0}};  // output [1, 4, 2^62 + 5]: more elements than int64 counts
  CHECK(code_of(a, {in}) == "size.overflow");
  a = conv1d(huge, 1);  // weight [2^62, 1, 1] fits, output [1, 2^62, 5] does not
  CHECK(code_of(a, {in}) == "size.overflow");
}
