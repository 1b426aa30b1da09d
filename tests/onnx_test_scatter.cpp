// ScatterElements, Scatter, ScatterND (formats/onnx/ops/scatter.cpp), GatherND of integer data
// (indexing.cpp), MaxPool's Indices and MaxUnpool (windows.cpp): values worked out by hand from
// ONNX's definitions (each in a comment), every reduction, duplicate, negative and outside
// indices, and each refusal by its code.
#include <cmath>
#include <string>
#include <vector>

#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

HostTensor indices(const std::vector<int64_t>& dims, std::vector<double> v) {
  return HostTensor{DType::I64, Shape::make(dims).value(), std::move(v)};
}

bool all_nan(const std::vector<double>& v) {
  for (double x : v)
    if (!std::isnan(x)) return false;
  return true;
}

void int64_output(OnnxModel& m, const std::string& name) {
  auto* o = m.graph().add_output();
  o->set_name(name);
  o->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
}

// One ScatterElements (or Scatter, opset 10) node over inputs D, I, U of the given extents.
OnnxModel scatter_elements(const std::string& op, int64_t axis, const std::string& reduction,
                           const std::vector<std::string>& data, const std::vector<std::string>& idx) {
  OnnxModel m(op == "Scatter" ? 10 : 18);
  m.input("D", data);
  m.input("I", idx, onnx::TensorProto::INT64);
  m.input("U", idx);
  onnx::NodeProto& n = m.node(op, {"D", "I", "U"}, {"Y"}, "s");
  set_int(n, "axis", axis);
  if (!reduction.empty()) set_string(n, "reduction", reduction);
  m.output("Y");
  return m;
}

OnnxModel scatter_nd(const std::string& reduction, const std::vector<std::string>& data,
                     const std::vector<std::string>& idx, const std::vector<std::string>& updates) {
  OnnxModel m(18);
  m.input("D", data);
  m.input("I", idx, onnx::TensorProto::INT64);
  m.input("U", updates);
  onnx::NodeProto& n = m.node("ScatterND", {"D", "I", "U"}, {"Y"}, "s");
  if (!reduction.empty()) set_string(n, "reduction", reduction);
  m.output("Y");
  return m;
}

}  // namespace

TEST_CASE("onnx ScatterElements and Scatter: ONNX's examples by hand, negative indices, NaN outside") {
  TempDir tmp("onnx_scatter_elements");
  // Axis 0: y[I[i][j]][j] = U[i][j] on zeros [3, 3], I [[1, 0, 2], [0, 2, 1]], U [[1.0, 1.1, 1.2],
  // [2.0, 2.1, 2.2]] → [[2.0, 1.1, 0], [1.0, 0, 2.2], [0, 2.1, 1.2]].
  const std::vector<HostTensor> example{host({3, 3}, std::vector<double>(9, 0.0)), indices({2, 3}, {1, 0, 2, 0, 2, 1}),
                                        host({2, 3}, {1.0, 1.1, 1.2, 2.0, 2.1, 2.2})};
  const std::vector<double> expected{2.0, 1.1, 0, 1.0, 0, 2.2, 0, 2.1, 1.2};
  for (const std::string op : {"ScatterElements", "Scatter"}) {
    INFO(op);
    const Model m = load_onnx(scatter_elements(op, 0, "", {"3", "3"}, {"2", "3"}), tmp / (op + ".onnx"));
    CHECK(values(run_f64(m, example)[0]) == expected);
  }
  // Axis 1: D [[1, 2, 3, 4, 5]], I [[1, 3]], U [[1.1, 2.1]] → [[1, 1.1, 3, 2.1, 5]]; I [[1, −3]]
  // names columns 1 and 2 → [[1, 1.1, 2.1, 4, 5]].
  const Model row = load_onnx(scatter_elements("ScatterElements", 1, "", {"1", "5"}, {"1", "2"}), tmp / "row.onnx");
  const HostTensor d = host({1, 5}, {1, 2, 3, 4, 5}), u = host({1, 2}, {1.1, 2.1});
  CHECK(values(run_f64(row, {d, indices({1, 2}, {1, 3}), u})[0]) == std::vector<double>{1, 1.1, 3, 2.1, 5});
  CHECK(values(run_f64(row, {d, indices({1, 2}, {1, -3}), u})[0]) == std::vector<double>{1, 1.1, 2.1, 4, 5});
  // 5 and −6 are outside [−5, 5): the scatter has no result, every element NaN.
  CHECK(all_nan(values(run_f64(row, {d, indices({1, 2}, {1, 5}), u})[0])));
  CHECK(all_nan(values(run_f64(row, {d, indices({1, 2}, {-6, 0}), u})[0])));
}

