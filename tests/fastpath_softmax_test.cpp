// The fast path's exp and softmax on every Highway target this machine runs. exp against MPFR's
// correctly rounded e^x: within the float32 envelope's transcendental allowance (4 ulps; Highway
// documents 1). softmax judged by the envelope itself: the spec's softmax evaluated over the
// Envelope scalar (the float32 runtime model), which must contain every element.
#include <catch2/catch.hpp>
#include <hwy/targets.h>
#include <mpfr.h>

#include <cmath>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "fastpath/exp.hpp"
#include "fastpath/gemm.hpp"
#include "fastpath/softmax.hpp"
#include "fastpath_test_support.hpp"
#include "op_test_support.hpp"
#include "spec/scalars.hpp"

using namespace nnref;

namespace {

// How many float32 ulps (of the correctly rounded value) y lies from e^x.
double ulps_from_exp(float x, float y) {
  mpfr_t e;
  mpfr_init2(e, 24);
  mpfr_set_flt(e, x, MPFR_RNDN);
  mpfr_exp(e, e, MPFR_RNDN);
  const float exact = mpfr_get_flt(e, MPFR_RNDN);
  mpfr_clear(e);
  if (std::isinf(exact) || exact == 0.0f) return y == exact ? 0.0 : std::abs(double(y) - double(exact)) / 0x1p-149;
  const double ulp = std::nextafter(exact, std::numeric_limits<float>::infinity()) - exact;
  return std::abs(double(y) - double(exact)) / ulp;
}

}  // namespace

TEST_CASE("fastpath exp: every target, within 4 ulps of e^x from -104 to 88, NaN and the ends kept") {
  std::mt19937_64 gen(3);
  std::uniform_real_distribution<float> range(-104.0f, 88.7f);
  std::vector<float> x(100000);
  for (float& v : x) v = range(gen);
  x.insert(x.end(), {0.0f, -0.0f, 1.0f, -1.0f, 88.72f, -87.3f, -103.9f});
  std::vector<float> y(x.size());
  test::for_each_target([&] {
    INFO("target " << fastpath::current_target());
    fastpath::exp_elementwise(x.data(), static_cast<int64_t>(x.size()), y.data());
    double worst = 0;
    for (size_t i = 0; i < x.size(); ++i) worst = std::max(worst, ulps_from_exp(x[i], y[i]));
    CHECK(worst <= 4.0);
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const std::vector<float> ends = {nan, inf, -inf, 200.0f, -200.0f};
    std::vector<float> out(ends.size());
    fastpath::exp_elementwise(ends.data(), static_cast<int64_t>(ends.size()), out.data());
    CHECK(std::isnan(out[0]));
    CHECK(out[1] == inf);
    CHECK(out[2] == 0.0f);
    CHECK(out[3] == inf);
    CHECK(out[4] == 0.0f);
  });
}

TEST_CASE("fastpath softmax: every target, every element inside the spec's float32 envelope, NaN rows as the spec") {
  std::mt19937_64 gen(5);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  test::for_each_target([&] {
    for (const auto& [rows, n, scale] : {std::tuple{3, 1, 1.0}, {2, 17, 5.0}, {4, 1000, 30.0}, {1, 33, 80.0}}) {
      INFO("target " << fastpath::current_target() << ", rows " << rows << ", n " << n);
      std::vector<double> values;
      for (int i = 0; i < rows * n; ++i) values.push_back(static_cast<float>(scale * unit(gen)));
      std::vector<float> x(values.begin(), values.end()), y(x.size());
      fastpath::softmax_rows(x.data(), rows, n, y.data());
      const auto envelope = test::run<Envelope>(SoftmaxAttrs{{-1}, 0}, {test::tensor<Envelope>(Shape::of({rows, n}), values)});
      CHECK(test::rejected(envelope[0], y) == 0);
    }
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const std::vector<float> x = {1.0f, nan, 2.0f, 1.0f, inf, 2.0f, -inf, 0.0f, 3.0f};
    std::vector<float> y(x.size());
    fastpath::softmax_rows(x.data(), 3, 3, y.data());
    for (int i = 0; i < 6; ++i) CHECK(std::isnan(y[static_cast<size_t>(i)]));  // a NaN row, a row whose max is inf
    CHECK(y[6] == 0.0f);                                                        // exp(−inf) = 0
    CHECK(std::abs(y[7] - 1.0f / (1.0f + std::exp(3.0f))) < 1e-6f);
  });
}
