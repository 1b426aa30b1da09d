// NNEF's windows over every axis (§4.3.2, §4.9.3, §4.9.4): box with and without normalization in
// every border mode, pools whose window covers the batch or channel axis, the local normalizations
// and the down-sampling compounds, on inputs small enough to compute by hand.
#include "nnef_test_support.hpp"

#include <cmath>

using namespace nnref;
using namespace nnref::test;

namespace {

const std::string kHeader = "version 1.0;\n";

}  // namespace

TEST_CASE("nnef: box sums its window in every border mode") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( c, i, p, m, e, automatic, mean ) {
    input = external(shape = [1, 1, 3]);
    c = box(input, size = [1, 1, 5], padding = [(0, 0), (0, 0), (2, 2)], border = 'constant');
    i = box(input, size = [1, 1, 5], padding = [(0, 0), (0, 0), (2, 2)], border = 'ignore');
    p = box(input, size = [1, 1, 5], padding = [(0, 0), (0, 0), (2, 2)], border = 'replicate');
    m = box(input, size = [1, 1, 5], padding = [(0, 0), (0, 0), (2, 2)], border = 'reflect');
    e = box(input, size = [1, 1, 5], padding = [(0, 0), (0, 0), (2, 2)], border = 'reflect-even');
    automatic = box(input, size = [1, 1, 3], border = 'replicate');
    mean = box(input, size = [1, 1, 5], padding = [(0, 0), (0, 0), (2, 2)], border = 'reflect', normalize = true);
})", f);
  // x = [1, 2, 3] extended by 2 on each side, then sums of 5:
  // constant 0 0 | 1 2 3 | 0 0 → 6 6 6; ignore the same (the padding adds nothing);
  // replicate 1 1 | 1 2 3 | 3 3 → 8 10 12; reflect (edge not repeated) 3 2 | 1 2 3 | 2 1 → 11 10 9;
  // reflect-even (edge repeated) 2 1 | 1 2 3 | 3 2 → 9 10 11.
  // automatic: size 3, t = 2, padding (1, 1), replicate 1 | 1 2 3 | 3 → 4 6 8. mean: reflect / 5.
  const auto out = run_f64(r, {host({1, 1, 3}, {1, 2, 3})});
  CHECK(out[0] == std::vector<double>{6, 6, 6});
  CHECK(out[1] == std::vector<double>{6, 6, 6});
  CHECK(out[2] == std::vector<double>{8, 10, 12});
  CHECK(out[3] == std::vector<double>{11, 10, 9});
  CHECK(out[4] == std::vector<double>{9, 10, 11});
  CHECK(out[5] == std::vector<double>{4, 6, 8});
  CHECK(out[6] == std::vector<double>{11.0 / 5, 10.0 / 5, 9.0 / 5});
}

TEST_CASE("nnef: windows over the batch and channel axes") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( x, y, z ) -> ( channels, max_ignore, max_constant, avg_ignore, avg_constant, strided ) {
    x = external(shape = [1, 4, 1]);
    y = external(shape = [2, 1, 2]);
    z = external(shape = [2, 2]);
    channels = box(x, size = [1, 3, 1]);
    max_ignore = max_pool(y, size = [2, 1, 1], border = 'ignore');
    max_constant = max_pool(y, size = [2, 1, 1], border = 'constant');
    avg_ignore = avg_pool(z, size = [2, 2], border = 'ignore');
    avg_constant = avg_pool(z, size = [2, 2], border = 'constant');
    strided = box(x, size = [1, 2, 1], stride = [1, 2, 1], padding = [(0, 0), (0, 0), (0, 0)]);
})", f);
  // channels: x = [1, 2, 3, 4] over channels, size 3, automatic padding (1, 1): 3 6 9 7.
  // y = [[-1, -5], [-4, -2]] over the batch, size 2, automatic padding (0, 1): batch 0 is
  // max(y[0], y[1]) = [-1, -2]; batch 1 is y[1] with the padding: ignore [-4, -2], constant [0, 0].
  // z = [[1, 2], [3, 4]], a 2x2 window over both axes, padding (0, 1) on each: ignore averages the
  // real elements 10/4, 6/2, 7/2, 4/1; constant divides by 4: 10/4, 6/4, 7/4, 4/4.
  // strided: channel pairs (1, 2) and (3, 4): 3 7.
  const auto out = run_f64(r, {host({1, 4, 1}, {1, 2, 3, 4}), host({2, 1, 2}, {-1, -5, -4, -2}), host({2, 2}, {1, 2, 3, 4})});
  CHECK(out[0] == std::vector<double>{3, 6, 9, 7});
  CHECK(out[1] == std::vector<double>{-1, -2, -4, -2});
  CHECK(out[2] == std::vector<double>{-1, -2, 0, 0});
  CHECK(out[3] == std::vector<double>{2.5, 3, 3.5, 4});
  CHECK(out[4] == std::vector<double>{2.5, 1.5, 1.75, 1});
  CHECK(out[5] == std::vector<double>{3, 7});
}