TEST_CASE("onnx ScatterElements: every reduction over duplicate indices, by hand") {
  TempDir tmp("onnx_scatter_reductions");
  // D [[1, 2, 3, 4, 5]], I [[1, 1]], U [[1.1, 2.1]]: both land on D[0][1] = 2.
  const HostTensor d = host({1, 5}, {1, 2, 3, 4, 5});
  const auto second = [&](const std::string& reduction, const HostTensor& u) {
    const Model m =
        load_onnx(scatter_elements("ScatterElements", 1, reduction, {"1", "5"}, {"1", "2"}), tmp / "m.onnx");
    const std::vector<double> y = values(run_f64(m, {d, indices({1, 2}, {1, 1}), u})[0]);
    CHECK(y[0] == 1);  // the others kept
    CHECK(y[4] == 5);
    return y[1];
  };
  const HostTensor u = host({1, 2}, {1.1, 2.1});
  CHECK(second("add", u) == Approx(2 + 1.1 + 2.1));
  CHECK(second("mul", u) == Approx(2 * 1.1 * 2.1));
  CHECK(second("max", u) == 2.1);
  CHECK(second("min", u) == 1.1);
  CHECK(second("max", host({1, 2}, {0.5, 1.5})) == 2);  // data's own element takes part
  // none: equal updates write their value; differing ones leave the element undefined: NaN.
  CHECK(second("none", host({1, 2}, {7, 7})) == 7);
  CHECK(std::isnan(second("none", u)));
}

TEST_CASE("onnx ScatterND: ONNX's examples by hand, rows, negative indices and reductions") {
  TempDir tmp("onnx_scatter_nd");
  // D 1..8, I [[4], [3], [1], [7]], U [9, 10, 11, 12] → [1, 11, 3, 10, 9, 6, 7, 12].
  const Model elements = load_onnx(scatter_nd("", {"8"}, {"4", "1"}, {"4"}), tmp / "elements.onnx");
  CHECK(values(run_f64(elements, {host({8}, {1, 2, 3, 4, 5, 6, 7, 8}), indices({4, 1}, {4, 3, 1, 7}),
                                  host({4}, {9, 10, 11, 12})})[0]) == std::vector<double>{1, 11, 3, 10, 9, 6, 7, 12});
  // Rows: D [[1, 2], [3, 4]], I [[−1]] (row 1), U [[5, 6]]: add → [[1, 2], [8, 10]].
  const HostTensor square = host({2, 2}, {1, 2, 3, 4});
  const Model add = load_onnx(scatter_nd("add", {"2", "2"}, {"1", "1"}, {"1", "2"}), tmp / "add.onnx");
  CHECK(values(run_f64(add, {square, indices({1, 1}, {-1}), host({1, 2}, {5, 6})})[0]) ==
        std::vector<double>{1, 2, 8, 10});
  // mul, row 0 twice: U [[2, 3], [4, 5]] → [[1·2·4, 2·3·5], [3, 4]] = [[8, 30], [3, 4]].
  const Model mul = load_onnx(scatter_nd("mul", {"2", "2"}, {"2", "1"}, {"2", "2"}), tmp / "mul.onnx");
  CHECK(values(run_f64(mul, {square, indices({2, 1}, {0, 0}), host({2, 2}, {2, 3, 4, 5})})[0]) ==
        std::vector<double>{8, 30, 3, 4});
  // Elements of a 2-D D by pairs: I [[0, 1], [1, 0]], U [9, 8], min → [[1, 2], [3, 4]] with
  // D[0][1] = min(2, 9) = 2 and D[1][0] = min(3, 8) = 3; max → [[1, 9], [8, 4]].
  const Model min = load_onnx(scatter_nd("min", {"2", "2"}, {"2", "2"}, {"2"}), tmp / "min.onnx");
  CHECK(values(run_f64(min, {square, indices({2, 2}, {0, 1, 1, 0}), host({2}, {9, 8})})[0]) ==
        std::vector<double>{1, 2, 3, 4});
  const Model max = load_onnx(scatter_nd("max", {"2", "2"}, {"2", "2"}, {"2"}), tmp / "max.onnx");
  CHECK(values(run_f64(max, {square, indices({2, 2}, {0, 1, 1, 0}), host({2}, {9, 8})})[0]) ==
        std::vector<double>{1, 9, 8, 4});
  // Row 2 is outside [−2, 2): every element NaN.
  CHECK(all_nan(values(run_f64(add, {square, indices({1, 1}, {2}), host({1, 2}, {5, 6})})[0])));
}

