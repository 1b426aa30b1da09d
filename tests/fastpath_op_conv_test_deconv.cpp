// The fast path's deconv lowering (fastpath/ops/deconv.cpp) on every Highway target with 1 and 2
// threads, judged element by element with the spec's deconv over the Envelope scalar: spatial
// rank 1 to 3, strides, dilations, padding of both signs, groups (depthwise too), with and
// without bias, channel counts around the vector widths; and a wrong answer rejected.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "fastpath_op_test_support.hpp"

using namespace nnref;

namespace {

Tensor<double> random_deconv_tensor(std::mt19937_64& gen, std::vector<int64_t> dims) {
  const Shape s = std::move(Shape::make(std::move(dims))).value();
  const auto v = test::random_floats(gen, s.count(), 1.0);
  return test::tensor(s, std::vector<double>(v.begin(), v.end()));
}

struct DeconvCase {
  DeconvAttrs a;
  std::vector<int64_t> x;  // [N, C, spatial...]
};

std::vector<Tensor<double>> deconv_params(std::mt19937_64& gen, const DeconvAttrs& a, int64_t channels) {
  std::vector<int64_t> w{channels, a.out_channels / a.groups};
  w.insert(w.end(), a.kernel.begin(), a.kernel.end());
  std::vector<Tensor<double>> ps{random_deconv_tensor(gen, w)};
  if (a.has_bias) ps.push_back(random_deconv_tensor(gen, {a.out_channels}));
  return ps;
}

void check_deconv(const DeconvCase& k, uint64_t seed) {
  std::mt19937_64 gen(seed);
  const Tensor<double> x = random_deconv_tensor(gen, k.x);
  INFO("deconv over " << x.shape().str() << ", " << k.a.out_channels << " outputs, groups " << k.a.groups);
  test::check_fast_op(k.a, {Value<double>(x)}, deconv_params(gen, k.a, k.x[1]));
}

DeconvAttrs deconv_attrs(int64_t out, std::vector<int64_t> kernel, std::vector<int64_t> stride = {},
                         std::vector<std::pair<int64_t, int64_t>> padding = {}) {
  DeconvAttrs a;
  a.out_channels = out;
  a.kernel = std::move(kernel);
  a.stride = std::move(stride);
  a.padding = std::move(padding);
  return a;
}

}  // namespace

TEST_CASE("fastpath deconv lowering: spatial rank 1 to 3, strides, dilations, padding of both signs") {
  check_deconv({deconv_attrs(3, {3}, {2}), {2, 4, 7}}, 1);
  check_deconv({deconv_attrs(5, {4}, {3}, {{1, -2}}), {1, 9, 5}}, 2);  // output_padding 2 as q = −2
  DeconvAttrs dilated = deconv_attrs(8, {3, 2}, {2, 1}, {{1, 1}, {0, -1}});
  dilated.dilation = {1, 3};
  check_deconv({dilated, {2, 16, 4, 5}}, 3);
  dilated.has_bias = false;
  check_deconv({dilated, {1, 17, 3, 3}}, 4);
  DeconvAttrs three = deconv_attrs(2, {2, 3, 2}, {2, 1, 3}, {{0, 0}, {1, 0}, {2, 1}});
  check_deconv({three, {1, 3, 3, 4, 2}}, 5);
  check_deconv({deconv_attrs(4, {1, 1}, {2, 2}), {1, 33, 3, 2}}, 6);  // kernel 1, stride 2: every other output is the bias
  check_deconv({deconv_attrs(1, {5}, {1}, {{4, 4}}), {1, 1, 5}}, 7);   // padding crops to the center
  check_deconv({deconv_attrs(7, {3, 3}, {1, 1}, {{-1, -1}, {-2, 0}}), {1, 8, 2, 2}}, 8);  // zeros around
}

TEST_CASE("fastpath deconv lowering: groups and depthwise") {
  DeconvAttrs grouped = deconv_attrs(6, {3, 3}, {2, 2}, {{1, 0}, {0, 1}});
  grouped.groups = 3;
  check_deconv({grouped, {2, 9, 4, 3}}, 10);
  DeconvAttrs depthwise = deconv_attrs(17, {3, 3}, {2, 2}, {{1, 1}, {1, 1}});
  depthwise.groups = 17;
  check_deconv({depthwise, {1, 17, 4, 5}}, 11);
  depthwise.has_bias = false;
  depthwise.dilation = {2, 1};
  check_deconv({depthwise, {2, 17, 3, 3}}, 12);
  DeconvAttrs multiplier = deconv_attrs(8, {4}, {2});  // two outputs per input channel
  multiplier.groups = 4;
  check_deconv({multiplier, {1, 4, 9}}, 13);
}

TEST_CASE("fastpath deconv lowering: the judgement rejects a deconv answer off by one") {
  std::mt19937_64 gen(20);
  const DeconvAttrs a = deconv_attrs(4, {3, 3}, {2, 2});
  const Tensor<double> x = random_deconv_tensor(gen, {1, 16, 3, 3});
  const auto ps = deconv_params(gen, a, 16);
  const auto envelope = test::run_values<Envelope>(a, {test::value_as<Envelope>(Value<double>(x))}, test::params_as<Envelope>(ps));
  const auto& expected = std::get<Tensor<Envelope>>(envelope[0]);
  auto y = std::get<Tensor<float>>(test::run_fast(a, {Value<double>(x)}, ps)[0]).values();
  REQUIRE(test::rejected(expected, y) == 0);
  // Element 8 (row 1, column 1: one input pixel, 16 terms) moved by 2^-8 of its magnitude plus one:
  // far past γ(17)·(|b| + Σ|terms|) ≤ γ(17)·17.
  y[8] += std::abs(y[8]) * 0x1p-8f + 1.0f;
  CHECK(test::rejected(expected, y) == 1);
}
