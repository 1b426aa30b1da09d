// fastpath_op_layout_test, the ops that move elements without arithmetic: transpose (every
// permutation up to rank 4, 2-D tiles and their edges), concat, split, slice and pad (every border,
// rank 0 to 4). Their envelope is the input's values themselves, so check_fast_op demands them
// exactly; NaN payloads, infinities and −0 are checked bit for bit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "fastpath_op_layout_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<float> floats_of(const Value<float>& v) { return std::get<Tensor<float>>(v).values(); }

std::vector<uint32_t> bits_of(const std::vector<float>& v) {
  std::vector<uint32_t> out(v.size());
  std::memcpy(out.data(), v.data(), v.size() * sizeof(float));
  return out;
}

// Values 1, 2, ... with a NaN, ±inf and −0 among them: a copy must move each one's bits.
Value<double> specials(const Shape& s) {
  std::vector<double> v(static_cast<size_t>(s.count()));
  std::iota(v.begin(), v.end(), 1.0);
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(), -0.0};
  for (size_t i = 0; i < 4 && i < v.size(); ++i) v[(i * 7) % v.size()] = specials[i];
  return tensor(s, v);
}

// The op's fast outputs, bit for bit, equal those of the spec's kernel in float on every target.
template <class A>
void check_bits(const A& attrs, const Value<double>& x) {
  const auto expected = run_values<float>(attrs, {value_as<float>(x)});
  for_each_target([&] {
    for (int threads : {1, 2}) {
      const auto fast = run_fast(attrs, {x}, {}, threads);
      REQUIRE(fast.size() == expected.size());
      for (size_t k = 0; k < fast.size(); ++k) CHECK(bits_of(floats_of(fast[k])) == bits_of(floats_of(expected[k])));
    }
  });
}

}  // namespace

