// GridSample, RoiAlign and Det (formats/onnx/ops/sampling.cpp): values worked out by hand from
// ONNX's reference formulas (each coordinate in a comment), the refusals by name, and conform's
// verdicts where a float32 runtime may pick either neighbour.
#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

std::string npy(const TempDir& tmp, const std::string& name, const std::vector<int64_t>& dims, std::vector<double> v) {
  const std::string path = (tmp / name).string();
  REQUIRE(write_npy(path, HostTensor{DType::F32, Shape::make(dims).value(), std::move(v)}).ok());
  return path;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<std::string> text_dims(const std::vector<int64_t>& dims) {
  std::vector<std::string> t;
  for (int64_t d : dims) t.push_back(std::to_string(d));
  return t;
}

struct Grid {
  std::vector<int64_t> x, grid;  // shapes
  std::string mode = "bilinear", padding = "zeros";
  int64_t align_corners = 0;
  int64_t opset = 16;
};

OnnxModel grid_model(const Grid& g) {
  OnnxModel m(g.opset);
  m.input("X", text_dims(g.x));
  m.input("grid", text_dims(g.grid));
  onnx::NodeProto& n = m.node("GridSample", {"X", "grid"}, {"Y"});
  set_string(n, "mode", g.mode);
  set_string(n, "padding_mode", g.padding);
  set_int(n, "align_corners", g.align_corners);
  m.output("Y");
  return m;
}

std::vector<double> grid_sample(const TempDir& tmp, const Grid& g, std::vector<double> x, std::vector<double> grid) {
  const auto out =
      run_f64(load_onnx(grid_model(g), tmp / "grid.onnx"), {host(g.x, std::move(x)), host(g.grid, std::move(grid))});
  return values(out[0]);
}

void near(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-12));
}

}  // namespace

TEST_CASE("onnx GridSample bilinear: zeros, border and reflection padding, by hand") {
  TempDir tmp("onnx_grid_linear");
  // X = [[1, 2], [3, 4]]; L = 2, so x = ((g + 1)·2 − 1)/2 = g + ½.
  // (0, 0): x = y = ½, the centre: 2.5. (−1, −1): x = y = −½, half on index −1 and half on 0 per
  // axis; zeros keeps ¼·X[0, 0] = 0.25, border reads X[0, 0] on all four: 1. (1, −½): x = 1.5,
  // y = 0: half of X[0, 1] and half of column 2 (outside): zeros 1, border 2.
  const std::vector<double> x{1, 2, 3, 4}, grid{0, 0, -1, -1, 1, -0.5};
  near(grid_sample(tmp, {.x = {1, 1, 2, 2}, .grid = {1, 1, 3, 2}}, x, grid), {2.5, 0.25, 1});
  near(grid_sample(tmp, {.x = {1, 1, 2, 2}, .grid = {1, 1, 3, 2}, .padding = "border"}, x, grid), {2.5, 1, 2});
  // Reflection in [−½, 1.5] (R = 2): g = −2 gives x = −1.5, reflected to ½ (y = ½): 2.5; g = 3
  // gives x = 3.5, twice reflected to −½, whose taps −1 and 0 both read column 0: (1 + 3)/2 = 2.
  near(grid_sample(tmp, {.x = {1, 1, 2, 2}, .grid = {1, 1, 2, 2}, .padding = "reflection"}, x, {-2, 0, 3, 0}),
       {2.5, 2});
  // align_corners: x = (g + 1)/2·(L − 1); (−1, 1) is the corner X[1, 0], (0, 0) the centre, and
  // reflection about 0 and 1 takes g = 2 (x = 1.5) to ½.
  near(grid_sample(tmp, {.x = {1, 1, 2, 2}, .grid = {1, 1, 3, 2}, .padding = "reflection", .align_corners = 1}, x,
                   {-1, 1, 0, 0, 2, 0}),
       {3, 2.5, 2.5});
  // Two images, two channels: each point reads its own image, every channel.
  near(grid_sample(tmp, {.x = {2, 2, 1, 1}, .grid = {2, 1, 1, 2}, .padding = "border"}, {1, 2, 3, 4}, {0, 0, 0, 0}),
       {1, 2, 3, 4});
}

