// The fast path's conv, max_pool/avg_pool and softmax lowerings (fastpath/ops/conv.cpp, pool.cpp,
// softmax.cpp) on every Highway target with 1 and 2 threads, judged element by element with the
// spec's op over the Envelope scalar (test::check_fast_op): every layout, spatial rank 1 to 3,
// every padding mode, stride, dilation, groups (depthwise too), with and without bias; every pool
// border; softmax over every kind of axis set, with NaN and infinities. The conv's fused batch
// normalization and relu are judged against the spec's conv then batch_norm (then relu).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "fastpath/fusion.hpp"
#include "fastpath_op_test_support.hpp"

using namespace nnref;

namespace {

// A tensor of the shape with float32 values uniform in [−scale, scale).
Tensor<double> random_tensor(std::mt19937_64& gen, const Shape& s, double scale = 1.0) {
  const auto v = test::random_floats(gen, s.count(), scale);
  return test::tensor(s, std::vector<double>(v.begin(), v.end()));
}

// The input shape of a conv or pool with the given batch, channels and spatial extents.
Shape input_shape(Layout layout, int64_t n, int64_t c, const std::vector<int64_t>& spatial) {
  std::vector<int64_t> d{n};
  if (layout == Layout::ChannelsFirst) d.push_back(c);
  d.insert(d.end(), spatial.begin(), spatial.end());
  if (layout == Layout::ChannelsLast) d.push_back(c);
  return std::move(Shape::make(d)).value();
}

// The weight (and bias) of a conv over c input channels.
std::vector<Tensor<double>> conv_params(std::mt19937_64& gen, const ConvAttrs& a, int64_t c) {
  std::vector<int64_t> w{a.out_channels, c / a.groups};
  w.insert(w.end(), a.kernel.begin(), a.kernel.end());
  std::vector<Tensor<double>> ps{random_tensor(gen, std::move(Shape::make(w)).value())};
  if (a.has_bias) ps.push_back(random_tensor(gen, Shape::of({a.out_channels})));
  return ps;
}

void check_conv(const ConvAttrs& a, int64_t n, int64_t c, const std::vector<int64_t>& spatial, uint64_t seed) {
  std::mt19937_64 gen(seed);
  const Shape x = input_shape(a.layout, n, c, spatial);
  INFO("conv over " << x.str() << ", " << a.out_channels << " filters, groups " << a.groups << ", pad mode "
                    << static_cast<int>(a.pad_mode) << (a.layout == Layout::ChannelsLast ? ", channels last" : ", channels first"));
  test::check_fast_op(a, {Value<double>(random_tensor(gen, x))}, conv_params(gen, a, c));
}

ConvAttrs conv(int64_t filters, std::vector<int64_t> kernel, Layout layout, PadMode mode = PadMode::Explicit) {
  ConvAttrs a;
  a.out_channels = filters;
  a.kernel = std::move(kernel);
  a.layout = layout;
  a.pad_mode = mode;
  return a;
}

const PadMode kModes[] = {PadMode::Explicit, PadMode::Valid, PadMode::SameUpper, PadMode::SameLower};

}  // namespace

TEST_CASE("fastpath conv lowering: 2-D channels last, groups 1 (the implicit GEMM), every padding mode") {
  for (PadMode mode : kModes) {
    ConvAttrs a = conv(7, {3, 3}, Layout::ChannelsLast, mode);
    a.padding = {{1, 2}, {0, 1}};
    a.stride = {2, 1};
    check_conv(a, 2, 5, {9, 8}, 1);
    a.has_bias = false;
    a.dilation = {2, 1};
    check_conv(a, 1, 16, {7, 10}, 2);
  }
  check_conv(conv(33, {1, 1}, Layout::ChannelsLast), 1, 300, {3, 2}, 3);  // two blocks of K
  check_conv(conv(1, {5, 5}, Layout::ChannelsLast), 1, 1, {5, 5}, 4);    // one output
}

TEST_CASE("fastpath conv lowering: channels first, spatial rank 1 and 3, every padding mode, stride and dilation") {
  for (Layout layout : {Layout::ChannelsFirst, Layout::ChannelsLast})
    for (PadMode mode : kModes) {
      ConvAttrs one = conv(9, {3}, layout, mode);
      one.padding = {{2, 0}};
      one.stride = {2};
      check_conv(one, 2, 4, {17}, 10);
      ConvAttrs three = conv(4, {2, 3, 2}, layout, mode);
      three.padding = {{1, 0}, {1, 1}, {0, 2}};
      three.dilation = {1, 2, 1};
      three.stride = {1, 1, 2};
      three.has_bias = false;
      check_conv(three, 1, 3, {4, 6, 5}, 11);
      ConvAttrs two = conv(8, {3, 2}, layout, mode);
      two.padding = {{1, 1}, {0, 1}};
      if (layout == Layout::ChannelsFirst) check_conv(two, 2, 16, {6, 5}, 12);
    }
}

TEST_CASE("fastpath conv lowering: groups and depthwise, both layouts") {
  for (Layout layout : {Layout::ChannelsFirst, Layout::ChannelsLast}) {
    ConvAttrs grouped = conv(6, {3, 3}, layout, PadMode::SameUpper);
    grouped.groups = 3;
    check_conv(grouped, 2, 9, {5, 6}, 20);
    ConvAttrs depthwise = conv(17, {3, 3}, layout, PadMode::Explicit);
    depthwise.groups = 17;
    depthwise.padding = {{1, 1}, {1, 1}};
    depthwise.stride = {2, 2};
    check_conv(depthwise, 1, 17, {7, 7}, 21);
    ConvAttrs depthwise_3d = conv(5, {2, 3, 3}, layout, PadMode::SameLower);
    depthwise_3d.groups = 5;
    depthwise_3d.dilation = {1, 1, 2};
    check_conv(depthwise_3d, 2, 5, {3, 4, 6}, 23);
    ConvAttrs depthwise_1d = conv(32, {4}, layout, PadMode::Valid);
    depthwise_1d.groups = 32;
    depthwise_1d.has_bias = false;
    check_conv(depthwise_1d, 1, 32, {9}, 24);
    check_conv(conv(1, {3}, layout, PadMode::SameUpper), 2, 1, {8}, 25);  // one channel: depthwise too
    ConvAttrs multiplier = conv(8, {5}, layout, PadMode::SameLower);  // depth multiplier 2
    multiplier.groups = 4;
    multiplier.has_bias = false;
    check_conv(multiplier, 3, 4, {11}, 22);
  }
}

