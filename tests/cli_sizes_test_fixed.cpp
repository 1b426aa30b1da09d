// Sizes fixed at load (docs/architecture.md): a Loop whose trip count is Shape(X)[0] needs T as a
// number when the model is read. run reads it at the input's sizes; check proves it by enumeration
// over T's --dim range (N symbolic), reports the first failing T, and refuses past 4096 readings.
#include <catch2/catch.hpp>
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

// X [T, N]; s ← s + X[i] for i < Shape(X)[0], from s = 0·X[0]: Y the last s, S the stacked s. With
// `reshaped`, S is read as Reshape(S, [2, -1]) too, which needs T·N even.
void write_running_sum(const fs::path& path, bool reshaped) {
  OnnxModel m(13);
  m.input("X", {"T", "N"});
  m.init("zero_f", {}, {0});
  ints_of(m, "zero", {}, {0});
  m.node("Shape", {"X"}, {"shape"});
  m.node("Gather", {"shape", "zero"}, {"M"});
  m.node("Gather", {"X", "zero"}, {"x0"});
  m.node("Mul", {"x0", "zero_f"}, {"s0"});
  onnx::NodeProto& loop = m.node("Loop", {"M", "", "s0"}, {"Y", "S"}, "loop");
  onnx::AttributeProto* a = loop.add_attribute();
  a->set_name("body");
  a->set_type(onnx::AttributeProto::GRAPH);
  onnx::GraphProto& g = *a->mutable_g();
  for (const char* in : {"i", "c", "s"}) g.add_input()->set_name(in);
  body_node(g, "Gather", {"X", "i"}, "x_i");
  body_node(g, "Add", {"s", "x_i"}, "s_out");
  body_node(g, "Identity", {"c"}, "c_out");
  body_node(g, "Identity", {"s_out"}, "scan");
  for (const char* out : {"c_out", "s_out", "scan"}) g.add_output()->set_name(out);
  m.output("Y");
  m.output("S");
  if (reshaped) {
    m.ints("halves", {2, -1});
    m.node("Reshape", {"S", "halves"}, {"R"});
    m.output("R");
  }
  m.write(path);
}

// An RNN over X = Transpose(MaxPool(x, kernel, stride)), x [1, 2, K]: X's sequence extent is
// ⌊(K − kernel)/stride⌋ + 1.
void write_pooled_rnn(const fs::path& path, int64_t kernel, int64_t stride) {
  OnnxModel m(14);
  m.input("x", {"1", "2", "K"});
  onnx::NodeProto& pool = m.node("MaxPool", {"x"}, {"pooled"});
  set_ints(pool, "kernel_shape", {kernel});
  set_ints(pool, "strides", {stride});
  set_ints(m.node("Transpose", {"pooled"}, {"X"}), "perm", {2, 0, 1});
  m.init("W", {1, 2, 2}, {0.5f, -0.25f, 0.125f, 1});
  m.init("R", {1, 2, 2}, {0.25f, 0.5f, -0.5f, 0.25f});
  m.node("RNN", {"X", "W", "R"}, {"Y"});
  m.output("Y");
  m.write(path);
}

}  // namespace

TEST_CASE("sizes fixed at load: run reads a Loop over Shape(X)[0] at the input's sizes") {
  TempDir tmp("sizes_fixed_run");
  const std::string model = (tmp / "sum.onnx").string(), x = (tmp / "x.npy").string();
  write_running_sum(model, false);
  REQUIRE(write_npy(x, HostTensor{DType::F64, Shape::make({3, 2}).value(), {1, 2, 3, 4, 5, 6}}).ok());
  const std::string y = (tmp / "y.npz").string();
  const Run r = nnref_cli({"run", model, "--input", x, "--precision", "f64", "--output", y, "--quiet"});
  INFO(r.out + r.err);
  REQUIRE(r.code == 0);
  CHECK(has(r.err, "note[onnx.sizes-fixed]: the model is read at the sizes the inputs (or --dim) give, T = 3, N = 2"));
  auto out = read_npz(y);
  REQUIRE(out);
  REQUIRE(out->size() == 2);
  // s = [1, 2], [4, 6], [9, 12].
  CHECK((*out)[0].second.values == std::vector<double>{9, 12});
  CHECK((*out)[1].second.shape.dims() == std::vector<int64_t>{3, 2});
  CHECK((*out)[1].second.values == std::vector<double>{1, 2, 4, 6, 9, 12});
  // --dim of a size the arrays fixed must agree with them.
  CHECK(nnref_cli({"run", model, "--input", x, "--dim", "T=3", "--quiet"}).code == 0);
  const Run conflict = nnref_cli({"run", model, "--input", x, "--dim", "T=4", "--quiet"});
  CHECK(conflict.code == 2);
  CHECK(has(conflict.err, "error[input.size-conflict]: --dim T=4, but the model is read at T = 3"));
  // Without arrays, inspect's --dim gives the sizes needed: the Loop unrolled 4 times, S [4, 2].
  const Run inspect = nnref_cli({"inspect", model, "--dim", "T=4", "--dim", "N=2"});
  INFO(inspect.out + inspect.err);
  CHECK(inspect.code == 0);
  CHECK(has(inspect.out, "[4, 2]"));
  CHECK(has(inspect.out, "loop/3/"));
}

