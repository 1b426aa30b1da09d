// The fast path's cumsum (fastpath/ops/cumsum.cpp) on every Highway target with 1 and 2 threads:
// reals judged by the spec's op over the Envelope scalar, integers equal to the spec's (check_fast_op);
// a float32 running sum checked at a point where its order shows; integers wrapping at 2^63 and
// unknown from an unknown term on.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "fastpath_op_layout_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

// Integers of either sign up to 2^62, so that sums of a few wrap modulo 2^64.
Value<double> large_integers(const Shape& s, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<int64_t> d(-(int64_t{1} << 62), int64_t{1} << 62);
  std::vector<int64_t> v;
  for (int64_t i = 0; i < s.count(); ++i) v.push_back(d(gen));
  return integers(s, std::move(v));
}

std::vector<float> floats_of(const Value<float>& v) { return std::get<Tensor<float>>(v).values(); }

}  // namespace

TEST_CASE("fastpath cumsum: every axis, direction and exclusive, reals and integers, against the spec") {
  uint64_t seed = 7100;
  for (const Shape& s : {Shape::of({7}), Shape::of({3, 5}), Shape::of({2, 3, 17}), Shape::of({4, 1, 9, 8})})
    for (int64_t axis = -static_cast<int64_t>(s.rank()); axis < static_cast<int64_t>(s.rank()); ++axis)
      for (bool exclusive : {false, true})
        for (bool reverse : {false, true}) {
          INFO("shape " << s.str() << ", axis " << axis << ", exclusive " << exclusive << ", reverse " << reverse);
          check_fast_op(CumsumAttrs{axis, exclusive, reverse, ElemKind::Real}, {random_value(s, seed++, 10.0)});
          check_fast_op(CumsumAttrs{axis, exclusive, reverse, ElemKind::Integer}, {large_integers(s, seed++)});
        }
  // Narrower result types wrap each output at their width, as the spec's.
  for (const IntegerType type : {IntegerType{IntegerWidth::Bits8, true}, IntegerType{IntegerWidth::Bits16, false}})
    for (bool reverse : {false, true})
      check_fast_op(CumsumAttrs{1, false, reverse, ElemKind::Integer, type}, {large_integers(Shape::of({3, 5}), seed++)});
  // Long lines, many of them: two threads each take a part.
  check_fast_op(CumsumAttrs{1, false, false, ElemKind::Real}, {random_value(Shape::of({300, 200}), seed++, 3.0)});
  check_fast_op(CumsumAttrs{0, true, true, ElemKind::Real}, {random_value(Shape::of({200, 300}), seed++, 3.0)});
}

// x = [10^8, 1, −10^8, 1] in float32 in sequence order: 10^8, 10^8 + 1 rounds to 10^8 (the spacing
// there is 8), then 0 and 1; exclusive [0, 10^8, 10^8, 0]. Reversed, from the end: 1, 1 − 10^8 rounds
// to −10^8, −10^8 + 1 rounds to −10^8 again, −10^8 + 10^8 = 0: y = [0, −10^8, −10^8, 1].
TEST_CASE("fastpath cumsum: a float32 running sum in sequence order") {
  const Value<double> x = tensor(Shape::of({4}), {1e8, 1, -1e8, 1});
  for_each_target([&] {
    CHECK(floats_of(run_fast(CumsumAttrs{0}, {x}, {})[0]) == std::vector<float>{1e8f, 1e8f, 0.0f, 1.0f});
    CHECK(floats_of(run_fast(CumsumAttrs{0, true}, {x}, {})[0]) == std::vector<float>{0.0f, 1e8f, 1e8f, 0.0f});
    CHECK(floats_of(run_fast(CumsumAttrs{0, false, true}, {x}, {})[0]) == std::vector<float>{0.0f, -1e8f, -1e8f, 1.0f});
  });
  check_fast_op(CumsumAttrs{0}, {x});
  check_fast_op(CumsumAttrs{0, false, true}, {x});
}

// Modulo 2^64: [2^63 − 1, 2, −3] gives [2^63 − 1, −2^63 + 1, 2^63 − 2]. An unknown term makes
// every later sum unknown: [1, u, 2, 3] gives [1, u, u, u], reversed [u, u, 5, 3].
TEST_CASE("fastpath cumsum: integers wrap modulo 2^64, unknown from an unknown term on") {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = std::numeric_limits<int64_t>::min();
  const int64_t u = kUnknownInteger;
  const auto ints_of = [](const Value<float>& v) { return std::get<Tensor<int64_t>>(v).values(); };
  const CumsumAttrs forward{0, false, false, ElemKind::Integer}, reverse{0, false, true, ElemKind::Integer};
  const Value<double> wrap = integers(Shape::of({3}), {kMax, 2, -3}), unknown = integers(Shape::of({4}), {1, u, 2, 3});
  for_each_target([&] {
    CHECK(ints_of(run_fast(forward, {wrap}, {})[0]) == std::vector<int64_t>{kMax, kMin + 1, kMax - 1});
    CHECK(ints_of(run_fast(forward, {unknown}, {})[0]) == std::vector<int64_t>{1, u, u, u});
    CHECK(ints_of(run_fast(reverse, {unknown}, {})[0]) == std::vector<int64_t>{u, u, 5, 3});
  });
  // A sum that is −2^63 exactly reads as unknown, and the sums after it are known, as in the spec.
  check_fast_op(forward, {integers(Shape::of({3}), {kMax, 1, 1})});
}