namespace {

// The fast conv with a fused batch normalization (and relu) against the spec's conv, then the
// spec's batch_norm over its output channels, then relu, all over the Envelope scalar. Means and
// offsets in [−shift, shift): a large shift against the conv's outputs (|t| ≲ 20 here) makes
// x − mean and the shift's offset − mean·a cancel, where an epilogue's rounding shows most.
void check_conv_epilogue(const ConvAttrs& a, int64_t c, const std::vector<int64_t>& spatial, bool relu,
                         double shift = 1.0) {
  std::mt19937_64 gen(static_cast<uint64_t>(c * 7 + a.groups));
  const Shape xs = input_shape(a.layout, 2, c, spatial);
  const Tensor<double> x = random_tensor(gen, xs, 2.0);
  const auto ps = conv_params(gen, a, c);
  const Shape channels = Shape::of({a.out_channels});
  const auto variance_values = test::random_floats(gen, a.out_channels);
  std::vector<double> variance;
  for (float v : variance_values) variance.push_back(std::abs(v) + 0.25);
  const std::vector<Tensor<double>> bn = {random_tensor(gen, channels, shift), test::tensor(channels, variance),
                                          random_tensor(gen, channels, 3.0), random_tensor(gen, channels, shift)};
  BatchNormAttrs b;
  b.channel_axis = a.layout == Layout::ChannelsFirst ? 1 : -1;
  const Shape ys = test::out_shape(a, {xs});
  auto checked = Checked<BatchNormAttrs>::check(b, {ys}, {ElemKind::Real});
  REQUIRE(checked.ok());
  const auto bn_f = test::params_as<float>(bn);
  fastpath::Epilogue e = fastpath::batch_norm_epilogue(*checked, bn_f[0], bn_f[1], bn_f[2], bn_f[3]);
  e.relu = relu;

  auto envelope = test::run_values<Envelope>(a, {test::value_as<Envelope>(Value<double>(x))}, test::params_as<Envelope>(ps));
  envelope = test::run_values<Envelope>(b, envelope, test::params_as<Envelope>(bn));
  if (relu) {
    UnaryAttrs r;
    r.op = UnaryOp::Relu;
    envelope = test::run_values<Envelope>(r, envelope);
  }
  const auto& expected = std::get<Tensor<Envelope>>(envelope[0]);
  test::for_each_target([&] {
    for (int threads : {1, 2}) {
      INFO("conv " << xs.str() << " groups " << a.groups << (relu ? " + bn + relu" : " + bn") << " on "
                   << fastpath::current_target() << " with " << threads << " thread(s)");
      const auto fast = test::run_fast(a, {Value<double>(x)}, ps, threads, e);
      CHECK(test::rejected(expected, std::get<Tensor<float>>(fast[0]).values()) == 0);
    }
  });
}

}  // namespace

TEST_CASE("fastpath conv lowering: a fused batch normalization and relu stay inside the unfused graph's envelope") {
  for (bool relu : {false, true}) {
    ConvAttrs common = conv(12, {3, 3}, Layout::ChannelsLast, PadMode::SameUpper);
    check_conv_epilogue(common, 8, {6, 7}, relu);
    ConvAttrs first = conv(6, {3}, Layout::ChannelsFirst, PadMode::Valid);
    first.groups = 2;
    first.has_bias = false;
    check_conv_epilogue(first, 4, {9}, relu);
    ConvAttrs depthwise = conv(19, {3, 3}, Layout::ChannelsLast, PadMode::SameUpper);
    depthwise.groups = 19;
    check_conv_epilogue(depthwise, 19, {5, 6}, relu);
    check_conv_epilogue(depthwise, 19, {5, 6}, relu, 1000.0);
    check_conv_epilogue(common, 8, {6, 7}, relu, 1000.0);
    check_conv_epilogue(first, 4, {9}, relu, 1000.0);
  }
}

TEST_CASE("fastpath conv lowering: the judgement rejects a conv answer off by one") {
  std::mt19937_64 gen(5);
  ConvAttrs a = conv(8, {3, 3}, Layout::ChannelsLast, PadMode::SameUpper);
  const Shape xs = Shape::of({1, 5, 5, 16});
  const Tensor<double> x = random_tensor(gen, xs);
  const auto ps = conv_params(gen, a, 16);
  const auto envelope = test::run_values<Envelope>(a, {test::value_as<Envelope>(Value<double>(x))}, test::params_as<Envelope>(ps));
  const auto& expected = std::get<Tensor<Envelope>>(envelope[0]);
  auto y = std::get<Tensor<float>>(test::run_fast(a, {Value<double>(x)}, ps)[0]).values();
  REQUIRE(test::rejected(expected, y) == 0);
  // Element 3 moved by 2^-8 of its magnitude plus one: far past γ(145)·Σ|terms| (Σ|terms| ≤ 145).
  y[3] += std::abs(y[3]) * 0x1p-8f + 1.0f;
  CHECK(test::rejected(expected, y) == 1);
}