TEST_CASE("sizes fixed at load: check proves each T of the range with N symbolic, or names the first failing T") {
  TempDir tmp("sizes_fixed_check");
  const std::string model = (tmp / "sum.onnx").string(), reshaped = (tmp / "reshaped.onnx").string();
  write_running_sum(model, false);
  write_running_sum(reshaped, true);
  const Run proved = nnref_cli({"check", model, "--dim", "T=1..8", "--dim", "N=1..16"});
  INFO(proved.out + proved.err);
  CHECK(proved.code == 0);
  CHECK(has(proved.out, "by enumeration: 8 instantiations, the model read with each value of T = 1..8 (N symbolic)"));

  // Reshape(S, [2, -1]) needs T·N even: T = 2 holds for every N, T = 3 fails at N = 1.
  const Run refuted = nnref_cli({"check", reshaped, "--dim", "T=2..8", "--dim", "N=1..16"});
  INFO(refuted.out + refuted.err);
  CHECK(refuted.code == 1);
  CHECK(has(refuted.err, "error[shape.reshape.count-indivisible]"));
  CHECK(has(refuted.err, "counterexample: N = 1"));
  CHECK(has(refuted.err, "note: at T = 3: the model was read with this value (a proof by enumeration)"));
  CHECK(has(refuted.out, "by enumeration: first failing at T = 3 (instantiation 2;"));
  const Run json = nnref_cli({"check", reshaped, "--dim", "T=2..8", "--dim", "N=1..16", "--format", "json"});
  const auto report = nlohmann::json::parse(json.out);
  CHECK(report["enumeration"]["instantiations"] == 2);
  CHECK(report["enumeration"]["failed_at"]["T"] == 3);
  CHECK(report["enumeration"]["dims"][0]["name"] == "T");
  CHECK(report["symbols"][0]["name"] == "N");

  const Run unranged = nnref_cli({"check", model, "--dim", "N=1..16"});
  CHECK(unranged.code == 1);
  CHECK(has(unranged.err, "error[onnx.size-needed-at-load]"));
  CHECK(has(unranged.err, "M (the trip count) depends on the size T"));

  const Run limit = nnref_cli({"check", model, "--dim", "T=1..5000", "--dim", "N=1..4"});
  CHECK(limit.code == 2);
  CHECK(has(limit.err, "error[usage.enumeration-limit]"));
}

TEST_CASE("sizes fixed at load: an extent the probes take for a number is an obligation check refutes") {
  TempDir tmp("sizes_fixed_probe");
  const std::string model = (tmp / "strided.onnx").string();
  // Kernel 1, stride 8: ⌈K/8⌉, which the importer's probes (K = 1, 2, 5) all see as 1, so it reads
  // the extent as the number 1; the reading's obligation that it is 1 for every K is refuted.
  write_pooled_rnn(model, 1, 8);
  const Run r = nnref_cli({"check", model, "--dim", "K=1..16"});
  INFO(r.out + r.err);
  CHECK(r.code == 1);
  CHECK(has(r.err, "error[shape.reshape.count-mismatch]"));
  CHECK(has(r.err, "counterexample: K = 9"));
  // Over K = 1..8 the extent is 1: proved, the RNN read for one step.
  CHECK(nnref_cli({"check", model, "--dim", "K=1..8"}).code == 0);
}

TEST_CASE("sizes fixed at load: an extent the default sizes cannot give needs every size") {
  TempDir tmp("sizes_fixed_unknown");
  const std::string model = (tmp / "pooled.onnx").string();
  // Kernel 2, stride 2 over K, read at the placeholder K = 1: the pool's rule fails there, so the
  // sequence extent ⌊K/2⌋ is not known at all, and K is needed.
  write_pooled_rnn(model, 2, 2);
  const Run r = nnref_cli({"check", model, "--dim", "K=2..16"});
  INFO(r.out + r.err);
  CHECK(r.code == 0);
  CHECK(has(r.out, "by enumeration: 15 instantiations"));
}