TEST_CASE("onnx GridSample nearest: halves to even, zeros outside") {
  TempDir tmp("onnx_grid_nearest");
  // X = [10, 20, 30, 40] (H = 1: y = 0). x = ((g + 1)·4 − 1)/2: g = −½ gives ½ (to 0: 10), 0 gives
  // 1.5 (to 2: 30), ¼ gives 2 (30), ½ gives 2.5 (to 2: 30), 1 gives 3.5 (to 4, outside: 0).
  near(grid_sample(tmp, {.x = {1, 1, 1, 4}, .grid = {1, 1, 5, 2}, .mode = "nearest"}, {10, 20, 30, 40},
                   {-0.5, 0, 0, 0, 0.25, 0, 0.5, 0, 1, 0}),
       {10, 30, 30, 30, 0});
  // border: 3.5 rounds to 4, clamped to 3: 40.
  near(grid_sample(tmp, {.x = {1, 1, 1, 4}, .grid = {1, 1, 1, 2}, .mode = "nearest", .padding = "border"},
                   {10, 20, 30, 40}, {1, 0}),
       {40});
}

TEST_CASE("onnx GridSample bicubic: Keys' kernel with A = -0.75") {
  TempDir tmp("onnx_grid_cubic");
  // X = [1, 2, 4, 8], g = 0: x = 1.5, y = 0. W(½) = (1.25·½ − 2.25)·¼ + 1 = 0.59375 and
  // W(1.5) = ((−0.75·1.5 + 3.75)·1.5 − 6)·1.5 + 3 = −0.09375 on columns 0 .. 3; along y, W(0) = 1
  // and W(1) = 0: −0.09375 + 0.59375·2 + 0.59375·4 − 0.09375·8 = 2.71875.
  near(grid_sample(tmp, {.x = {1, 1, 1, 4}, .grid = {1, 1, 1, 2}, .mode = "bicubic"}, {1, 2, 4, 8}, {0, 0}), {2.71875});
  // Opset 20 names it cubic.
  near(grid_sample(tmp, {.x = {1, 1, 1, 4}, .grid = {1, 1, 1, 2}, .mode = "cubic", .opset = 20}, {1, 2, 4, 8}, {0, 0}),
       {2.71875});
}

TEST_CASE("onnx GridSample refusals by name") {
  TempDir tmp("onnx_grid_refused");
  CHECK(
      find_code(load_errors(grid_model({.x = {1, 1, 2, 2}, .grid = {1, 1, 1, 2}, .mode = "linear"}), tmp / "mode.onnx"),
                "onnx.attribute-value") != nullptr);
  CHECK(find_code(
            load_errors(grid_model({.x = {1, 1, 2, 2}, .grid = {1, 1, 1, 2}, .padding = "wrap"}), tmp / "padding.onnx"),
            "onnx.attribute-value") != nullptr);
  CHECK(
      find_code(load_errors(grid_model({.x = {1, 1, 2, 2, 2}, .grid = {1, 1, 1, 1, 3}, .mode = "linear", .opset = 20}),
                            tmp / "volume.onnx"),
                "onnx.shape-unsupported") != nullptr);
  CHECK(find_code(load_errors(grid_model({.x = {1, 1, 2, 2}, .grid = {1, 1, 1, 3}}), tmp / "grid.onnx"),
                  "onnx.input-shape") != nullptr);
}

