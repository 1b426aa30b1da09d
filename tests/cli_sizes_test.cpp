// Sizes from the inputs: run, conform, bench and hw run set each size name (an ONNX dim_param,
// NNL's batch and <input>.<k>) from the arrays given; --dim must agree with them, and so must two
// arrays sharing a name (input.size-conflict, exit 2). inspect --dim; check's note of the sizes it
// fixed without --dim; a NAC v1.6 file without nnref.io.json run from its arrays.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;
namespace fs = std::filesystem;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Y = X · Wᵀ + C with X [N, 3] (N a dim_param), W = [[1, 0, -1], [2, 1, 0]], C = [0.5, -1].
void write_gemm(const fs::path& path) {
  OnnxModel m;
  m.input("X", {"N", "3"});
  m.init("W", {2, 3}, {1, 0, -1, 2, 1, 0});
  m.init("C", {2}, {0.5f, -1});
  set_int(m.node("Gemm", {"X", "W", "C"}, {"Y"}, "fc"), "transB", 1);
  m.output("Y");
  m.write(path);
}

// Z = X + Y, both [N, 3].
void write_add(const fs::path& path) {
  OnnxModel m;
  m.input("X", {"N", "3"});
  m.input("Y", {"N", "3"});
  m.node("Add", {"X", "Y"}, {"Z"}, "sum");
  m.output("Z");
  m.write(path);
}

std::string npy(const fs::path& path, const std::vector<int64_t>& dims, std::vector<double> values) {
  REQUIRE(write_npy(path.string(), HostTensor{DType::F64, Shape::make(dims).value(), std::move(values)}).ok());
  return path.string();
}

// X [4, 3] and the gemm's Y by hand: [1 2 3]: 1 - 3 + 0.5 = -1.5, 2 + 2 - 1 = 3; [4 5 6]: 4 - 6 + 0.5
// = -1.5, 8 + 5 - 1 = 12; [0 0 0]: 0.5, -1; [-1 1 2]: -1 - 2 + 0.5 = -2.5, -2 + 1 - 1 = -2.
const std::vector<double> kX{1, 2, 3, 4, 5, 6, 0, 0, 0, -1, 1, 2};
const std::vector<double> kY{-1.5, 3, -1.5, 12, 0.5, -1, -2.5, -2};

}  // namespace

TEST_CASE("sizes: run takes an ONNX dim_param from the input array without --dim, and --dim must agree") {
  TempDir tmp("sizes_onnx");
  write_gemm(tmp / "gemm.onnx");
  const std::string model = (tmp / "gemm.onnx").string();
  const std::string x = npy(tmp / "x.npy", {4, 3}, kX);

  Run plain = nnref_cli({"run", model, "--input", x, "--output", (tmp / "y.npy").string(), "-q"});
  INFO(plain.err);
  REQUIRE(plain.code == 0);
  auto y = read_npy((tmp / "y.npy").string());
  REQUIRE(y.ok());
  CHECK(y->shape == Shape::of({4, 2}));
  CHECK(y->values == kY);

  Run agreeing = nnref_cli({"run", model, "--input", x, "--dim", "N=4", "--output", (tmp / "y4.npy").string(), "-q"});
  INFO(agreeing.err);
  REQUIRE(agreeing.code == 0);
  CHECK(read_npy((tmp / "y4.npy").string())->values == kY);

  Run conflict = nnref_cli({"run", model, "--input", x, "--dim", "N=5"});
  CHECK(conflict.code == 2);
  CHECK(has(conflict.err, "error[input.size-conflict]: node 'X' (input): --dim N=5, but the array given for input 'X' "
                          "(axis 0) has extent 4, which is size N: they must agree"));
  // conform judges at the array's size too, and refuses the same conflict.
  Run judged = nnref_cli({"conform", model, "--input", x, "--engine", "f32"});
  INFO(judged.err);
  CHECK(judged.code == 0);
  CHECK(has(judged.out, "Y: 8 elements, 0 outside the f32 envelope"));  // Y [4, 2]
  Run judged_conflict = nnref_cli({"conform", model, "--input", x, "--engine", "f32", "--dim", "N=2"});
  CHECK(judged_conflict.code == 2);
  CHECK(has(judged_conflict.err, "error[input.size-conflict]"));

  // An extent the file fixes (3) is no size name: another one is still the input's error.
  const std::string wide = npy(tmp / "wide.npy", {4, 2}, std::vector<double>(8, 1));
  Run fixed = nnref_cli({"run", model, "--input", wide});
  CHECK(fixed.code == 2);
  CHECK(has(fixed.err, "error[input.shape-mismatch]"));
  CHECK(has(fixed.err, "the input given has shape [4, 2], but the model declares [4, 3]"));
}

