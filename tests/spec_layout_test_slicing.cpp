// Layout ops that keep, pad or drop positions (slice, pad, squeeze, unsqueeze): hand-computed
// values and obligations. Part of spec_layout_test.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "spec/ops/pad.hpp"
#include "spec/ops/slice.hpp"
#include "spec/ops/squeeze.hpp"
#include "spec/ops/unsqueeze.hpp"

#include "op_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

TEST_CASE("slice with negative indices, end 0 and clamping", "[layout]") {
  auto x = tensor(Shape::of({10}), iota(10));
  auto slice = [&](int64_t b, int64_t e) { return doubles(run(SliceAttrs{{0}, {b}, {e}, {}}, {x})[0]); };
  CHECK(slice(-3, 0) == std::vector<double>{7, 8, 9});           // [10−3, 10)
  CHECK(slice(2, -5) == std::vector<double>{2, 3, 4});           // [2, 10−5)
  CHECK(slice(-20, 100) == iota(10));                            // [max(−10, 0), min(100, 10))
  CHECK(slice(8, 100) == std::vector<double>{8, 9});             // end clamped to 10
  // 2-D: rows [1, 3) of 3 → 1, 2; columns (axis −1) [−2, 0) of 4 → 2, 3; x[r][c] = 4r + c
  auto y = run(SliceAttrs{{0, -1}, {1, -2}, {3, 0}, {}}, {tensor(Shape::of({3, 4}), iota(12))})[0];
  CHECK(y.shape() == Shape::of({2, 2}));
  CHECK(doubles(y) == std::vector<double>{6, 7, 10, 11});
  CHECK(code_of(SliceAttrs{{0}, {5}, {3}, {}}, {Shape::of({10})}) == "shape.slice.empty");
  CHECK(code_of(SliceAttrs{{0}, {20}, {30}, {}}, {Shape::of({10})}) == "shape.slice.empty");  // [10, 10)
  CHECK(code_of(SliceAttrs{{0}, {1, 2}, {3}, {}}, {Shape::of({10})}) == "attr.slice.attribute-length");
  CHECK(code_of(SliceAttrs{{1}, {1}, {3}, {}}, {Shape::of({10})}) == "shape.axis.out-of-range");
  CHECK(code_of(SliceAttrs{{0, -1}, {1, 1}, {3, 3}, {}}, {Shape::of({10})}) == "shape.axis.duplicate");
}

TEST_CASE("pad with the three borders", "[layout]") {
  auto x = tensor(Shape::of({3}), {1, 2, 3});
  PadAttrs a{{{2, 2}}, PadBorder::Constant, 9.0};
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{9, 9, 1, 2, 3, 9, 9});
  a.border = PadBorder::Reflect;  // x[2], x[1] | x | x[1], x[0]
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{3, 2, 1, 2, 3, 2, 1});
  a.border = PadBorder::Replicate;
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{1, 1, 1, 2, 3, 3, 3});
  // 2-D, x[r][c] = 2r + c of [2, 2], padding (1, 0) rows and (0, 1) columns, constant 0
  auto y = run(PadAttrs{{{1, 0}, {0, 1}}}, {tensor(Shape::of({2, 2}), {0, 1, 2, 3})})[0];
  CHECK(y.shape() == Shape::of({3, 3}));
  CHECK(doubles(y) == std::vector<double>{0, 0, 0, 0, 1, 0, 2, 3, 0});
  // Computed: before S (the extent of operand 1, 2 here), after 1: 0, 0 | 5, 6 | 0.
  using namespace size_code;
  PadAttrs c;
  c.computed = PadComputed{{kExtent, 0, 0, kConstant, 1}, {ElemKind::Real}};
  auto z = run(c, {tensor(Shape::of({2}), {5, 6}), tensor(Shape::of({2}), {7, 7})})[0];
  CHECK(z.shape() == Shape::of({5}));
  CHECK(doubles(z) == std::vector<double>{0, 0, 5, 6, 0});
}

