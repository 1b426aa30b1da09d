// Sizes computed from data (docs/onnx.md, "Shapes are values"): an integer value the graph computes
// from the data of its inputs (an integer graph input, ArgMax, arithmetic on it) read as an op's
// sizes. `run` and `conform` evaluate it from the inputs given before planning the rest; `check`
// refuses it by name; an enclosure that leaves it undetermined is refused by name, never guessed.
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

// X [2, 6] reshaped to [ArgMax(Exp(Y)) + 2, -1], Y [3]: the shape is Concat(Add(ArgMax, 2), [-1]).
void write_argmax_reshape(const fs::path& path) {
  OnnxModel m;
  m.input("X", {"2", "6"});
  m.input("Y", {"3"});
  m.node("Exp", {"Y"}, {"e"}, "exp");
  onnx::NodeProto& am = m.node("ArgMax", {"e"}, {"am"}, "am");
  set_int(am, "axis", 0);
  set_int(am, "keepdims", 1);
  m.ints("two", {2});
  m.node("Add", {"am", "two"}, {"rows"}, "rows");
  m.ints("rest", {-1});
  onnx::NodeProto& cat = m.node("Concat", {"rows", "rest"}, {"shape"}, "shape");
  set_int(cat, "axis", 0);
  m.node("Reshape", {"X", "shape"}, {"Z"}, "r");
  m.output("Z");
  m.write(path);
}

// X [2, 6] reshaped to the shape S, an int64 graph input [2].
void write_input_reshape(const fs::path& path) {
  OnnxModel m;
  m.input("X", {"2", "6"});
  m.input("S", {"2"}, onnx::TensorProto::INT64);
  m.node("Reshape", {"X", "S"}, {"Z"}, "r");
  m.output("Z");
  m.write(path);
}

std::vector<double> iota(int n) {
  std::vector<double> v;
  for (int k = 0; k < n; ++k) v.push_back(k);
  return v;
}

}  // namespace

TEST_CASE("data sizes: a Reshape to a shape computed from ArgMax runs, conforms, and check names it") {
  TempDir tmp("data_sizes");
  write_argmax_reshape(tmp / "m.onnx");
  const std::string model = (tmp / "m.onnx").string(), x = (tmp / "x.npy").string(), y = (tmp / "y.npy").string(),
                    tie = (tmp / "tie.npy").string();
  REQUIRE(write_npy(x, HostTensor{DType::F64, Shape::of({2, 6}), iota(12)}).ok());
  REQUIRE(write_npy(y, HostTensor{DType::F64, Shape::of({3}), {0, 2, 1}}).ok());
  REQUIRE(write_npy(tie, HostTensor{DType::F64, Shape::of({3}), {1, 1, 0}}).ok());

  // numpy: argmax(exp([0, 2, 1])) = 1, so the shape is [1 + 2, -1] = [3, 4]: x.reshape(3, 4).
  const Npy f64 = run_npy({"run", model, "--input", x, "--input", y, "--precision", "f64"}, tmp / "f64.npy");
  CHECK(f64.shape == std::vector<int64_t>{3, 4});
  CHECK(f64.values == iota(12));
  // numpy: argmax(exp([1, 1, 0])) = 0 (the first of a tie): [2, 6].
  const Npy first = run_npy({"run", model, "--input", x, "--input", tie, "--precision", "f64"}, tmp / "first.npy");
  CHECK(first.shape == std::vector<int64_t>{2, 6});
  // The fast path and the f32 oracle plan the same sizes.
  CHECK(run_npy({"run", model, "--input", x, "--input", y, "--engine", "fast"}, tmp / "fast.npy").shape ==
        std::vector<int64_t>{3, 4});

  for (const std::string engine : {"f32", "fast"}) {
    Run judged = nnref_cli({"conform", model, "--input", x, "--input", y, "--engine", engine});
    INFO(engine << ": " << judged.out << judged.err);
    CHECK(judged.code == 0);
    CHECK(has(judged.out, "Z: 12 elements, 0 outside the f32 envelope"));
  }

  // check proves shapes for every input value only where sizes come from extents.
  Run checked = nnref_cli({"check", model});
  INFO(checked.err);
  CHECK(checked.code == 1);
  CHECK(has(checked.err, "error[shape.data-dependent-size]"));
  CHECK(has(checked.err, "node 'r' (reshape): reshape: a computed size is element 0 of 'shape' (input 1), a value "
                         "computed from the data of the graph's inputs; check proves shapes only for sizes computed "
                         "from extents"));

  // exp(1) is an interval of some width: ArgMax of [exp(1), exp(1), 1] is undetermined.
  Run undetermined = nnref_cli({"run", model, "--input", x, "--input", tie, "--precision", "interval"});
  INFO(undetermined.err);
  CHECK(undetermined.code == 1);
  CHECK(has(undetermined.err, "error[run.size-undetermined]"));
  CHECK(has(undetermined.err, "nnref does not guess a size"));
  // Separated enclosures decide it.
  CHECK(run_npy({"run", model, "--input", x, "--input", y, "--precision", "interval"}, tmp / "iv.npy").shape ==
        std::vector<int64_t>{3, 4});
  // conform on the tie: the envelope cannot say which shape a correct answer has, so the correct
  // [2, 6] answer (and any other) is inconclusive (exit 3), never rejected; JSON says why.
  for (const std::string format : {"text", "json"}) {
    Run judged = nnref_cli({"conform", model, "--input", x, "--input", tie, "--actual", (tmp / "first.npy").string(),
                            "--format", format});
    INFO(judged.out << judged.err);
    CHECK(judged.code == 3);
    CHECK(has(judged.err, "error[run.size-undetermined]"));
    CHECK(has(judged.out, "inconclusive"));
    if (format == "json") CHECK(has(judged.out, "\"undetermined_size\""));
  }
}