TEST_CASE("sizes: two arrays that give one size name two extents are refused, naming both") {
  TempDir tmp("sizes_conflict");
  write_add(tmp / "add.onnx");
  const std::string model = (tmp / "add.onnx").string();
  const std::string x = npy(tmp / "x.npy", {4, 3}, std::vector<double>(12, 1));
  const std::string y5 = npy(tmp / "y5.npy", {5, 3}, std::vector<double>(15, 2));
  for (const char* command : {"run", "conform"}) {
    INFO(command);
    std::vector<std::string> args{command, model, "--input", x, "--input", y5};
    if (std::string(command) == "conform") args.insert(args.end(), {"--engine", "f32"});
    Run r = nnref_cli(args);
    CHECK(r.code == 2);
    CHECK(has(r.err, "error[input.size-conflict]: node 'Y' (input): size N is 4 in the array given for input 'X' "
                     "(axis 0), but 5 in the array given for input 'Y' (axis 0): the arrays must agree on it"));
  }
  // Named in the other order: the first input in the model's order is named first.
  Run named = nnref_cli({"run", model, "--input", "Y=" + y5, "--input", "X=" + x});
  CHECK(named.code == 2);
  CHECK(has(named.err, "size N is 4 in the array given for input 'X' (axis 0), but 5 in the array given for input 'Y'"));

  // Agreeing arrays run at their size: [1 2 3; 4 5 6] + [10 20 30; -1 -2 -3].
  const std::string a = npy(tmp / "a.npy", {2, 3}, {1, 2, 3, 4, 5, 6});
  const std::string b = npy(tmp / "b.npy", {2, 3}, {10, 20, 30, -1, -2, -3});
  Run ok = nnref_cli({"run", model, "--input", a, "--input", b, "--output", (tmp / "z.npy").string(), "-q"});
  INFO(ok.err);
  REQUIRE(ok.code == 0);
  auto z = read_npy((tmp / "z.npy").string());
  REQUIRE(z.ok());
  CHECK(z->shape == Shape::of({2, 3}));
  CHECK(z->values == std::vector<double>{11, 22, 33, 3, 3, 3});
}

TEST_CASE("sizes: two axes of one array that share a name must agree too") {
  TempDir tmp("sizes_square");
  OnnxModel m;
  m.input("X", {"N", "N"});
  m.node("Relu", {"X"}, {"Y"}, "act");
  m.output("Y");
  m.write(tmp / "square.onnx");
  const std::string model = (tmp / "square.onnx").string();
  Run r = nnref_cli({"run", model, "--input", npy(tmp / "x.npy", {2, 3}, std::vector<double>(6, 1))});
  CHECK(r.code == 2);
  CHECK(has(r.err, "error[input.size-conflict]: node 'X' (input): size N is 2 in the array given for input 'X' (axis "
                   "0), but 3 in the array given for input 'X' (axis 1): the arrays must agree on it"));
  Run ok = nnref_cli({"run", model, "--input", npy(tmp / "sq.npy", {2, 2}, {-1, 2, 3, -4}), "-o",
                      (tmp / "y.npy").string(), "-q"});
  INFO(ok.err);
  REQUIRE(ok.code == 0);
  CHECK(read_npy((tmp / "y.npy").string())->values == std::vector<double>{0, 2, 3, 0});
}