TEST_CASE("fastpath transpose: every permutation of ranks 1 to 4, with extents 1 among them") {
  uint64_t seed = 3000;
  for (const Shape& s : {Shape::of({5}), Shape::of({3, 17}), Shape::of({4, 1, 9}), Shape::of({2, 3, 5, 7}),
                         Shape::of({3, 1, 33, 4}), Shape::of({1, 1})}) {
    std::vector<int64_t> perm(s.rank());
    std::iota(perm.begin(), perm.end(), int64_t{0});
    do {
      INFO("shape " << s.str() << ", perm starting " << perm[0]);
      check_fast_op(TransposeAttrs{perm}, {random_value(s, seed++)});
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
  check_fast_op(TransposeAttrs{{}}, {tensor(Shape(), {2.5})});
}

TEST_CASE("fastpath transpose: 2-D tiles at and around their edge of 32, batched, and every bit moved") {
  uint64_t seed = 3100;
  for (const auto& [r, c] : std::vector<std::pair<int64_t, int64_t>>{{32, 32}, {33, 31}, {70, 40}, {1, 65}, {64, 3}})
    check_fast_op(TransposeAttrs{{1, 0}}, {random_value(Shape::of({r, c}), seed++)});
  check_fast_op(TransposeAttrs{{0, 2, 1}}, {random_value(Shape::of({3, 40, 35}), seed++)});
  check_fast_op(TransposeAttrs{{2, 0, 1}}, {random_value(Shape::of({36, 5, 34}), seed++)});
  check_bits(TransposeAttrs{{1, 0}}, specials(Shape::of({9, 5})));
  check_bits(TransposeAttrs{{0, 2, 1}}, specials(Shape::of({2, 3, 4})));
}

TEST_CASE("fastpath concat: every axis, negative and per-sample axes, three inputs of different widths") {
  uint64_t seed = 3200;
  for (int64_t axis : {0, 1, 2, -1}) {
    std::vector<Value<double>> ins;
    for (int64_t w : {1, 4, 7}) {
      std::vector<int64_t> d = {2, 3, 5};
      d[static_cast<size_t>(axis < 0 ? axis + 3 : axis)] = w;
      ins.push_back(random_value(std::move(Shape::make(d)).value(), seed++));
    }
    check_fast_op(ConcatAttrs{axis, 0}, ins);
  }
  check_fast_op(ConcatAttrs{0, 1}, {random_value(Shape::of({2, 3, 4}), seed++), random_value(Shape::of({2, 5, 4}), seed++)});
  check_fast_op(ConcatAttrs{0, 0}, {random_value(Shape::of({17}), seed++)});
  check_fast_op(ConcatAttrs{1, 0}, {tensor(Shape::of({2, 0}), {}), random_value(Shape::of({2, 3}), seed++)});
}

TEST_CASE("fastpath split: every axis, equal and unequal ratios") {
  uint64_t seed = 3300;
  for (int64_t axis : {0, 1, 2, -2}) check_fast_op(SplitAttrs{axis, {1, 2, 3}}, {random_value(Shape::of({6, 12, 18}), seed++)});
  check_fast_op(SplitAttrs{1, {1, 1}}, {random_value(Shape::of({3, 34, 5}), seed++)});
  check_fast_op(SplitAttrs{0, {4}}, {random_value(Shape::of({8}), seed++)});
  check_bits(SplitAttrs{1, {2, 1}}, specials(Shape::of({4, 3})));
}

TEST_CASE("fastpath slice: one axis, several, negative bounds, end 0, clamped ranges, every bit moved") {
  uint64_t seed = 3400;
  const Value<double> x = random_value(Shape::of({5, 6, 7, 9}), seed++);
  check_fast_op(SliceAttrs{{0}, {1}, {4}, {}}, {x});
  check_fast_op(SliceAttrs{{3}, {2}, {-1}, {}}, {x});
  check_fast_op(SliceAttrs{{1, 3}, {-4, 0}, {0, 5}, {}}, {x});
  check_fast_op(SliceAttrs{{2, 0}, {3, 2}, {100, 3}, {}}, {x});
  check_fast_op(SliceAttrs{{-1, -3, 0}, {-100, 1, 0}, {8, 6, 0}, {}}, {x});
  check_fast_op(SliceAttrs{{}, {}, {}, {}}, {x});
  check_bits(SliceAttrs{{1}, {1}, {3}, {}}, specials(Shape::of({3, 4})));
}

TEST_CASE("fastpath pad: every border, ranks 0 to 4, asymmetric and zero paddings") {
  uint64_t seed = 3500;
  for (PadBorder border : {PadBorder::Constant, PadBorder::Reflect, PadBorder::Replicate, PadBorder::ReflectEven}) {
    const Real value{-1.5, "-1.5"};
    check_fast_op(PadAttrs{{{2, 3}}, border, value}, {random_value(Shape::of({5}), seed++)});
    check_fast_op(PadAttrs{{{1, 0}, {0, 2}}, border, value}, {random_value(Shape::of({3, 4}), seed++)});
    check_fast_op(PadAttrs{{{0, 0}, {2, 2}, {1, 3}}, border, value}, {random_value(Shape::of({2, 5, 17}), seed++)});
    check_fast_op(PadAttrs{{{1, 1}, {0, 1}, {2, 0}, {3, 3}}, border, value}, {random_value(Shape::of({2, 3, 4, 6}), seed++)});
    check_fast_op(PadAttrs{{}, border, value}, {tensor(Shape(), {4.0})});
    check_bits(PadAttrs{{{1, 2}, {2, 1}}, border, value}, specials(Shape::of({3, 4})));
    // Negative paddings crop, on the last axis (the row copy) and on an outer one (the row table),
    // down to a last axis that is all padding.
    check_fast_op(PadAttrs{{{-1, 2}}, border, value}, {random_value(Shape::of({5}), seed++)});
    check_fast_op(PadAttrs{{{-2, 1}, {1, -3}}, border, value}, {random_value(Shape::of({4, 6}), seed++)});
    check_fast_op(PadAttrs{{{0, -1}, {-6, 2}}, border, value}, {random_value(Shape::of({3, 5}), seed++)});
  }
  check_fast_op(PadAttrs{{{1, 1}, {2, 0}}, PadBorder::Constant, Real{0.0, "0"}}, {tensor(Shape::of({0, 3}), {})});
  check_fast_op(PadAttrs{{{0, 1}, {2, 0}}, PadBorder::Constant, Real{7.0, "7"}}, {tensor(Shape::of({2, 0}), {})});
}

TEST_CASE("fastpath layout ops: the judge rejects a moved element") {
  const Value<double> x = random_value(Shape::of({6, 10}), 3600);
  const TransposeAttrs t{{1, 0}};
  const auto env = run_values<Envelope>(t, {value_as<Envelope>(x)});
  auto y = floats_of(run_fast(t, {x}, {})[0]);
  CHECK(rejected(std::get<Tensor<Envelope>>(env[0]), y) == 0);
  std::swap(y[1], y[2]);
  CHECK(rejected(std::get<Tensor<Envelope>>(env[0]), y) == 2);
}