TEST_CASE("onnx GridSample conform: rint's neighbour at an exact tie, any floor across an integer") {
  TempDir tmp("onnx_grid_conform");
  const auto verdict = [&](const Grid& g, const std::vector<double>& grid, const std::vector<double>& answer) {
    const std::string file = (tmp / "m.onnx").string();
    grid_model(g).write(file);
    return nnref_cli({"conform", file, "--input", npy(tmp, "x.npy", g.x, {10, 20, 30, 40}), "--input",
                      npy(tmp, "g.npy", g.grid, grid), "--actual",
                      npy(tmp, "y.npy", {1, 1, 1, static_cast<int64_t>(answer.size())}, answer), "--format", "json"});
  };
  // nearest at g = −½: x = ((−½ + 1)·4 − 1)/2 = ½, each operation exact in float32, so x is ½ in
  // every runtime: a tie, which rint breaks to even, 0, as ONNX Runtime 1.30 and PyTorch 1.13 do
  // (both answer 10 here): 10, not 20 or 30.
  const Grid nearest{.x = {1, 1, 1, 4}, .grid = {1, 1, 1, 2}, .mode = "nearest"};
  const Run tie = verdict(nearest, {-0.5, 0}, {10});
  INFO(tie.out << tie.err);
  CHECK(tie.code == 0);
  CHECK(has(tie.out, "\"not_judged\": 0"));
  CHECK(verdict(nearest, {-0.5, 0}, {20}).code == 1);
  CHECK(verdict(nearest, {-0.5, 0}, {30}).code == 1);
  // bilinear at g = ¼: x = 2 exactly, where a runtime's floor may be 1 or 2: 30 conforms, 31 not.
  const Grid linear{.x = {1, 1, 1, 4}, .grid = {1, 1, 1, 2}};
  CHECK(verdict(linear, {0.25, 0}, {30}).code == 0);
  CHECK(verdict(linear, {0.25, 0}, {31}).code == 1);
}

namespace {

struct Roi {
  std::vector<int64_t> x{1, 1, 2, 2};
  int64_t regions = 1, out_height = 1, out_width = 1, sampling_ratio = 1;
  std::string transform = "output_half_pixel", mode = "avg";
  int64_t opset = 16;
};

OnnxModel roi_model(const Roi& r) {
  OnnxModel m(r.opset);
  m.input("X", text_dims(r.x));
  m.input("rois", text_dims({r.regions, 4}));
  m.input("batch_indices", text_dims({r.regions}), onnx::TensorProto::INT64);
  onnx::NodeProto& n = m.node("RoiAlign", {"X", "rois", "batch_indices"}, {"Y"});
  if (r.opset >= 16) set_string(n, "coordinate_transformation_mode", r.transform);
  set_string(n, "mode", r.mode);
  set_int(n, "output_height", r.out_height);
  set_int(n, "output_width", r.out_width);
  set_int(n, "sampling_ratio", r.sampling_ratio);
  m.output("Y");
  return m;
}

std::vector<double> roi_align(const TempDir& tmp, const Roi& r, std::vector<double> x, std::vector<double> rois,
                              std::vector<double> batch) {
  const auto out = run_f64(load_onnx(roi_model(r), tmp / "roi.onnx"),
                           {host(r.x, std::move(x)), host({r.regions, 4}, std::move(rois)),
                            HostTensor{DType::I64, Shape::make({r.regions}).value(), std::move(batch)}});
  return values(out[0]);
}

}  // namespace

TEST_CASE("onnx RoiAlign avg: bins, samples, both coordinate modes, by hand") {
  TempDir tmp("onnx_roi_align");
  // X = [[1, 2], [3, 4]], bilinear f(y, x) = 1 + x + 2y. The region (0, 0, 1, 1), one bin, one
  // sample: output_half_pixel samples (½, ½): 2.5; half_pixel shifts it by −½ to (0, 0): 1.
  const std::vector<double> x{1, 2, 3, 4};
  near(roi_align(tmp, {}, x, {0, 0, 1, 1}, {0}), {2.5});
  near(roi_align(tmp, {.transform = "half_pixel"}, x, {0, 0, 1, 1}, {0}), {1});
  // Opset 10 has output_half_pixel only.
  near(roi_align(tmp, {.opset = 10}, x, {0, 0, 1, 1}, {0}), {2.5});
  // 2×2 bins of ½, 2×2 samples each at ⅛ and ⅜ of the bin: f is linear, so a bin's mean is f at
  // its centre (¼ or ¾): 1.75, 2.25, 2.75, 3.25.
  near(roi_align(tmp, {.out_height = 2, .out_width = 2, .sampling_ratio = 2}, x, {0, 0, 1, 1}, {0}),
       {1.75, 2.25, 2.75, 3.25});
  // A sample at x = −4 (outside [−1, 2]) adds 0; one at x = −½ reads x = 0: f(½, 0) = 2; a region
  // of extent 0 grows to 1 with output_half_pixel: (1, 1, 1, 1) samples (1.5, 1.5), clamped to 4.
  near(roi_align(tmp, {.regions = 3}, x, {-5, 0, -3, 1, -1, 0, 0, 1, 1, 1, 1, 1}, {0, 0, 0}), {0, 2, 4});
  // The second image of two.
  near(roi_align(tmp, {.x = {2, 1, 2, 2}}, {1, 2, 3, 4, 5, 6, 7, 8}, {0, 0, 1, 1}, {1}), {6.5});
}

