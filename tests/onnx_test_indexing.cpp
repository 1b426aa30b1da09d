// Trilu, EyeLike, GatherElements, OneHot (formats/onnx/ops/indexing.cpp) and Hardmax: values worked
// out by hand from ONNX's definitions, k and depth as constants and as run-time inputs, and `check`
// proving Trilu over symbolic extents (a causal mask of any length).
#include <cmath>

#include "cli_test_support.hpp"
#include "onnx_test_support.hpp"
#include "semantics/size_names.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

std::vector<double> from_one(int n) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i + 1;
  return v;
}

}  // namespace

TEST_CASE("onnx Trilu: upper and lower, k constant, from an input, and negative, by hand") {
  TempDir tmp("onnx_trilu");
  // X [2, 3, 4] = 1..24 row by row; lower with k 1 keeps j ≤ i + 1:
  //   rows [1 2 0 0], [5 6 7 0], [9 10 11 12], and likewise for the second matrix.
  OnnxModel lower;
  lower.input("X", {"B", "S", "T"});
  ints_of(lower, "k", {}, {1});
  set_int(lower.node("Trilu", {"X", "k"}, {"Y"}), "upper", 0);
  lower.output("Y");
  Model m = load_onnx(lower, tmp / "lower.onnx");
  REQUIRE(set_input_extents(m.graph, m.size_names, {{"B", 2}, {"S", 3}, {"T", 4}}));
  CHECK(values(run_f64(m, {host({2, 3, 4}, from_one(24))})[0]) ==
        std::vector<double>{1, 2, 0, 0, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 0, 0, 17, 18, 19, 0, 21, 22, 23, 24});
  // Upper (the default) with k = −1 given as the graph's second input keeps j ≥ i − 1:
  //   X [3, 3] = 1..9: rows [1 2 3], [4 5 6], [0 8 9].
  OnnxModel upper;
  upper.input("X", {"3", "3"});
  upper.input("k", {}, onnx::TensorProto::INT64);
  upper.node("Trilu", {"X", "k"}, {"Y"});
  upper.output("Y");
  const Model u = load_onnx(upper, tmp / "upper.onnx");
  HostTensor k{DType::I64, Shape(), {-1}};
  CHECK(values(run_f64(u, {host({3, 3}, from_one(9)), k})[0]) == std::vector<double>{1, 2, 3, 4, 5, 6, 0, 8, 9});
  // Without k: the upper triangle with the diagonal.
  OnnxModel plain;
  plain.input("X", {"2", "3"});
  plain.node("Trilu", {"X"}, {"Y"});
  plain.output("Y");
  CHECK(values(run_f64(load_onnx(plain, tmp / "plain.onnx"), {host({2, 3}, from_one(6))})[0]) ==
        std::vector<double>{1, 2, 3, 0, 5, 6});
}

