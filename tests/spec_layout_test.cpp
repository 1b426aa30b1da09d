// Layout ops: hand-computed values and every obligation code (slice, pad, squeeze and unsqueeze
// values: spec_layout_test_slicing.cpp, compiled into the same executable).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "spec/ops/concat.hpp"
#include "spec/ops/flatten.hpp"
#include "spec/ops/pad.hpp"
#include "spec/ops/reshape.hpp"
#include "spec/ops/slice.hpp"
#include "spec/ops/split.hpp"
#include "spec/ops/squeeze.hpp"
#include "spec/ops/transpose.hpp"
#include "spec/ops/unsqueeze.hpp"

#include "op_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

TEST_CASE("op names and arities", "[layout]") {
  CHECK(op_name(ReshapeAttrs{}) == "reshape");
  CHECK(op_name(FlattenAttrs{}) == "flatten");
  CHECK(op_name(TransposeAttrs{}) == "transpose");
  CHECK(op_name(ConcatAttrs{}) == "concat");
  CHECK(op_name(SplitAttrs{}) == "split");
  CHECK(op_name(SliceAttrs{}) == "slice");
  CHECK(op_name(PadAttrs{}) == "pad");
  CHECK(op_name(SqueezeAttrs{}) == "squeeze");
  CHECK(op_name(UnsqueezeAttrs{}) == "unsqueeze");
  CHECK(arity(ConcatAttrs{}).min == 1);
  CHECK(arity(ConcatAttrs{}).max == -1);
  CHECK(arity(SplitAttrs{}).max == 1);
  CHECK(code_of(ReshapeAttrs{{-1}}, {Shape::of({2}), Shape::of({2})}) == "graph.arity");
  CHECK(code_of(ConcatAttrs{0}, {}) == "graph.arity");
  CHECK(failure(ReshapeAttrs{{-1}}, {Shape::of({2}), Shape::of({2})}).message == "reshape takes 1 input, got 2");
}

namespace {

// The codes each op's own rule raises (the shared axis and arity codes are spec/rules/'s).
template <class A>
std::vector<std::string> own_codes() {
  std::vector<std::string> codes;
  for (const ObligationSpec* o : OpInfo<A>::obligations()) codes.emplace_back(o->code);
  return codes;
}

}  // namespace

TEST_CASE("each layout op lists its own obligations", "[layout]") {
  using V = std::vector<std::string>;
  CHECK(own_codes<ReshapeAttrs>() == V{"attr.reshape.negative-extent", "attr.reshape.multiple-inferred",
                                       "shape.reshape.zero-out-of-range", "shape.reshape.count-indivisible",
                                       "shape.reshape.computed-extent", "shape.reshape.count-mismatch"});
  CHECK(own_codes<FlattenAttrs>().empty());
  CHECK(own_codes<TransposeAttrs>() == V{"shape.transpose.invalid-permutation"});
  CHECK(own_codes<ConcatAttrs>() == V{"shape.concat.rank-mismatch", "shape.concat.extent-mismatch"});
  CHECK(own_codes<SplitAttrs>() == V{"attr.split.ratio-nonpositive", "shape.split.extent-indivisible"});
  CHECK(own_codes<SliceAttrs>() == V{"attr.slice.attribute-length", "attr.slice.stride-zero", "shape.slice.empty"});
  CHECK(own_codes<PadAttrs>() == V{"shape.pad.attribute-length", "shape.pad.empty",
                                   "shape.pad.computed-negative", "shape.pad.reflect-too-wide",
                                   "shape.pad.reflect-even-too-wide", "shape.pad.replicate-empty",
                                   "attr.pad.value-kind"});
  CHECK(own_codes<GatherAttrs>().empty());
  CHECK(own_codes<CastAttrs>().empty());
  CHECK(own_codes<SqueezeAttrs>() == V{"shape.squeeze.extent-not-one"});
  CHECK(own_codes<UnsqueezeAttrs>().empty());
}

TEST_CASE("axis messages come from the shared validator", "[layout][shape]") {
  const Shape in = Shape::of({2, 3, 4});
  CHECK(failure(FlattenAttrs{4}, {in}).message ==
        "flatten: axis 4 is out of range for an input of rank 3 (valid: 0 to 3)");
  CHECK(failure(FlattenAttrs{-1}, {in}).message ==
        "flatten: axis -1 is out of range for an input of rank 3 (valid: 0 to 3)");
  CHECK(failure(ConcatAttrs{-4}, {in, in}).message ==
        "concat: axis -4 is out of range for an input of rank 3 (valid: -3 to 2)");
  CHECK(failure(SplitAttrs{3, {1}}, {in}).message ==
        "split: axis 3 is out of range for an input of rank 3 (valid: -3 to 2)");
  CHECK(failure(SliceAttrs{{1, -2}, {0, 0}, {1, 1}, {}}, {in}).message == "slice: axes [1, -2] name axis 1 more than once");
  CHECK(failure(SqueezeAttrs{{5}}, {in}).message ==
        "squeeze: axis 5 is out of range for an input of rank 3 (valid: -3 to 2)");
}