TEST_CASE("data sizes: a Reshape to an integer graph input, and sizes that are no shape") {
  TempDir tmp("data_sizes_input");
  write_input_reshape(tmp / "m.onnx");
  const std::string model = (tmp / "m.onnx").string(), x = (tmp / "x.npy").string();
  REQUIRE(write_npy(x, HostTensor{DType::F64, Shape::of({2, 6}), iota(12)}).ok());
  const auto shape = [&](std::vector<double> s) {
    const std::string p = (tmp / "s.npy").string();
    REQUIRE(write_npy(p, HostTensor{DType::I64, Shape::of({2}), std::move(s)}).ok());
    return p;
  };
  // numpy: x.reshape(4, 3), and x.reshape(-1, 2) = [6, 2].
  CHECK(run_npy({"run", model, "--input", x, "--input", shape({4, 3})}, tmp / "a.npy").shape ==
        std::vector<int64_t>{4, 3});
  CHECK(run_npy({"run", model, "--input", x, "--input", shape({-1, 2})}, tmp / "b.npy").shape ==
        std::vector<int64_t>{6, 2});
  // 5 · 3 is not 12: the reshape's own located error, as for a constant shape.
  Run wrong = nnref_cli({"run", model, "--input", x, "--input", shape({5, 3})});
  CHECK(wrong.code == 1);
  CHECK(has(wrong.err, "error[shape.reshape."));
  CHECK(has(wrong.err, "'r'"));
  Run checked = nnref_cli({"check", model});
  CHECK(checked.code == 1);
  CHECK(has(checked.err, "error[shape.data-dependent-size]"));
}

// Range(1, L, 2) with L an int64 graph input (a scalar): numpy's arange(1, L, 2), [1, 3, 5] for
// L = 6 and [1] for L = 2; L = 1 leaves no element (shape.range.empty, as for a constant limit).
TEST_CASE("data sizes: an integer Range whose limit is a graph input") {
  TempDir tmp("data_sizes_range");
  OnnxModel m;
  m.input("L", {}, onnx::TensorProto::INT64);
  ints_of(m, "one", {}, {1});
  ints_of(m, "two", {}, {2});
  m.node("Range", {"one", "L", "two"}, {"Y"}, "range");
  m.output("Y");
  m.write(tmp / "m.onnx");
  const std::string model = (tmp / "m.onnx").string();
  const auto limit = [&](double l) {
    const std::string p = (tmp / "l.npy").string();
    REQUIRE(write_npy(p, HostTensor{DType::I64, Shape::of({}), {l}}).ok());
    return p;
  };
  const Npy six = run_npy({"run", model, "--input", limit(6)}, tmp / "six.npy");
  CHECK(six.shape == std::vector<int64_t>{3});
  CHECK(six.values == std::vector<double>{1, 3, 5});
  CHECK(run_npy({"run", model, "--input", limit(2)}, tmp / "two.npy").values == std::vector<double>{1});
  Run empty = nnref_cli({"run", model, "--input", limit(1)});
  CHECK(empty.code == 1);
  CHECK(has(empty.err, "error[shape.range.empty]"));
  Run checked = nnref_cli({"check", model});
  CHECK(checked.code == 1);
  CHECK(has(checked.err, "error[shape.data-dependent-size]"));
}