TEST_CASE("onnx Scatter ops: refusals by name") {
  TempDir tmp("onnx_scatter_refusals");
  const auto refused = [&](const OnnxModel& m, const std::string& code) {
    INFO(code);
    CHECK(find_code(load_errors(m, tmp / "m.onnx"), code) != nullptr);
  };
  refused(scatter_elements("ScatterElements", 0, "sum", {"3"}, {"2"}), "onnx.attribute-value");
  refused(scatter_elements("ScatterElements", 2, "", {"3", "3"}, {"2", "3"}), "onnx.attribute-value");
  refused(scatter_elements("ScatterElements", 0, "", {"N", "3"}, {"2", "3"}), "onnx.shape-unsupported");
  refused(scatter_nd("", {"N", "2"}, {"1", "1"}, {"1", "2"}), "onnx.shape-unsupported");
  refused(scatter_nd("", {"2", "2"}, {"1", "1"}, {"1", "3"}), "onnx.input-shape");
  refused(scatter_nd("", {"2", "2"}, {"1", "3"}, {"1"}), "onnx.input-shape");
  // Scatter has no reduction before opset 11: the attribute is unknown there.
  refused(scatter_elements("Scatter", 0, "add", {"3"}, {"2"}), "onnx.attribute-unsupported");
  // The composition compares every element with every update: past 2^24 it is refused.
  refused(scatter_elements("ScatterElements", 0, "", {"4097", "4096"}, {"1", "1"}), "onnx.shape-unsupported");
  OnnxModel empty(18);  // no updates: constant indices and updates of extent 0
  empty.input("D", {"3"});
  ints_of(empty, "I", {0}, {});
  empty.init("U", {0}, {});
  empty.node("ScatterElements", {"D", "I", "U"}, {"Y"}, "s");
  empty.output("Y");
  refused(empty, "onnx.shape-unsupported");
  // Updates must have the indices' shape.
  OnnxModel wide = scatter_elements("ScatterElements", 0, "", {"3"}, {"2"});
  wide.graph().mutable_input(2)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_value(
      3);
  refused(wide, "onnx.input-shape");
}

TEST_CASE("onnx GatherND: integer data exactly, across the 16-bit digits and their signs") {
  TempDir tmp("onnx_gather_nd_integer");
  OnnxModel m;
  m.input("D", {"2", "2"}, onnx::TensorProto::INT64);
  m.input("I", {"3", "2"}, onnx::TensorProto::INT64);
  m.node("GatherND", {"D", "I"}, {"Y"}, "g");
  int64_output(m, "Y");
  // D [[−1, 65536], [−65537, 2^47 + 12345]], I [[1, 1], [0, 0], [1, 0]] → [2^47 + 12345, −1, −65537].
  const double big = 140737488355328.0 + 12345;  // 2^47 + 12345
  const std::vector<Tensor<double>> y = run_f64(
      load_onnx(m, tmp / "m.onnx"), {indices({2, 2}, {-1, 65536, -65537, big}), indices({3, 2}, {1, 1, 0, 0, 1, 0})});
  CHECK(values(y[0]) == std::vector<double>{big, -1, -65537});
}