TEST_CASE("reshape with -1 and 0", "[layout]") {
  const Shape in = Shape::of({2, 3, 4});
  CHECK(out_shape(ReshapeAttrs{{0, -1}}, {in}) == Shape::of({2, 12}));     // 0 copies 2; 24/2 = 12
  CHECK(out_shape(ReshapeAttrs{{-1, 0, 2}}, {in}) == Shape::of({4, 3, 2}));  // 24/(3·2) = 4
  CHECK(out_shape(ReshapeAttrs{{4, 6}}, {in}) == Shape::of({4, 6}));
  auto y = run(ReshapeAttrs{{4, -1}}, {tensor(in, iota(24))})[0];
  CHECK(y.shape() == Shape::of({4, 6}));
  CHECK(doubles(y) == iota(24));  // row-major order is kept
  CHECK(out_shape(ReshapeAttrs{{}}, {Shape::of({1, 1})}) == Shape::of({}));
}

TEST_CASE("reshape obligations", "[layout][shape]") {
  const Shape in = Shape::of({2, 3, 4});
  CHECK(code_of(ReshapeAttrs{{-1, -1}}, {in}) == "attr.reshape.multiple-inferred");
  CHECK(code_of(ReshapeAttrs{{-2, 12}}, {in}) == "attr.reshape.negative-extent");
  CHECK(code_of(ReshapeAttrs{{24, 1, 1, 0}}, {in}) == "shape.reshape.zero-out-of-range");
  CHECK(code_of(ReshapeAttrs{{5, 5}}, {in}) == "shape.reshape.count-mismatch");
  CHECK(code_of(ReshapeAttrs{{-1, 5}}, {in}) == "shape.reshape.count-indivisible");  // 24 mod 5 ≠ 0
  CHECK(code_of(ReshapeAttrs{{-1, 0}}, {Shape::of({2, 0})}) == "shape.reshape.count-indivisible");
  const int64_t huge = int64_t{1} << 62;
  CHECK(code_of(ReshapeAttrs{{huge, huge}}, {in}) == "shape.reshape.count-mismatch");  // saturates, ≠ 24
}

TEST_CASE("flatten", "[layout]") {
  const Shape in = Shape::of({2, 3, 4});
  CHECK(out_shape(FlattenAttrs{1}, {in}) == Shape::of({2, 12}));
  CHECK(out_shape(FlattenAttrs{0}, {in}) == Shape::of({24}));
  CHECK(out_shape(FlattenAttrs{3}, {in}) == Shape::of({2, 3, 4, 1}));
  CHECK(doubles(run(FlattenAttrs{2}, {tensor(in, iota(24))})[0]) == iota(24));
  CHECK(code_of(FlattenAttrs{4}, {in}) == "shape.axis.out-of-range");
  CHECK(code_of(FlattenAttrs{-1}, {in}) == "shape.axis.out-of-range");
}

TEST_CASE("transpose 3-D", "[layout]") {
  std::vector<double> xv;  // x[a][b][c] = 100a + 10b + c, [2, 3, 4]
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 4; ++c) xv.push_back(100 * a + 10 * b + c);
  auto y = run(TransposeAttrs{{2, 0, 1}}, {tensor(Shape::of({2, 3, 4}), xv)})[0];
  REQUIRE(y.shape() == Shape::of({4, 2, 3}));
  // y[i][j][k] = x[j][k][i] = 100j + 10k + i
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) CHECK(sc::to_double(y[(i * 2 + j) * 3 + k]) == 100 * j + 10 * k + i);
  CHECK(code_of(TransposeAttrs{{0, 0, 1}}, {Shape::of({2, 3, 4})}) == "shape.transpose.invalid-permutation");
  CHECK(code_of(TransposeAttrs{{1, 0}}, {Shape::of({2, 3, 4})}) == "shape.transpose.invalid-permutation");
  CHECK(code_of(TransposeAttrs{{0, 1, 3}}, {Shape::of({2, 3, 4})}) == "shape.transpose.invalid-permutation");
}