TEST_CASE("onnx RoiAlign max: the largest weighted corner, ONNX Runtime's") {
  TempDir tmp("onnx_roi_max");
  // X = [[1, 2], [3, 4]], the sample (½, ½): its corners weigh ¼ each, the largest is ¼·4 = 1.
  near(roi_align(tmp, {.mode = "max"}, {1, 2, 3, 4}, {0, 0, 1, 1}, {0}), {1});
  // X = [[−1, −2], [−3, −4]], the region (0, −½, 1, ½): the sample y = 0, x = ½. Its corners are
  // rows 0 and 1 with weights 1 and 0, so the corners ½·(−1), ½·(−2), 0·(−3), 0·(−4): the maximum
  // is 0, where avg gives −1.5.
  near(roi_align(tmp, {.mode = "max"}, {-1, -2, -3, -4}, {0, -0.5, 1, 0.5}, {0}), {0});
  near(roi_align(tmp, {}, {-1, -2, -3, -4}, {0, -0.5, 1, 0.5}, {0}), {-1.5});
  // A sample at (½, 1.5) on [[−1, −2], [−3, −4]]: y = ½ and x = 1.5 clamped to 1, the second column
  // twice with weights 1 and 0: the corners ½·(−2), 0, ½·(−4), 0: 0. At (½, ½) with no zero weight:
  // ¼·(−1) is the largest, −0.25.
  near(roi_align(tmp, {.mode = "max"}, {-1, -2, -3, -4}, {1, 0, 2, 1}, {0}), {0});
  near(roi_align(tmp, {.mode = "max"}, {-1, -2, -3, -4}, {0, 0, 1, 1}, {0}), {-0.25});
}

TEST_CASE("onnx RoiAlign refusals by name") {
  TempDir tmp("onnx_roi_refused");
  CHECK(find_code(load_errors(roi_model({.mode = "median"}), tmp / "median.onnx"), "onnx.attribute-value") != nullptr);
  CHECK(find_code(load_errors(roi_model({.sampling_ratio = 0}), tmp / "adaptive.onnx"), "onnx.attribute-unsupported") !=
        nullptr);
  CHECK(find_code(load_errors(roi_model({.transform = "asymmetric"}), tmp / "transform.onnx"),
                  "onnx.attribute-value") != nullptr);
}

TEST_CASE("onnx Det by Leibniz's formula, batched, and its refusals") {
  TempDir tmp("onnx_det");
  const auto det = [&](const std::vector<int64_t>& dims, std::vector<double> a) {
    OnnxModel m(11);
    m.input("A", text_dims(dims));
    m.node("Det", {"A"}, {"d"});
    m.output("d");
    return values(run_f64(load_onnx(m, tmp / "det.onnx"), {host(dims, std::move(a))})[0]);
  };
  near(det({2, 2}, {1, 2, 3, 4}), {-2});  // 1·4 − 2·3
  // 2·(3·4 − 2·1) − 0 + 1·(1·1 − 3·1) = 20 − 2
  near(det({3, 3}, {2, 0, 1, 1, 3, 2, 1, 1, 4}), {18});
  near(det({2, 2, 2}, {1, 2, 3, 4, 0, 1, 1, 0}), {-2, -1});
  near(det({4, 4}, {1, 5, 6, 7, 0, 2, 8, 9, 0, 0, 3, 1, 0, 0, 0, 4}), {24});  // triangular: 1·2·3·4
  // The identity of order 5 with its first two rows swapped: −1.
  near(det({5, 5}, {0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1}), {-1});
  const auto refused = [&](const std::vector<int64_t>& dims, const std::string& code) {
    OnnxModel m(11);
    m.input("A", text_dims(dims));
    m.node("Det", {"A"}, {"d"});
    m.output("d");
    CHECK(find_code(load_errors(m, tmp / "refused.onnx"), code) != nullptr);
  };
  refused({6, 6}, "onnx.shape-unsupported");
  refused({2, 3}, "onnx.input-shape");
}