TEST_CASE("onnx Trilu: proved for every size, a rank-1 input refused by name") {
  TempDir tmp("onnx_trilu_check");
  OnnxModel m;
  m.input("X", {"B", "S", "T"});
  m.node("Trilu", {"X"}, {"Y"});
  m.output("Y");
  m.write(tmp / "m.onnx");
  Run r = nnref_cli({"check", (tmp / "m.onnx").string(), "--dim", "B=1..16", "--dim", "S=1..512", "--dim", "T=1..512"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  OnnxModel flat;
  flat.input("X", {"4"});
  flat.node("Trilu", {"X"}, {"Y"});
  flat.output("Y");
  CHECK(find_code(load_errors(flat, tmp / "flat.onnx"), "onnx.input-shape") != nullptr);
}

TEST_CASE("onnx EyeLike: the k-th diagonal of ones in x's shape, by hand") {
  TempDir tmp("onnx_eye_like");
  // X [3, 4], k 1: ones at (0, 1), (1, 2), (2, 3).
  OnnxModel m;
  m.input("X", {"3", "4"});
  set_int(m.node("EyeLike", {"X"}, {"Y"}), "k", 1);
  m.output("Y");
  CHECK(values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({3, 4}, std::vector<double>(12, 7.0))})[0]) ==
        std::vector<double>{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  OnnxModel cube;
  cube.input("X", {"2", "2", "2"});
  cube.node("EyeLike", {"X"}, {"Y"});
  cube.output("Y");
  CHECK(find_code(load_errors(cube, tmp / "cube.onnx"), "onnx.input-shape") != nullptr);
}

TEST_CASE("onnx GatherElements: ONNX's examples by hand, negative indices, and NaN outside") {
  TempDir tmp("onnx_gather_elements");
  const auto model = [](int64_t axis, const std::vector<std::string>& data, const std::vector<std::string>& idx) {
    OnnxModel m;
    m.input("D", data);
    m.input("I", idx, onnx::TensorProto::INT64);
    set_int(m.node("GatherElements", {"D", "I"}, {"Y"}), "axis", axis);
    m.output("Y");
    return m;
  };
  const auto indices = [](const std::vector<int64_t>& dims, std::vector<double> v) {
    return HostTensor{DType::I64, Shape::make(dims).value(), std::move(v)};
  };
  // Axis 1: y[i][j] = D[i][I[i][j]]: D [[1, 2], [3, 4]], I [[0, 0], [1, 0]] → [[1, 1], [4, 3]].
  const Model m1 = load_onnx(model(1, {"2", "2"}, {"2", "2"}), tmp / "axis1.onnx");
  CHECK(values(run_f64(m1, {host({2, 2}, {1, 2, 3, 4}), indices({2, 2}, {0, 0, 1, 0})})[0]) ==
        std::vector<double>{1, 1, 4, 3});
  // Axis 0: y[i][j] = D[I[i][j]][j]: D 1..9 as [3, 3], I [[1, 2, 0], [2, 0, 0]] → [[4, 8, 3], [7, 2, 3]].
  const Model m0 = load_onnx(model(0, {"3", "3"}, {"2", "3"}), tmp / "axis0.onnx");
  CHECK(values(run_f64(m0, {host({3, 3}, from_one(9)), indices({2, 3}, {1, 2, 0, 2, 0, 0})})[0]) ==
        std::vector<double>{4, 8, 3, 7, 2, 3});
  // −1 counts from the end (D[0][1] = 2); 2 and −3 are outside [−2, 2): NaN, not a neighbour.
  const Model mn = load_onnx(model(1, {"2", "2"}, {"2", "2"}), tmp / "negative.onnx");
  const std::vector<double> y = values(run_f64(mn, {host({2, 2}, {1, 2, 3, 4}), indices({2, 2}, {-1, 2, -3, -2})})[0]);
  CHECK(y[0] == 2);
  CHECK(std::isnan(y[1]));
  CHECK(std::isnan(y[2]));
  CHECK(y[3] == 3);
  // Symbolic extents are refused by name (the flat indices are computed at load time).
  CHECK(find_code(load_errors(model(0, {"N", "3"}, {"2", "3"}), tmp / "symbolic.onnx"), "onnx.shape-unsupported") !=
        nullptr);
  CHECK(find_code(load_errors(model(0, {"3", "3"}, {"2", "4"}), tmp / "wide.onnx"), "onnx.input-shape") != nullptr);
}

TEST_CASE("onnx OneHot: by hand, negative and outside indices, real indices truncated, depth from an input") {
  TempDir tmp("onnx_one_hot");
  const auto model = [](int64_t axis, int32_t index_type, bool depth_input) {
    OnnxModel m(11);
    m.input("I", {"2", "2"}, index_type);
    if (depth_input) m.input("depth", {}, onnx::TensorProto::INT64);
    else ints_of(m, "depth", {}, {3});
    m.init("values", {2}, {0, 5});
    set_int(m.node("OneHot", {"I", "depth", "values"}, {"Y"}), "axis", axis);
    m.output("Y");
    return m;
  };
  const HostTensor ints{DType::I64, Shape::make({2, 2}).value(), {1, -1, 3, 0}};
  // depth 3, values [off 0, on 5], axis −1: 1 → [0 5 0], −1 → [0 0 5], 3 → none, 0 → [5 0 0].
  const std::vector<double> last{0, 5, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0};
  CHECK(values(run_f64(load_onnx(model(-1, onnx::TensorProto::INT64, false), tmp / "last.onnx"), {ints})[0]) == last);
  // Axis 0: y[p][i][j] = 5 where I[i][j] counts p: p = 0 at (1, 1), p = 1 at (0, 0), p = 2 at (0, 1).
  CHECK(values(run_f64(load_onnx(model(0, onnx::TensorProto::INT64, false), tmp / "first.onnx"), {ints})[0]) ==
        std::vector<double>{0, 0, 0, 5, 5, 0, 0, 0, 0, 5, 0, 0});
  // depth given at run time as an int64 input: the same.
  const HostTensor depth{DType::I64, Shape(), {3}};
  CHECK(values(run_f64(load_onnx(model(-1, onnx::TensorProto::INT64, true), tmp / "input.onnx"), {ints, depth})[0]) ==
        last);
  // Real indices truncate towards zero: 1.7 → 1, −1.2 → −1 (position 2), 3.5 → 3 (none), −0.5 → 0.
  const HostTensor reals = host({2, 2}, {1.7, -1.2, 3.5, -0.5});
  CHECK(values(run_f64(load_onnx(model(-1, onnx::TensorProto::FLOAT, false), tmp / "real.onnx"), {reals})[0]) == last);
  // A real depth at run time has no size to read: refused by name.
  OnnxModel real_depth(11);
  real_depth.input("I", {"2"}, onnx::TensorProto::INT64);
  real_depth.input("depth", {});
  real_depth.init("values", {2}, {0, 1});
  real_depth.node("OneHot", {"I", "depth", "values"}, {"Y"});
  real_depth.output("Y");
  CHECK(find_code(load_errors(real_depth, tmp / "real_depth.onnx"), "onnx.input-not-constant") != nullptr);
}

TEST_CASE("onnx Hardmax: along one axis (opset 13) and over x coerced to 2-D (opset 11), first maximum") {
  TempDir tmp("onnx_hardmax");
  const auto model = [](int64_t opset) {
    OnnxModel m(opset);
    m.input("X", {"2", "2", "2"});
    set_int(m.node("Hardmax", {"X"}, {"Y"}), "axis", 1);
    m.output("Y");
    return m;
  };
  const HostTensor x = host({2, 2, 2}, {1, 4, 3, 2, 5, 5, 0, 1});
  // Opset 13, axis 1: columns [1 3] → 1, [4 2] → 0, [5 0] → 0, [5 1] → 0.
  CHECK(values(run_f64(load_onnx(model(13), tmp / "m13.onnx"), {x})[0]) == std::vector<double>{0, 1, 1, 0, 1, 1, 0, 0});
  // Opset 11, axis 1: rows of [2, 4]: [1 4 3 2] → 1, [5 5 0 1] → 0 (the first of the tie).
  CHECK(values(run_f64(load_onnx(model(11), tmp / "m11.onnx"), {x})[0]) == std::vector<double>{0, 1, 0, 0, 1, 0, 0, 0});
}

TEST_CASE("onnx GatherND: ONNX's examples by hand, batch_dims, negative and outside indices") {
  TempDir tmp("onnx_gather_nd");
  const auto model = [](const std::vector<std::string>& data, const std::vector<std::string>& idx, int64_t batch) {
    OnnxModel m;
    m.input("D", data);
    m.input("I", idx, onnx::TensorProto::INT64);
    set_int(m.node("GatherND", {"D", "I"}, {"Y"}), "batch_dims", batch);
    m.output("Y");
    return m;
  };
  const auto indices = [](const std::vector<int64_t>& dims, std::vector<double> v) {
    return HostTensor{DType::I64, Shape::make(dims).value(), std::move(v)};
  };
  const HostTensor square = host({2, 2}, {0, 1, 2, 3});
  // D [[0, 1], [2, 3]]: I [[0, 0], [1, 1]] → [0, 3]; I [[1], [0]] → [[2, 3], [0, 1]];
  // I [[−1, −1], [2, 0]] → [3, NaN] (2 is outside [−2, 2)).
  CHECK(values(run_f64(load_onnx(model({"2", "2"}, {"2", "2"}, 0), tmp / "pairs.onnx"),
                       {square, indices({2, 2}, {0, 0, 1, 1})})[0]) == std::vector<double>{0, 3});
  CHECK(values(run_f64(load_onnx(model({"2", "2"}, {"2", "1"}, 0), tmp / "rows.onnx"),
                       {square, indices({2, 1}, {1, 0})})[0]) == std::vector<double>{2, 3, 0, 1});
  const std::vector<double> edge = values(run_f64(load_onnx(model({"2", "2"}, {"2", "2"}, 0), tmp / "edge.onnx"),
                                                  {square, indices({2, 2}, {-1, -1, 2, 0})})[0]);
  CHECK(edge[0] == 3);
  CHECK(std::isnan(edge[1]));
  // batch_dims 1: D [[[0, 1], [2, 3]], [[4, 5], [6, 7]]], I [[1], [0]]: row 1 of batch 0, row 0 of
  // batch 1 → [[2, 3], [4, 5]].
  CHECK(values(run_f64(load_onnx(model({"2", "2", "2"}, {"2", "1"}, 1), tmp / "batch.onnx"),
                       {host({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}), indices({2, 1}, {1, 0})})[0]) ==
        std::vector<double>{2, 3, 4, 5});
  CHECK(find_code(load_errors(model({"2", "2"}, {"2", "3"}, 0), tmp / "long.onnx"), "onnx.input-shape") != nullptr);
}

TEST_CASE("onnx ReverseSequence: each batch's prefix reversed by hand, a length beyond T reading NaN") {
  TempDir tmp("onnx_reverse_sequence");
  OnnxModel m(10);
  m.input("X", {"4", "2"});
  m.input("L", {"2"}, onnx::TensorProto::INT64);
  onnx::NodeProto& n = m.node("ReverseSequence", {"X", "L"}, {"Y"});
  set_int(n, "time_axis", 0);
  set_int(n, "batch_axis", 1);
  m.output("Y");
  const Model model = load_onnx(m, tmp / "m.onnx");
  // X[t][b] = 2t + b; lengths [4, 2]: batch 0 reversed whole (6, 4, 2, 0), batch 1 its first two
  // (3, 1), then 5, 7 kept.
  const HostTensor x = host({4, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(values(run_f64(model, {x, HostTensor{DType::I64, Shape::make({2}).value(), {4, 2}}})[0]) ==
        std::vector<double>{6, 3, 4, 1, 2, 5, 0, 7});
  // Length 5 > T = 4: the source 4 − t is outside at t = 0 (NaN there), then 3, 2, 1 → X[3..1][0].
  const std::vector<double> y =
      values(run_f64(model, {x, HostTensor{DType::I64, Shape::make({2}).value(), {5, 1}}})[0]);
  CHECK(std::isnan(y[0]));
  CHECK(std::vector<double>(y.begin() + 1, y.end()) == std::vector<double>{1, 6, 3, 4, 5, 2, 7});
}
