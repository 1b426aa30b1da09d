// Shapes are values (docs/onnx.md): an export's shape arithmetic over symbolic extents, read as
// size terms, proved by `check` for every size or refuted with the smallest counterexample, and
// run at the sizes given. Values and counterexamples are worked out by hand.
#include "cli_test_support.hpp"
#include "onnx_test_support.hpp"
#include "semantics/size_names.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

// X [N, C] → Y: X.view(N · C / k, k) written as torch.onnx writes it (Shape, Gather, Mul, Div,
// Unsqueeze, Concat, Reshape).
OnnxModel view_model(const std::string& c, int64_t k) {
  OnnxModel m;
  m.input("X", {"N", c});
  m.node("Shape", {"X"}, {"s"});
  ints_of(m, "i0", {}, {0});
  ints_of(m, "i1", {}, {1});
  m.node("Gather", {"s", "i0"}, {"n"});
  m.node("Gather", {"s", "i1"}, {"c"});
  m.node("Mul", {"n", "c"}, {"nc"});
  ints_of(m, "k", {}, {k});
  m.node("Div", {"nc", "k"}, {"rows"});
  ints_of(m, "axes", {1}, {0});
  m.node("Unsqueeze", {"rows", "axes"}, {"rows1"});
  ints_of(m, "k1", {1}, {k});
  set_int(m.node("Concat", {"rows1", "k1"}, {"shape"}), "axis", 0);
  m.node("Reshape", {"X", "shape"}, {"Y"});
  m.output("Y");
  return m;
}

}  // namespace

TEST_CASE("onnx shapes: a view computed from a symbolic batch runs at each size and is proved or refuted") {
  TempDir tmp("onnx_shapes_view");
  Model model = load_onnx(view_model("6", 3), tmp / "m.onnx");
  REQUIRE(set_input_extents(model.graph, model.size_names, {{"N", 2}}));
  std::vector<double> x(12);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i);
  const Tensor<double> y = run_f64(model, {host({2, 6}, x)})[0];
  CHECK(y.shape().dims() == std::vector<int64_t>{4, 3});  // 2·6/3 rows of 3
  CHECK(values(y) == x);
  // N·6 is a multiple of 3 for every N: proved.
  Run ok = nnref_cli({"check", (tmp / "m.onnx").string(), "--dim", "N=1..64"});
  INFO(ok.out << ok.err);
  CHECK(ok.code == 0);
  // N·5/3 rows of 3 hold N·5 elements only when 3 divides N: refuted, smallest counterexample N = 1.
  view_model("5", 3).write(tmp / "bad.onnx");
  Run bad = nnref_cli({"check", (tmp / "bad.onnx").string(), "--dim", "N=1..64"});
  INFO(bad.out << bad.err);
  CHECK(bad.code == 1);
  CHECK((bad.out + bad.err).find("shape.reshape.count-mismatch") != std::string::npos);
  CHECK((bad.out + bad.err).find("counterexample: N = 1") != std::string::npos);
}

