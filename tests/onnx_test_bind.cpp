// Graph inputs that nnref reads at load time (an Unsqueeze's axes, a Conv's weight), bound to a given
// value (LoadOptions::bound_inputs; run and conform bind them from --input): docs/onnx.md, "Inputs
// bound at load". Expected values by hand.
#include <catch2/catch.hpp>
#include <filesystem>

#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;
namespace fs = std::filesystem;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

HostTensor int64s(const std::vector<int64_t>& dims, std::vector<double> v) {
  return HostTensor{DType::I64, Shape::make(dims).value(), std::move(v)};
}

// Y = Unsqueeze(X, R): X float [2], the axes R int64 [1], both graph inputs; R is read at load
// time (the IR's unsqueeze takes its axes as an attribute).
OnnxModel unsqueeze_model() {
  OnnxModel m;
  m.input("X", {"2"});
  m.input("R", {"1"}, onnx::TensorProto::INT64);
  m.node("Unsqueeze", {"X", "R"}, {"Y"}, "unsqueeze");
  m.output("Y");
  return m;
}

// Y = Conv(X, W): X [1, 1, 2], the weight W [1, 1, 1] a graph input (a parameter: read at load).
OnnxModel conv_model() {
  OnnxModel m;
  m.input("X", {"1", "1", "2"});
  m.input("W", {"1", "1", "1"});
  m.node("Conv", {"X", "W"}, {"Y"}, "conv");
  m.output("Y");
  return m;
}

LoadResult load_bound(const fs::path& path, std::map<std::string, HostTensor> bound) {
  LoadOptions o;
  o.bound_inputs = std::move(bound);
  return load_model(path.string(), o);
}

// The output's shape, then its values.
std::pair<std::vector<int64_t>, std::vector<double>> run_bound(const fs::path& path,
                                                               std::map<std::string, HostTensor> bound,
                                                               const HostTensor& x) {
  LoadResult r = load_bound(path, std::move(bound));
  std::string diags;
  for (const auto& d : r.diagnostics) diags += format_diagnostic(d) + "\n";
  INFO(diags);
  REQUIRE(r.model);
  REQUIRE(r.model->graph.input_ids().size() == 1);  // the bound input is a constant now
  const auto y = run_f64(*r.model, {x});
  REQUIRE(y.size() == 1);
  return {y[0].shape().dims(), y[0].values()};
}

}  // namespace

TEST_CASE("onnx bind: an Unsqueeze whose axes are a graph input is refused by name, and runs with each bound value") {
  TempDir tmp("onnx_bind_unsqueeze");
  const fs::path path = tmp / "unsqueeze.onnx";
  unsqueeze_model().write(path);
  const LoadResult refused = load_model(path.string(), LoadOptions{});
  REQUIRE(find_code(refused.diagnostics, "onnx.input-not-constant"));
  CHECK(has(find_code(refused.diagnostics, "onnx.input-not-constant")->message, "'R'"));
  CHECK(refused.inputs_read_at_load == std::vector<std::string>{"R"});
  CHECK(refused.declared_inputs == std::vector<std::string>{"X", "R"});

  const HostTensor x = host({2}, {1.5, -2});
  // A new axis first: [1, 2]; last: [2, 1]; the values as they were.
  using Out = std::pair<std::vector<int64_t>, std::vector<double>>;
  CHECK(run_bound(path, {{"R", int64s({1}, {0})}}, x) == Out{{1, 2}, {1.5, -2}});
  CHECK(run_bound(path, {{"R", int64s({1}, {1})}}, x) == Out{{2, 1}, {1.5, -2}});
  CHECK(load_bound(path, {{"R", int64s({1}, {0})}}).model->bound_inputs == std::vector<std::string>{"R"});
}

TEST_CASE("onnx bind: a Conv weight given as a graph input is bound as the parameter") {
  TempDir tmp("onnx_bind_conv");
  const fs::path path = tmp / "conv.onnx";
  conv_model().write(path);
  CHECK(load_model(path.string(), LoadOptions{}).inputs_read_at_load == std::vector<std::string>{"W"});
  const HostTensor x = host({1, 1, 2}, {1, 2});
  // y = w · x at each of the two positions.
  CHECK(run_bound(path, {{"W", host({1, 1, 1}, {0.5})}}, x).second == std::vector<double>{0.5, 1});
  CHECK(run_bound(path, {{"W", host({1, 1, 1}, {-3})}}, x).second == std::vector<double>{-3, -6});
}

TEST_CASE("onnx bind: a bound value of the wrong type or shape, or one that makes the model invalid, is a located diagnostic") {
  TempDir tmp("onnx_bind_bad");
  const fs::path path = tmp / "unsqueeze.onnx";
  unsqueeze_model().write(path);
  for (const HostTensor& bad : {host({1}, {0}), int64s({2}, {0, 1})}) {  // float; two axes for one declared
    const LoadResult r = load_bound(path, {{"R", bad}});
    CHECK_FALSE(r.model);
    const Diagnostic* d = find_code(r.diagnostics, "onnx.input-bound-mismatch");
    REQUIRE(d);
    CHECK(d->loc.file == path.string());
    CHECK(has(d->message, "'R'"));
  }
  // Axis 5 of a rank-2 result does not exist: run refuses the model at its node, located.
  const std::string x = (tmp / "x.npy").string(), r = (tmp / "r.npy").string();
  REQUIRE(write_npy(x, host({2}, {1.5, -2})).ok());
  REQUIRE(write_npy(r, int64s({1}, {5})).ok());
  const Run run = nnref_cli({"run", path.string(), "--input", x, "--input", r});
  INFO(run.err);
  CHECK(run.code != 0);
  CHECK(has(run.err, path.string() + ":1"));
  CHECK(has(run.err, "error["));
}

TEST_CASE("onnx bind: run and conform bind a graph input from --input with a note, check refuses it by name") {
  TempDir tmp("onnx_bind_cli");
  const std::string model = (tmp / "unsqueeze.onnx").string(), x = (tmp / "x.npy").string(), r = (tmp / "r.npy").string(),
                    y = (tmp / "y.npy").string();
  unsqueeze_model().write(model);
  REQUIRE(write_npy(x, host({2}, {1.5, -2})).ok());
  REQUIRE(write_npy(r, int64s({1}, {1})).ok());

  const Run run = nnref_cli({"run", model, "--input", x, "--input", r, "--precision", "f64", "--output", y, "-q"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK(has(run.err, "note[onnx.input-bound]: input 'R' bound to its given value; the model is specialized to it"));
  auto out = read_npy(y);
  REQUIRE(out.ok());
  CHECK(out->shape.dims() == std::vector<int64_t>{2, 1});
  CHECK(out->values == std::vector<double>{1.5, -2});

  // By name, in either order.
  const Run named = nnref_cli({"run", model, "--input", "R=" + r, "--input", "X=" + x, "--output", y, "-q"});
  INFO(named.err);
  CHECK(named.code == 0);

  const Run conform = nnref_cli({"conform", model, "--input", x, "--input", r, "--engine", "f32"});
  INFO(conform.err);
  CHECK(conform.code == 0);
  CHECK(has(conform.err, "note[onnx.input-bound]: input 'R'"));

  const Run check = nnref_cli({"check", model});
  CHECK(check.code != 0);
  CHECK(has(check.err, "error[onnx.input-not-constant]"));
  CHECK(has(check.err, "bind graph input 'R' to the value given with --input"));
}
