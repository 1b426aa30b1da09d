// A parameter computed from initializers (docs/onnx.md, "Constants are what is computed from
// constants"): read as a value of the graph that the node's parameter is bound to, evaluated in
// the run's scalar when the plan is made, for every engine; written back to ONNX as that value,
// refused by name by the formats that hold parameters as stored tensors only.
#include <catch2/catch.hpp>
#include <filesystem>

#include "cli_npy_output.hpp"
#include "formats/tensor_files/npy.hpp"
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;
namespace fs = std::filesystem;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Conv 1x1 over X [1, 1, 2]: W = (a · b) · c and B = b0 + b1, each an ONNX Mul or Add of
// initializers; W = a · S instead, S a graph input, when `from_input`.
void write_conv(const fs::path& path, bool from_input = false) {
  OnnxModel m;
  m.input("X", {"1", "1", "2"});
  m.init("a", {1, 1, 1}, {0.1f});
  if (from_input) {
    m.input("S", {"1"});
    m.node("Mul", {"a", "S"}, {"W"}, "scaled");
  } else {
    m.init("b", {1}, {3.0f});
    m.init("c", {1}, {0.7f});
    m.node("Mul", {"a", "b"}, {"ab"}, "ab");
    m.node("Mul", {"ab", "c"}, {"W"}, "abc");
  }
  m.init("b0", {1}, {0.25f});
  m.init("b1", {1}, {0.5f});
  m.node("Add", {"b0", "b1"}, {"B"}, "bias");
  m.node("Conv", {"X", "W", "B"}, {"Y"}, "conv");
  m.output("Y");
  m.write(path);
}


}  // namespace

TEST_CASE("computed parameters: an ONNX Conv whose W and B are computed from initializers runs on every engine") {
  TempDir tmp("computed_params");
  write_conv(tmp / "m.onnx");
  const std::string model = (tmp / "m.onnx").string(), x = (tmp / "x.npy").string();
  REQUIRE(write_npy(x, HostTensor{DType::F64, Shape::of({1, 1, 2}), {1, 2}}).ok());

  // In f64, W = (0.1f · 3) · 0.7f and B = 0.25 + 0.5, each rounded to double: y = W·x + B.
  const double w = (double{0.1f} * 3.0) * double{0.7f};
  const std::vector<double> f64 = run_npy({"run", model, "--input", x, "--precision", "f64"}, tmp / "f64.npy").values;
  REQUIRE(f64.size() == 2);
  CHECK(f64[0] == Approx(w + 0.75).epsilon(1e-15));
  CHECK(f64[1] == Approx(2 * w + 0.75).epsilon(1e-15));

  // The fast path receives the weight the plan computed in float, as the f32 oracle does.
  const std::vector<double> f32 = run_npy({"run", model, "--input", x, "--precision", "f32"}, tmp / "f32.npy").values;
  CHECK(run_npy({"run", model, "--input", x, "--engine", "fast"}, tmp / "fast.npy").values == f32);
  Run judged = nnref_cli({"conform", model, "--input", x, "--engine", "fast"});
  INFO(judged.out << judged.err);
  CHECK(judged.code == 0);
  CHECK(has(judged.out, "Y: 2 elements, 0 outside the f32 envelope"));

  // Written to ONNX, W and B stay the Mul and the Add that compute them.
  Run to_onnx = nnref_cli({"convert", model, (tmp / "back.onnx").string(), "--to", "onnx"});
  INFO(to_onnx.err);
  REQUIRE(to_onnx.code == 0);
  CHECK(run_npy({"run", (tmp / "back.onnx").string(), "--input", x, "--precision", "f64"}, tmp / "back.npy").values == f64);
  // NNEF holds parameters as variables: refused by name.
  Run to_nnef = nnref_cli({"convert", model, (tmp / "nnef").string(), "--to", "nnef"});
  CHECK(to_nnef.code != 0);
  CHECK(has(to_nnef.err, "error[convert.unexpressible]"));
  CHECK(has(to_nnef.err, "its parameter 'weight' is computed in the graph (by 'abc'), and NNEF holds parameters as "
                         "stored tensors only"));
}

TEST_CASE("computed parameters: a weight that depends on a graph input, or of the wrong shape, is named") {
  TempDir tmp("computed_params_errors");
  write_conv(tmp / "input.onnx", true);
  Run input = nnref_cli({"check", (tmp / "input.onnx").string()});
  CHECK(input.code != 0);
  CHECK(has(input.err, "error[onnx.input-not-constant]"));
  CHECK(has(input.err, "weight (input 1, 'W') depends on a graph input: a parameter is an initializer, a constant, or "
                       "computed from them alone"));

  // BatchNormalization over 2 channels whose scale is computed with 3 values.
  OnnxModel m;
  m.input("X", {"1", "2", "3"});
  m.init("s0", {3}, {1, 2, 3});
  m.init("s1", {3}, {1, 1, 1});
  m.node("Add", {"s0", "s1"}, {"scale"}, "scale_sum");
  m.init("offset", {2}, {0, 0});
  m.init("mean", {2}, {0, 0});
  m.init("var", {2}, {1, 1});
  m.node("BatchNormalization", {"X", "scale", "offset", "mean", "var"}, {"Y"}, "bn");
  m.output("Y");
  m.write(tmp / "bn.onnx");
  Run bn = nnref_cli({"check", (tmp / "bn.onnx").string()});
  CHECK(bn.code != 0);
  CHECK(has(bn.err, "error[bind.shape-mismatch]"));
  CHECK(has(bn.err, "is computed by 'scale_sum' with shape [3], but the layer needs [2]"));
}
