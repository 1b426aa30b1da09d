// Resize and Upsample (formats/onnx/ops/resize.cpp): values worked out by hand from ONNX's
// coordinate formulas (each x_orig in a comment), the nearest modes at ties, linear and cubic at
// the edges, symbolic extents, the refusals by name, and conform's verdicts where a float32
// runtime may pick either neighbour.
#include <cmath>
#include <functional>
#include <tuple>

#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"
#include "onnx_test_support.hpp"
#include "semantics/size_names.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

struct Resize {
  int64_t opset = 13;
  bool exclude_outside = false;   // cubic
  std::vector<std::string> dims;  // X's
  std::vector<float> scales;      // or sizes
  std::vector<int64_t> sizes;
  std::string mode = "nearest", coordinate = "half_pixel", nearest = "round_prefer_floor";
  std::vector<int64_t> axes;  // opset 18
};

OnnxModel model(const Resize& r) {
  OnnxModel m(r.opset);
  m.input("X", r.dims);
  std::vector<std::string> in{"X", ""};
  if (!r.scales.empty()) {
    m.init("scales", {static_cast<int64_t>(r.scales.size())}, r.scales);
    in.push_back("scales");
  } else {
    ints_of(m, "sizes", {static_cast<int64_t>(r.sizes.size())}, r.sizes);
    in.insert(in.end(), {"", "sizes"});
  }
  onnx::NodeProto& n = m.node("Resize", in, {"Y"});
  set_string(n, "mode", r.mode);
  set_string(n, "coordinate_transformation_mode", r.coordinate);
  set_string(n, "nearest_mode", r.nearest);
  if (!r.axes.empty()) set_ints(n, "axes", r.axes);
  if (r.exclude_outside) set_int(n, "exclude_outside", 1);
  m.output("Y");
  return m;
}

std::vector<double> resized(const TempDir& tmp, const Resize& r, const std::vector<int64_t>& dims,
                            std::vector<double> x) {
  return values(run_f64(load_onnx(model(r), tmp / "resize.onnx"), {host(dims, std::move(x))})[0]);
}

