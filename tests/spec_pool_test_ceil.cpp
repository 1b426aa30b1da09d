// The pools' rounded-up extent (PadMode::ExplicitCeil, ONNX's and PyTorch's ceil_mode): extents and
// values by hand (arithmetic in the comments), and the plain explicit padding the writers state for it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "formats/write_support.hpp"
#include "spec/ops/pool.hpp"

#include "op_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

PoolAttrs ceil_pool(PoolOp op, std::vector<int64_t> k, std::vector<int64_t> s,
                    std::vector<std::pair<int64_t, int64_t>> pads = {}) {
  PoolAttrs a;
  a.op = op;
  a.kernel = std::move(k);
  a.stride = std::move(s);
  a.padding = std::move(pads);
  a.pad_mode = PadMode::ExplicitCeil;
  return a;
}

// 1..25 row-major over [1, 1, 5, 5].
Tensor<double> five_by_five() {
  std::vector<double> v;
  for (int i = 1; i <= 25; ++i) v.push_back(i);
  return tensor(Shape::of({1, 1, 5, 5}), v);
}

}  // namespace

TEST_CASE("ceil pool: a 5x5 input, kernel 2, stride 2 gives 3x3, the last row and column overhanging", "[pool][ceil]") {
  // ⌈(5 − 2)/2⌉ + 1 = 3 per axis (floor: 2); windows cover rows {0,1}, {2,3}, {4} (row 5 is the overhang).
  const auto max = ceil_pool(PoolOp::Max, {2, 2}, {2, 2});
  CHECK(out_shape(max, {Shape::of({1, 1, 5, 5})}) == Shape::of({1, 1, 3, 3}));
  // The max of a window is its bottom-right real element, x[r][c] = 5r + c + 1, r and c in {1, 3, 4}.
  CHECK(doubles(run(max, {five_by_five()})[0]) == std::vector<double>{7, 9, 10, 17, 19, 20, 22, 24, 25});
  // Ignore: the overhang takes no part. (1+2+6+7)/4 = 4, (3+4+8+9)/4 = 6, (5+10)/2 = 7.5,
  // (11+12+16+17)/4 = 14, (13+14+18+19)/4 = 16, (15+20)/2 = 17.5, (21+22)/2 = 21.5, (23+24)/2 = 23.5, 25/1.
  auto avg = ceil_pool(PoolOp::Avg, {2, 2}, {2, 2});
  CHECK(doubles(run(avg, {five_by_five()})[0]) == std::vector<double>{4, 6, 7.5, 14, 16, 17.5, 21.5, 23.5, 25});
  // Constant: the overhang is padding that counts, each window divides by 4: 15/4, 35/4, 43/4, 47/4, 25/4.
  avg.border = PoolBorder::Constant;
  CHECK(doubles(run(avg, {five_by_five()})[0]) == std::vector<double>{4, 6, 3.75, 14, 16, 8.75, 10.75, 11.75, 6.25});
}

TEST_CASE("ceil pool drops a window that would start in the padding after", "[pool][ceil]") {
  // x = 2, kernel 2, stride 2, padding (0, 1): ⌈(3 − 2)/2⌉ + 1 = 2 windows, but the second starts at
  // 2, past the input: ⌈(2 + 0)/2⌉ = 1 window (PyTorch's pooling_output_shape drops it likewise).
  const auto a = ceil_pool(PoolOp::Max, {2}, {2}, {{0, 1}});
  CHECK(out_shape(a, {Shape::of({1, 1, 2})}) == Shape::of({1, 1, 1}));
  // Symmetric padding 1 over one element (PyTorch's own case): ⌈(3 − 2)/2⌉ + 1 = 2, (2 − 1)·2 = 2 ≥ 1 + 1: 1.
  CHECK(out_shape(ceil_pool(PoolOp::Max, {2}, {2}, {{1, 1}}), {Shape::of({1, 1, 1})}) == Shape::of({1, 1, 1}));
  // x = 5, kernel 3, stride 2, padding (1, 1): ⌈(7 − 3)/2⌉ + 1 = 3, the last window [3, 6) starts in the input.
  CHECK(out_shape(ceil_pool(PoolOp::Max, {3}, {2}, {{1, 1}}), {Shape::of({1, 1, 5})}) == Shape::of({1, 1, 3}));
  // Where the stride divides the span, ceil and floor agree: x = 6, kernel 2, stride 2: 3.
  CHECK(out_shape(ceil_pool(PoolOp::Avg, {2}, {2}), {Shape::of({1, 1, 6})}) == Shape::of({1, 1, 3}));
  // The window must still fit the padded input.
  CHECK(code_of(ceil_pool(PoolOp::Max, {4}, {2}), {Shape::of({1, 1, 3})}) == "shape.window.exceeds-input");
}

TEST_CASE("ceil pool as plain explicit padding: the overhang after, padding no window reaches dropped", "[pool][ceil]") {
  // 5, kernel 2, stride 2: 3 windows end at 6: padding after 1.
  CHECK(convert::explicit_padding(ceil_pool(PoolOp::Max, {2, 2}, {2, 2}), {5, 5}) ==
        std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {0, 1}});
  // 2, padding (0, 1): one window [0, 2): padding after 0.
  CHECK(convert::explicit_padding(ceil_pool(PoolOp::Max, {2}, {2}, {{0, 1}}), {2}) ==
        std::vector<std::pair<int64_t, int64_t>>{{0, 0}});
  // 6, kernel 2, stride 2: the windows end at 6 exactly: none.
  CHECK(convert::explicit_padding(ceil_pool(PoolOp::Max, {2}, {2}), {6}) == std::vector<std::pair<int64_t, int64_t>>{{0, 0}});
  // The same values through the explicit padding: 5x5, padding (0, 1), floor extent ⌊(6 − 2)/2⌋ + 1 = 3.
  PoolAttrs plain = ceil_pool(PoolOp::Max, {2, 2}, {2, 2}, {{0, 1}, {0, 1}});
  plain.pad_mode = PadMode::Explicit;
  CHECK(doubles(run(plain, {five_by_five()})[0]) == std::vector<double>{7, 9, 10, 17, 19, 20, 22, 24, 25});
}
