// Sizes computed from symbolic extents where ops take shapes (docs/onnx.md, "Shapes are values"):
// Expand's shape, ConstantOfShape's. Each model runs at two sizes, values worked out by hand, and
// `check` proves it over a range of sizes or refutes it with the smallest counterexample.
#include "cli_test_support.hpp"
#include "onnx_test_support.hpp"
#include "semantics/size_names.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

std::vector<double> iota(size_t n, double from) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = from + static_cast<double>(i);
  return v;
}

// A one-element tensor attribute `value` of the given ONNX type.
void set_value(onnx::NodeProto& n, int32_t type, double v) {
  auto* a = n.add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  auto* t = a->mutable_t();
  t->set_data_type(type);
  t->add_dims(1);
  if (type == onnx::TensorProto::FLOAT) t->add_float_data(static_cast<float>(v));
  else if (type == onnx::TensorProto::DOUBLE) t->add_double_data(v);
  else if (type == onnx::TensorProto::INT64) t->add_int64_data(static_cast<int64_t>(v));
  else t->add_int32_data(static_cast<int32_t>(v));
}

// n = Shape(X)[0] as a 1-element vector (Shape, Gather, Unsqueeze: as torch.onnx writes x.size(0)).
void batch_of(OnnxModel& m, const std::string& x, const std::string& out) {
  m.node("Shape", {x}, {out + "/s"});
  ints_of(m, out + "/i0", {}, {0});
  m.node("Gather", {out + "/s", out + "/i0"}, {out + "/n"});
  ints_of(m, out + "/axes", {1}, {0});
  m.node("Unsqueeze", {out + "/n", out + "/axes"}, {out});
}

Model load_at(const OnnxModel& m, const std::filesystem::path& p,
              const std::vector<std::pair<std::string, int64_t>>& sizes) {
  Model model = load_onnx(m, p);
  REQUIRE(set_input_extents(model.graph, model.size_names, sizes));
  return model;
}

Run check(const std::filesystem::path& p, const std::vector<std::string>& dims) {
  std::vector<std::string> args{"check", p.string()};
  for (const auto& d : dims) args.insert(args.end(), {"--dim", d});
  return nnref_cli(args);
}

// `check` over the size ranges proves the model.
void proved(const std::filesystem::path& p, const std::vector<std::string>& dims) {
  Run r = check(p, dims);
  INFO(r.out << r.err);
  CHECK(r.code == 0);
}

// `check` over the size ranges refutes the model: `code` fails, with this smallest counterexample.
void refuted(const std::filesystem::path& p, const std::vector<std::string>& dims, const std::string& code,
             const std::string& counterexample) {
  Run r = check(p, dims);
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK((r.out + r.err).find(code) != std::string::npos);
  CHECK((r.out + r.err).find("counterexample: " + counterexample) != std::string::npos);
}

// Y = Concat(cls.expand(n, -1, -1), X) along axis 1, X [N, 3, 2], cls [1, 1, 2] = (10, 20), as
// torch.onnx writes a ViT's class token: the size [n, -1, -1], its −1s made 1 by
// Where(Equal(size, −1), ConstantOfShape(Shape(size), 1), size), then Expand.
OnnxModel class_token_model() {
  OnnxModel m;
  m.input("X", {"N", "3", "2"});
  m.init("cls", {1, 1, 2}, {10, 20});
  batch_of(m, "X", "n");
  ints_of(m, "minus2", {2}, {-1, -1});
  set_int(m.node("Concat", {"n", "minus2"}, {"size"}), "axis", 0);
  m.node("Shape", {"size"}, {"size_shape"});
  set_value(m.node("ConstantOfShape", {"size_shape"}, {"ones"}), onnx::TensorProto::INT64, 1);
  ints_of(m, "minus3", {3}, {-1, -1, -1});
  m.node("Equal", {"size", "minus3"}, {"is_minus"});
  m.node("Where", {"is_minus", "ones", "size"}, {"shape"});
  m.node("Expand", {"cls", "shape"}, {"tokens"});
  set_int(m.node("Concat", {"tokens", "X"}, {"Y"}), "axis", 1);
  m.output("Y");
  return m;
}