TEST_CASE("nnef: max_pool reads a replicated or reflected border") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( constant, replicate, reflect ) {
    input = external(shape = [1, 1, 3]);
    constant = max_pool(input, size = [1, 1, 2], stride = [1, 1, 2], padding = [(0, 0), (0, 0), (1, 0)], border = 'constant');
    replicate = max_pool(input, size = [1, 1, 2], stride = [1, 1, 2], padding = [(0, 0), (0, 0), (1, 0)], border = 'replicate');
    reflect = max_pool(input, size = [1, 1, 2], stride = [1, 1, 2], padding = [(0, 0), (0, 0), (1, 0)], border = 'reflect');
})", f);
  // x = [-3, -2, -1], one padded position before, windows of 2 at stride 2: (ĩ[-1], -3), (-2, -1).
  // ĩ[-1] is 0 (constant), -3 (replicate), x[1] = -2 (reflect).
  const auto out = run_f64(r, {host({1, 1, 3}, {-3, -2, -1})});
  CHECK(out[0] == std::vector<double>{0, -1});
  CHECK(out[1] == std::vector<double>{-3, -1});
  CHECK(out[2] == std::vector<double>{-2, -1});
}

TEST_CASE("nnef: the local normalizations across channels run through their bodies") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( response, mean, variance, contrast ) {
    input = external(shape = [1, 3, 1, 1]);
    response = local_response_normalization(input, size = [1, 2, 1, 1], alpha = 2.0, beta = 1.0, bias = 1.0);
    mean = local_mean_normalization(input, size = [1, 2, 1, 1]);
    variance = local_variance_normalization(input, size = [1, 2, 1, 1]);
    contrast = local_contrast_normalization(input, size = [1, 2, 1, 1]);
})", f);
  // x = [1, 2, 3] over channels; a window of 2 channels with automatic padding (0, 1).
  // x² = [1, 4, 9], window means 5/2, 13/2, 9/2; response: x / (1 + 2·mean)^1 = 1/6, 2/14, 3/10.
  // mean: window means of x 3/2, 5/2, 3/2; x − mean = -1/2, -1/2, 3/2.
  // variance: x / max(√mean(x²) + 0, 0) = 1/√2.5, 2/√6.5, 3/√4.5.
  // contrast: c = x − mean = [-1/2, -1/2, 3/2], c² = [1/4, 1/4, 9/4], window means 1/4, 5/4, 9/8;
  // c / √mean = -1, -1/2/√1.25, 3/2/√1.125.
  const auto out = run_f64(r, {host({1, 3, 1, 1}, {1, 2, 3})});
  CHECK(out[0] == std::vector<double>{1.0 / 6, 2.0 / 14, 3.0 / 10});
  CHECK(out[1] == std::vector<double>{-0.5, -0.5, 1.5});
  CHECK(out[2] == std::vector<double>{1 / std::sqrt(2.5), 2 / std::sqrt(6.5), 3 / std::sqrt(4.5)});
  CHECK(out[3] == std::vector<double>{-1, -0.5 / std::sqrt(1.25), 1.5 / std::sqrt(1.125)});
}

TEST_CASE("nnef: nearest_downsample and area_downsample") {
  Folder f;
  const auto r = load_text(kHeader + R"(graph G( input ) -> ( nearest, area ) {
    input = external(shape = [1, 1, 2, 4]);
    nearest = nearest_downsample(input, factor = [2, 2]);
    area = area_downsample(input, factor = [2, 2]);
})", f);
  // x = [[1, 2, 3, 4], [5, 6, 7, 8]]: nearest keeps x[0, 0] and x[0, 2]; area averages the 2x2
  // blocks (1 + 2 + 5 + 6)/4 and (3 + 4 + 7 + 8)/4.
  const auto out = run_f64(r, {host({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})});
  CHECK(out[0] == std::vector<double>{1, 3});
  CHECK(out[1] == std::vector<double>{3.5, 5.5});
}

TEST_CASE("nnef: a window's bad attribute lists and borders are located errors") {
  expect_statement_error("box(input, size = [1, 1, 3], border = 'wrap')", "nnef.argument.value");
  expect_statement_error("box(input, size = [1, 3])", "nnef.argument.value");
  expect_statement_error("box(input, size = [1, 1, 3], stride = [1, 1])", "nnef.argument.value");
  expect_statement_error("max_pool(input, size = [1, 1, 3], padding = [(0, 0), (1, 1)])", "nnef.argument.value");
  expect_statement_error("box(input, size = [1, 1, 5], padding = [(0, 0), (0, 0), (3, 0)], border = 'reflect')",
                         "shape.pad.reflect-too-wide");
  expect_statement_error("box(input, size = [2, 1, 1], padding = [(0, 0), (0, 0), (0, 0)])",
                         "shape.window.exceeds-input");
}