TEST_CASE("concat 3 inputs on a middle axis and on a negative axis", "[layout]") {
  // input k: x_k[a][b][c] = 1000(k+1) + 100a + 10b + c; extents along the joined axis 1, 2, 3
  auto make = [](int k, int64_t n1, int64_t n2) {
    std::vector<double> v;
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < n1; ++b)
        for (int c = 0; c < n2; ++c) v.push_back(1000 * (k + 1) + 100 * a + 10 * b + c);
    return tensor(Shape::of({2, n1, n2}), v);
  };
  SECTION("axis 1") {
    auto y = run(ConcatAttrs{1}, {make(0, 1, 2), make(1, 2, 2), make(2, 3, 2)})[0];
    REQUIRE(y.shape() == Shape::of({2, 6, 2}));
    // joined index b: 0 → input 0 row 0; 1, 2 → input 1 rows 0, 1; 3, 4, 5 → input 2 rows 0..2
    const int src[6] = {0, 1, 1, 2, 2, 2}, row[6] = {0, 0, 1, 0, 1, 2};
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 6; ++b)
        for (int c = 0; c < 2; ++c)
          CHECK(sc::to_double(y[(a * 6 + b) * 2 + c]) == 1000 * (src[b] + 1) + 100 * a + 10 * row[b] + c);
  }
  SECTION("axis -1 (the last)") {
    auto y = run(ConcatAttrs{-1}, {make(0, 2, 1), make(1, 2, 2), make(2, 2, 3)})[0];
    REQUIRE(y.shape() == Shape::of({2, 2, 6}));
    const int src[6] = {0, 1, 1, 2, 2, 2}, col[6] = {0, 0, 1, 0, 1, 2};
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b)
        for (int c = 0; c < 6; ++c)
          CHECK(sc::to_double(y[(a * 2 + b) * 6 + c]) == 1000 * (src[c] + 1) + 100 * a + 10 * b + col[c]);
  }
  SECTION("obligations") {
    CHECK(code_of(ConcatAttrs{1}, {Shape::of({2, 1}), Shape::of({2, 1, 1})}) == "shape.concat.rank-mismatch");
    CHECK(code_of(ConcatAttrs{2}, {Shape::of({2, 1}), Shape::of({2, 1})}) == "shape.axis.out-of-range");
    CHECK(code_of(ConcatAttrs{-3}, {Shape::of({2, 1}), Shape::of({2, 1})}) == "shape.axis.out-of-range");
    auto c = Checked<ConcatAttrs>::check(ConcatAttrs{1}, {Shape::of({2, 1}), Shape::of({2, 1}), Shape::of({3, 1})});
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().code == "shape.concat.extent-mismatch");
    CHECK(c.error().message == "concat inputs disagree on axis 0: input 0 has extent 2, input 2 has 3");
  }
}

TEST_CASE("split ratios [1, 2]", "[layout]") {
  auto ys = run(SplitAttrs{1, {1, 2}}, {tensor(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6})});
  REQUIRE(ys.size() == 2);
  CHECK(ys[0].shape() == Shape::of({2, 1}));  // 3·1/3
  CHECK(ys[1].shape() == Shape::of({2, 2}));  // 3·2/3
  CHECK(doubles(ys[0]) == std::vector<double>{1, 4});
  CHECK(doubles(ys[1]) == std::vector<double>{2, 3, 5, 6});
  auto zs = run(SplitAttrs{-2, {1, 1}}, {tensor(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6})});
  CHECK(doubles(zs[0]) == std::vector<double>{1, 2, 3});
  CHECK(doubles(zs[1]) == std::vector<double>{4, 5, 6});
  CHECK(code_of(SplitAttrs{1, {1, 2}}, {Shape::of({2, 4})}) == "shape.split.extent-indivisible");
  CHECK(code_of(SplitAttrs{1, {1, 0}}, {Shape::of({2, 4})}) == "attr.split.ratio-nonpositive");
  CHECK(code_of(SplitAttrs{1, {}}, {Shape::of({2, 4})}) == "attr.split.ratio-nonpositive");
  CHECK(code_of(SplitAttrs{2, {1}}, {Shape::of({2, 4})}) == "shape.axis.out-of-range");
}

TEST_CASE("layout ops in float and mp50", "[layout]") {
  auto x = tensor<mp50>(Shape::of({3}), {1, 2, 3});
  auto y = run<mp50>(PadAttrs{{{1, 1}}, PadBorder::Constant, 0.5}, {x})[0];
  CHECK(y.values() == std::vector<mp50>{mp50(0.5), mp50(1), mp50(2), mp50(3), mp50(0.5)});
  auto f = tensor<float>(Shape::of({2, 2}), {1, 2, 3, 4});
  auto t = run<float>(TransposeAttrs{{1, 0}}, {f})[0];
  CHECK(t.values() == std::vector<float>{1, 3, 2, 4});
}