TEST_CASE("onnx shapes: a Slice to a computed end, a Shape read as data, a Shape as output") {
  TempDir tmp("onnx_shapes_slice");
  // Y = X[:, : C − 1] · Cast(Shape(X)[1]) with X [N, C], both symbolic; Z = Shape(X).
  OnnxModel m;
  m.input("X", {"N", "C"});
  m.node("Shape", {"X"}, {"s"});
  ints_of(m, "i1", {1}, {1});
  m.node("Gather", {"s", "i1"}, {"c"});
  ints_of(m, "one", {1}, {1});
  m.node("Sub", {"c", "one"}, {"end"});
  ints_of(m, "zero", {1}, {0});
  m.node("Slice", {"X", "zero", "end", "i1"}, {"cut"});
  set_int(m.node("Cast", {"c"}, {"cf"}), "to", onnx::TensorProto::FLOAT);
  m.node("Mul", {"cut", "cf"}, {"Y"});
  m.output("Y");
  m.node("Shape", {"X"}, {"Z"});
  m.graph().add_output()->set_name("Z");
  Model model = load_onnx(m, tmp / "m.onnx");
  REQUIRE(set_input_extents(model.graph, model.size_names, {{"N", 2}, {"C", 3}}));
  const auto out = run_f64(model, {host({2, 3}, {1, 2, 3, 4, 5, 6})});
  CHECK(out[0].shape().dims() == std::vector<int64_t>{2, 2});
  CHECK(values(out[0]) == std::vector<double>{3, 6, 12, 15});  // the first two columns, times 3
  CHECK(values(out[1]) == std::vector<double>{2, 3});
  // The slice keeps C − 1 ≥ 1 columns only for C ≥ 2: refuted at C = 1, proved from 2.
  Run one = nnref_cli({"check", (tmp / "m.onnx").string(), "--dim", "N=1..8", "--dim", "C=1..4096"});
  INFO(one.out << one.err);
  CHECK(one.code == 1);
  CHECK((one.out + one.err).find("shape.slice.empty") != std::string::npos);
  CHECK((one.out + one.err).find("C = 1") != std::string::npos);
  Run two = nnref_cli({"check", (tmp / "m.onnx").string(), "--dim", "N=1..8", "--dim", "C=2..4096"});
  INFO(two.out << two.err);
  CHECK(two.code == 0);
}

TEST_CASE("onnx shapes: what is not read from computed sizes yet is refused by name") {
  TempDir tmp("onnx_shapes_refused");
  // Split into sizes computed from a symbolic extent.
  OnnxModel m;
  m.input("X", {"N", "1"});
  m.node("Shape", {"X"}, {"s"});
  m.node("Split", {"X", "s"}, {"Y"}, "e");
  m.output("Y");
  const auto ds = load_errors(m, tmp / "m.onnx");
  const Diagnostic* d = find_code(ds, "onnx.shape-unsupported");
  REQUIRE(d != nullptr);
  CHECK(d->message.find("computed from symbolic extents") != std::string::npos);
  // A computed size divided by 0.
  OnnxModel z;
  z.input("X", {"N", "2"});
  z.node("Shape", {"X"}, {"s"});
  ints_of(z, "zero", {}, {0});
  z.node("Div", {"s", "zero"}, {"q"}, "d");
  z.node("Reshape", {"X", "q"}, {"Y"});
  z.output("Y");
  CHECK(find_code(load_errors(z, tmp / "z.onnx"), "onnx.shape-unsupported") != nullptr);
}