// Expand(x, [f(n), 2]) with X [N, 2] and x = X or a constant [1, 2].
OnnxModel expand_to(bool of_x, const std::string& op, int64_t k) {
  OnnxModel m;
  m.input("X", {"N", "2"});
  m.init("c", {1, 2}, {1, 2});
  batch_of(m, "X", "n");
  ints_of(m, "k", {1}, {k});
  m.node(op, {"n", "k"}, {"rows"});
  ints_of(m, "two", {1}, {2});
  set_int(m.node("Concat", {"rows", "two"}, {"shape"}), "axis", 0);
  m.node("Expand", {of_x ? "X" : "c", "shape"}, {"Y"});
  m.output("Y");
  return m;
}

}  // namespace

TEST_CASE("onnx computed sizes: a class token expanded to the batch as torch.onnx writes it runs, and is proved") {
  TempDir tmp("onnx_computed_cls");
  const OnnxModel m = class_token_model();
  // N = 1: the token (10, 20), then X's three rows.
  const Tensor<double> y1 = run_f64(load_at(m, tmp / "m.onnx", {{"N", 1}}), {host({1, 3, 2}, iota(6, 1))})[0];
  CHECK(y1.shape().dims() == std::vector<int64_t>{1, 4, 2});
  CHECK(values(y1) == std::vector<double>{10, 20, 1, 2, 3, 4, 5, 6});
  // N = 2: the token before each sample's rows.
  const Tensor<double> y2 = run_f64(load_at(m, tmp / "m.onnx", {{"N", 2}}), {host({2, 3, 2}, iota(12, 1))})[0];
  CHECK(y2.shape().dims() == std::vector<int64_t>{2, 4, 2});
  CHECK(values(y2) == std::vector<double>{10, 20, 1, 2, 3, 4, 5, 6, 10, 20, 7, 8, 9, 10, 11, 12});
  // The token's extent 1 broadcasts to every N: proved.
  proved(tmp / "m.onnx", {"N=1..4096"});
}

TEST_CASE("onnx computed sizes: Expand's computed shape is refuted with the smallest counterexample") {
  TempDir tmp("onnx_computed_expand");
  // c [1, 2] to [N − 1, 2]: no rows at N = 1.
  expand_to(false, "Sub", 1).write(tmp / "sub.onnx");
  refuted(tmp / "sub.onnx", {"N=1..64"}, "shape.broadcast_to.computed-extent", "N = 1");
  proved(tmp / "sub.onnx", {"N=2..64"});
  // X [N, 2] to [2N, 2]: N broadcasts to 2N only where N = 1; the smallest counterexample is N = 2.
  expand_to(true, "Mul", 2).write(tmp / "mul.onnx");
  refuted(tmp / "mul.onnx", {"N=1..64"}, "shape.broadcast_to.incompatible", "N = 2");
  // c [1, 2] to [N + 1, 2] at N = 1 and 2: N + 1 copies of (1, 2).
  const OnnxModel add = expand_to(false, "Add", 1);
  const Tensor<double> y1 = run_f64(load_at(add, tmp / "add.onnx", {{"N", 1}}), {host({1, 2}, {0, 0})})[0];
  CHECK(values(y1) == std::vector<double>{1, 2, 1, 2});
  const Tensor<double> y2 = run_f64(load_at(add, tmp / "add.onnx", {{"N", 2}}), {host({2, 2}, {0, 0, 0, 0})})[0];
  CHECK(values(y2) == std::vector<double>{1, 2, 1, 2, 1, 2});
}

TEST_CASE("onnx computed sizes: Expand to a constant shape under a symbolic extent keeps the input's extent") {
  TempDir tmp("onnx_computed_expand_const");
  // X [N, 1] to [1, 3]: the entry 1 keeps N, the axis of 1 becomes 3.
  OnnxModel m;
  m.input("X", {"N", "1"});
  ints_of(m, "shape", {2}, {1, 3});
  m.node("Expand", {"X", "shape"}, {"Y"});
  m.output("Y");
  const Tensor<double> y1 = run_f64(load_at(m, tmp / "m.onnx", {{"N", 1}}), {host({1, 1}, {4})})[0];
  CHECK(values(y1) == std::vector<double>{4, 4, 4});
  const Tensor<double> y2 = run_f64(load_at(m, tmp / "m.onnx", {{"N", 2}}), {host({2, 1}, {4, 5})})[0];
  CHECK(y2.shape().dims() == std::vector<int64_t>{2, 3});
  CHECK(values(y2) == std::vector<double>{4, 4, 4, 5, 5, 5});
  proved(tmp / "m.onnx", {"N=1..4096"});
}

