// Range, integer reductions and integer ConstantOfShape (docs/onnx.md, "Shapes are values"):
// of constants folded or read as numbers, of sizes computed from symbolic extents proved by `check`
// for every size, of run-time data refused by name (Range) or computed (reductions). Every
// expected value is worked out by hand in the comment beside it.
#include "cli_test_support.hpp"
#include "onnx_test_support.hpp"
#include "semantics/size_names.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

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

void proved(const std::filesystem::path& p, const std::vector<std::string>& dims) {
  Run r = check(p, dims);
  INFO(r.out << r.err);
  CHECK(r.code == 0);
}

void refuted(const std::filesystem::path& p, const std::vector<std::string>& dims, const std::string& code,
             const std::string& counterexample) {
  Run r = check(p, dims);
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK((r.out + r.err).find(code) != std::string::npos);
  CHECK((r.out + r.err).find("counterexample: " + counterexample) != std::string::npos);
}

// A scalar initializer of the given type.
void scalar(OnnxModel& m, const std::string& name, int32_t type, double v) {
  onnx::TensorProto* t = m.graph().add_initializer();
  t->set_name(name);
  t->set_data_type(type);
  if (type == onnx::TensorProto::FLOAT) t->add_float_data(static_cast<float>(v));
  else if (type == onnx::TensorProto::INT64) t->add_int64_data(static_cast<int64_t>(v));
  else t->add_int32_data(static_cast<int32_t>(v));
}

// Y = X + Cast(Range(0, Shape(X)[1] − k, 1)) over X [B, S]: torch.arange(x.size(1)) (k = 0) as
// torch.onnx writes it, Gather of a scalar index giving a scalar.
OnnxModel arange_model(int64_t k) {
  OnnxModel m;
  m.input("X", {"B", "S"});
  m.node("Shape", {"X"}, {"s"});
  scalar(m, "one", onnx::TensorProto::INT64, 1);
  scalar(m, "zero", onnx::TensorProto::INT64, 0);
  m.node("Gather", {"s", "one"}, {"n"});
  std::string limit = "n";
  if (k != 0) {
    scalar(m, "k", onnx::TensorProto::INT64, static_cast<double>(k));
    m.node("Sub", {"n", "k"}, {"limit"});
    limit = "limit";
  }
  m.node("Range", {"zero", limit, "one"}, {"positions"});
  set_int(m.node("Cast", {"positions"}, {"p"}), "to", onnx::TensorProto::FLOAT);
  m.node("Add", {"X", "p"}, {"Y"});
  m.output("Y");
  return m;
}

}  // namespace

TEST_CASE("onnx range: torch.arange(x.size(1)) under a symbolic extent runs, and is proved") {
  TempDir tmp("onnx_range_arange");
  const OnnxModel m = arange_model(0);
  // B = 1, S = 3: X + [0, 1, 2].
  const Tensor<double> y1 = run_f64(load_at(m, tmp / "m.onnx", {{"B", 1}, {"S", 3}}), {host({1, 3}, {10, 20, 30})})[0];
  CHECK(values(y1) == std::vector<double>{10, 21, 32});
  // B = 2, S = 2: each row + [0, 1].
  const Tensor<double> y2 = run_f64(load_at(m, tmp / "m.onnx", {{"B", 2}, {"S", 2}}), {host({2, 2}, {1, 1, 5, 5})})[0];
  CHECK(values(y2) == std::vector<double>{1, 2, 5, 6});
  // The range's length ⌈(S − 0)/1⌉ = S is X's extent for every size.
  proved(tmp / "m.onnx", {"B=1..64", "S=1..4096"});
  // Range(0, S − 1, 1): no element at S = 1 (and S − 1 against S elsewhere).
  arange_model(1).write(tmp / "minus.onnx");
  refuted(tmp / "minus.onnx", {"B=1..4", "S=1..64"}, "shape.range.empty", "B = 1, S = 1");
}

