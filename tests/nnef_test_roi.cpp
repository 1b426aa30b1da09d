// NNEF's region-of-interest operations (§4.6): the three IR readings and the roi_align compounds
// through the reader, on an input small enough to compute by hand, and their reader errors.
#include "nnef_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

// x [1, 1, 4, 4], x[h][w] = 4h + w, linear in h and w, so a bilinear sample inside the input is
// 4·v_h + v_w. Region (0, 0, 4, 4):
//   avg_roi_pool 2 × 2: cells of 2 × 2 positions: 2.5, 4.5, 10.5, 12.5; max_roi_pool: 5, 7, 13, 15.
//   roi_resample 2 × 2, symmetric: v = 0.5, 2.5 per axis: 2.5, 4.5, 10.5, 12.5; asymmetric: v = 0, 2:
//   0, 2, 8, 10.
//   avg_roi_align 1 × 1, sampling 2 × 2: the mean of the symmetric resample, 7.5; max_roi_align: 12.5;
//   with resize_method 'asymmetric': the mean of 0, 2, 8, 10, 5.
TEST_CASE("nnef: the region-of-interest operations, by hand") {
  Folder f;
  const auto r = load_text(R"(version 1.0;
graph G( input ) -> ( avg, mx, sym, asym, avg_align, max_align, asym_align ) {
    input = external(shape = [1, 1, 4, 4]);
    rois = constant(shape = [1, 4], value = [0.0, 0.0, 4.0, 4.0]);
    index = constant<integer>(shape = [1], value = [0]);
    avg = avg_roi_pool(input, rois, index, output_size = [2, 2]);
    mx = max_roi_pool(input, rois, index, output_size = [2, 2]);
    sym = roi_resample(input, rois, index, output_size = [2, 2]);
    asym = roi_resample(input, rois, index, output_size = [2, 2], method = 'asymmetric');
    avg_align = avg_roi_align(input, rois, index, output_size = [1, 1], sampling_rate = [2, 2]);
    max_align = max_roi_align(input, rois, index, output_size = [1, 1], sampling_rate = [2, 2]);
    asym_align = avg_roi_align(input, rois, index, output_size = [1, 1], sampling_rate = [2, 2], resize_method = 'asymmetric');
})", f);
  std::vector<double> x(16);
  for (int i = 0; i < 16; ++i) x[static_cast<size_t>(i)] = i;
  const auto out = run_f64(r, {host({1, 1, 4, 4}, x)});
  CHECK(out[0] == std::vector<double>{2.5, 4.5, 10.5, 12.5});
  CHECK(out[1] == std::vector<double>{5, 7, 13, 15});
  CHECK(out[2] == std::vector<double>{2.5, 4.5, 10.5, 12.5});
  CHECK(out[3] == std::vector<double>{0, 2, 8, 10});
  CHECK(out[4] == std::vector<double>{7.5});
  CHECK(out[5] == std::vector<double>{12.5});
  CHECK(out[6] == std::vector<double>{5});
}

TEST_CASE("nnef: region-of-interest errors, located at the invocation") {
  // The input is [1, 1, 3]; a literal in a tensor's place is a tensor of shape [1].
  expect_statement_error("roi_resample(input, 0.0, 0, output_size = [2], method = 'cubic')", "nnef.argument.value");
  expect_statement_error("avg_roi_align(input, 0.0, 0, output_size = [2], sampling_rate = [2, 2])", "nnef.argument.value");
  expect_statement_error("max_roi_align(input, 0.0, 0, output_size = [2], sampling_rate = [0])", "nnef.argument.value");
  expect_statement_error("avg_roi_pool(input, 0.0, 0, output_size = [2])", "shape.roi.rois");
  expect_statement_error("max_roi_pool(input, 0.0, 0, output_size = [2, 2])", "shape.roi.input-rank");
  expect_statement_error("max_roi_pool(input, 0.0, 0, output_size = [0])", "attr.roi.output-size");
}

// §4.6's text gives batch_index the shape (N, 1), the reference implementation [N]: both are read.
// 'aligned' over a region [s, e) of p samples: s + i·(e − s − 1)/(p − 1), s alone for p = 1.
TEST_CASE("nnef: roi_resample 'aligned', with a batch index of the text's shape [R, 1]") {
  Folder f;
  const auto r = load_text(R"(version 1.0;
graph G( input ) -> ( a, one, wide ) {
    input = external(shape = [2, 1, 4]);
    rois = constant(shape = [2, 2], value = [0.0, 4.0, 1.0, 2.5]);
    index = constant<integer>(shape = [2, 1], value = [1, 0]);
    a = roi_resample(input, rois, index, output_size = [3], method = 'aligned');
    one = roi_resample(input, rois, index, output_size = [1], method = 'aligned');
    wide = roi_resample(input, rois, index, output_size = [4], method = 'aligned');
})", f);
  REQUIRE(r.diagnostics.empty());
  // x[0] = [0, 10, 20, 30], x[1] = [1, 2, 4, 8]. Region 0 reads x[1] over [0, 4): 3 samples at
  // 0, 1.5, 3: 1, (2 + 4)/2, 8. Region 1 reads x[0] over [1, 2.5): at 1, 1.25, 1.5: 10, 12.5, 15.
  // p = 1: the starts, x[1][0] = 1 and x[0][1] = 10. p = 4: steps 1 and 0.5/3: 1, 2, 4, 8 and
  // 10, 10 + 5/3, 10 + 10/3, 15.
  const auto out = run_f64(r, {host({2, 1, 4}, {0, 10, 20, 30, 1, 2, 4, 8})});
  CHECK(out[0] == std::vector<double>{1, 3, 8, 10, 12.5, 15});
  CHECK(out[1] == std::vector<double>{1, 10});
  REQUIRE(out[2].size() == 8);
  CHECK(std::vector<double>(out[2].begin(), out[2].begin() + 4) == std::vector<double>{1, 2, 4, 8});
  CHECK(out[2][4] == 10);
  CHECK(out[2][5] == Approx(10 + 5.0 / 3).epsilon(1e-15));
  CHECK(out[2][6] == Approx(10 + 10.0 / 3).epsilon(1e-15));
  CHECK(out[2][7] == Approx(15).epsilon(1e-15));  // 1 + 3·(0.5/3) may round below 1.5
}

TEST_CASE("nnef: a batch index of shape [R, 2] is refused with the obligation it fails") {
  Folder f;
  const auto r = load_text(R"(version 1.0;
graph G( input ) -> ( output ) {
    input = external(shape = [1, 1, 4]);
    rois = constant(shape = [1, 2], value = [0.0, 4.0]);
    index = constant<integer>(shape = [1, 2], value = [0, 0]);
    output = avg_roi_pool(input, rois, index, output_size = [2]);
})", f, WeightsPolicy::Skip);
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics[0].code == "shape.roi.batch-index");
  CHECK(r.diagnostics[0].loc.line == 6);
}
