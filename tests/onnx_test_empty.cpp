// Empty values: tensors with an extent 0 whose shape is known when the model is read (a declared
// input, a constant, what ops make of them), held by the ONNX reader and never as graph values;
// an output that is one is an empty output (Model::empty_outputs), which run writes as an empty
// array and conform judges by its shape. docs/onnx.md, "Empty values". Shapes and values by hand.
#include <catch2/catch.hpp>

#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string npy(const TempDir& tmp, const std::string& name, const std::vector<int64_t>& dims, std::vector<double> v) {
  const std::string path = (tmp / name).string();
  REQUIRE(write_npy(path, HostTensor{DType::F32, Shape::make(dims).value(), std::move(v)}).ok());
  return path;
}

std::vector<std::pair<std::string, std::vector<int64_t>>> empty_outputs(const Model& m) {
  std::vector<std::pair<std::string, std::vector<int64_t>>> out;
  for (const EmptyOutput& o : m.empty_outputs) out.emplace_back(o.name, o.shape.dims());
  return out;
}

// y = Relu(x) of x [4, 3], next to e = Slice(x, 5:9 of axis 0): [0, 3], the rows past the end.
OnnxModel relu_and_empty_slice() {
  OnnxModel m;
  m.input("x", {"4", "3"});
  m.ints("starts", {5});
  m.ints("ends", {9});
  m.ints("axes", {0});
  m.node("Relu", {"x"}, {"y"}, "relu");
  m.node("Slice", {"x", "starts", "ends", "axes"}, {"e"}, "slice");
  m.output("y");
  m.output("e");
  return m;
}

}  // namespace

TEST_CASE("onnx empty values: an input with an extent 0 through the ops that keep it empty") {
  TempDir tmp("onnx-empty-ops");
  // x [2, 0, 3] → Transpose [3, 2, 0] → Relu → Cast to int64 → Identity → Reshape allowzero [0, 6]
  // → Trilu (no element to zero); Concat of it with itself on axis 1: [0, 12].
  OnnxModel m(14);
  m.input("x", {"2", "0", "3"});
  m.ints("shape", {0, 6});
  set_ints(m.node("Transpose", {"x"}, {"t"}, "transpose"), "perm", {2, 0, 1});
  m.node("Relu", {"t"}, {"r"}, "relu");
  set_int(m.node("Cast", {"r"}, {"c"}, "cast"), "to", onnx::TensorProto::INT64);
  m.node("Identity", {"c"}, {"i"}, "identity");
  set_int(m.node("Reshape", {"i", "shape"}, {"s"}, "reshape"), "allowzero", 1);
  m.node("Trilu", {"s"}, {"u"}, "trilu");
  set_int(m.node("Concat", {"u", "u"}, {"y"}, "concat"), "axis", 1);
  m.output("t");
  m.output("y");
  const Model model = load_onnx(m, tmp / "ops.onnx");
  CHECK(model.graph.outputs.empty());
  CHECK(model.graph.nodes.empty());  // the empty input is no graph input either
  CHECK(empty_outputs(model) ==
        std::vector<std::pair<std::string, std::vector<int64_t>>>{{"t", {3, 2, 0}}, {"y", {0, 12}}});
}

TEST_CASE("onnx empty values: Split's empty parts, ConstantOfShape of [0], Concat of empties") {
  TempDir tmp("onnx-empty-split");
  // x [4] split [0, 4, 0]: the middle part is x itself; ConstantOfShape([2, 0]); Concat on axis 0 of
  // it with a [3, 0] one made of shape [3, 0]: [5, 0].
  OnnxModel m;
  m.input("x", {"4"});
  m.ints("parts", {0, 4, 0});
  m.ints("a", {2, 0});
  m.ints("b", {3, 0});
  m.node("Split", {"x", "parts"}, {"p0", "p1", "p2"}, "split");
  m.node("ConstantOfShape", {"a"}, {"ca"}, "fill_a");
  m.node("ConstantOfShape", {"b"}, {"cb"}, "fill_b");
  set_int(m.node("Concat", {"ca", "cb"}, {"cat"}, "concat"), "axis", 0);
  for (const char* o : {"p0", "p1", "p2", "cat"}) m.output(o);
  const Model model = load_onnx(m, tmp / "split.onnx");
  CHECK(empty_outputs(model) ==
        std::vector<std::pair<std::string, std::vector<int64_t>>>{{"p0", {0}}, {"p2", {0}}, {"cat", {5, 0}}});
  REQUIRE(model.graph.outputs.size() == 1);
  CHECK(model.graph.outputs[0].name == "p1");
  const auto y = run_f64(model, {host({4}, {1.5, -2, 3, 0.25})});
  CHECK(y[0].shape() == Shape::of({4}));
  CHECK(std::vector<double>(y[0].data().begin(), y[0].data().end()) == std::vector<double>{1.5, -2, 3, 0.25});
}