TEST_CASE("onnx computed sizes: ConstantOfShape of a shape computed from symbolic extents") {
  TempDir tmp("onnx_computed_cos");
  // Y = X + ConstantOfShape(Shape(X), 0.25), X [N, C].
  OnnxModel m;
  m.input("X", {"N", "C"});
  m.node("Shape", {"X"}, {"s"});
  set_value(m.node("ConstantOfShape", {"s"}, {"f"}), onnx::TensorProto::DOUBLE, 0.25);
  m.node("Add", {"X", "f"}, {"Y"});
  m.output("Y");
  const Tensor<double> y1 = run_f64(load_at(m, tmp / "m.onnx", {{"N", 1}, {"C", 2}}), {host({1, 2}, {1, 2})})[0];
  CHECK(values(y1) == std::vector<double>{1.25, 2.25});
  const Tensor<double> y2 = run_f64(load_at(m, tmp / "m.onnx", {{"N", 2}, {"C", 3}}), {host({2, 3}, iota(6, 0))})[0];
  CHECK(y2.shape().dims() == std::vector<int64_t>{2, 3});
  CHECK(values(y2) == std::vector<double>{0.25, 1.25, 2.25, 3.25, 4.25, 5.25});
  proved(tmp / "m.onnx", {"N=1..4096", "C=1..4096"});
  // Y = ConstantOfShape([N − 1]): no elements at N = 1.
  OnnxModel bad;
  bad.input("X", {"N", "2"});
  batch_of(bad, "X", "n");
  ints_of(bad, "one", {1}, {1});
  bad.node("Sub", {"n", "one"}, {"shape"});
  bad.node("ConstantOfShape", {"shape"}, {"Y"});
  bad.output("Y");
  bad.write(tmp / "bad.onnx");
  refuted(tmp / "bad.onnx", {"N=1..64"}, "shape.broadcast_to.computed-extent", "N = 1");
}

TEST_CASE("onnx computed sizes: ConstantOfShape of a constant shape, its value of each kind") {
  TempDir tmp("onnx_computed_cos_constant");
  // A real value: a scalar const broadcast to [2, 3], no constant of six elements.
  OnnxModel m;
  ints_of(m, "shape", {2}, {2, 3});
  set_value(m.node("ConstantOfShape", {"shape"}, {"Y"}), onnx::TensorProto::FLOAT, 1.5);
  m.output("Y");
  m.node("ConstantOfShape", {"shape"}, {"Z"});  // the default value: float 0
  m.graph().add_output()->set_name("Z");
  const Model model = load_onnx(m, tmp / "m.onnx");
  for (const Node& n : model.graph.nodes)
    if (const auto* c = std::get_if<ConstAttrs>(&n.op)) CHECK(c->dims.empty());
  const auto out = run_f64(model, {});
  CHECK(out[0].shape().dims() == std::vector<int64_t>{2, 3});
  CHECK(values(out[0]) == std::vector<double>(6, 1.5));
  CHECK(values(out[1]) == std::vector<double>(6, 0.0));
  // Integer and bool values are constants (graph outputs read as reals).
  OnnxModel k;
  ints_of(k, "shape", {1}, {3});
  set_value(k.node("ConstantOfShape", {"shape"}, {"I"}), onnx::TensorProto::INT32, 7);
  k.graph().add_output()->set_name("I");
  set_value(k.node("ConstantOfShape", {"shape"}, {"B"}), onnx::TensorProto::BOOL, 1);
  k.graph().add_output()->set_name("B");
  const auto ks = run_f64(load_onnx(k, tmp / "k.onnx"), {});
  CHECK(values(ks[0]) == std::vector<double>{7, 7, 7});
  CHECK(values(ks[1]) == std::vector<double>{1, 1, 1});
}

TEST_CASE("onnx computed sizes: ConstantOfShape's bad values and shapes are refused by name") {
  TempDir tmp("onnx_computed_cos_errors");
  auto refused = [&](const OnnxModel& m, const std::string& code) {
    const auto ds = load_errors(m, tmp / "m.onnx");
    const Diagnostic* d = find_code(ds, code);
    INFO(code);
    REQUIRE(d != nullptr);
    CHECK(d->loc.file.find("m.onnx") != std::string::npos);
  };
  OnnxModel two;  // a value of two elements
  ints_of(two, "shape", {1}, {2});
  auto& n = two.node("ConstantOfShape", {"shape"}, {"Y"});
  set_value(n, onnx::TensorProto::FLOAT, 1);
  n.mutable_attribute(0)->mutable_t()->set_dims(0, 2);
  n.mutable_attribute(0)->mutable_t()->add_float_data(2);
  two.output("Y");
  refused(two, "onnx.attribute-value");
  OnnxModel negative;  // a negative extent
  ints_of(negative, "shape", {2}, {2, -1});
  negative.node("ConstantOfShape", {"shape"}, {"Y"});
  negative.output("Y");
  refused(negative, "onnx.attribute-value");
  // (An extent 0 is an empty value since 2026-11-28: tests/onnx_test_empty.cpp.)
  // (An integer value over a computed shape is read since 2026-11-28: tests/onnx_test_range.cpp.)
}

