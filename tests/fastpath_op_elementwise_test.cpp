// The fast path's unary lowering (fastpath/ops/unary.cpp) on every Highway target with 1 and 2
// threads: every UnaryOp over shapes around the vector widths, judged element by element with the
// spec's op over the Envelope scalar (test::check_fast_op); special values (NaN, ±inf, ±0, huge,
// tiny, subnormal) against the spec's formula evaluated in double; and the vectorized
// transcendentals measured against MPFR. The binary, add_n, broadcast_to, clamp, prelu and select
// lowerings are in fastpath_op_elementwise_test_broadcast.cpp.
#include <catch2/catch.hpp>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "fastpath/elementwise.hpp"
#include "fastpath_op_test_support.hpp"

using namespace nnref;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Where an op's formula is defined and interesting, as a range of float32 inputs.
struct Domain {
  double lo, hi;
};

Domain domain(UnaryOp op) {
  switch (op) {
    case UnaryOp::Exp: case UnaryOp::Sinh: case UnaryOp::Cosh: return {-90, 90};
    case UnaryOp::Log: case UnaryOp::Log2: case UnaryOp::Sqrt: case UnaryOp::Rsqrt: return {-1, 1e4};
    case UnaryOp::Asin: case UnaryOp::Acos: case UnaryOp::Atanh: return {-1, 1};
    case UnaryOp::Acosh: return {1, 1e3};
    case UnaryOp::Sigmoid: case UnaryOp::Softplus: case UnaryOp::Tanh: case UnaryOp::Elu: return {-60, 60};
    case UnaryOp::Erf: return {-5, 5};
    default: return {-20, 20};
  }
}

std::vector<double> random_values(std::mt19937_64& gen, int64_t count, Domain dom) {
  std::uniform_real_distribution<double> u(dom.lo, dom.hi);
  std::vector<double> v;
  for (int64_t i = 0; i < count; ++i) v.push_back(static_cast<float>(u(gen)));
  return v;
}

const std::vector<float> kSpecials = {kNaN, kInf, -kInf, 0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.5f, -2.5f,
                                      1e30f, -1e30f, 1e-30f, -1e-30f, 1e-40f, -1e-40f, 88.0f, -88.0f, 110.0f,
                                      -110.0f, 3.4e38f, -3.4e38f, 1.5f};

std::vector<UnaryOp> all_unary_ops() {
  std::vector<UnaryOp> ops;
  for (int op = 0; op <= static_cast<int>(kLastUnaryOp); ++op) ops.push_back(static_cast<UnaryOp>(op));
  return ops;
}

}  // namespace

TEST_CASE("fastpath unary: every op, shapes around the vector widths and 120000 elements, inside the envelope") {
  std::mt19937_64 gen(12);
  for (const UnaryOp op : all_unary_ops()) {
    for (const double alpha : {0.25, -1.5}) {
      const UnaryAttrs a{op, Real(alpha)};
      for (const Shape& s : {Shape::of({1}), Shape::of({4}), Shape::of({7}), Shape::of({16}), Shape::of({2, 17}),
                             Shape::of({3, 5, 7})}) {
        INFO(op_name(a) << " alpha " << alpha << " over " << s.str());
        test::check_fast_op(a, {Value<double>(test::tensor(s, random_values(gen, s.count(), domain(op))))});
      }
    }
  }
  // Big enough that two threads each take a part.
  for (const UnaryOp op : {UnaryOp::Exp, UnaryOp::Relu, UnaryOp::Sin, UnaryOp::Copy}) {
    const Shape s = Shape::of({3, 40000});
    INFO(op_name(UnaryAttrs{op}) << " over " << s.str());
    test::check_fast_op(UnaryAttrs{op}, {Value<double>(test::tensor(s, random_values(gen, s.count(), domain(op))))});
  }
}

TEST_CASE("fastpath unary: special values inside the envelope, and NaN, infinities, zeros as the spec's formula in double") {
  const std::vector<double> specials(kSpecials.begin(), kSpecials.end());
  const Shape s = Shape::of({static_cast<int64_t>(specials.size())});
  for (const UnaryOp op : all_unary_ops()) {
    const UnaryAttrs a{op, Real(0.25)};
    INFO(op_name(a));
    // The spec's formula (spec/ops/unary.hpp) on doubles, an independent evaluation; softplus as
    // max(x, 0) + log1p(exp(−|x|)), the same function without the double formula's overflow.
    Tensor<double> expected = test::run<double>(a, {test::tensor(s, specials)})[0];
    if (op == UnaryOp::Softplus)
      for (int64_t i = 0; i < s.count(); ++i) {
        const double x = specials[static_cast<size_t>(i)];
        expected[i] = std::isnan(x) ? x : std::max(x, 0.0) + std::log1p(std::exp(-std::abs(x)));
      }
    // Judged by the envelope where the spec's answer is a number; a NaN answer is checked below,
    // since the envelope of some is half NaN and its finite side rejects NaN (abs and sqr of NaN:
    // [0, NaN]; sqrt of −1e−40: [NaN, −0]; spec/scalar_envelope.hpp, reported).
    std::vector<double> numbers;
    for (int64_t i = 0; i < s.count(); ++i)
      if (!std::isnan(expected[i])) numbers.push_back(specials[static_cast<size_t>(i)]);
    test::check_fast_op(a, {Value<double>(test::tensor(Shape::of({static_cast<int64_t>(numbers.size())}), numbers))});
    // Just below a tie: x + 0.5 rounds to 1 in float32, so round gives 1 where the exact value is 0.
    test::check_fast_op(a, {Value<double>(test::tensor(Shape::of({1}), {0.49999997f}))});
    test::for_each_target([&] {
      const auto fast = std::get<Tensor<float>>(test::run_fast(a, {Value<double>(test::tensor(s, specials))}, {})[0]);
      for (size_t i = 0; i < specials.size(); ++i) {
        const double e = expected[static_cast<int64_t>(i)];
        const float y = fast[static_cast<int64_t>(i)];
        INFO("x = " << specials[i] << ": expected " << e << ", fast " << y << " on " << fastpath::current_target());
        CHECK(std::isnan(y) == std::isnan(e));
        // Exact where the float32 result is exact: an infinity, a zero (its sign too), ±1 saturated.
        const float rounded = static_cast<float>(e);
        if (std::isinf(rounded) || (rounded == 0.0f && std::abs(e) < 1e-45)) {
          CHECK(y == rounded);
          if (rounded == 0.0f && e == 0.0) CHECK(std::signbit(y) == std::signbit(e));
        }
      }
    });
  }
}