TEST_CASE("onnx range: of constants, reals and integers") {
  TempDir tmp("onnx_range_constants");
  // float 3 to 10 by 2.5: ⌈7/2.5⌉ = 3: [3, 5.5, 8].
  OnnxModel f;
  scalar(f, "start", onnx::TensorProto::FLOAT, 3);
  scalar(f, "limit", onnx::TensorProto::FLOAT, 10);
  scalar(f, "delta", onnx::TensorProto::FLOAT, 2.5);
  f.node("Range", {"start", "limit", "delta"}, {"Y"});
  f.output("Y");
  CHECK(values(run_f64(load_onnx(f, tmp / "f.onnx"), {})[0]) == std::vector<double>{3, 5.5, 8});
  // int32 −1 down to −10 by −3: ⌈−9/−3⌉ = 3: [−1, −4, −7], folded to a constant.
  OnnxModel i;
  scalar(i, "start", onnx::TensorProto::INT32, -1);
  scalar(i, "limit", onnx::TensorProto::INT32, -10);
  scalar(i, "delta", onnx::TensorProto::INT32, -3);
  i.node("Range", {"start", "limit", "delta"}, {"Y"});
  i.output("Y");
  CHECK(values(run_f64(load_onnx(i, tmp / "i.onnx"), {})[0]) == std::vector<double>{-1, -4, -7});
}

TEST_CASE("onnx range: a real Range written as ONNX reads back to the same values, NNEF refuses it") {
  TempDir tmp("onnx_range_convert");
  // float 3 to 10 by 2.5: [3, 5.5, 8], written by `convert --to onnx` as Range of three scalars.
  OnnxModel f;
  scalar(f, "start", onnx::TensorProto::FLOAT, 3);
  scalar(f, "limit", onnx::TensorProto::FLOAT, 10);
  scalar(f, "delta", onnx::TensorProto::FLOAT, 2.5);
  f.node("Range", {"start", "limit", "delta"}, {"Y"});
  f.output("Y");
  f.write(tmp / "f.onnx");
  Run w = nnref_cli({"convert", (tmp / "f.onnx").string(), "--to", "onnx", (tmp / "back.onnx").string()});
  INFO(w.out << w.err);
  REQUIRE(w.code == 0);
  LoadResult back = load_model((tmp / "back.onnx").string(), LoadOptions{});
  REQUIRE(back.model);
  CHECK(values(run_f64(*back.model, {})[0]) == std::vector<double>{3, 5.5, 8});
  Run n = nnref_cli({"convert", (tmp / "f.onnx").string(), "--to", "nnef", (tmp / "nnef").string()});
  CHECK(n.code == 1);
  CHECK(n.err.find("convert.unexpressible") != std::string::npos);
  CHECK(n.err.find("no range") != std::string::npos);
}

TEST_CASE("onnx range: refused by name where its operands are run-time reals or a computed delta, delta 0, or empty") {
  TempDir tmp("onnx_range_errors");
  // A float start that is a graph input: a real range's operands must be constants (an integer
  // one's may come from data: tests/cli_data_sizes_test.cpp).
  OnnxModel data;
  data.input("start", {}, onnx::TensorProto::FLOAT);
  scalar(data, "limit", onnx::TensorProto::FLOAT, 5);
  scalar(data, "delta", onnx::TensorProto::FLOAT, 1);
  data.node("Range", {"start", "limit", "delta"}, {"Y"});
  data.output("Y");
  const auto ds = load_errors(data, tmp / "data.onnx");
  const Diagnostic* d = find_code(ds, "onnx.input-not-constant");
  REQUIRE(d != nullptr);
  CHECK(d->message.find("'start'") != std::string::npos);
  CHECK(d->message.find("run time") != std::string::npos);
  // An int64 delta that is a graph input: the length's division needs its sign at load time.
  OnnxModel step;
  scalar(step, "start", onnx::TensorProto::INT64, 0);
  scalar(step, "limit", onnx::TensorProto::INT64, 5);
  step.input("delta", {}, onnx::TensorProto::INT64);
  step.node("Range", {"start", "limit", "delta"}, {"Y"});
  step.output("Y");
  const auto steps = load_errors(step, tmp / "step.onnx");
  const Diagnostic* s = find_code(steps, "onnx.input-not-constant");
  REQUIRE(s != nullptr);
  CHECK(s->message.find("constant delta only") != std::string::npos);
  // delta 0 and 5 to 2 by 1: the IR range's obligations, at the node.
  for (auto [delta, limit, code] : {std::tuple{0.0, 5.0, "attr.range.delta-zero"}, std::tuple{1.0, -2.0, "shape.range.empty"}}) {
    OnnxModel m;
    scalar(m, "start", onnx::TensorProto::FLOAT, 0);
    scalar(m, "limit", onnx::TensorProto::FLOAT, limit);
    scalar(m, "delta", onnx::TensorProto::FLOAT, delta);
    m.node("Range", {"start", "limit", "delta"}, {"Y"});
    m.output("Y");
    m.write(tmp / "bad.onnx");
    Run r = check(tmp / "bad.onnx", {});
    INFO(r.out << r.err);
    CHECK(r.code == 1);
    CHECK((r.out + r.err).find(code) != std::string::npos);
  }
}