TEST_CASE("onnx MaxPool Indices: flat indices in NCHW and column-major order, by hand") {
  TempDir tmp("onnx_maxpool_indices");
  const auto model = [](int64_t storage_order, int64_t stride, int64_t pad) {
    OnnxModel m(12);
    m.input("X", {"1", "2", "3", "3"});
    onnx::NodeProto& n = m.node("MaxPool", {"X"}, {"Y", "Z"}, "p");
    set_ints(n, "kernel_shape", {2, 2});
    set_ints(n, "strides", {stride, stride});
    set_ints(n, "pads", {pad, pad, pad, pad});
    set_int(n, "storage_order", storage_order);
    m.output("Y");
    int64_output(m, "Z");
    return m;
  };
  // Each channel [[1, 9, 2], [3, 4, 8], [7, 5, 6]], kernel 2, stride 1: the maxima 9 at (0, 1), 9
  // at (0, 1), 7 at (2, 0), 8 at (1, 2): row-major h·3 + w = 1, 1, 6, 5; column-major h + w·3 = 3,
  // 3, 2, 7; channel 1 adds 9 (one plane).
  const HostTensor x = host({1, 2, 3, 3}, {1, 9, 2, 3, 4, 8, 7, 5, 6, 1, 9, 2, 3, 4, 8, 7, 5, 6});
  CHECK(values(run_f64(load_onnx(model(0, 1, 0), tmp / "rows.onnx"), {x})[1]) ==
        std::vector<double>{1, 1, 6, 5, 10, 10, 15, 14});
  CHECK(values(run_f64(load_onnx(model(1, 1, 0), tmp / "columns.onnx"), {x})[1]) ==
        std::vector<double>{3, 3, 2, 7, 12, 12, 11, 16});
  // Padding 1, stride 2: windows from (−1, −1): (0, 0) alone → 0; 9 at (0, 1) → 1; 7 at (2, 0) →
  // 6; 8 at (1, 2) → 5.
  CHECK(values(run_f64(load_onnx(model(0, 2, 1), tmp / "padded.onnx"), {x})[1]) ==
        std::vector<double>{0, 1, 6, 5, 9, 10, 15, 14});
  // Ties: the first in the window's row-major scan, as ONNX's reference.
  CHECK(values(run_f64(load_onnx(model(0, 1, 0), tmp / "ties.onnx"),
                       {host({1, 2, 3, 3}, std::vector<double>(18, 0))})[1]) ==
        std::vector<double>{0, 1, 3, 4, 9, 10, 12, 13});
  // Indices of integer data are refused by name.
  OnnxModel integer(12);
  integer.input("X", {"1", "1", "2", "2"}, onnx::TensorProto::INT8);
  set_ints(integer.node("MaxPool", {"X"}, {"Y", "Z"}, "p"), "kernel_shape", {2, 2});
  int64_output(integer, "Y");
  int64_output(integer, "Z");
  CHECK(find_code(load_errors(integer, tmp / "integer.onnx"), "onnx.type-unsupported") != nullptr);
}

TEST_CASE("onnx MaxUnpool: ONNX's examples by hand, shared maxima, NaN outside, output_shape") {
  TempDir tmp("onnx_max_unpool");
  const auto model = [](const std::vector<int64_t>& output_shape) {
    OnnxModel m(11);
    m.input("X", {"1", "1", "2", "2"});
    m.input("I", {"1", "1", "2", "2"}, onnx::TensorProto::INT64);
    std::vector<std::string> in{"X", "I"};
    if (!output_shape.empty()) {
      m.ints("S", output_shape);
      in.push_back("S");
    }
    onnx::NodeProto& n = m.node("MaxUnpool", in, {"Y"}, "u");
    set_ints(n, "kernel_shape", {2, 2});
    set_ints(n, "strides", {2, 2});
    m.output("Y");
    return m;
  };
  // X [[1, 2], [3, 4]] at I [[5, 7], [13, 15]] of a 4×4 zero: rows 1 and 3, columns 1 and 3.
  const HostTensor x = host({1, 1, 2, 2}, {1, 2, 3, 4});
  const HostTensor at = indices({1, 1, 2, 2}, {5, 7, 13, 15});
  const Model plain = load_onnx(model({}), tmp / "plain.onnx");
  CHECK(values(run_f64(plain, {x, at})[0]) == std::vector<double>{0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4});
  // output_shape [1, 1, 5, 5]: the same 4×4 (its indices address the inferred shape), zeros after.
  const std::vector<Tensor<double>> padded = run_f64(load_onnx(model({1, 1, 5, 5}), tmp / "shape.onnx"), {x, at});
  CHECK(padded[0].shape().dims() == std::vector<int64_t>{1, 1, 5, 5});
  CHECK(values(padded[0]) ==
        std::vector<double>{0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 4, 0, 0, 0, 0, 0, 0});
  // Two windows sharing a maximum (I 5 twice, X equal) write it once; differing values: NaN.
  const std::vector<double> shared =
      values(run_f64(plain, {host({1, 1, 2, 2}, {1, 1, 3, 4}), indices({1, 1, 2, 2}, {5, 5, 13, 15})})[0]);
  CHECK(shared[5] == 1);
  CHECK(shared[13] == 3);
  CHECK(std::isnan(values(run_f64(plain, {x, indices({1, 1, 2, 2}, {5, 5, 13, 15})})[0])[5]));
  // 16 is outside [0, 16): every element NaN.
  CHECK(all_nan(values(run_f64(plain, {x, indices({1, 1, 2, 2}, {5, 7, 13, 16})})[0])));
  CHECK(find_code(load_errors(model({1, 1, 3, 3}), tmp / "small.onnx"), "onnx.input-type") != nullptr);
}