TEST_CASE("sizes: a model error at sizes the arrays gave names them") {
  TempDir tmp("sizes_note");
  // Reshape [N, 3] to [-1, 2, 3]: 3·N elements must split into rows of 6, so N = 3 fails.
  OnnxModel m;
  m.input("X", {"N", "3"});
  m.ints("shape", {-1, 2, 3});
  m.node("Reshape", {"X", "shape"}, {"Y"}, "pairs");
  m.output("Y");
  m.write(tmp / "pairs.onnx");
  Run r = nnref_cli({"run", (tmp / "pairs.onnx").string(), "--input", npy(tmp / "x.npy", {3, 3}, std::vector<double>(9, 1))});
  CHECK(r.code == 1);
  CHECK(has(r.err, "error[shape.reshape.count-indivisible]"));
  CHECK(has(r.err, "note: the model was checked at the sizes the inputs give: N = 3 (the file leaves it open)\n"));
  // examples/mlp given a bare per-sample array of 5 features: it gets the batch axis (batch 1, the
  // model's own, is not named), and input.0 = 5 does not fit fc1's [4, 16] weight.
  Run bare = nnref_cli({"run", example("mlp", "model.nnl"), "--input", npy(tmp / "five.npy", {5}, {1, 2, 3, 4, 5})});
  CHECK(bare.code == 1);
  CHECK(has(bare.err, "error[bind.shape-mismatch]"));
  CHECK(has(bare.err, "note: the model was checked at the sizes the inputs give: input.0 = 5 (the model declares 4)\n"));
}