TEST_CASE("onnx integer reductions: ReduceProd(Shape(x)) feeding a Reshape is proved for every size") {
  TempDir tmp("onnx_reduce_prod_shape");
  // Y = Reshape(X, ReduceProd(Shape(X))) over X [N, C, H, W]: the flat N·C·H·W elements.
  OnnxModel m;
  m.input("X", {"N", "C", "H", "W"});
  m.node("Shape", {"X"}, {"s"});
  m.node("ReduceProd", {"s"}, {"count"});  // keepdims 1 over every axis: [N·C·H·W]
  m.node("Reshape", {"X", "count"}, {"Y"});
  m.output("Y");
  const Tensor<double> y = run_f64(load_at(m, tmp / "m.onnx", {{"N", 1}, {"C", 2}, {"H", 1}, {"W", 2}}),
                                   {host({1, 2, 1, 2}, {1, 2, 3, 4})})[0];
  CHECK(y.shape().dims() == std::vector<int64_t>{4});
  CHECK(values(y) == std::vector<double>{1, 2, 3, 4});
  proved(tmp / "m.onnx", {"N=1..64", "C=1..64", "H=1..64", "W=1..64"});
  // ReduceSum, ReduceMax, ReduceMin of Shape(X) over X [N, C]: N + C, max(N, C), min(N, C), terms
  // too: at N = 2, C = 3 every element gains 5, 3 and 2 (Y = X + Cast(r), r of shape [1]).
  for (auto [op, gain] : {std::pair{"ReduceSum", 5.0}, std::pair{"ReduceMax", 3.0}, std::pair{"ReduceMin", 2.0}}) {
    OnnxModel r;
    r.input("X", {"N", "C"});
    r.node("Shape", {"X"}, {"s"});
    r.node(op, {"s"}, {"r"});
    set_int(r.node("Cast", {"r"}, {"f"}), "to", onnx::TensorProto::FLOAT);
    r.node("Add", {"X", "f"}, {"Y"});
    r.output("Y");
    INFO(op);
    const Tensor<double> y2 = run_f64(load_at(r, tmp / "r.onnx", {{"N", 2}, {"C", 3}}), {host({2, 3}, {0, 1, 2, 3, 4, 5})})[0];
    CHECK(values(y2) == std::vector<double>{gain, gain + 1, gain + 2, gain + 3, gain + 4, gain + 5});
    proved(tmp / "r.onnx", {"N=1..64", "C=1..64"});
  }
}