namespace {

// How many float32 ulps y lies from the exact value f(x) (MPFR at 128 bits), an ulp being the
// spacing of float32 at the exact value rounded to float32.
double ulps_from(const std::function<void(mpfr_t, const mpfr_t)>& f, float x, float y) {
  mpfr_t vx, exact, diff;
  mpfr_inits2(128, vx, exact, diff, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_flt(vx, x, MPFR_RNDN);
  f(exact, vx);
  const float rounded = mpfr_get_flt(exact, MPFR_RNDN);
  mpfr_sub_d(diff, exact, static_cast<double>(y), MPFR_RNDN);
  const double distance = std::abs(mpfr_get_d(diff, MPFR_RNDN));
  mpfr_clears(vx, exact, diff, static_cast<mpfr_ptr>(nullptr));
  if (std::isinf(rounded)) return y == rounded ? 0.0 : kInf;
  const float a = std::abs(rounded);
  const double ulp = a < 0x1p-126f ? 0x1p-149 : double(std::nextafter(a, kInf)) - double(a);
  return distance / ulp;
}

struct Transcendental {
  UnaryOp op;
  Domain dom;
  std::function<void(mpfr_t, const mpfr_t)> exact;
};

}  // namespace

TEST_CASE("fastpath unary: the vectorized transcendentals within 4 ulps of MPFR on every target") {
  const std::vector<Transcendental> functions = {
      {UnaryOp::Exp, {-87, 88.7}, [](mpfr_t r, const mpfr_t x) { mpfr_exp(r, x, MPFR_RNDN); }},
      {UnaryOp::Log, {1e-30, 1e30}, [](mpfr_t r, const mpfr_t x) { mpfr_log(r, x, MPFR_RNDN); }},
      {UnaryOp::Log, {1e-44, 1e-38}, [](mpfr_t r, const mpfr_t x) { mpfr_log(r, x, MPFR_RNDN); }},  // subnormal
      {UnaryOp::Log, {0.5, 2}, [](mpfr_t r, const mpfr_t x) { mpfr_log(r, x, MPFR_RNDN); }},
      {UnaryOp::Log2, {1e-30, 1e30}, [](mpfr_t r, const mpfr_t x) { mpfr_log2(r, x, MPFR_RNDN); }},
      {UnaryOp::Log2, {0.5, 2}, [](mpfr_t r, const mpfr_t x) { mpfr_log2(r, x, MPFR_RNDN); }},
      {UnaryOp::Tanh, {-10, 10}, [](mpfr_t r, const mpfr_t x) { mpfr_tanh(r, x, MPFR_RNDN); }},
      {UnaryOp::Tanh, {-0.01, 0.01}, [](mpfr_t r, const mpfr_t x) { mpfr_tanh(r, x, MPFR_RNDN); }},
      {UnaryOp::Sigmoid, {-87, 30}, [](mpfr_t r, const mpfr_t x) {  // 1/(1 + e^−x)
         mpfr_neg(r, x, MPFR_RNDN);
         mpfr_exp(r, r, MPFR_RNDN);
         mpfr_add_ui(r, r, 1, MPFR_RNDN);
         mpfr_ui_div(r, 1, r, MPFR_RNDN);
       }},
      {UnaryOp::Softplus, {-87, 90}, [](mpfr_t r, const mpfr_t x) {  // log(e^x + 1)
         mpfr_exp(r, x, MPFR_RNDN);
         mpfr_log1p(r, r, MPFR_RNDN);
       }},
      {UnaryOp::Rsqrt, {1e-30, 1e30}, [](mpfr_t r, const mpfr_t x) { mpfr_rec_sqrt(r, x, MPFR_RNDN); }},
  };
  std::mt19937_64 gen(7);
  for (const Transcendental& t : functions) {
    // Log-uniform over a wide positive range, uniform over a narrow or signed one.
    const bool wide = t.dom.lo > 0 && t.dom.hi / t.dom.lo > 1e6;
    std::uniform_real_distribution<double> u(wide ? std::log(t.dom.lo) : t.dom.lo, wide ? std::log(t.dom.hi) : t.dom.hi);
    std::vector<float> x(100000), y(x.size());
    for (float& v : x) v = static_cast<float>(wide ? std::exp(u(gen)) : u(gen));
    test::for_each_target([&] {
      fastpath::unary_run(t.op, 0.0f, x.data(), static_cast<int64_t>(x.size()), y.data());
      double worst = 0;
      float worst_x = 0;
      for (size_t i = 0; i < x.size(); ++i) {
        const double e = ulps_from(t.exact, x[i], y[i]);
        if (e > worst) worst = e, worst_x = x[i];
      }
      INFO(op_name(UnaryAttrs{t.op}) << " on [" << t.dom.lo << ", " << t.dom.hi << "], target "
                                     << fastpath::current_target() << ": worst " << worst << " ulps at x = " << worst_x);
      CHECK(worst <= 4.0);
    });
  }
}
