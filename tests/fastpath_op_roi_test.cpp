// fastpath_op_roi_test: the lowering of max_roi_pool, avg_roi_pool and roi_resample (both methods)
// on every Highway target with 1 and 2 threads, judged by the spec's float32 envelope
// (check_fast_op): 1 to 3 spatial axes, channel counts around the vector widths, regions inside,
// partly or wholly outside the input, inverted and empty, with coordinates on halves and integers
// (where the envelope's rounding leaves two cells or two interpolation segments), batch indices
// in and out of range, NaN and infinite coordinates and NaN inputs; and a wrong answer rejected.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "fastpath_op_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

RoiAttrs roi_op(RoiOp op, std::vector<int64_t> size, RoiMethod method = RoiMethod::Symmetric) {
  RoiAttrs a;
  a.op = op;
  a.output_size = std::move(size);
  a.method = method;
  return a;
}

Value<double> uniform(const Shape& s, std::mt19937_64& gen, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v;
  for (int64_t i = 0; i < s.count(); ++i) v.push_back(u(gen));
  return tensor(s, v);
}

// Coordinates around the image [0, extent]: a quarter of them on halves or integers.
Value<double> regions(int64_t count, const std::vector<int64_t>& extents, std::mt19937_64& gen) {
  std::vector<double> v(static_cast<size_t>(count * 2 * static_cast<int64_t>(extents.size())));
  const auto m = extents.size();
  for (int64_t r = 0; r < count; ++r)
    for (size_t half = 0; half < 2; ++half)
      for (size_t k = 0; k < m; ++k) {
        std::uniform_real_distribution<double> u(-1.5, static_cast<double>(extents[k]) + 1.5);
        double c = u(gen);
        if (gen() % 4 == 0) c = std::round(2 * c) / 2;
        v[static_cast<size_t>(r) * 2 * m + half * m + k] = c;
      }
  return tensor(Shape::of({count, static_cast<int64_t>(2 * m)}), v);
}

Value<double> indices(std::vector<int64_t> v) {
  const auto n = static_cast<int64_t>(v.size());
  return Tensor<int64_t>::from(Shape::of({n}), std::move(v)).value();
}

const RoiAttrs kAll[] = {roi_op(RoiOp::MaxPool, {}), roi_op(RoiOp::AvgPool, {}), roi_op(RoiOp::Resample, {}),
                         roi_op(RoiOp::Resample, {}, RoiMethod::Asymmetric)};

}  // namespace

TEST_CASE("fastpath roi lowering: every op and method over 1 to 3 spatial axes and channel counts around the vector widths") {
  std::mt19937_64 gen(15);
  struct Case {
    int64_t batch, channels;
    std::vector<int64_t> extents, size;
  };
  const std::vector<Case> cases = {{1, 1, {7}, {3}},          {2, 4, {6, 5}, {2, 3}},   {3, 8, {9, 4}, {4, 1}},
                                   {1, 17, {5, 7}, {3, 3}},   {2, 5, {3, 4, 5}, {2, 2, 3}}, {1, 16, {1, 1}, {2, 2}}};
  for (const Case& c : cases) {
    std::vector<int64_t> dims{c.batch, c.channels};
    dims.insert(dims.end(), c.extents.begin(), c.extents.end());
    const Value<double> x = uniform(Shape::make(dims).value(), gen, -2, 2);
    const Value<double> boxes = regions(6, c.extents, gen);
    std::vector<int64_t> index;
    for (int r = 0; r < 6; ++r) index.push_back(static_cast<int64_t>(gen() % static_cast<uint64_t>(c.batch)));
    for (RoiAttrs a : kAll) {
      a.output_size = c.size;
      INFO(op_name(a) << " over " << Shape::make(dims).value().str());
      check_fast_op(a, {x, boxes, indices(index)});
    }
  }
}

// Rows: a batch index out of range, a NaN coordinate, infinite coordinates, an empty region, an
// inverted one, one far outside; and a NaN in the input, which the cells that read it propagate.
TEST_CASE("fastpath roi lowering: what has no value, far regions, and NaN inputs") {
  std::mt19937_64 gen(16);
  std::vector<double> xs = std::get<Tensor<double>>(uniform(Shape::of({2, 3, 4, 5}), gen, -2, 2)).values();
  xs[7] = kNaN;
  const Value<double> x = tensor(Shape::of({2, 3, 4, 5}), xs);
  const Value<double> boxes = tensor(Shape::of({7, 4}), {0, 0, 4, 5,  kNaN, 0, 4, 5,  -kInf, 0, kInf, 5,  2, 2, 2, 4,
                                                          4, 5, 0, 0,  40, 50, 60, 70,  -3.5, -2, -0.5, 1.5});
  for (const RoiAttrs& base : kAll) {
    RoiAttrs a = base;
    a.output_size = {2, 3};
    INFO(op_name(a));
    check_fast_op(a, {x, boxes, indices({2, 0, 1, 0, 1, 0, 1})});
    check_fast_op(a, {x, boxes, indices({-1, 1, 0, 1, 0, 1, 0})});
  }
}

// The judge discriminates: the fast answer passes, and the same answer with one element moved by
// 2^-10 of its magnitude plus 2^-10 is rejected (an average of at most 20 terms in [−2, 2], or a
// 4-term interpolation, is within a few float32 roundings of the exact value).
TEST_CASE("fastpath roi lowering: the judgement rejects an answer off by a little") {
  std::mt19937_64 gen(17);
  const Value<double> x = uniform(Shape::of({1, 2, 6, 6}), gen, -2, 2);
  const Value<double> boxes = tensor(Shape::of({2, 4}), {0.2, 0.3, 5.1, 4.6, 1.3, 0.7, 3.9, 5.8});
  const Value<double> index = indices({0, 0});
  for (RoiAttrs a : {roi_op(RoiOp::AvgPool, {2, 2}), roi_op(RoiOp::Resample, {3, 2})}) {
    const auto envelope = run_values<Envelope>(a, {value_as<Envelope>(x), value_as<Envelope>(boxes), value_as<Envelope>(index)});
    const auto& expected = std::get<Tensor<Envelope>>(envelope[0]);
    auto y = std::get<Tensor<float>>(run_fast(a, {x, boxes, index}, {})[0]).values();
    REQUIRE(rejected(expected, y) == 0);
    y[1] += std::abs(y[1]) * 0x1p-10f + 0x1p-10f;
    CHECK(rejected(expected, y) == 1);
  }
}