TEST_CASE("sizes: a name over extents the model has unequal ties them only under --dim") {
  // NNEF's batch is axis 0 of every input: here x [2, 3] and t [1, 3], t broadcast over x's rows.
  TempDir tmp("sizes_untied");
  fs::create_directories(tmp / "model");
  write_text(tmp / "model" / "graph.nnef", R"(version 1.0;
graph G( x, t ) -> ( y ) {
  x = external(shape = [2, 3]);
  t = external(shape = [1, 3]);
  y = add(x, t);
}
)");
  const std::string model = (tmp / "model").string();
  const std::string x = npy(tmp / "x.npy", {4, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  const std::string t = npy(tmp / "t.npy", {1, 3}, {100, 200, 300});
  // Each input's axis 0 is its own array's: x 4 rows, t 1 row, broadcast.
  Run r = nnref_cli({"run", model, "--input", x, "--input", t, "-o", (tmp / "y.npy").string(), "-q"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  auto y = read_npy((tmp / "y.npy").string());
  REQUIRE(y.ok());
  CHECK(y->shape == Shape::of({4, 3}));
  CHECK(y->values == std::vector<double>{101, 202, 303, 104, 205, 306, 107, 208, 309, 110, 211, 312});
  // --dim batch=4 ties them, as check --dim does: t's one row then disagrees.
  Run tied = nnref_cli({"run", model, "--input", x, "--input", t, "--dim", "batch=4"});
  CHECK(tied.code == 2);
  CHECK(has(tied.err, "error[input.size-conflict]: node 't' (input): --dim batch=4, but the array given for input 't' "
                      "(axis 0) has extent 1, which is size batch: they must agree"));
  // check without --dim reads each input's own, and says so.
  Run checked = nnref_cli({"check", model});
  CHECK(checked.code == 0);
  CHECK(has(checked.out, ": note: checked at one size, without --dim: batch = 2 in input 'x' and 1 in input 't', "
                         "x.1 = 3, t.1 = 3 (the model's own extents)"));
  // A model error at such a size names the input whose extent it is: t of 2 rows does not
  // broadcast over x's 4.
  const std::string t2 = npy(tmp / "t2.npy", {2, 3}, std::vector<double>(6, 1));
  Run bad = nnref_cli({"run", model, "--input", x, "--input", t2});
  CHECK(bad.code == 1);
  CHECK(has(bad.err, "error[shape.broadcast.incompatible]"));
  CHECK(has(bad.err, "note: the model was checked at the sizes the inputs give: batch = 4 in input 'x' (the model "
                     "declares 2), batch = 2 in input 't' (the model declares 1)\n"));
}

TEST_CASE("sizes: bench and hw run take the sizes from the arrays too") {
  TempDir tmp("sizes_engines");
  write_gemm(tmp / "gemm.onnx");
  const std::string model = (tmp / "gemm.onnx").string();
  const std::string x = npy(tmp / "x.npy", {4, 3}, kX);
  Run bench = nnref_cli({"bench", model, "--input", x, "--repeat", "1", "--format", "json"});
  INFO(bench.err);
  REQUIRE(bench.code == 0);
  // 4 rows · 3 · 2 multiply-adds, 2 flops each.
  CHECK(nlohmann::json::parse(bench.out)["gflop"].get<double>() == Approx(48e-9));
  // The hardware model computes in float32; every value here is exact in it.
  Run hw = nnref_process({"hw", "run", model, "--input", x, "--output", (tmp / "hw.npy").string(), "-q"}, tmp.path);
  INFO(hw.err);
  REQUIRE(hw.code == 0);
  auto y = read_npy((tmp / "hw.npy").string());
  REQUIRE(y.ok());
  CHECK(y->shape == Shape::of({4, 2}));
  CHECK(y->values == kY);
}

TEST_CASE("sizes: inspect --dim lists the model at another size") {
  TempDir tmp("sizes_inspect");
  write_gemm(tmp / "gemm.onnx");
  const std::string model = (tmp / "gemm.onnx").string();
  // At N = 1 (the placeholder): Y [1, 2], 1·3·2 = 6 MACs; at N = 4: [4, 2] and 24 MACs.
  Run one = nnref_cli({"inspect", model});
  REQUIRE(one.code == 0);
  CHECK(has(one.out, "[1, 2]"));
  Run four = nnref_cli({"inspect", model, "--dim", "N=4"});
  INFO(four.err);
  REQUIRE(four.code == 0);
  CHECK(has(four.out, "[4, 2]"));
  CHECK_FALSE(has(four.out, "[1, 2]"));
  CHECK(has(four.out, " 24 "));
  // examples/mlp at batch 3: fc1 does 3·4·16 = 192 MACs.
  Run mlp = nnref_cli({"inspect", example("mlp", "model.nnl"), "--dim", "batch=3"});
  REQUIRE(mlp.code == 0);
  CHECK(has(mlp.out, "[3, 16]"));
  CHECK(has(mlp.out, " 192 "));
  for (const char* bad : {"M=4", "N=0", "N"}) {
    Run r = nnref_cli({"inspect", model, "--dim", bad});
    CHECK(r.code == 2);
    CHECK(has(r.err, "error[usage.dim]"));
  }
}

TEST_CASE("sizes: check without --dim says which sizes it fixed, and at what value") {
  TempDir tmp("sizes_check");
  write_gemm(tmp / "gemm.onnx");
  const std::string model = (tmp / "gemm.onnx").string();
  Run text = nnref_cli({"check", model});
  INFO(text.err);
  CHECK(text.code == 0);
  CHECK(has(text.out, model + ": note: checked at one size, without --dim: N = 1; the file leaves N open, so its value "
                              "is a placeholder; --dim NAME=LO..HI proves a range\n"));
  Run json = nnref_cli({"check", model, "--format", "json"});
  CHECK(json.code == 0);
  CHECK(nlohmann::json::parse(json.out)["fixed_sizes"] ==
        nlohmann::json::parse(R"([{"name": "N", "value": 1, "left_open": true}])"));
  // With --dim N ranging, nothing is fixed: no note, and an empty list.
  Run ranged = nnref_cli({"check", model, "--dim", "N=1..8"});
  CHECK(ranged.code == 0);
  CHECK_FALSE(has(ranged.out, "note:"));
  CHECK(nlohmann::json::parse(nnref_cli({"check", model, "--dim", "N=1..8", "--format", "json"}).out)["fixed_sizes"] ==
        nlohmann::json::array());
  // NNL's names are the model's own extents: examples/mlp declares Input(shape: [4]) at batch 1.
  const std::string mlp = example("mlp", "model.nnl");
  Run nnl = nnref_cli({"check", mlp});
  CHECK(nnl.code == 0);
  CHECK(has(nnl.out, mlp + ": note: checked at one size, without --dim: batch = 1, input.0 = 4 (the model's own "
                           "extents); --dim NAME=LO..HI proves a range\n"));
  // With --dim batch only input.0 is fixed; the JSON field says so, the text adds no note.
  Run part = nnref_cli({"check", mlp, "--dim", "batch=1..4", "--format", "json"});
  CHECK(nlohmann::json::parse(part.out)["fixed_sizes"] ==
        nlohmann::json::parse(R"([{"name": "input.0", "value": 4, "left_open": false}])"));
  CHECK_FALSE(has(nnref_cli({"check", mlp, "--dim", "batch=1..4"}).out, "note:"));
  // SARIF carries the same list in the run's properties.
  Run sarif = nnref_cli({"check", model, "--format", "sarif"});
  CHECK(nlohmann::json::parse(sarif.out)["runs"][0]["properties"]["fixed_sizes"] ==
        nlohmann::json::parse(R"([{"name": "N", "value": 1, "left_open": true}])"));
}

TEST_CASE("sizes: a .nac that records its input shapes runs at the arrays' sizes, on the hardware model too") {
  TempDir tmp("sizes_nac_manifest");
  const std::string nac = (tmp / "mlp.nac").string();
  Run compiled = nnref_cli({"nac", "compile", example("mlp", "model.nnl"), "-o", nac});
  INFO(compiled.err);
  REQUIRE(compiled.code == 0);
  // examples/mlp's input and its double: a batch of 2, where the file records a batch of 1.
  auto x = read_npy(example("mlp", "input.npy"));
  REQUIRE(x.ok());
  HostTensor two{DType::F64, Shape::of({2, 4}), x->values};
  for (double v : x->values) two.values.push_back(2 * v);
  REQUIRE(write_npy((tmp / "two.npy").string(), two).ok());
  for (const char* engine : {"oracle", "hw"}) {
    INFO(engine);
    Run r = nnref_cli({"run", nac, "--input", (tmp / "two.npy").string(), "--engine", engine, "-o",
                       (tmp / "y.npy").string(), "-q"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(read_npy((tmp / "y.npy").string())->shape == Shape::of({2, 3}));
  }
  Run hw = nnref_process({"hw", "run", nac, "--input", (tmp / "two.npy").string(), "-q"}, tmp.path);
  INFO(hw.err);
  CHECK(hw.code == 0);
  Run judged = nnref_cli({"conform", nac, "--input", (tmp / "two.npy").string(), "--engine", "hw"});
  INFO(judged.err);
  CHECK(judged.code == 0);
  CHECK(has(judged.out, "output: 6 elements, 0 outside the f32 envelope"));
}

TEST_CASE("sizes: a NAC v1.6 file without nnref.io.json runs from the arrays given") {
  TempDir tmp("sizes_nac");
  const std::string cmd = "/usr/bin/python3 " + std::string(NNREF_SOURCE_DIR) + "/tests/nac_corpus.py " + tmp.path.string();
  REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string model = (tmp / "good.no_manifest.nac").string();
  const auto file = [&](const std::string& name, int batch) {
    return (tmp / ("good.no_manifest." + name + std::to_string(batch) + ".npy")).string();
  };
  // Without arrays there is no shape for x: the load says so, and where the shape can come from.
  Run unshaped = nnref_cli({"check", model});
  CHECK(unshaped.code == 1);
  CHECK(has(unshaped.err, "error[nac.input.shape]: instruction 0 (<INPUT>): input 'x' has no shape"));
  CHECK(has(unshaped.err, "no array was given for it (run, conform, bench and hw run take it from --input)"));
  // At batch 2 and 3, positionally and by name (y named, x the next unnamed input), against NumPy.
  for (int batch : {2, 3}) {
    INFO("batch " << batch);
    for (const bool named : {false, true}) {
      const std::vector<std::string> inputs =
          named ? std::vector<std::string>{"--input", "y=" + file("y", batch), "--input", file("x", batch)}
                : std::vector<std::string>{"--input", file("x", batch), "--input", file("y", batch)};
      std::vector<std::string> args{"run", model, "--output", (tmp / "out.npy").string(), "-q"};
      args.insert(args.end(), inputs.begin(), inputs.end());
      Run r = nnref_cli(args);
      INFO(r.err);
      REQUIRE(r.code == 0);
      auto got = read_npy((tmp / "out.npy").string());
      auto want = read_npy(file("expected", batch));
      REQUIRE((got.ok() && want.ok()));
      REQUIRE(got->shape == Shape::of({batch, 2}));
      // float64 over three terms of magnitude below 10: orders of summation differ by far less.
      for (size_t k = 0; k < want->values.size(); ++k) CHECK(std::abs(got->values[k] - want->values[k]) <= 1e-12);
    }
  }
  // The hardware model reads the file again, at the arrays' shapes; conform judges it.
  Run hw = nnref_process({"hw", "run", model, "--input", file("x", 3), "--input", file("y", 3), "-o",
                          (tmp / "hw.npy").string(), "-q"},
                         tmp.path);
  INFO(hw.err);
  REQUIRE(hw.code == 0);
  CHECK(read_npy((tmp / "hw.npy").string())->shape == Shape::of({3, 2}));
  Run judged = nnref_cli({"conform", model, "--input", file("x", 3), "--input", file("y", 3), "--engine", "hw"});
  INFO(judged.err);
  CHECK(judged.code == 0);
  CHECK(has(judged.out, "output: 6 elements, 0 outside the f32 envelope"));  // [3, 2]
  // The kind comes from the dtype: an int64 x is an integer input, which the linear does not take.
  auto x3 = read_npy(file("x", 3));
  REQUIRE(x3.ok());
  HostTensor ints = *x3;
  ints.dtype = DType::I64;
  for (double& v : ints.values) v = std::round(v);
  REQUIRE(write_npy((tmp / "ints.npy").string(), ints).ok());
  Run integer = nnref_cli({"run", model, "--input", (tmp / "ints.npy").string(), "--input", file("y", 3)});
  CHECK(integer.code == 1);
  CHECK(has(integer.err, "error[kind.operand]"));
  // The file does not say that x and y share their batch (each shape is its own array's), so a
  // batch of 2 against one of 3 is no size conflict but the model's error where they meet: the add
  // of linear(x) [2, 2] and y [3, 2] (instruction 5, node v5).
  Run mixed = nnref_cli({"run", model, "--input", file("x", 2), "--input", file("y", 3)});
  CHECK(mixed.code == 1);
  CHECK(has(mixed.err, "error[shape.broadcast.incompatible]: node 'v5' (add)"));
  // With --dim batch=2 they are tied, and y's 3 rows disagree.
  Run tied = nnref_cli({"run", model, "--input", file("x", 2), "--input", file("y", 3), "--dim", "batch=2"});
  CHECK(tied.code == 2);
  CHECK(has(tied.err, "error[input.size-conflict]: node 'y' (input): --dim batch=2, but the array given for input 'y' "
                      "(axis 0) has extent 3, which is size batch: they must agree"));
}