namespace {

// Y = Tile(X, [k, n] or [n − 1, 1]) with X [N, 1], n = N (x.repeat(k, x.size(0)), as torch.onnx writes it).
OnnxModel tile_model(bool minus_one) {
  OnnxModel m;
  m.input("X", {"N", "1"});
  batch_of(m, "X", "n");
  if (minus_one) {
    ints_of(m, "one", {1}, {1});
    m.node("Sub", {"n", "one"}, {"first"});
    set_int(m.node("Concat", {"first", "one"}, {"repeats"}), "axis", 0);
  } else {
    ints_of(m, "k", {1}, {2});
    set_int(m.node("Concat", {"k", "n"}, {"repeats"}), "axis", 0);
  }
  m.node("Tile", {"X", "repeats"}, {"Y"});
  m.output("Y");
  return m;
}

}  // namespace

TEST_CASE("onnx computed sizes: Tile by repeats computed from a symbolic extent") {
  TempDir tmp("onnx_computed_tile");
  const OnnxModel m = tile_model(false);
  // N = 1: [[5]] twice down, once across.
  const Tensor<double> y1 = run_f64(load_at(m, tmp / "m.onnx", {{"N", 1}}), {host({1, 1}, {5})})[0];
  CHECK(y1.shape().dims() == std::vector<int64_t>{2, 1});
  CHECK(values(y1) == std::vector<double>{5, 5});
  // N = 2: [[5], [6]] twice down, twice across.
  const Tensor<double> y2 = run_f64(load_at(m, tmp / "m.onnx", {{"N", 2}}), {host({2, 1}, {5, 6})})[0];
  CHECK(y2.shape().dims() == std::vector<int64_t>{4, 2});
  CHECK(values(y2) == std::vector<double>{5, 5, 6, 6, 5, 5, 6, 6});
  proved(tmp / "m.onnx", {"N=1..4096"});
  // N − 1 copies: none at N = 1.
  tile_model(true).write(tmp / "bad.onnx");
  refuted(tmp / "bad.onnx", {"N=1..64"}, "shape.broadcast_to.computed-extent", "N = 1");
}

namespace {

// Y = Pad(X, pads) with X [N, 2], pads (0, 0 | n − k, 0): n − k rows of `value` after X's.
OnnxModel pad_model(int64_t k, const std::string& mode) {
  OnnxModel m;
  m.input("X", {"N", "2"});
  batch_of(m, "X", "n");
  ints_of(m, "k", {1}, {k});
  m.node("Sub", {"n", "k"}, {"rows"});
  ints_of(m, "zeros", {2}, {0, 0});
  ints_of(m, "zero", {1}, {0});
  set_int(m.node("Concat", {"zeros", "rows", "zero"}, {"pads"}), "axis", 0);
  m.init("value", {}, {9});
  set_string(m.node("Pad", {"X", "pads", "value"}, {"Y"}), "mode", mode);
  m.output("Y");
  return m;
}

}  // namespace

