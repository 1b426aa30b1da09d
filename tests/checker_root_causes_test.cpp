// One root cause per error, but no error hidden: a node whose shape rule fails is the root of the
// nodes that read it, which are not checked; a node whose binding alone fails (a parameter missing
// or of the wrong shape) is not, since its outputs are the rule's whatever the weights hold, so a
// later node's own error is still reported. Both readings: the concrete one (check_concrete, what
// run's plan checks) and the checker's (check_model), on a graph built here and on an NNL model
// through the nnref command.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "checker/check_model.hpp"
#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"
#include "semantics/wellformed.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;
namespace fs = std::filesystem;

namespace {

HostTensor filled(std::vector<int64_t> dims) {
  const Shape s = Shape::make(std::move(dims)).value();
  return HostTensor{DType::F32, s, std::vector<double>(static_cast<size_t>(s.count()), 0.5)};
}

// x [1, 4] → h (dense, 8 units) and out (dense, 2 units); sum = h + out; r = relu(sum). out's weight
// is [8, 2] where [4, 2] is needed (or absent); sum adds a [1, 8] and a [1, 2], which fails
// whatever out's weight holds.
struct Model2 {
  Graph g;
  Payload p;
  explicit Model2(bool out_weight_present) {
    const auto at = [](int line) { return SourceLoc{"m.nnl", line, 3}; };
    const int64_t x = g.add("x", InputAttrs{{1, 4}}, {}, at(1));
    const int64_t h = g.add("h", LinearAttrs{8, WeightLayout::InOut, true}, {{x, 0}}, at(2));
    const int64_t out = g.add("out", LinearAttrs{2, WeightLayout::InOut, true}, {{x, 0}}, at(3));
    const int64_t sum = g.add("sum", AddNAttrs{1}, {{h, 0}, {out, 0}}, at(4));
    const int64_t r = g.add("r", UnaryAttrs{UnaryOp::Relu, 0.0}, {{sum, 0}}, at(5));
    g.outputs = {{"r", {r, 0}}};
    p.set("h", "weight", {filled({4, 8}), "h.weight.npy"});
    p.set("h", "bias", {filled({8}), "h.bias.npy"});
    if (out_weight_present) p.set("out", "weight", {filled({8, 2}), "out.weight.npy"});
    p.set("out", "bias", {filled({2}), "out.bias.npy"});
  }
};

const std::vector<Diagnostic> errors(const std::vector<Diagnostic>& all) {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : all)
    if (d.severity == Severity::Error) out.push_back(d);
  return out;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("root causes: a failed binding does not hide a later node's error (concrete reading)") {
  for (const bool present : {true, false}) {
    INFO((present ? "out.weight [8, 2]" : "out.weight missing"));
    Model2 m(present);
    const ConcreteCheck c = check_concrete(m.g, &m.p, {}, 8, int64_t{1} << 30);
    CHECK_FALSE(c.ok());
    // Both errors, and nothing else: no warning calls out.bias unused.
    REQUIRE(c.diagnostics.size() == 2);
    CHECK(c.diagnostics[0].code == (present ? "bind.shape-mismatch" : "bind.missing"));
    CHECK(c.diagnostics[0].node == "out");
    CHECK(c.diagnostics[0].loc.line == 3);
    // out's dependents were checked: no skip note on it.
    for (const std::string& note : c.diagnostics[0].notes) CHECK_FALSE(has(note, "not checked"));
    CHECK(c.diagnostics[1].code == "shape.add_n.mismatch");
    CHECK(c.diagnostics[1].node == "sum");
    CHECK(c.diagnostics[1].loc.line == 4);
    // sum's rule failed, so r, which reads it, is not checked, and the note counts it.
    REQUIRE_FALSE(c.diagnostics[1].notes.empty());
    CHECK(c.diagnostics[1].notes.back() == "1 later node not checked: it depends on 'sum'");
    // check_graph, which every engine runs, returns the first.
    auto first = check_graph(m.g, m.p, 8, int64_t{1} << 30);
    REQUIRE_FALSE(first);
    CHECK(first.error().node == "out");
  }
}

TEST_CASE("root causes: a failed binding does not hide a later node's error (checker)") {
  for (const bool present : {true, false}) {
    INFO((present ? "out.weight [8, 2]" : "out.weight missing"));
    Model2 m(present);
    auto report = check_model(m.g, m.p, {}, CheckSettings{});
    REQUIRE(report);
    const auto e = errors(report->diagnostics);
    REQUIRE(e.size() == 2);
    CHECK(e[0].code == (present ? "bind.shape-mismatch" : "bind.missing"));
    CHECK(e[0].node == "out");
    for (const std::string& note : e[0].notes) CHECK_FALSE(has(note, "not checked"));
    CHECK(e[1].code == "shape.add_n.mismatch");
    CHECK(e[1].node == "sum");
    REQUIRE_FALSE(e[1].notes.empty());
    CHECK(e[1].notes.back() == "1 later node not checked: it depends on 'sum'");
    CHECK(report->diagnostics.size() == 2);  // no bind.unused warning
    CHECK(report->counts.refuted == 2);
  }
}

TEST_CASE("root causes: check and run on an NNL model whose Dense weight is wrong and whose Add is too") {
  TempDir tmp("root_causes_nnl");
  write_text(tmp / "m.nnl", R"(version 0.2;
model twoerrors {
  config { weights: "./weights"; }
  layer input = Input(shape: [4]);
  layer h = Dense(units: 8);
  layer out = Dense(units: 2);
  layer sum = Add();
  connections {
    input -> h;
    input -> out;
    [h, out] -> sum;
  }
}
)");
  fs::create_directories(tmp / "weights");
  for (const auto& [name, dims] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"h.weight", {4, 8}}, {"h.bias", {8}}, {"out.weight", {8, 2}}, {"out.bias", {2}}})
    REQUIRE(write_npy((tmp / "weights" / (name + ".npy")).string(), filled(dims)).ok());
  const std::string model = (tmp / "m.nnl").string();

  Run text = nnref_cli({"check", model});
  INFO(text.err);
  CHECK(text.code == 1);
  CHECK(has(text.err, model + ":6:9: error[bind.shape-mismatch]: node 'out' (linear): parameter out.weight"));
  CHECK(has(text.err, "has shape [8, 2], but the layer needs [4, 2]"));
  CHECK(has(text.err, model + ":7:9: error[shape.add_n.mismatch]: node 'sum' (add_n)"));
  CHECK_FALSE(has(text.err, "not checked"));
  CHECK(has(text.out, "2 refuted"));

  Run json = nnref_cli({"check", model, "--format", "json"});
  const auto j = nlohmann::json::parse(json.out);
  REQUIRE(j["diagnostics"].size() == 2);
  CHECK(j["diagnostics"][0]["code"] == "bind.shape-mismatch");
  CHECK(j["diagnostics"][0]["node"] == "out");
  CHECK(j["diagnostics"][1]["code"] == "shape.add_n.mismatch");
  CHECK(j["diagnostics"][1]["node"] == "sum");

  // run stops at the plan's first error (docs/cli.md): the binding, before anything is evaluated.
  REQUIRE(write_npy((tmp / "x.npy").string(), filled({1, 4})).ok());
  Run run = nnref_cli({"run", model, "--input", (tmp / "x.npy").string()});
  CHECK(run.code == 1);
  CHECK(has(run.err, "error[bind.shape-mismatch]: node 'out' (linear)"));
}