TEST_CASE("onnx empty values: run writes an empty output, conform judges its shape") {
  TempDir tmp("onnx-empty-cli");
  relu_and_empty_slice().write(tmp / "m.onnx");
  const std::string model = (tmp / "m.onnx").string(), out = (tmp / "out.npz").string();
  const std::string in = npy(tmp, "x.npy", {4, 3}, {1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12});
  const Run run = nnref_cli({"run", model, "--input", in, "--output", out});
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK(has(run.err, "note[onnx.empty-output]: output 'e' is an empty tensor of shape [0, 3]"));
  CHECK(has(run.out, "output e: shape [0, 3] float64"));
  auto written = read_npz(out);
  REQUIRE(written);
  REQUIRE(written->size() == 2);
  CHECK(written->at(0).first == "y");
  CHECK(written->at(0).second.values == std::vector<double>{1, 0, 3, 0, 5, 0, 7, 0, 9, 0, 11, 0});
  CHECK(written->at(1).first == "e");
  CHECK(written->at(1).second.shape == Shape::make({0, 3}).value());

  const std::string y = (tmp / "answer.npz").string(), wrong = (tmp / "wrong.npz").string();
  const HostTensor relu{DType::F32, Shape::of({4, 3}), {1, 0, 3, 0, 5, 0, 7, 0, 9, 0, 11, 0}};
  REQUIRE(write_npz(y, {{"y", relu}, {"e", HostTensor{DType::F32, Shape::make({0, 3}).value(), {}}}}).ok());
  REQUIRE(write_npz(wrong, {{"y", relu}, {"e", HostTensor{DType::F32, Shape::of({1, 3}), {0, 0, 0}}}}).ok());
  const Run good = nnref_cli({"conform", model, "--input", in, "--actual", y});
  INFO(good.out << good.err);
  CHECK(good.code == 0);
  CHECK(has(good.out, "ok   e: an empty output: the answer has its shape [0, 3], and no element to judge"));
  CHECK(has(good.out, "ok   y: 12 elements, 0 outside"));
  const Run bad = nnref_cli({"conform", model, "--input", in, "--actual", wrong});
  CHECK(bad.code != 0);
  CHECK(has(bad.err, "error[usage.actual-shape]: output 'e' has shape [0, 3]"));
  const Run json = nnref_cli({"conform", model, "--input", in, "--actual", y, "--format", "json"});
  CHECK(has(json.out, "\"name\": \"e\""));
}

TEST_CASE("onnx empty values: an empty input's array is bound and checked, and check has nothing to prove") {
  TempDir tmp("onnx-empty-input");
  OnnxModel m;
  m.input("x", {"0", "3"});
  m.node("Neg", {"x"}, {"y"}, "neg");
  m.output("y");
  m.write(tmp / "m.onnx");
  const std::string model = (tmp / "m.onnx").string();
  const Run right = nnref_cli({"run", model, "--input", npy(tmp, "x.npy", {0, 3}, {})});
  INFO(right.err);
  CHECK(right.code == 0);
  CHECK(has(right.out, "output y: shape [0, 3] float64"));
  const Run wrong = nnref_cli({"run", model, "--input", npy(tmp, "w.npy", {1, 3}, {1, 2, 3})});
  CHECK(wrong.code != 0);
  CHECK(has(wrong.err, "error[onnx.input-bound-mismatch]: graph input 'x' cannot be bound"));
  const Run check = nnref_cli({"check", model});
  INFO(check.out << check.err);
  CHECK(check.code == 0);
  CHECK(has(check.err, "note[onnx.empty-output]: output 'y' is an empty tensor of shape [0, 3]"));
}

TEST_CASE("onnx empty values: a model whose every output is empty still checks its inputs") {
  TempDir tmp("onnx-empty-only");
  OnnxModel m = relu_and_empty_slice();
  m.graph().mutable_output()->DeleteSubrange(0, 1);  // e alone
  m.write(tmp / "m.onnx");
  const std::string model = (tmp / "m.onnx").string();
  const Run right = nnref_cli({"run", model, "--input", npy(tmp, "x.npy", {4, 3}, std::vector<double>(12, 1))});
  INFO(right.err);
  CHECK(right.code == 0);
  CHECK(has(right.out, "output e: shape [0, 3] float64"));
  const std::string wrong = npy(tmp, "w.npy", {3, 3}, std::vector<double>(9, 1));
  for (const char* command : {"run", "conform"}) {
    std::vector<std::string> args{command, model, "--input", wrong};
    if (std::string(command) == "conform") args.insert(args.end(), {"--actual", npy(tmp, "e.npy", {0, 3}, {})});
    const Run r = nnref_cli(args);
    INFO(command << ": " << r.err);
    CHECK(r.code != 0);
    CHECK(has(r.err, "error[input.shape-mismatch]"));
  }
}

TEST_CASE("onnx empty values: an op that would make elements of an empty tensor is refused by name") {
  TempDir tmp("onnx-empty-refused");
  // Y = op(inputs), each input [name, dims]: refused with onnx.shape-unsupported, its message holding `part`.
  using Inputs = std::vector<std::pair<std::string, std::vector<std::string>>>;
  const auto refused = [&](const std::string& op, const Inputs& in, const std::string& part) {
    OnnxModel m;
    std::vector<std::string> names;
    for (const auto& [name, dims] : in) {
      m.input(name, dims);
      names.push_back(name);
    }
    m.ints("axes", {0});
    if (op == "ReduceSum") names.push_back("axes");
    m.node(op, names, {"y"}, "the_node");
    m.output("y");
    const auto d = load_errors(m, tmp / "m.onnx");
    const Diagnostic* e = find_code(d, "onnx.shape-unsupported");
    INFO(op << ": " << (d.empty() ? std::string() : format_diagnostic(d.back())));
    REQUIRE(e);
    CHECK(has(e->message, part));
  };
  refused("MatMul", {{"a", {"2", "0"}}, {"b", {"0", "3"}}}, "gives a result with elements (shape [2, 3])");
  refused("ReduceSum", {{"x", {"0", "3"}}}, "gives a result with elements");  // over the empty axis 0: [1, 3]
  refused("Relu", {{"x", {"N", "0"}}}, "has an extent 0 and a symbolic extent (N)");
  refused("Conv", {{"x", {"1", "2", "4"}}, {"w", {"0", "2", "1"}}}, "weight ('w') is an empty tensor");
}