TEST_CASE("onnx shapes: Pad under symbolic H and W, with pads a Concat of constants as tf2onnx writes them") {
  TempDir tmp("onnx_shapes_pad");
  // X [1, 1, H, W] → Pad by 1 on each side of H and W, pads = Concat([0, 0, 1, 1], [0, 0, 1, 1]).
  OnnxModel m;
  m.input("X", {"1", "1", "H", "W"});
  ints_of(m, "begin", {4}, {0, 0, 1, 1});
  ints_of(m, "end", {4}, {0, 0, 1, 1});
  set_int(m.node("Concat", {"begin", "end"}, {"pads"}), "axis", 0);
  m.node("Pad", {"X", "pads"}, {"Y"});
  m.output("Y");
  Model model = load_onnx(m, tmp / "m.onnx");
  REQUIRE(set_input_extents(model.graph, model.size_names, {{"H", 1}, {"W", 2}}));
  const Tensor<double> y = run_f64(model, {host({1, 1, 1, 2}, {5, 7})})[0];
  CHECK(y.shape().dims() == std::vector<int64_t>{1, 1, 3, 4});
  CHECK(values(y) == std::vector<double>{0, 0, 0, 0, 0, 5, 7, 0, 0, 0, 0, 0});
  Run r = nnref_cli({"check", (tmp / "m.onnx").string(), "--dim", "H=1..1024", "--dim", "W=1..1024"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
}

TEST_CASE("onnx shapes: a Conv over a symbolic length then a MatMul reads, runs and is proved from L = 3") {
  TempDir tmp("onnx_shapes_conv_matmul");
  // X [N, 4, L] → Conv (8 filters of 4 × 3, all ones) → Transpose to [N, L − 2, 8] → MatMul by ones [8, 5].
  OnnxModel m;
  m.input("X", {"N", "4", "L"});
  m.init("W", {8, 4, 3}, std::vector<float>(96, 1.0f));
  m.init("V", {8, 5}, std::vector<float>(40, 1.0f));
  m.node("Conv", {"X", "W"}, {"c"});
  set_ints(m.node("Transpose", {"c"}, {"t"}), "perm", {0, 2, 1});
  m.node("MatMul", {"t", "V"}, {"Y"});
  m.output("Y");
  Model model = load_onnx(m, tmp / "m.onnx");
  REQUIRE(set_input_extents(model.graph, model.size_names, {{"N", 1}, {"L", 3}}));
  // Every conv output is 4 · 3 = 12 ones; each product sums 8 of them: 96.
  const Tensor<double> y = run_f64(model, {host({1, 4, 3}, std::vector<double>(12, 1.0))})[0];
  CHECK(y.shape().dims() == std::vector<int64_t>{1, 1, 5});
  CHECK(values(y) == std::vector<double>(5, 96.0));
  Run ok = nnref_cli({"check", (tmp / "m.onnx").string(), "--dim", "N=1..8", "--dim", "L=3..4096"});
  INFO(ok.out << ok.err);
  CHECK(ok.code == 0);
  // A window of 3 does not fit L = 1: the smallest counterexample (PyTorch's conv1d fails there too).
  Run short_ = nnref_cli({"check", (tmp / "m.onnx").string(), "--dim", "N=1..8", "--dim", "L=1..4096"});
  INFO(short_.out << short_.err);
  CHECK(short_.code == 1);
  CHECK((short_.out + short_.err).find("L = 1") != std::string::npos);
}

// ONNX's expanded LayerNormalization (axis 0) reads the shape's prefix before the axis, Slice(s, 0,
// 0): empty, and concatenates it to the suffix of ones. The empty slice of a value known at load is
// a constant that Concat leaves out; an op that would make elements of it is refused by name.
TEST_CASE("onnx shapes: an empty slice of a shape is left out of a Concat, refused where it would give elements") {
  TempDir tmp("onnx_shapes_empty_slice");
  OnnxModel m(17);
  m.input("X", {"2", "3"});
  m.node("Shape", {"X"}, {"s"});
  m.ints("zero", {0});
  m.node("Slice", {"s", "zero", "zero"}, {"prefix"});  // s[0:0]: empty
  m.ints("ones", {1, 6});
  set_int(m.node("Concat", {"prefix", "ones"}, {"shape"}), "axis", 0);
  m.node("Reshape", {"X", "shape"}, {"Y"});
  m.output("Y");
  Model model = load_onnx(m, tmp / "m.onnx");
  const Tensor<double> y = run_f64(model, {host({2, 3}, {1, 2, 3, 4, 5, 6})})[0];
  CHECK(y.shape().dims() == std::vector<int64_t>{1, 6});
  CHECK(values(y) == std::vector<double>{1, 2, 3, 4, 5, 6});

  OnnxModel used(17);
  used.input("X", {"2", "3"});
  used.node("Shape", {"X"}, {"s"});
  used.ints("one", {1});
  used.ints("zero", {0});
  used.node("Slice", {"s", "one", "zero"}, {"empty"});  // s[1:0]: empty too
  set_int(used.node("Cast", {"empty"}, {"real"}, "cast_empty"), "to", onnx::TensorProto::FLOAT);
  used.node("ReduceSum", {"real"}, {"Y"}, "sum_empty");  // over every axis: [1], the sum 0 of no element
  used.output("Y");
  const std::vector<Diagnostic> ds = load_errors(used, tmp / "used.onnx");
  const Diagnostic* d = find_code(ds, "onnx.shape-unsupported");
  REQUIRE(d != nullptr);
  CHECK(d->message.find("gives a result with elements (shape [1])") != std::string::npos);
}
