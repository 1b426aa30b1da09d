// nnref convert --to nnl from the command line: what it writes, and every refusal (an op, an
// attribute or a graph shape NNL cannot state) named at its node, and an unwritable folder.
#include <onnx/onnx_pb.h>

#include <catch2/catch.hpp>

#include <filesystem>

#include "cli_test_support.hpp"
#include "convert_test_support.hpp"
#include "formats/nnl/writer.hpp"
#include "formats/tensor_files/npy.hpp"
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

namespace nnref {
namespace {

namespace fs = std::filesystem;
using test::nnref_cli;
using test::Run;
using test::TempDir;
using test::file_bytes;
using test::one_op_nnef_model;
using test::write_text;

// The mnist example through the CLI: model.nnl and weights.npz, and nnref run on the printed
// model writes the same bytes as on the original.
TEST_CASE("convert: --to nnl writes model.nnl and weights.npz that run as the original") {
  TempDir dir("convert_nnl_cli");
  const std::string model = test::example("mnist_classifier", "model.nnl");
  const Run r = nnref_cli({"convert", model, (dir / "out").string(), "--to", "nnl"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("(nnl, ") != std::string::npos);
  REQUIRE(fs::exists(dir / "out" / "model.nnl"));
  REQUIRE(fs::exists(dir / "out" / "weights.npz"));
  const std::string text = file_bytes(dir / "out" / "model.nnl");
  CHECK(text.find("model mnist_classifier {") != std::string::npos);
  CHECK(text.find("    preprocess: \"normalize_0_1\";\n") != std::string::npos);
  CHECK(text.find("  layer conv1 = Conv2D(filters: 32, kernel: 3);\n") != std::string::npos);
  CHECK(text.find("  layer output = Dense(units: 10, activation: \"softmax\");\n") != std::string::npos);
  CHECK(text.find("connections") == std::string::npos);  // a chain: NNL's implicit connections
  const std::string input = (fs::path(model).parent_path() / "input.npy").string();
  for (const auto& [m, out] : {std::pair{model, dir / "a.npz"}, std::pair{(dir / "out" / "model.nnl").string(), dir / "b.npz"}}) {
    const Run run = nnref_cli({"run", m, "--input", input, "--output", out.string(), "-q"});
    INFO(run.err);
    REQUIRE(run.code == 0);
  }
  CHECK(file_bytes(dir / "a.npz") == file_bytes(dir / "b.npz"));
}

// An NNEF model with tanh: NNL v0.2 has no such activation.
TEST_CASE("convert: --to nnl refuses an op NNL lacks by name, exit 1, and writes nothing") {
  TempDir dir("convert_nnl_refused");
  const Run r = nnref_cli({"convert", one_op_nnef_model(dir.path, "tanh").string(), (dir / "out").string(), "--to", "nnl"});
  CHECK(r.code == 1);
  CHECK(r.err.find("graph.nnef:6:") != std::string::npos);
  CHECK(r.err.find("error[convert.unexpressible]: NNL cannot express node 'y' (tanh): NNL v0.2's only activations are "
                   "relu, sigmoid and softmax") != std::string::npos);
  CHECK(!fs::exists(dir / "out"));
}

Model onnx_model(const test::OnnxModel& m, const fs::path& path) { return test::load_onnx(m, path); }

std::string refusal(const Model& m, const fs::path& out) {
  const std::vector<Diagnostic> d = write_nnl(m, out.string());
  REQUIRE(d.size() == 1);
  CHECK(d[0].code == "convert.unexpressible");
  CHECK(!fs::exists(out));
  return d[0].message;
}

// Attributes and graph shapes NNL cannot state, each refused at its node with the reason.
TEST_CASE("convert: --to nnl refuses what NNL's layers cannot state, naming the node") {
  using test::set_int, test::set_ints;
  TempDir dir("convert_nnl_attrs");
  {  // ONNX's conv is channels first; NNL's Conv2D channels last.
    test::OnnxModel m(13);
    m.input("x", {"1", "2", "5", "5"});
    m.init("w", {3, 2, 3, 3}, std::vector<float>(54, 0.5f));
    m.init("b", {3}, {1, 2, 3});
    m.node("Conv", {"x", "w", "b"}, {"y"}, "conv");
    m.output("y");
    CHECK(refusal(onnx_model(m, dir / "conv.onnx"), dir / "conv") ==
          "NNL cannot express node 'conv' (conv): NNL's windows are channels last (HWC), and this one is channels first");
  }
  {  // Gemm without C: a linear node without bias.
    test::OnnxModel m(13);
    m.input("x", {"2", "3"});
    m.init("w", {3, 2}, {1, 2, 3, 4, 5, 6});
    m.node("Gemm", {"x", "w"}, {"y"}, "dense");
    m.output("y");
    CHECK(refusal(onnx_model(m, dir / "gemm.onnx"), dir / "gemm") ==
          "NNL cannot express node 'dense' (linear): NNL's Dense always adds a bias, and this one has none");
  }
  {  // A softmax over the batch axis: NNL's axes count per sample.
    test::OnnxModel m(13);
    m.input("x", {"2", "3"});
    set_int(m.node("Softmax", {"x"}, {"y"}, "sm"), "axis", 0);
    m.output("y");
    CHECK(refusal(onnx_model(m, dir / "sm.onnx"), dir / "sm") ==
          "NNL cannot express node 'sm' (softmax): its axis is the batch axis, which NNL's axes do not count");
  }
  {  // An output that another layer reads: NNL's outputs are the layers no layer reads.
    test::OnnxModel m(13);
    m.input("x", {"2", "3"});
    m.node("Relu", {"x"}, {"r"}, "act");
    m.node("Sigmoid", {"r"}, {"y"}, "gate");
    m.output("y");
    m.output("r");
    CHECK(refusal(onnx_model(m, dir / "out.onnx"), dir / "out") ==
          "NNL cannot express node 'act' (relu): it is model output 'r' and other layers read it: NNL's outputs are "
          "exactly the layers no layer reads");
  }
  {  // A constant operand: NNL states constants only as an Input's preprocessing.
    test::OnnxModel m(13);
    m.input("x", {"2", "3"});
    m.init("two", {1}, {2});
    m.node("Div", {"x", "two"}, {"y"}, "half");
    m.output("y");
    const std::string why = refusal(onnx_model(m, dir / "div.onnx"), dir / "div");
    CHECK(why.find("NNL cannot express node '") == 0);
    CHECK(why.find("NNL states no constants but its preprocessing") != std::string::npos);
  }
}

TEST_CASE("convert: --to nnl into a folder that cannot be made is io.write, exit 2") {
  TempDir dir("convert_nnl_unwritable");
  write_text(dir / "file", "not a folder");
  const Run r = nnref_cli({"convert", test::example("mlp", "model.nnl"), (dir / "file" / "out").string(), "--to", "nnl"});
  CHECK(r.code == 2);
  CHECK(r.err.find("error[io.write]") != std::string::npos);
}

}  // namespace
}  // namespace nnref