TEST_CASE("onnx integer reductions: of run-time integers and of constants, wrapping at the type") {
  TempDir tmp("onnx_reduce_integers");
  // ArgMax over axis 1 of X = [[1, 5, 2], [7, 0, 9]] is [1, 2]: Σ 3, Π 2, max 2, min 1.
  for (auto [op, expected] : {std::pair{"ReduceSum", 3.0}, std::pair{"ReduceProd", 2.0}, std::pair{"ReduceMax", 2.0},
                              std::pair{"ReduceMin", 1.0}}) {
    OnnxModel m;
    m.input("X", {"2", "3"});
    auto& argmax = m.node("ArgMax", {"X"}, {"i"});
    set_int(argmax, "axis", 1);
    set_int(argmax, "keepdims", 0);
    set_int(m.node(op, {"i"}, {"Y"}), "keepdims", 0);
    m.output("Y");
    INFO(op);
    CHECK(values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({2, 3}, {1, 5, 2, 7, 0, 9})})[0]) ==
          std::vector<double>{expected});
  }
  // int32 constants [2147483647, 1]: ReduceSum wraps to −2147483648 (2^31 − 2^32); ReduceProd of
  // [65536, 32768] = 2^31 likewise; folded when the model is read.
  for (auto [op, a, b] : {std::tuple{"ReduceSum", 2147483647, 1}, std::tuple{"ReduceProd", 65536, 32768}}) {
    OnnxModel c;
    onnx::TensorProto* t = c.graph().add_initializer();
    t->set_name("v");
    t->set_data_type(onnx::TensorProto::INT32);
    t->add_dims(2);
    t->add_int32_data(a);
    t->add_int32_data(b);
    set_int(c.node(op, {"v"}, {"Y"}), "keepdims", 0);
    c.output("Y");
    INFO(op);
    CHECK(values(run_f64(load_onnx(c, tmp / "c.onnx"), {})[0]) == std::vector<double>{-2147483648.0});
  }
  // ReduceMean of integers: refused by name.
  OnnxModel mean;
  mean.input("X", {"2", "3"});
  set_int(mean.node("ArgMax", {"X"}, {"i"}), "axis", 1);
  mean.node("ReduceMean", {"i"}, {"Y"});
  mean.output("Y");
  CHECK(find_code(load_errors(mean, tmp / "mean.onnx"), "onnx.type-unsupported") != nullptr);
}

TEST_CASE("onnx ConstantOfShape: an integer value over a shape computed from symbolic extents") {
  TempDir tmp("onnx_cos_integer");
  // Y = X + Cast(ConstantOfShape(Shape(X), int64 3)) over X [N, C]: every element + 3.
  OnnxModel m;
  m.input("X", {"N", "C"});
  m.node("Shape", {"X"}, {"s"});
  auto& n = m.node("ConstantOfShape", {"s"}, {"threes"});
  auto* a = n.add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  a->mutable_t()->set_data_type(onnx::TensorProto::INT64);
  a->mutable_t()->add_dims(1);
  a->mutable_t()->add_int64_data(3);
  set_int(m.node("Cast", {"threes"}, {"f"}), "to", onnx::TensorProto::FLOAT);
  m.node("Add", {"X", "f"}, {"Y"});
  m.output("Y");
  const Tensor<double> y = run_f64(load_at(m, tmp / "m.onnx", {{"N", 2}, {"C", 2}}), {host({2, 2}, {0, 1, 2, 3})})[0];
  CHECK(values(y) == std::vector<double>{3, 4, 5, 6});
  proved(tmp / "m.onnx", {"N=1..4096", "C=1..4096"});
  // An int64 value beyond 2^53 (which a graph's data, held as doubles, cannot carry exactly) is
  // refused by name, not rounded: ConstantOfShape(Shape(X), 2^53 + 1).
  OnnxModel big;
  big.input("X", {"N"});
  big.node("Shape", {"X"}, {"s"});
  auto& b = big.node("ConstantOfShape", {"s"}, {"v"});
  auto* va = b.add_attribute();
  va->set_name("value");
  va->set_type(onnx::AttributeProto::TENSOR);
  va->mutable_t()->set_data_type(onnx::TensorProto::INT64);
  va->mutable_t()->add_dims(1);
  va->mutable_t()->add_int64_data((int64_t{1} << 53) + 1);
  set_int(big.node("Cast", {"v"}, {"Y"}), "to", onnx::TensorProto::FLOAT);
  big.output("Y");
  CHECK(find_code(load_errors(big, tmp / "big.onnx"), "onnx.tensor-integer-range") != nullptr);
}
