// TopK, NonZero, Compress, Unique and NonMaxSuppression (formats/onnx/ops/selection.cpp): values worked out by hand
// from ONNX's definitions (NumPy's sort, nonzero and unique give the same), extents computed from
// the data at run time, each refusal by its code, and conform's verdicts: an index an enclosure
// leaves undetermined is not judged, a wrong index is rejected.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }
std::vector<int64_t> dims(const Tensor<double>& t) { return t.shape().dims(); }

HostTensor int64s(const std::vector<int64_t>& d, std::vector<double> v) {
  return HostTensor{DType::I64, Shape::make(d).value(), std::move(v)};
}
HostTensor bools(const std::vector<int64_t>& d, std::vector<double> v) {
  return HostTensor{DType::Bool, Shape::make(d).value(), std::move(v)};
}

// A model whose graph input X is a float [x_dims], with the outputs `out` (its node added by the test).
OnnxModel with_x(const std::vector<std::string>& x_dims, const std::vector<std::string>& out, int64_t opset = 13) {
  OnnxModel m(opset);
  m.input("X", x_dims);
  for (const auto& o : out) m.output(o);
  return m;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

TEST_CASE("onnx TopK: largest and smallest, ties by lower index, K constant and given at run time, by hand") {
  TempDir tmp("onnx_topk");
  // X [2, 4] = [[3, 1, 3, 2], [5, 5, 0, 5]]. Largest 3 along axis 1, equal values by lower index:
  //   row 0: 3 (index 0), 3 (2), 2 (3); row 1: 5 (0), 5 (1), 5 (3).
  const HostTensor x = host({2, 4}, {3, 1, 3, 2, 5, 5, 0, 5});
  OnnxModel given = with_x({"2", "4"}, {"V", "I"});
  given.input("K", {"1"}, onnx::TensorProto::INT64);
  set_int(given.node("TopK", {"X", "K"}, {"V", "I"}), "axis", 1);
  const Model g = load_onnx(given, tmp / "given.onnx");
  auto y = run_f64(g, {x, int64s({1}, {3})});
  CHECK(dims(y[0]) == std::vector<int64_t>{2, 3});
  CHECK(values(y[0]) == std::vector<double>{3, 3, 2, 5, 5, 5});
  CHECK(values(y[1]) == std::vector<double>{0, 2, 3, 0, 1, 3});
  // The same model, K = 1 at run time: the first maximum.
  y = run_f64(g, {x, int64s({1}, {1})});
  CHECK(values(y[1]) == std::vector<double>{0, 0});
  // Smallest 2, K an initializer: row 0: 1 (index 1), 2 (3); row 1: 0 (2), 5 (0).
  OnnxModel smallest = with_x({"2", "4"}, {"V", "I"});
  smallest.ints("K", {2});
  auto& n = smallest.node("TopK", {"X", "K"}, {"V", "I"});
  set_int(n, "largest", 0);
  set_int(n, "axis", -1);
  y = run_f64(load_onnx(smallest, tmp / "smallest.onnx"), {x});
  CHECK(values(y[0]) == std::vector<double>{1, 2, 0, 5});
  CHECK(values(y[1]) == std::vector<double>{1, 3, 2, 0});
  // Axis −2 (the rows), K 1: the larger of each column, the first where equal: [5, 5, 3, 5] at [1, 1, 0, 1].
  OnnxModel columns = with_x({"2", "4"}, {"V", "I"});
  columns.ints("K", {1});
  set_int(columns.node("TopK", {"X", "K"}, {"V", "I"}), "axis", -2);
  y = run_f64(load_onnx(columns, tmp / "columns.onnx"), {x});
  CHECK(dims(y[0]) == std::vector<int64_t>{1, 4});
  CHECK(values(y[0]) == std::vector<double>{5, 5, 3, 5});
  CHECK(values(y[1]) == std::vector<double>{1, 1, 0, 1});
}

TEST_CASE("onnx TopK: NaN sorts above every number, and TopK-1's attribute k") {
  TempDir tmp("onnx_topk_nan");
  // X = [1, NaN, 4, −∞]: largest 2 is NaN (index 1), 4 (2); smallest 2 is −∞ (3), 1 (0).
  const HostTensor x = host({4}, {1, kNaN, 4, -std::numeric_limits<double>::infinity()});
  for (int largest : {1, 0}) {
    OnnxModel m = with_x({"4"}, {"V", "I"});
    m.ints("K", {2});
    set_int(m.node("TopK", {"X", "K"}, {"V", "I"}), "largest", largest);
    const auto y = run_f64(load_onnx(m, tmp / "m.onnx"), {x});
    if (largest == 1) {
      CHECK(std::isnan(values(y[0])[0]));
      CHECK(values(y[0])[1] == 4);
      CHECK(values(y[1]) == std::vector<double>{1, 2});
    } else {
      CHECK(values(y[0]) == std::vector<double>{-std::numeric_limits<double>::infinity(), 1});
      CHECK(values(y[1]) == std::vector<double>{3, 0});
    }
  }
  // Opset 1: k an attribute, the last axis: [4, 1] at [2, 0] for k 2 of [1, −1, 4] ... of X [1, 3].
  OnnxModel old = with_x({"1", "3"}, {"V", "I"}, 9);
  set_int(old.node("TopK", {"X"}, {"V", "I"}), "k", 2);
  const auto y = run_f64(load_onnx(old, tmp / "old.onnx"), {host({1, 3}, {1, -1, 4})});
  CHECK(values(y[0]) == std::vector<double>{4, 1});
  CHECK(values(y[1]) == std::vector<double>{2, 0});
}

TEST_CASE("onnx TopK: refusals by name") {
  TempDir tmp("onnx_topk_refused");
  const auto refused = [&](OnnxModel& m, const std::string& code) {
    const auto ds = load_errors(m, tmp / "m.onnx");
    INFO(code);
    CHECK(find_code(ds, code) != nullptr);
  };
  OnnxModel unsorted = with_x({"4"}, {"V", "I"});
  unsorted.ints("K", {2});
  set_int(unsorted.node("TopK", {"X", "K"}, {"V", "I"}), "sorted", 0);
  refused(unsorted, "onnx.attribute-unsupported");
  OnnxModel too_many = with_x({"4"}, {"V", "I"});
  too_many.ints("K", {5});
  too_many.node("TopK", {"X", "K"}, {"V", "I"});
  refused(too_many, "onnx.attribute-value");
  OnnxModel symbolic = with_x({"N"}, {"V", "I"});
  symbolic.ints("K", {1});
  symbolic.node("TopK", {"X", "K"}, {"V", "I"});
  refused(symbolic, "onnx.shape-unsupported");
  // 5000² pairs exceed the bound of 2^24.
  OnnxModel large = with_x({"5000"}, {"V", "I"});
  large.ints("K", {1});
  large.node("TopK", {"X", "K"}, {"V", "I"});
  refused(large, "onnx.shape-unsupported");
}

TEST_CASE("onnx NonZero: coordinates of nonzero reals (NaN among them) and bools, by hand") {
  TempDir tmp("onnx_nonzero");
  // X [2, 3] = [[0, 1.5, 0], [NaN, 0, −2]]: nonzero at (0, 1), (1, 0), (1, 2): rows [0 1 1], [1 0 2].
  OnnxModel m = with_x({"2", "3"}, {"Y"});
  m.node("NonZero", {"X"}, {"Y"});
  auto y = run_f64(load_onnx(m, tmp / "m.onnx"), {host({2, 3}, {0, 1.5, 0, kNaN, 0, -2})});
  CHECK(dims(y[0]) == std::vector<int64_t>{2, 3});
  CHECK(values(y[0]) == std::vector<double>{0, 1, 1, 1, 0, 2});
  // A bool X [2, 2, 2], true at flat positions 3 and 6: (0, 1, 1) and (1, 1, 0).
  OnnxModel b;
  b.input("B", {"2", "2", "2"}, onnx::TensorProto::BOOL);
  b.node("NonZero", {"B"}, {"Y"});
  b.output("Y");
  y = run_f64(load_onnx(b, tmp / "b.onnx"), {bools({2, 2, 2}, {0, 0, 0, 1, 0, 0, 1, 0})});
  CHECK(values(y[0]) == std::vector<double>{0, 1, 1, 1, 1, 0});
  // A 0-D input has no axis to list.
  OnnxModel scalar = with_x({}, {"Y"});
  scalar.node("NonZero", {"X"}, {"Y"});
  CHECK(find_code(load_errors(scalar, tmp / "s.onnx"), "onnx.input-shape") != nullptr);
}

TEST_CASE("onnx Compress: along an axis, flattened, a short condition, a constant one, by hand") {
  TempDir tmp("onnx_compress");
  // X [3, 2] = [[1, 2], [3, 4], [5, 6]].
  const HostTensor x = host({3, 2}, {1, 2, 3, 4, 5, 6});
  const auto compress = [&](const std::string& name, std::optional<int64_t> axis, std::vector<double> cond) {
    OnnxModel m = with_x({"3", "2"}, {"Y"}, 11);
    m.input("C", {std::to_string(cond.size())}, onnx::TensorProto::BOOL);
    auto& n = m.node("Compress", {"X", "C"}, {"Y"});
    if (axis) set_int(n, "axis", *axis);
    const auto size = static_cast<int64_t>(cond.size());
    return run_f64(load_onnx(m, tmp / (name + ".onnx")), {x, bools({size}, std::move(cond))})[0];
  };
  // Rows 0 and 2: [[1, 2], [5, 6]].
  Tensor<double> y = compress("rows", 0, {1, 0, 1});
  CHECK(dims(y) == std::vector<int64_t>{2, 2});
  CHECK(values(y) == std::vector<double>{1, 2, 5, 6});
  // Column 1 by axis −1: [[2], [4], [6]].
  y = compress("column", -1, {0, 1});
  CHECK(dims(y) == std::vector<int64_t>{3, 1});
  CHECK(values(y) == std::vector<double>{2, 4, 6});
  // Flattened, a condition of 4 of the 6 elements: positions 1 and 3, [2, 4].
  y = compress("flat", std::nullopt, {0, 1, 0, 1});
  CHECK(values(y) == std::vector<double>{2, 4});
  // A constant condition: folded when the model is read, row 1 alone.
  OnnxModel constant = with_x({"3", "2"}, {"Y"}, 11);
  onnx::TensorProto* c = constant.graph().add_initializer();
  c->set_name("C");
  c->set_data_type(onnx::TensorProto::BOOL);
  c->add_dims(3);
  for (int v : {0, 1, 0}) c->add_int32_data(v);
  set_int(constant.node("Compress", {"X", "C"}, {"Y"}), "axis", 0);
  CHECK(values(run_f64(load_onnx(constant, tmp / "constant.onnx"), {x})[0]) == std::vector<double>{3, 4});
  // A condition longer than the axis, and one of rank 2: refused.
  OnnxModel longer = with_x({"3", "2"}, {"Y"}, 11);
  longer.input("C", {"3"}, onnx::TensorProto::BOOL);
  set_int(longer.node("Compress", {"X", "C"}, {"Y"}), "axis", 1);
  CHECK(find_code(load_errors(longer, tmp / "longer.onnx"), "onnx.input-shape") != nullptr);
  OnnxModel square = with_x({"3", "2"}, {"Y"}, 11);
  square.input("C", {"1", "2"}, onnx::TensorProto::BOOL);
  square.node("Compress", {"X", "C"}, {"Y"});
  CHECK(find_code(load_errors(square, tmp / "square.onnx"), "onnx.input-shape") != nullptr);
}

TEST_CASE("onnx Unique: sorted and not, flattened and along an axis, NaN equal to NaN, by hand") {
  TempDir tmp("onnx_unique");
  const std::vector<std::string> outs{"Y", "indices", "inverse", "counts"};
  const auto unique = [&](const std::string& name, const std::vector<std::string>& x_dims, std::optional<int64_t> axis,
                          int64_t sorted, const HostTensor& x) {
    OnnxModel m = with_x(x_dims, outs, 11);
    auto& n = m.node("Unique", {"X"}, outs);
    if (axis) set_int(n, "axis", *axis);
    set_int(n, "sorted", sorted);
    return run_f64(load_onnx(m, tmp / (name + ".onnx")), {x});
  };
  // X = [2, NaN, 1, 2, NaN, 0.5], sorted: Y [0.5, 1, 2, NaN], first at [5, 2, 0, 1], inverse
  // [2, 3, 1, 2, 3, 0], counts [1, 1, 2, 2] (numpy.unique with equal_nan).
  const HostTensor flat = host({6}, {2, kNaN, 1, 2, kNaN, 0.5});
  auto y = unique("sorted", {"6"}, std::nullopt, 1, flat);
  REQUIRE(values(y[0]).size() == 4);
  CHECK(values(y[0])[2] == 2);
  CHECK(std::isnan(values(y[0])[3]));
  CHECK(values(y[1]) == std::vector<double>{5, 2, 0, 1});
  CHECK(values(y[2]) == std::vector<double>{2, 3, 1, 2, 3, 0});
  CHECK(values(y[3]) == std::vector<double>{1, 1, 2, 2});
  // Not sorted: in order of first occurrence, Y [2, NaN, 1, 0.5] at [0, 1, 2, 5], inverse
  // [0, 1, 2, 0, 1, 3], counts [2, 2, 1, 1].
  y = unique("unsorted", {"6"}, std::nullopt, 0, flat);
  CHECK(values(y[1]) == std::vector<double>{0, 1, 2, 5});
  CHECK(values(y[2]) == std::vector<double>{0, 1, 2, 0, 1, 3});
  CHECK(values(y[3]) == std::vector<double>{2, 2, 1, 1});
  // Rows of X [4, 2] = [[1, 2], [0, 5], [1, 2], [1, 0]], compared lexicographically: [0, 5] < [1, 0]
  // < [1, 2]; first at [1, 3, 0]; inverse [2, 0, 2, 1]; counts [1, 1, 2].
  y = unique("rows", {"4", "2"}, 0, 1, host({4, 2}, {1, 2, 0, 5, 1, 2, 1, 0}));
  CHECK(dims(y[0]) == std::vector<int64_t>{3, 2});
  CHECK(values(y[0]) == std::vector<double>{0, 5, 1, 0, 1, 2});
  CHECK(values(y[1]) == std::vector<double>{1, 3, 0});
  CHECK(values(y[2]) == std::vector<double>{2, 0, 2, 1});
  CHECK(values(y[3]) == std::vector<double>{1, 1, 2});
  // The columns of the same X (axis −1): [1, 0, 1, 1] and [2, 5, 2, 0], distinct, sorted as they are.
  y = unique("columns", {"4", "2"}, -1, 1, host({4, 2}, {1, 2, 0, 5, 1, 2, 1, 0}));
  CHECK(dims(y[0]) == std::vector<int64_t>{4, 2});
  CHECK(values(y[1]) == std::vector<double>{0, 1});
  CHECK(values(y[3]) == std::vector<double>{1, 1});
  // Symbolic extents: refused by name.
  OnnxModel symbolic = with_x({"N"}, outs, 11);
  symbolic.node("Unique", {"X"}, outs);
  CHECK(find_code(load_errors(symbolic, tmp / "symbolic.onnx"), "onnx.shape-unsupported") != nullptr);
}

TEST_CASE("onnx conform: TopK's index of a near tie is not judged, a wrong index of a clear order is rejected") {
  // S = X / [3, 1] at X = [1.5, 0.5]: exactly [0.5, 0.5], a tie whose answer is index 0; a runtime
  // may divide as 1.5·fl(1/3), and the envelope of that quotient holds values on both sides of 0.5
  // (fl(1/3) is 1/3 rounded down or up), so the order is undecided and neither index is judged
  // (inconclusive), whichever a runtime gives. At X = [0.75, 0.75] (S = [0.25, 0.75]) the order is
  // clear: index 1, and an answer of 0 is rejected.
  TempDir tmp("onnx-conform-topk");
  OnnxModel m;
  m.input("X", {"2"});
  m.init("q", {2}, {3.0f, 1.0f});
  m.ints("K", {1});
  m.node("Div", {"X", "q"}, {"S"});
  m.node("TopK", {"S", "K"}, {"V", "I"});
  m.output("V");
  m.output("I");
  m.write(tmp / "m.onnx");
  const auto npy = [&](const std::string& name, std::vector<double> v) {
    const std::string path = (tmp / name).string();
    REQUIRE(write_npy(path, HostTensor{DType::F32, Shape::make({2}).value(), std::move(v)}).ok());
    return path;
  };
  const auto conform = [&](const std::string& x, double value, double index) {
    const std::string actual = (tmp / "actual.npz").string();
    REQUIRE(write_npz(actual, {{"V", HostTensor{DType::F32, Shape::make({1}).value(), {value}}},
                               {"I", HostTensor{DType::I64, Shape::make({1}).value(), {index}}}})
                .ok());
    return nnref_cli({"conform", (tmp / "m.onnx").string(), "--input", x, "--actual", actual, "--format", "json"});
  };
  const std::string tie = npy("tie.npy", {1.5, 0.5});
  for (double index : {0.0, 1.0}) {
    const Run r = conform(tie, 0.5, index);
    INFO(r.out << r.err);
    CHECK(has(r.out, "\"verdict\": \"inconclusive\""));
  }
  const std::string clear = npy("clear.npy", {0.75, 0.75});
  const Run good = conform(clear, 0.75, 1);
  INFO(good.out << good.err);
  CHECK(has(good.out, "\"verdict\": \"conforms\""));
  CHECK_FALSE(has(good.out, "\"not_judged\": 1"));
  const Run bad = conform(clear, 0.75, 0);
  INFO(bad.out << bad.err);
  CHECK(has(bad.out, "\"verdict\": \"does not conform\""));
}

TEST_CASE("onnx NonMaxSuppression: greedy by score, limits and thresholds, by hand") {
  TempDir tmp("onnx_nms");
  // Boxes [y1, x1, y2, x2]: 0 = [0, 0, 1, 1], 1 = [0, 0, 1.1, 1] (IoU with 0: 1/1.1 ≈ 0.909),
  // 2 = [0, 2, 1, 3] (apart). Scores [0.5, 0.9, 0.7]: the order 1, 2, 0.
  const HostTensor boxes = host({1, 3, 4}, {0, 0, 1, 1, 0, 0, 1.1, 1, 0, 2, 1, 3});
  const HostTensor scores = host({1, 1, 3}, {0.5, 0.9, 0.7});
  const auto nms = [&](const std::string& name, int64_t max_output, double iou, std::optional<double> score) {
    OnnxModel m(11);
    m.input("boxes", {"1", "3", "4"});
    m.input("scores", {"1", "1", "3"});
    m.input("max", {"1"}, onnx::TensorProto::INT64);
    m.input("iou", {"1"});
    std::vector<std::string> in{"boxes", "scores", "max", "iou"};
    std::vector<HostTensor> given{boxes, scores, int64s({1}, {static_cast<double>(max_output)}), host({1}, {iou})};
    if (score) {
      m.input("score", {"1"});
      in.push_back("score");
      given.push_back(host({1}, {*score}));
    }
    m.node("NonMaxSuppression", in, {"Y"});
    m.output("Y");
    return run_f64(load_onnx(m, tmp / (name + ".onnx")), given)[0];
  };
  // IoU threshold 0.5: 1 kept, 2 kept (no overlap), 0 suppressed by 1: rows (0, 0, 1), (0, 0, 2).
  Tensor<double> y = nms("greedy", 3, 0.5, 0.0);
  CHECK(dims(y) == std::vector<int64_t>{2, 3});
  CHECK(values(y) == std::vector<double>{0, 0, 1, 0, 0, 2});
  // At most one per class: (0, 0, 1).
  CHECK(values(nms("limited", 1, 0.5, 0.0)) == std::vector<double>{0, 0, 1});
  // Score threshold 0.8: box 1 alone.
  CHECK(values(nms("scored", 3, 0.5, 0.8)) == std::vector<double>{0, 0, 1});
  // IoU threshold 0.95 (above 0.909), no score threshold: all three in score order.
  CHECK(values(nms("loose", 3, 0.95, std::nullopt)) == std::vector<double>{0, 0, 1, 0, 0, 2, 0, 0, 0});
  // Refused: scores not [B, C, N], center_point_box 2.
  OnnxModel bad(11);
  bad.input("boxes", {"1", "3", "4"});
  bad.input("scores", {"1", "3"});
  bad.node("NonMaxSuppression", {"boxes", "scores"}, {"Y"});
  bad.output("Y");
  CHECK(find_code(load_errors(bad, tmp / "bad.onnx"), "onnx.input-shape") != nullptr);
  OnnxModel centre(11);
  centre.input("boxes", {"1", "3", "4"});
  centre.input("scores", {"1", "1", "3"});
  set_int(centre.node("NonMaxSuppression", {"boxes", "scores"}, {"Y"}), "center_point_box", 2);
  centre.output("Y");
  CHECK(find_code(load_errors(centre, tmp / "centre.onnx"), "onnx.attribute-value") != nullptr);
}