TEST_CASE("onnx computed sizes: Pad by pads computed from a symbolic extent") {
  TempDir tmp("onnx_computed_pad");
  const OnnxModel m = pad_model(0, "constant");  // N rows of 9 after X
  const Tensor<double> y1 = run_f64(load_at(m, tmp / "m.onnx", {{"N", 1}}), {host({1, 2}, {1, 2})})[0];
  CHECK(y1.shape().dims() == std::vector<int64_t>{2, 2});
  CHECK(values(y1) == std::vector<double>{1, 2, 9, 9});
  const Tensor<double> y2 = run_f64(load_at(m, tmp / "m.onnx", {{"N", 2}}), {host({2, 2}, {1, 2, 3, 4})})[0];
  CHECK(y2.shape().dims() == std::vector<int64_t>{4, 2});
  CHECK(values(y2) == std::vector<double>{1, 2, 3, 4, 9, 9, 9, 9});
  proved(tmp / "m.onnx", {"N=1..4096"});
  // N − 2 rows: below 0 at N = 1.
  pad_model(2, "constant").write(tmp / "negative.onnx");
  refuted(tmp / "negative.onnx", {"N=1..64"}, "shape.pad.computed-negative", "N = 1");
  // Reflecting N − 1 rows needs N − 1 ≤ N − 1: proved; reflecting N rows never fits: refuted for every N.
  pad_model(1, "reflect").write(tmp / "reflect.onnx");
  proved(tmp / "reflect.onnx", {"N=1..64"});
  const Tensor<double> y3 = run_f64(load_at(pad_model(1, "reflect"), tmp / "reflect.onnx", {{"N", 2}}),
                                    {host({2, 2}, {1, 2, 3, 4})})[0];
  CHECK(values(y3) == std::vector<double>{1, 2, 3, 4, 1, 2});  // row 2 mirrors row 0 about row 1
  pad_model(0, "reflect").write(tmp / "wide.onnx");
  Run wide = check(tmp / "wide.onnx", {"N=1..64"});
  INFO(wide.out << wide.err);
  CHECK(wide.code == 1);
  CHECK((wide.out + wide.err).find("shape.pad.reflect-too-wide") != std::string::npos);
  CHECK((wide.out + wide.err).find("fails for every size") != std::string::npos);
}

TEST_CASE("onnx computed sizes: an int64 tensor expanded to a computed shape, and Shape(X)[2:] of a matrix") {
  TempDir tmp("onnx_computed_expand_int");
  // Swin's attention mask: an int64 tensor expanded to [N, 2], here I [1, 2] = (3, −4) to
  // Concat(Shape(X)[0:1], [2]), cast and added to X [N, 2]. Shape(X)[2:] of a matrix has no
  // terms: Concat(Shape(X), Shape(X)[2:]) is Shape(X), X reshaped to itself.
  OnnxModel m;
  m.input("X", {"N", "2"});
  m.input("I", {"1", "2"}, onnx::TensorProto::INT64);
  m.node("Shape", {"X"}, {"s"});
  ints_of(m, "zero", {1}, {0});
  ints_of(m, "one", {1}, {1});
  ints_of(m, "two", {1}, {2});
  ints_of(m, "far", {1}, {int64_t{1} << 62});
  m.node("Slice", {"s", "zero", "one"}, {"n"});
  set_int(m.node("Concat", {"n", "two"}, {"target"}), "axis", 0);
  m.node("Expand", {"I", "target"}, {"wide"});
  set_int(m.node("Cast", {"wide"}, {"mask"}), "to", onnx::TensorProto::FLOAT);
  m.node("Slice", {"s", "two", "far"}, {"none"});
  set_int(m.node("Concat", {"s", "none"}, {"same"}), "axis", 0);
  m.node("Reshape", {"X", "same"}, {"x"});
  m.node("Add", {"x", "mask"}, {"Y"});
  m.output("Y");
  const std::vector<HostTensor> in{host({3, 2}, {1, 2, 3, 4, 5, 6}),
                                   HostTensor{DType::I64, Shape::make({1, 2}).value(), {3, -4}}};
  const Tensor<double> y = run_f64(load_at(m, tmp / "m.onnx", {{"N", 3}}), in)[0];
  CHECK(y.shape().dims() == std::vector<int64_t>{3, 2});
  CHECK(values(y) == std::vector<double>{4, -2, 6, 0, 8, 2});
  proved(tmp / "m.onnx", {"N=1..64"});
  // At fixed extents: an int64 [2, 1] expanded to [2, 3], each row its element.
  OnnxModel fixed;
  fixed.input("I", {"2", "1"}, onnx::TensorProto::INT64);
  ints_of(fixed, "shape", {2}, {2, 3});
  fixed.node("Expand", {"I", "shape"}, {"Y"});
  fixed.output("Y");
  const Tensor<double> rows =
      run_f64(load_onnx(fixed, tmp / "fixed.onnx"), {HostTensor{DType::I64, Shape::make({2, 1}).value(), {7, -1}}})[0];
  CHECK(rows.shape().dims() == std::vector<int64_t>{2, 3});
  CHECK(values(rows) == std::vector<double>{7, 7, 7, -1, -1, -1});
}