// A negative padding crops (NNEF 1.0 §4.5): output position p reads input p − before as before.
TEST_CASE("pad with negative padding crops", "[layout]") {
  auto x = tensor(Shape::of({4}), {1, 2, 3, 4});
  PadAttrs a{{{-1, 2}}, PadBorder::Constant, 9.0};
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{2, 3, 4, 9, 9});
  a.border = PadBorder::Reflect;  // x[1..3] | x[2], x[1]
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{2, 3, 4, 3, 2});
  a.border = PadBorder::ReflectEven;  // x[1..3] | x[3], x[2]
  CHECK(doubles(run(a, {x})[0]) == std::vector<double>{2, 3, 4, 4, 3});
  // Cropping past the input leaves only padding: position 0 reads x[4], outside.
  CHECK(doubles(run(PadAttrs{{{-4, 2}}, PadBorder::Constant, 9.0}, {tensor(Shape::of({3}), {1, 2, 3})})[0]) ==
        std::vector<double>{9});
  // 2-D, x[r][c] = 3r + c of [2, 3]: rows (0, -1) keep row 0, columns (-1, 1) replicate: x[0][1], x[0][2], x[0][2].
  auto y = run(PadAttrs{{{0, -1}, {-1, 1}}, PadBorder::Replicate}, {tensor(Shape::of({2, 3}), {0, 1, 2, 3, 4, 5})})[0];
  CHECK(y.shape() == Shape::of({1, 3}));
  CHECK(doubles(y) == std::vector<double>{1, 2, 2});
}

TEST_CASE("pad obligations", "[layout][shape]") {
  CHECK(code_of(PadAttrs{{{1, 1}}}, {Shape::of({3, 3})}) == "shape.pad.attribute-length");
  CHECK(code_of(PadAttrs{{{-1, 1}}}, {Shape::of({3})}) == "ok");  // crops one, pads one
  CHECK(code_of(PadAttrs{{{-2, -1}}}, {Shape::of({3})}) == "shape.pad.empty");
  CHECK(code_of(PadAttrs{{{-4, 2}}}, {Shape::of({3})}) == "ok");  // crops past the input, into the padding
  CHECK(code_of(PadAttrs{{{3, 0}}, PadBorder::Reflect}, {Shape::of({3})}) == "shape.pad.reflect-too-wide");
  CHECK(code_of(PadAttrs{{{2, 2}}, PadBorder::Reflect}, {Shape::of({3})}) == "ok");
  CHECK(code_of(PadAttrs{{{1, 1}}, PadBorder::Replicate}, {Shape::of({0})}) == "shape.pad.replicate-empty");
  const int64_t huge = int64_t{1} << 62;
  CHECK(code_of(PadAttrs{{{huge, huge}, {huge, huge}}}, {Shape::of({1, 1})}) == "size.overflow");
  // A computed before of S − 2 with S = 1.
  using namespace size_code;
  PadAttrs c;
  c.computed = PadComputed{{kExtent, 0, 0, kConstant, 2, kSub, kConstant, 0}, {ElemKind::Real}};
  CHECK(code_of(c, {Shape::of({3}), Shape::of({1})}) == "shape.pad.computed-negative");
}

TEST_CASE("squeeze and unsqueeze", "[layout]") {
  auto x = tensor(Shape::of({1, 3, 1}), {1, 2, 3});
  auto y = run(SqueezeAttrs{{0, -1}}, {x})[0];
  CHECK(y.shape() == Shape::of({3}));
  CHECK(doubles(y) == std::vector<double>{1, 2, 3});
  auto z = run(UnsqueezeAttrs{{0, 2}}, {y})[0];
  CHECK(z.shape() == Shape::of({1, 3, 1}));
  CHECK(doubles(z) == std::vector<double>{1, 2, 3});
  CHECK(out_shape(UnsqueezeAttrs{{-1}}, {Shape::of({2, 3})}) == Shape::of({2, 3, 1}));
  CHECK(code_of(SqueezeAttrs{{1}}, {Shape::of({1, 3, 1})}) == "shape.squeeze.extent-not-one");
  CHECK(code_of(SqueezeAttrs{{3}}, {Shape::of({1, 3, 1})}) == "shape.axis.out-of-range");
  CHECK(code_of(SqueezeAttrs{{0, -3}}, {Shape::of({1, 3, 1})}) == "shape.axis.duplicate");
  CHECK(code_of(UnsqueezeAttrs{{2}}, {Shape::of({3})}) == "shape.axis.out-of-range");
  CHECK(code_of(UnsqueezeAttrs{{0, 0}}, {Shape::of({3})}) == "shape.axis.duplicate");
  // An empty list of axes is allowed: nothing removed, nothing inserted.
  CHECK(out_shape(SqueezeAttrs{{}}, {Shape::of({1, 3})}) == Shape::of({1, 3}));
  CHECK(out_shape(UnsqueezeAttrs{{}}, {Shape::of({1, 3})}) == Shape::of({1, 3}));
}