std::string npy(const TempDir& tmp, const std::string& name, const std::vector<int64_t>& dims, std::vector<double> v) {
  const std::string path = (tmp / name).string();
  REQUIRE(write_npy(path, HostTensor{DType::F32, Shape::make(dims).value(), std::move(v)}).ok());
  return path;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("onnx Resize nearest: every nearest_mode and coordinate mode, by hand") {
  TempDir tmp("onnx_resize_nearest");
  const std::vector<double> x{10, 20, 30};
  // half_pixel, scale 2: x_orig = (i + ½)/2 − ½ = −¼, ¼, ¾, 1¼, 1¾, 2¼ → rounded 0, 0, 1, 1, 2, 2.
  Resize half{.dims = {"1", "1", "1", "3"}, .scales = {1, 1, 1, 2}};
  CHECK(resized(tmp, half, {1, 1, 1, 3}, x) == std::vector<double>{10, 10, 20, 20, 30, 30});
  // Opset 18's axes: the last axis alone, the same numbers.
  Resize axes = half;
  axes.opset = 18, axes.scales = {2}, axes.axes = {-1};
  CHECK(resized(tmp, axes, {1, 1, 1, 3}, x) == std::vector<double>{10, 10, 20, 20, 30, 30});
  // asymmetric, scale 2: x_orig = i/2 = 0, ½, 1, 1½, 2, 2½; the ties go down with
  // round_prefer_floor (0, 0, 1, 1, 2, 2), up with round_prefer_ceil (0, 1, 1, 2, 2, 3 → 2).
  Resize asym{.dims = {"1", "1", "1", "3"}, .scales = {1, 1, 1, 2}, .coordinate = "asymmetric"};
  CHECK(resized(tmp, asym, {1, 1, 1, 3}, x) == std::vector<double>{10, 10, 20, 20, 30, 30});
  asym.nearest = "round_prefer_ceil";
  CHECK(resized(tmp, asym, {1, 1, 1, 3}, x) == std::vector<double>{10, 20, 20, 30, 30, 30});
  // sizes 3 of 5, asymmetric: x_orig = i·5/3 = 0, 1⅔, 3⅓; ceil 0, 2, 4; floor 0, 1, 3.
  const std::vector<double> five{1, 2, 3, 4, 5};
  Resize down{.dims = {"1", "1", "1", "5"}, .sizes = {1, 1, 1, 3}, .coordinate = "asymmetric", .nearest = "ceil"};
  CHECK(resized(tmp, down, {1, 1, 1, 5}, five) == std::vector<double>{1, 3, 5});
  down.nearest = "floor";
  CHECK(resized(tmp, down, {1, 1, 1, 5}, five) == std::vector<double>{1, 2, 4});
  // align_corners, sizes 4 of 3: x_orig = i·2/3 = 0, ⅔, 1⅓, 2 → rounded 0, 1, 1, 2.
  Resize corners{.dims = {"1", "1", "1", "3"}, .sizes = {1, 1, 1, 4}, .coordinate = "align_corners"};
  CHECK(resized(tmp, corners, {1, 1, 1, 3}, x) == std::vector<double>{10, 20, 20, 30});
  // tf_half_pixel_for_nn, sizes 2 of 5: x_orig = (i + ½)·5/2 = 1¼, 3¾ → 1, 4.
  Resize tf{.dims = {"1", "1", "1", "5"}, .sizes = {1, 1, 1, 2}, .coordinate = "tf_half_pixel_for_nn"};
  CHECK(resized(tmp, tf, {1, 1, 1, 5}, five) == std::vector<double>{2, 5});
  // half_pixel at an exact tie, sizes 3 of 2: x_orig = (i + ½)·⅔ − ½ = −⅙, ½, 1⅙ → 0, 0, 1.
  Resize tie{.dims = {"1", "1", "1", "2"}, .sizes = {1, 1, 1, 3}};
  CHECK(resized(tmp, tie, {1, 1, 1, 2}, {10, 20}) == std::vector<double>{10, 10, 20});
}

TEST_CASE("onnx Resize linear: bilinear, align_corners, pytorch_half_pixel to one element, by hand") {
  TempDir tmp("onnx_resize_linear");
  // half_pixel, scale 2 on both axes of [[1, 2], [3, 4]]: x_orig = −¼, ¼, ¾, 1¼ on each, the
  // edges clamped (edge padding): weights 0, ¼, ¾, 1 of the second neighbour; row r, column c is
  // 1 + 2·w_r + w_c.
  Resize bilinear{.dims = {"1", "1", "2", "2"}, .scales = {1, 1, 2, 2}, .mode = "linear"};
  CHECK(resized(tmp, bilinear, {1, 1, 2, 2}, {1, 2, 3, 4}) ==
        std::vector<double>{1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4});
  // align_corners, sizes 5 of 3 on [0, 3, 9]: x_orig = i/2 → 0, 1.5, 3, 6, 9.
  Resize corners{.dims = {"1", "1", "1", "3"}, .sizes = {1, 1, 1, 5}, .mode = "linear", .coordinate = "align_corners"};
  CHECK(resized(tmp, corners, {1, 1, 1, 3}, {0, 3, 9}) == std::vector<double>{0, 1.5, 3, 6, 9});
  // align_corners with scales: ONNX's length_resized is L_in·s = 4·0.6 = 2.4 (not floored), so
  // x_orig = i·3/1.4: 0 and 15/7 → 1 + (15/7)·1 = 22/7 on [1, 2, 3, 4] (ONNX's own test).
  Resize scaled{
      .dims = {"1", "1", "1", "4"}, .scales = {1, 1, 1, 0.6f}, .mode = "linear", .coordinate = "align_corners"};
  const std::vector<double> y = resized(tmp, scaled, {1, 1, 1, 4}, {1, 2, 3, 4});
  REQUIRE(y.size() == 2);
  CHECK(y[0] == 1);
  CHECK(y[1] == Approx(1 + 3.0 / (4 * static_cast<double>(0.6f) - 1)).epsilon(1e-15));
  // pytorch_half_pixel to one element: x_orig = 0, the first.
  Resize one{.dims = {"1", "1", "1", "4"}, .sizes = {1, 1, 1, 1}, .mode = "linear", .coordinate = "pytorch_half_pixel"};
  CHECK(resized(tmp, one, {1, 1, 1, 4}, {5, 6, 7, 8}) == std::vector<double>{5});
  // half_pixel, sizes 3 of 4 on [0, 4, 8, 16]: x_orig = (i + ½)·4/3 − ½ = ⅙, 1½, 2⅚ →
  // 0 + ⅙·4, 4 + ½·4, 8 + ⅚·8.
  Resize down{.dims = {"1", "1", "1", "4"}, .sizes = {1, 1, 1, 3}, .mode = "linear"};
  const std::vector<double> d = resized(tmp, down, {1, 1, 1, 4}, {0, 4, 8, 16});
  REQUIRE(d.size() == 3);
  CHECK(d[0] == Approx(4.0 / 6).epsilon(1e-15));
  CHECK(d[1] == Approx(6).epsilon(1e-15));
  CHECK(d[2] == Approx(8 + 8 * 5.0 / 6).epsilon(1e-15));
}

TEST_CASE("onnx Resize cubic: Keys' kernel at a = −0.75, edges and exclude_outside, by hand") {
  TempDir tmp("onnx_resize_cubic");
  // asymmetric, scale 2 on [0, 1, 2, 3, 4, 5]: x_orig = i/2. At r = ½ the weights of the taps
  // k − 1 .. k + 2 are W(1.5) = ((1.5a − 5a)·1.5 + 8a)·1.5 − 4a = −0.09375 and W(0.5) =
  // ((a + 2)·0.5 − (a + 3))·0.25 + 1 = 0.59375 (sum 1); at whole x_orig the one tap k. Inside,
  // the kernel reproduces the line (1.5, 2.5, 3.5); at the edges the clamped taps repeat x[0] or
  // x[5]: x_orig ½ reads 0, 0, 1, 2 → 0.59375 − 0.1875 = 0.40625; 4½ reads 3, 4, 5, 5 → 4.59375;
  // 5½ reads 4, 5, 5, 5 → −0.375 + 2.96875 + 2.96875 − 0.46875 = 5.09375.
  const std::vector<double> x{0, 1, 2, 3, 4, 5};
  Resize cubic{.dims = {"1", "1", "1", "6"}, .scales = {1, 1, 1, 2}, .mode = "cubic", .coordinate = "asymmetric"};
  const std::vector<double> expected{0, 0.40625, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.59375, 5, 5.09375};
  const std::vector<double> y = resized(tmp, cubic, {1, 1, 1, 6}, x);
  REQUIRE(y.size() == expected.size());
  for (size_t i = 0; i < y.size(); ++i) CHECK(y[i] == Approx(expected[i]).margin(1e-15));
  // exclude_outside: the taps outside [0, 5] weigh 0, the others divided by their sum. x_orig ½:
  // (0.59375·1 − 0.09375·2)/(0.59375 + 0.59375 − 0.09375) = (13/32)/(35/32) = 13/35; 5½: the taps
  // 4 and 5, (−0.09375·4 + 0.59375·5)/0.5 = 5.1875.
  cubic.exclude_outside = true;
  const std::vector<double> e = resized(tmp, cubic, {1, 1, 1, 6}, x);
  REQUIRE(e.size() == 12);
  CHECK(e[1] == Approx(13.0 / 35).epsilon(1e-15));
  CHECK(e[4] == Approx(2).epsilon(1e-15));
  CHECK(e[11] == Approx(5.1875).epsilon(1e-15));
}

TEST_CASE("onnx Upsample: opset 9 scales input and opset 7 attribute, asymmetric floor") {
  TempDir tmp("onnx_upsample");
  // nearest, scales 2, 2 of [[1, 2], [3, 4]]: x_orig = i/2 → floor 0, 0, 1, 1 on each axis.
  OnnxModel nine(9);
  nine.input("X", {"1", "1", "2", "2"});
  nine.init("scales", {4}, {1, 1, 2, 2});
  nine.node("Upsample", {"X", "scales"}, {"Y"});
  nine.output("Y");
  CHECK(values(run_f64(load_onnx(nine, tmp / "nine.onnx"), {host({1, 1, 2, 2}, {1, 2, 3, 4})})[0]) ==
        std::vector<double>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
  // linear, scales 1, 2 of [1, 3]: x_orig = i/2 = 0, ½, 1, 1½ → 1, 2, 3, 3 (the edge repeated).
  OnnxModel seven(7);
  seven.input("X", {"1", "2"});
  onnx::NodeProto& n = seven.node("Upsample", {"X"}, {"Y"});
  set_string(n, "mode", "linear");
  onnx::AttributeProto* a = n.add_attribute();
  a->set_name("scales");
  a->set_type(onnx::AttributeProto::FLOATS);
  a->add_floats(1), a->add_floats(2);
  seven.output("Y");
  CHECK(values(run_f64(load_onnx(seven, tmp / "seven.onnx"), {host({1, 2}, {1, 3})})[0]) ==
        std::vector<double>{1, 2, 3, 3});
}

TEST_CASE("onnx Resize over symbolic extents: run at two widths, proved by check") {
  TempDir tmp("onnx_resize_symbolic");
  // scale 2 on W, half_pixel and linear: x_orig = i/2 − ¼; the indices come from W at run time.
  Resize linear{.dims = {"1", "1", "1", "W"}, .scales = {1, 1, 1, 2}, .mode = "linear"};
  Model m = load_onnx(model(linear), tmp / "linear.onnx");
  // W = 2 on [0, 4]: x_orig −¼, ¼, ¾, 1¼ → 0, 1, 3, 4.
  REQUIRE(set_input_extents(m.graph, m.size_names, {{"W", 2}}));
  CHECK(values(run_f64(m, {host({1, 1, 1, 2}, {0, 4})})[0]) == std::vector<double>{0, 1, 3, 4});
  // W = 3 on [0, 4, 8]: 0, 1, 3, 5, 7, 8.
  Model m3 = load_onnx(model(linear), tmp / "linear3.onnx");
  REQUIRE(set_input_extents(m3.graph, m3.size_names, {{"W", 3}}));
  CHECK(values(run_f64(m3, {host({1, 1, 1, 3}, {0, 4, 8})})[0]) == std::vector<double>{0, 1, 3, 5, 7, 8});
  // half of H and W, nearest asymmetric floor (x_orig = 2i), proved for every size from 2.
  Resize half{
      .dims = {"N", "1", "H", "W"}, .scales = {1, 1, 0.5f, 0.5f}, .coordinate = "asymmetric", .nearest = "floor"};
  model(half).write(tmp / "half.onnx");
  const Run r =
      nnref_cli({"check", (tmp / "half.onnx").string(), "--dim", "N=1..8", "--dim", "H=2..1024", "--dim", "W=2..1024"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
}

// X [N, 1, 1, W] resized to sizes Concat(Shape(X)[0:3], `last`), linear, half_pixel (PyTorch's
// F.interpolate(x, size=...) under a dynamic batch): `last` names the graph value of the last size.
OnnxModel sized_by_shape(const std::string& w, const std::function<void(OnnxModel&)>& last,
                         const std::string& coordinate = "half_pixel") {
  OnnxModel m(13);
  m.input("X", {"N", "1", "1", w});
  m.node("Shape", {"X"}, {"shape"});
  ints_of(m, "from", {1}, {0});
  ints_of(m, "to", {1}, {3});
  m.node("Slice", {"shape", "from", "to"}, {"kept"});
  last(m);
  set_int(m.node("Concat", {"kept", "last"}, {"sizes"}), "axis", 0);
  onnx::NodeProto& n = m.node("Resize", {"X", "", "", "sizes"}, {"Y"});
  set_string(n, "mode", "linear");
  set_string(n, "coordinate_transformation_mode", coordinate);
  m.output("Y");
  return m;
}

TEST_CASE("onnx Resize to sizes over symbolic extents: the kept axes by Shape, the scale L_out/L_in of the run") {
  TempDir tmp("onnx_resize_sizes_symbolic");
  const auto four = [](OnnxModel& m) { ints_of(m, "last", {1}, {4}); };
  // N and C keep their extents (Shape(X)[0:3]); W = 2 to 4: s = 2, x_orig = i/2 − ¼ = −¼, ¼, ¾, 1¼
  // on [0, 4] and [8, 12] (each row its own): 0, 1, 3, 4 and 8, 9, 11, 12 (the edges clamped).
  Model m = load_onnx(sized_by_shape("2", four), tmp / "batch.onnx");
  REQUIRE(set_input_extents(m.graph, m.size_names, {{"N", 2}}));
  CHECK(values(run_f64(m, {host({2, 1, 1, 2}, {0, 4, 8, 12})})[0]) == std::vector<double>{0, 1, 3, 4, 8, 9, 11, 12});
  const Run batch = nnref_cli({"check", (tmp / "batch.onnx").string(), "--dim", "N=1..16"});
  INFO(batch.out << batch.err);
  CHECK(batch.code == 0);
  // A constant size over a symbolic W: s = 4/W at each run. W = 3 on [0, 8, 16]: x_orig =
  // (i + ½)·¾ − ½ = −⅛, ⅝, 1⅜, 2⅛ → 0, 5, 11, 16.
  for (const auto& [w, x, want] :
       {std::tuple{int64_t{3}, std::vector<double>{0, 8, 16}, std::vector<double>{0, 5, 11, 16}},
        std::tuple{int64_t{2}, std::vector<double>{0, 4}, std::vector<double>{0, 1, 3, 4}}}) {
    Model mw = load_onnx(sized_by_shape("W", four), tmp / "width.onnx");
    REQUIRE(set_input_extents(mw.graph, mw.size_names, {{"N", 1}, {"W", w}}));
    const std::vector<double> y = values(run_f64(mw, {host({1, 1, 1, w}, x)})[0]);
    REQUIRE(y.size() == want.size());
    for (size_t i = 0; i < y.size(); ++i) CHECK(y[i] == Approx(want[i]).margin(1e-12));
  }
  const Run width = nnref_cli({"check", (tmp / "width.onnx").string(), "--dim", "N=1..16", "--dim", "W=1..64"});
  INFO(width.out << width.err);
  CHECK(width.code == 0);
  // L_out = 2W, computed from the extent: s = 2 at every run, as scales 2 give (the test above).
  const auto twice = [](OnnxModel& m) {
    m.node("Shape", {"X"}, {"all"});
    ints_of(m, "three", {1}, {3});
    ints_of(m, "four", {1}, {4});
    m.node("Slice", {"all", "three", "four"}, {"w"});
    ints_of(m, "two", {1}, {2});
    m.node("Mul", {"w", "two"}, {"last"});
  };
  Model m3 = load_onnx(sized_by_shape("W", twice), tmp / "twice.onnx");
  REQUIRE(set_input_extents(m3.graph, m3.size_names, {{"N", 1}, {"W", 3}}));
  CHECK(values(run_f64(m3, {host({1, 1, 1, 3}, {0, 4, 8})})[0]) == std::vector<double>{0, 1, 3, 5, 7, 8});
  // With align_corners x_orig is 0 where L_out ≤ 1, which a size computed from W may be: refused.
  CHECK(find_code(load_errors(sized_by_shape("W", twice, "align_corners"), tmp / "corners.onnx"),
                  "onnx.shape-unsupported") != nullptr);
}

TEST_CASE("onnx Resize half_pixel_symmetric (opset 19): the offset that centres a floored output") {
  TempDir tmp("onnx_resize_symmetric");
  // L_in 5, scale ¾: L_out = ⌊3.75⌋ = 3, adjustment 3/3.75 = 0.8, offset 5/2·(1 − 0.8) = ½, so
  // x_orig = ½ + (x + ½)·4/3 − ½ = ⅔, 2, 3⅓ → nearest 1, 2, 3; linear 10 + ⅔·10, 30, 40 + ⅓·10.
  const std::vector<double> x{10, 20, 30, 40, 50};
  Resize nearest{
      .opset = 19, .dims = {"1", "1", "1", "5"}, .scales = {1, 1, 1, 0.75f}, .coordinate = "half_pixel_symmetric"};
  CHECK(resized(tmp, nearest, {1, 1, 1, 5}, x) == std::vector<double>{20, 30, 40});
  Resize linear = nearest;
  linear.mode = "linear";
  const std::vector<double> y = resized(tmp, linear, {1, 1, 1, 5}, x);
  REQUIRE(y.size() == 3);
  CHECK(y[0] == Approx(10 + 20.0 / 3).epsilon(1e-15));
  CHECK(y[1] == Approx(30).epsilon(1e-15));
  CHECK(y[2] == Approx(40 + 10.0 / 3).epsilon(1e-15));
}

TEST_CASE("onnx Resize opset 10: asymmetric, ceil on a shrunk axis and floor on a grown one") {
  TempDir tmp("onnx_resize_10");
  // scale 0.6 of [1..5]: x_orig = i/0.6 = 0, 1⅔, 3⅓ → ⌈⌉ 0, 2, 4; scale 2.5: x_orig = i/2.5 =
  // 0, 0.4, ..., 4.4 → ⌊⌋ 0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4 (ONNX Runtime's answers too).
  const auto run = [&](float scale) {
    OnnxModel m(10);
    m.input("X", {"1", "1", "1", "5"});
    m.init("scales", {4}, {1, 1, 1, scale});
    m.node("Resize", {"X", "scales"}, {"Y"});
    m.output("Y");
    return values(run_f64(load_onnx(m, tmp / "ten.onnx"), {host({1, 1, 1, 5}, {1, 2, 3, 4, 5})})[0]);
  };
  CHECK(run(0.6f) == std::vector<double>{1, 3, 5});
  CHECK(run(2.5f) == std::vector<double>{1, 1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 5});
}

TEST_CASE("onnx Resize tf_crop_and_resize: the roi's coordinates, extrapolation outside, by hand") {
  TempDir tmp("onnx_resize_crop");
  const auto run = [&](const std::string& mode, float start, float end, int64_t size) {
    OnnxModel m(13);
    m.input("X", {"1", "1", "1", "5"});
    m.init("roi", {8}, {0, 0, 0, start, 1, 1, 1, end});
    ints_of(m, "sizes", {4}, {1, 1, 1, size});
    onnx::NodeProto& n = m.node("Resize", {"X", "roi", "", "sizes"}, {"Y"});
    set_string(n, "mode", mode);
    set_string(n, "coordinate_transformation_mode", "tf_crop_and_resize");
    set_float(n, "extrapolation_value", 7);
    m.output("Y");
    return values(run_f64(load_onnx(m, tmp / "crop.onnx"), {host({1, 1, 1, 5}, {10, 20, 30, 40, 50})})[0]);
  };
  // R = L_in − 1 = 4; roi ¼ .. 1¼, 3 outputs: x_orig = ¼·4 + x·1·4/2 = 1, 3, 5; 5 > 4 is outside.
  CHECK(run("linear", 0.25f, 1.25f, 3) == std::vector<double>{20, 40, 7});
  // roi ⅛ .. ⅝, 2 outputs: x_orig = ½ + x·½·4 = ½, 2½ → linear 15, 35; nearest (round_prefer_floor) 0, 2.
  CHECK(run("linear", 0.125f, 0.625f, 2) == std::vector<double>{15, 35});
  CHECK(run("nearest", 0.125f, 0.625f, 2) == std::vector<double>{10, 30});
  // One output: x_orig = ½·(¼ + ¾)·4 = 2.
  CHECK(run("linear", 0.25f, 0.75f, 1) == std::vector<double>{30});
}

TEST_CASE("onnx Resize: antialias refused by name, Upsample's cubic a bad value") {
  TempDir tmp("onnx_resize_refused");
  OnnxModel up(9);
  up.input("X", {"1", "1", "2", "2"});
  up.init("scales", {4}, {1, 1, 2, 2});
  set_string(up.node("Upsample", {"X", "scales"}, {"Y"}), "mode", "cubic");
  up.output("Y");
  CHECK(find_code(load_errors(up, tmp / "up.onnx"), "onnx.attribute-value") != nullptr);
  OnnxModel anti = model({.opset = 18, .dims = {"1", "1", "2", "2"}, .scales = {1, 1, 2, 2}, .mode = "linear"});
  set_int(*anti.graph().mutable_node(0), "antialias", 1);
  CHECK(find_code(load_errors(anti, tmp / "anti.onnx"), "onnx.attribute-unsupported") != nullptr);
}

TEST_CASE("onnx Resize conform: either neighbour at an inexact tie, only the exact one at an exact tie") {
  TempDir tmp("onnx_resize_conform");
  const auto verdict = [&](const Resize& r, const std::vector<double>& x, const std::vector<double>& answer) {
    const std::string file = (tmp / "m.onnx").string();
    model(r).write(file);
    const auto n = static_cast<int64_t>(x.size()), k = static_cast<int64_t>(answer.size());
    return nnref_cli({"conform", file, "--input", npy(tmp, "x.npy", {1, 1, 1, n}, x), "--actual",
                      npy(tmp, "y.npy", {1, 1, 1, k}, answer), "--format", "json"});
  };
  // sizes 3 of 2, half_pixel: x_orig(1) = 1.5·⅔ − ½ = ½ exactly, but a runtime computes it with
  // the rounded scale 1.5 (or its reciprocal) and may land on either side: 10 and 20 conform there,
  // 30 does not; x_orig(0) = −⅙ is far from a boundary: only 10.
  const Resize tie{.dims = {"1", "1", "1", "2"}, .sizes = {1, 1, 1, 3}};
  for (const std::vector<double>& good : {std::vector<double>{10, 10, 20}, std::vector<double>{10, 20, 20}}) {
    const Run r = verdict(tie, {10, 20}, good);
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    CHECK(has(r.out, "\"not_judged\": 0"));
  }
  CHECK(verdict(tie, {10, 20}, {10, 30, 20}).code == 1);
  CHECK(verdict(tie, {10, 20}, {20, 10, 20}).code == 1);
  // asymmetric, scale 2: x_orig = i/2 is exact in float32 whatever the runtime (a power of two),
  // so round_prefer_ceil's ties must go up: 10, 20, 20, 30, 30, 30 only.
  const Resize exact{
      .dims = {"1", "1", "1", "3"}, .scales = {1, 1, 1, 2}, .coordinate = "asymmetric", .nearest = "round_prefer_ceil"};
  CHECK(verdict(exact, {10, 20, 30}, {10, 20, 20, 30, 30, 30}).code == 0);
  CHECK(verdict(exact, {10, 20, 30}, {10, 10, 20, 20, 30, 30}).code == 1);
  // linear across a floor boundary: sizes 3 of 4, x_orig(1) = 1½ exactly; any answer near 6 on
  // [0, 4, 8, 16] conforms, a far one does not.
  const Resize linear{.dims = {"1", "1", "1", "4"}, .sizes = {1, 1, 1, 3}, .mode = "linear"};
  CHECK(verdict(linear, {0, 4, 8, 16}, {4.0 / 6, 6, 8 + 8 * 5.0 / 6}).code == 0);
  CHECK(verdict(linear, {0, 4, 8, 16}, {4.0 / 6, 6.5, 8 + 8 * 5.0 / 6}).code == 1);
}
