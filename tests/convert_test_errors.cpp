// nnref convert from the command line: the text it writes for a small model (checked against a
// graph.nnef written by hand from NNEF 1.0's operations), symbolic sizes, and every error path.
#include <onnx/onnx_pb.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "cli_test_support.hpp"
#include "convert_test_support.hpp"
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

// Dense(3) with relu after an Input of 2: NNL's weight is [in, units] = [2, 3]; NNEF's linear
// filter is [units, in], so the .dat holds it transposed; the bias is [1, units].
TEST_CASE("convert: an NNL dense layer becomes NNEF external, variables and linear, written by hand") {
  TempDir dir("convert_dense");
  write_text(dir / "m.nnl", R"(version 0.2;
model tiny {
  config { precision: "float32"; weights: "./w"; }
  layer x = Input(shape: [2]);
  layer fc = Dense(units: 3, activation: "relu");
  connections { x -> fc; }
}
)");
  fs::create_directories(dir / "w");
  REQUIRE(nnref_cli({"init-weights", (dir / "m.nnl").string()}).code == 0);
  const Run r = nnref_cli({"convert", (dir / "m.nnl").string(), (dir / "out").string(), "--to", "nnef"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(file_bytes(dir / "out" / "graph.nnef") == R"(version 1.0;

graph m( x ) -> ( fc )
{
    x = external(shape = [1, 2]);
    fc_weight = variable(shape = [3, 2], label = 'fc/weight');
    fc_bias = variable(shape = [1, 3], label = 'fc/bias');
    fc_2 = linear(x, fc_weight, fc_bias);
    fc = relu(fc_2);
}
)");
  // Both models give the same bits on the same input (init-weights' random weights).
  REQUIRE(write_npy((dir / "x.npy").string(), HostTensor{DType::F32, Shape::of({1, 2}), {0.5, -1.25}}).ok());
  for (const auto& [model, out] : {std::pair{dir / "m.nnl", dir / "a.npy"}, std::pair{dir / "out", dir / "b.npy"}})
    REQUIRE(nnref_cli({"run", model.string(), "--input", (dir / "x.npy").string(), "--output", out.string(), "-q"}).code == 0);
  CHECK(file_bytes(dir / "a.npy") == file_bytes(dir / "b.npy"));
}

TEST_CASE("convert: an op the target cannot express is convert.unexpressible at the node, exit 1") {
  TempDir dir("convert_unexpressible");
  const Run r = nnref_cli({"convert", one_op_nnef_model(dir.path, "round").string(), (dir / "y.onnx").string(), "--to", "onnx"});
  CHECK(r.code == 1);
  CHECK(r.err.find("graph.nnef:6:") != std::string::npos);
  CHECK(r.err.find("error[convert.unexpressible]") != std::string::npos);
  CHECK(r.err.find("node 'y' (round)") != std::string::npos);
  CHECK(!fs::exists(dir / "y.onnx"));

  // layer_normalization has no NNEF operation.
  test::OnnxModel m(17);
  m.input("x", {"2", "3"});
  m.init("scale", {3}, {1, 2, 3});
  m.init("bias", {3}, {0, 0, 1});
  m.node("LayerNormalization", {"x", "scale", "bias"}, {"y"}, "norm");
  m.output("y");
  m.write(dir / "ln.onnx");
  const Run ln = nnref_cli({"convert", (dir / "ln.onnx").string(), (dir / "ln").string(), "--to", "nnef"});
  CHECK(ln.code == 1);
  CHECK(ln.err.find("error[convert.unexpressible]") != std::string::npos);
  CHECK(ln.err.find("node 'norm' (layer_normalization)") != std::string::npos);
  CHECK(!fs::exists(dir / "ln" / "graph.nnef"));
}

TEST_CASE("convert: a symbolic size needs --dim for NNEF and stays a dim_param in ONNX") {
  TempDir dir("convert_symbolic");
  test::OnnxModel m(13);
  m.input("x", {"N", "3"});
  m.node("Relu", {"x"}, {"y"}, "act");
  m.output("y");
  m.write(dir / "m.onnx");
  const Run refused = nnref_cli({"convert", (dir / "m.onnx").string(), (dir / "a").string(), "--to", "nnef"});
  CHECK(refused.code == 2);
  CHECK(refused.err.find("error[usage.dim-required]") != std::string::npos);
  CHECK(refused.err.find("size 'N'") != std::string::npos);

  const Run fixed = nnref_cli({"convert", (dir / "m.onnx").string(), (dir / "b").string(), "--to", "nnef", "--dim", "N=5"});
  REQUIRE(fixed.code == 0);
  CHECK(file_bytes(dir / "b" / "graph.nnef").find("x = external(shape = [5, 3]);") != std::string::npos);

  const Run onnx = nnref_cli({"convert", (dir / "m.onnx").string(), (dir / "c.onnx").string(), "--to", "onnx"});
  REQUIRE(onnx.code == 0);
  onnx::ModelProto p;
  std::ifstream f(dir / "c.onnx", std::ios::binary);
  REQUIRE(p.ParseFromIstream(&f));
  REQUIRE(p.graph().input_size() == 1);
  CHECK(p.graph().input(0).type().tensor_type().shape().dim(0).dim_param() == "N");
  CHECK(p.graph().input(0).type().tensor_type().shape().dim(1).dim_value() == 3);
  // The output's first extent follows N: written without a value.
  CHECK(!p.graph().output(0).type().tensor_type().shape().dim(0).has_dim_value());
  CHECK(p.graph().output(0).type().tensor_type().shape().dim(1).dim_value() == 3);
}

TEST_CASE("convert: an output that cannot be written is io.write, exit 2") {
  TempDir dir("convert_unwritable");
  write_text(dir / "file", "not a folder");
  const std::string model = test::example("mlp", "model.nnl");
  const Run nnef = nnref_cli({"convert", model, (dir / "file" / "out").string(), "--to", "nnef"});
  CHECK(nnef.code == 2);
  CHECK(nnef.err.find("error[io.write]") != std::string::npos);
  const Run onnx = nnref_cli({"convert", model, (dir / "file" / "m.onnx").string(), "--to", "onnx"});
  CHECK(onnx.code == 2);
  CHECK(onnx.err.find("error[io.write]") != std::string::npos);
}

TEST_CASE("convert: --to is required and names a format nnref writes") {
  TempDir dir("convert_usage");
  const std::string model = test::example("mlp", "model.nnl");
  const Run missing = nnref_cli({"convert", model, (dir / "out").string()});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("--to") != std::string::npos);
  const Run unknown = nnref_cli({"convert", model, (dir / "out").string(), "--to", "tflite"});
  CHECK(unknown.code == 2);
  CHECK(!fs::exists(dir / "out"));
}

// argmax_pool's index is a position within the window (ONNX's MaxPool Indices count over the whole
// input), and neither ONNX nor NNL has sample: refused by name, no file written.
TEST_CASE("convert: argmax_pool and sample are convert.unexpressible in ONNX and NNL") {
  TempDir dir("convert_argmax_pool");
  fs::create_directories(dir / "m");
  write_text(dir / "m" / "graph.nnef", "version 1.0;\n\ngraph G( x ) -> ( y )\n{\n    x = external(shape = [1, 1, 4]);\n"
                                       "    i = argmax_pool(x, size = [1, 1, 2]);\n    y = sample(x, i, size = [1, 1, 2]);\n}\n");
  const Run onnx = nnref_cli({"convert", (dir / "m").string(), (dir / "y.onnx").string(), "--to", "onnx"});
  CHECK(onnx.code == 1);
  CHECK(onnx.err.find("graph.nnef:6:") != std::string::npos);
  CHECK(onnx.err.find("error[convert.unexpressible]") != std::string::npos);
  CHECK(onnx.err.find("(argmax_pool)") != std::string::npos);
  CHECK(onnx.err.find("not within the window") != std::string::npos);
  CHECK(!fs::exists(dir / "y.onnx"));
  const Run nnl = nnref_cli({"convert", (dir / "m").string(), (dir / "y.nnl").string(), "--to", "nnl"});
  CHECK(nnl.code == 1);
  CHECK(nnl.err.find("error[convert.unexpressible]") != std::string::npos);
  CHECK(nnl.err.find("NNL v0.2 has no such layer") != std::string::npos);
  CHECK(!fs::exists(dir / "y.nnl"));
}

}  // namespace
}  // namespace nnref

