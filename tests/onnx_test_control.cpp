// If (formats/onnx/ops/control.cpp): branches reading the outer graph's values, a condition given
// at run time (both branches read, each output chosen per run) and a constant one (the other branch
// not read), by hand.
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

// A branch: y = X <op> c, c a constant of the branch (of shape c_dims: [] a scalar), y named `out`.
void branch(onnx::NodeProto& n, const std::string& name, const std::string& op, float c, const std::string& out,
            const std::vector<int64_t>& c_dims = {}) {
  onnx::AttributeProto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::GRAPH);
  onnx::GraphProto* g = a->mutable_g();
  g->set_name(name);
  onnx::TensorProto* t = g->add_initializer();
  t->set_name(name + "_c");
  t->set_data_type(onnx::TensorProto::FLOAT);
  int64_t count = 1;
  for (int64_t d : c_dims) t->add_dims(d), count *= d;
  for (int64_t i = 0; i < count; ++i) t->add_float_data(c);
  onnx::NodeProto* node = g->add_node();
  node->set_op_type(op);
  node->add_input("X");
  node->add_input(name + "_c");
  node->add_output(out);
  g->add_output()->set_name(out);
}

OnnxModel if_model(const std::vector<std::string>& dims, bool cond_input, bool cond_value, const std::string& else_op,
                   const std::vector<int64_t>& else_c_dims = {}) {
  OnnxModel m;
  m.input("X", dims);
  if (cond_input) {
    m.input("C", {}, onnx::TensorProto::BOOL);
  } else {
    onnx::TensorProto* t = m.graph().add_initializer();
    t->set_name("C");
    t->set_data_type(onnx::TensorProto::BOOL);
    t->add_int32_data(cond_value ? 1 : 0);
  }
  onnx::NodeProto& n = m.node("If", {"C"}, {"Y"});
  branch(n, "then_branch", "Add", 1, "then_y");
  branch(n, "else_branch", else_op, 2, "else_y", else_c_dims);
  m.output("Y");
  return m;
}

}  // namespace

TEST_CASE("onnx If: a condition given at run time chooses per run, both branches read the outer X") {
  TempDir tmp("onnx_if_runtime");
  const Model m = load_onnx(if_model({"3"}, true, false, "Mul"), tmp / "m.onnx");
  const HostTensor x = host({3}, {1, 2, 3});
  // then: X + 1; else: X · 2.
  CHECK(values(run_f64(m, {x, HostTensor{DType::Bool, Shape(), {1}}})[0]) == std::vector<double>{2, 3, 4});
  CHECK(values(run_f64(m, {x, HostTensor{DType::Bool, Shape(), {0}}})[0]) == std::vector<double>{2, 4, 6});
}

TEST_CASE("onnx If: under symbolic extents the branches' outputs must have one shape, an obligation") {
  TempDir tmp("onnx_if_symbolic");
  // Both branches [N]: read, and each run chooses (then: X + 1; else: X · 2), here at the default
  // extent N = 1 (scripts/onnx_helper_models.py runs and checks such models over ranges of sizes).
  const Model m = load_onnx(if_model({"N"}, true, false, "Mul"), tmp / "n.onnx");
  const HostTensor x = host({1}, {5});
  CHECK(values(run_f64(m, {x, HostTensor{DType::Bool, Shape(), {1}}})[0]) == std::vector<double>{6});
  CHECK(values(run_f64(m, {x, HostTensor{DType::Bool, Shape(), {0}}})[0]) == std::vector<double>{10});
  // else gives [2, N] (X + a [2, 1] constant), then [N]: ONNX would give a shape per branch; nnref's
  // select of one shape fails that obligation when run (and `check` refutes it), never broadcasts.
  const Model bad = load_onnx(if_model({"N"}, true, false, "Add", {2, 1}), tmp / "bad.onnx");
  const auto r = evaluate<double>(bad.graph, bad.payload, {x, HostTensor{DType::Bool, Shape(), {1}}}, EvalOptions{});
  REQUIRE_FALSE(r);
  CHECK(r.error().code == "shape.broadcast.incompatible");
}

TEST_CASE("onnx If: a constant condition reads its branch alone") {
  TempDir tmp("onnx_if_constant");
  // cond true: X + 1; the else branch holds an op nnref does not read, and is not read.
  const Model t = load_onnx(if_model({"N"}, false, true, "NoSuchOp"), tmp / "t.onnx");
  CHECK(values(run_f64(t, {host({1}, {5})})[0]) == std::vector<double>{6});
  // cond false: the else branch (X · 2); with the unreadable op there, refused by that op's name.
  const Model f = load_onnx(if_model({"2"}, false, false, "Mul"), tmp / "f.onnx");
  CHECK(values(run_f64(f, {host({2}, {5, 7})})[0]) == std::vector<double>{10, 14});
  CHECK(find_code(load_errors(if_model({"2"}, false, false, "NoSuchOp"), tmp / "bad.onnx"), "onnx.op-unsupported") !=
        nullptr);
}
