// NNL messages in the model's own terms: per-sample axes, layers left out of the connections,
// parameter names as the reference writes them, "did you mean", follow-on errors after their
// cause, and operands named by the layers that feed them.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "checker/check_model.hpp"
#include "formats/tensor_files/npy.hpp"
#include "nnl_test_support.hpp"
#include "semantics/evaluate.hpp"
#include "semantics/spelling.hpp"
#include "semantics/wellformed.hpp"
#include "spec/rules/axes.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

// The errors and warnings of the concrete walk over the declared sizes (parameters bound when
// the model has weights).
std::vector<Diagnostic> walk(const Model& m, bool bind) {
  return check_concrete(m.graph, bind ? &m.payload : nullptr, m.param_keys, 8, int64_t{1} << 40).diagnostics;
}

const Diagnostic& only(const std::vector<Diagnostic>& diags, const std::string& code) {
  const Diagnostic* found = nullptr;
  int count = 0;
  for (const auto& d : diags)
    if (d.code == code) {
      found = &d;
      ++count;
    }
  INFO("code " << code);
  REQUIRE(count == 1);
  return *found;
}

bool has_note(const Diagnostic& d, const std::string& note) {
  for (const auto& n : d.notes)
    if (n == note) return true;
  return false;
}

struct At {
  std::string code;
  int line, column;
};

// The position of the diagnostic in the list (-1 when absent).
long position(const LoadResult& r, const At& at) {
  for (size_t i = 0; i < r.diagnostics.size(); ++i)
    if (r.diagnostics[i].code == at.code && r.diagnostics[i].loc.line == at.line &&
        r.diagnostics[i].loc.column == at.column)
      return static_cast<long>(i);
  return -1;
}

// The near miss `cause` suggests `meant`, and the error it causes, `effect`, is listed after it
// (wherever each is in the text).
void near_miss(const LoadResult& r, const At& cause, const std::string& meant, const At& effect) {
  INFO(dump(r));
  const long c = position(r, cause), e = position(r, effect);
  REQUIRE(c >= 0);
  REQUIRE(e >= 0);
  CHECK(has_note(r.diagnostics[static_cast<size_t>(c)], "did you mean '" + meant + "'?"));
  CHECK(c < e);
}

Result<CheckReport> check_batches(const Model& m, int64_t max_batch) {
  CheckSettings s;
  s.dims.push_back(DimRange{"batch", 1, max_batch});
  s.size_names = m.size_names;
  return check_model(m.graph, m.payload, m.param_keys, s);
}

void save(const std::filesystem::path& path, std::vector<int64_t> dims) {
  HostTensor t{DType::F32, Shape::make(std::move(dims)).value(), {}};
  t.values.assign(static_cast<size_t>(t.shape.count()), 0.5);
  REQUIRE(write_npy(path.string(), t));
}

// A model file in `dir` whose weights are the directory `dir/w`.
Model load_with_weights(const test::TempDir& dir, const std::string& body) {
  const auto path = dir / "m.nnl";
  std::ofstream(path) << wrap(body);
  LoadResult r = load_nnl_file(path.string(), LoadOptions{});
  return ok_model(r);
}

}  // namespace

// ---------------------------------------------------------------- 1. per-sample axes

TEST_CASE("nnl: axes count the per-sample shape, the batch axis is not addressable", "[nnl][axes]") {
  SECTION("the axis domain: -r..r-1 of the per-sample rank r, as tensor axes past the batch axis") {
    const AxisDomain per_sample(Dims<CDim>{CDim(1), CDim(16), CDim(16), CDim(4)}, 1);
    CHECK(per_sample.counted() == 3);
    CHECK(per_sample.per_sample == "[16, 16, 4]");
    CHECK(normalize_axis(-3, per_sample) == 1);
    CHECK(normalize_axis(-1, per_sample) == 3);
    CHECK(normalize_axis(0, per_sample) == 1);
    CHECK(normalize_axis(2, per_sample) == 3);
    CHECK(normalize_axis(-4, per_sample) == -1);
    CHECK(normalize_axis(3, per_sample) == -1);
    CHECK(normalize_axis(-4, AxisDomain(4)) == 0);  // a format that names every axis
    CHECK(normalize_axis(0, AxisDomain(Dims<CDim>{CDim(1)}, 1)) == -1);  // nothing per sample
  }
  SECTION("Softmax(axis: -4) and Softmax(axis: 5) on [16, 16, 4] are errors, said per sample") {
    for (const char* axis : {"-4", "5", "3"}) {
      const Model m = ok_model(one_layer(std::string("Softmax(axis: ") + axis + ")", "[16, 16, 4]"));
      const auto diags = walk(m, false);
      const Diagnostic& d = only(diags, "shape.axis.out-of-range");
      CHECK(d.message == std::string("node 'x' (softmax): softmax: axis ") + axis +
                             " is out of range: the input has per-sample axes -3..2 (per-sample shape [16, 16, 4])");
      CHECK(d.loc.line == 5);
      CHECK(d.loc.column == 7);
    }
    for (const char* axis : {"-3", "2"}) CHECK(walk(ok_model(one_layer(std::string("Softmax(axis: ") + axis + ")",
                                                                       "[16, 16, 4]")),
                                                    false)
                                                   .empty());
  }
  SECTION("Concat(axis: -4) is an error, also for the checker at every batch size") {
    const Model m = ok_model(parse(wrap("layer a = Input(shape: [16, 16, 4]);\nlayer b = Input(shape: [16, 16, 4]);\n"
                                        "layer c = Concat(axis: -4);\nconnections { [a, b] -> c; }\n")));
    const std::string want =
        "node 'c' (concat): concat: axis -4 is out of range: the input has per-sample axes -3..2 (per-sample shape "
        "[16, 16, 4])";
    CHECK(only(walk(m, false), "shape.axis.out-of-range").message == want);
    auto report = check_batches(m, 4);
    REQUIRE(report);
    CHECK(only(report->diagnostics, "shape.axis.out-of-range").message == want);
    CHECK(report->counts.refuted >= 1);
  }
  SECTION("run: Softmax(axis: 0) normalises over per-sample axis 0, separately for each sample") {
    const Model m = ok_model(parse(wrap("layer input = Input(shape: [2, 3]);\nlayer sm = Softmax(axis: 0);\n",
                                        "weights: \"w\"; batch: 2;")));
    std::vector<double> x = {0, 1, 2, 3, 4, 5, -1, 0, 1, 0.5, 0.25, 0.125};
    auto y = evaluate<double>(m.graph, m.payload, {HostTensor{DType::F64, Shape::of({2, 2, 3}), x}}, EvalOptions{});
    REQUIRE(y);
    REQUIRE((*y)[0].shape() == Shape::of({2, 2, 3}));
    for (int b = 0; b < 2; ++b)
      for (int j = 0; j < 3; ++j) {
        const double e0 = std::exp(x[static_cast<size_t>(b * 6 + j)]);
        const double e1 = std::exp(x[static_cast<size_t>(b * 6 + 3 + j)]);
        CHECK((*y)[0][b * 6 + j] == Approx(e0 / (e0 + e1)).epsilon(1e-15));
        CHECK((*y)[0][b * 6 + 3 + j] == Approx(e1 / (e0 + e1)).epsilon(1e-15));
      }
  }
  SECTION("run: Concat(axis: 0) joins per-sample axis 0; the batch stays 1") {
    const Model m = ok_model(parse(wrap("layer a = Input(shape: [1, 2]);\nlayer b = Input(shape: [2, 2]);\n"
                                        "layer c = Concat(axis: 0);\nconnections { [a, b] -> c; }\n")));
    auto y = evaluate<double>(m.graph, m.payload,
                              {HostTensor{DType::F64, Shape::of({1, 1, 2}), {1, 2}},
                               HostTensor{DType::F64, Shape::of({1, 2, 2}), {3, 4, 5, 6}}},
                              EvalOptions{});
    REQUIRE(y);
    CHECK((*y)[0].shape() == Shape::of({1, 3, 2}));
    const auto data = (*y)[0].data();
    CHECK(std::vector<double>(data.begin(), data.end()) == std::vector<double>{1, 2, 3, 4, 5, 6});
  }
}

// ---------------------------------------------------------------- 2. layers left out

TEST_CASE("nnl: a layer no layer reads is warned about as an extra output", "[nnl][connections]") {
  LoadResult r = parse(wrap("layer input = Input(shape: [4]);\nlayer fc1 = ReLU();\nlayer fc3 = Sigmoid();\n"
                            "layer out = ReLU();\nconnections { input -> fc1; input -> fc3; fc1 -> out; }\n"));
  const Model m = ok_model(r);
  REQUIRE(r.diagnostics.size() == 1);
  const Diagnostic& w = r.diagnostics[0];
  CHECK(w.severity == Severity::Warning);
  CHECK(w.code == "nnl.graph.extra-output");
  CHECK(w.message == "layer 'fc3' is not connected to anything: no layer reads it, so it becomes a model output "
                     "besides 'out'");
  CHECK(w.loc.line == 6);
  CHECK(w.loc.column == 7);
  CHECK(w.node == "fc3");
  // It stays an output (in declaration order), as before.
  REQUIRE(m.graph.outputs.size() == 2);
  CHECK(m.graph.outputs[0].name == "fc3");
  CHECK(m.graph.outputs[1].name == "out");
  // One output, the last layer, whether or not the connections are explicit: no warning.
  CHECK(parse(wrap("layer input = Input(shape: [4]);\nlayer a = ReLU();\nlayer b = ReLU();\n")).diagnostics.empty());
  CHECK(parse(wrap("layer input = Input(shape: [4]);\nlayer a = ReLU();\nlayer b = ReLU();\n"
                   "connections { input -> a; input -> b; [a, b] -> s; }\nlayer s = Add();\n"))
            .diagnostics.empty());
}

// ---------------------------------------------------------------- 3. parameter names

TEST_CASE("nnl: parameters are named as the reference writes them, lookalikes paired", "[nnl][weights]") {
  test::TempDir dir("nnl_param_names");
  std::filesystem::create_directories(dir / "w");
  save(dir / "w" / "bn.gamma.npy", {4});
  save(dir / "w" / "bn.beta.npy", {4});
  save(dir / "w" / "bn.running_mean.npy", {4});
  save(dir / "w" / "bn_var.npy", {4});
  const Model m = load_with_weights(dir, "layer input = Input(shape: [4]);\nlayer bn = BatchNorm();\n");
  const std::string var_file = (dir / "w" / "bn_var.npy").string();
  const std::string missing =
      "parameter bn.running_var of shape [4] is missing from the weights; did you mean bn.running_var for bn_var "
      "(which no layer uses)?";
  const std::string unused = "parameter bn_var (" + var_file +
                             ") is not used by any layer; did you mean bn.running_var for bn_var?";
  SECTION("check over the declared sizes") {
    const auto diags = walk(m, true);
    CHECK(only(diags, "bind.missing").message == "node 'bn' (batch_normalization): " + missing);
    CHECK(only(diags, "bind.unused").message == unused);
  }
  SECTION("the checker") {
    auto report = check_batches(m, 8);
    REQUIRE(report);
    CHECK(only(report->diagnostics, "bind.missing").message == "node 'bn' (batch_normalization): " + missing);
    CHECK(only(report->diagnostics, "bind.unused").message == unused);
  }
  SECTION("run, given the model's names") {
    auto y = evaluate<double>(m.graph, m.payload, {HostTensor{DType::F64, Shape::of({1, 4}), {1, 2, 3, 4}}},
                              EvalOptions{int64_t{1} << 30, m.param_keys});
    REQUIRE_FALSE(y);
    CHECK(y.error().message == "node 'bn' (batch_normalization): " + missing);
  }
}

TEST_CASE("nnl: pairing lookalikes is bounded when every weight is misnamed", "[nnl][weights]") {
  constexpr int kLayers = 400;
  std::string body;
  for (int k = 0; k < kLayers; ++k)
    body += "layer i" + std::to_string(k) + " = Input(shape: [1]);\nlayer d" + std::to_string(k) +
            " = Dense(units: 1);\n";
  Model m = ok_model(parse(wrap(body)));
  for (int k = 0; k < kLayers; ++k)
    for (const char* suffix : {"_w", "_b"})
      m.payload.set("d" + std::to_string(k) + suffix, "", ParamEntry{HostTensor{DType::F64, Shape::of({1}), {0}}, "t"});
  const auto diags = walk(m, true);
  // One error per layer (the bias's failure is a note of the weight's); one warning per entry.
  size_t missing = 0, unused = 0, paired_missing = 0, paired_unused = 0;
  const auto paired = [](const std::string& text) { return text.find("did you mean") != std::string::npos; };
  for (const auto& d : diags) {
    if (d.code == "bind.missing") {
      ++missing;
      paired_missing += paired(d.message);
      for (const auto& n : d.notes) paired_missing += paired(n);
    }
    if (d.code == "bind.unused") ++unused, paired_unused += paired(d.message);
  }
  CHECK(missing == kLayers);
  CHECK(unused == 2 * kLayers);
  CHECK(paired_missing == kMaxLookalikeSearches);
  CHECK(paired_unused == kMaxLookalikeSearches);
  CHECK(diags[0].message == "node 'd0' (linear): parameter d0.weight of shape [1, 1] is missing from the weights; did "
                            "you mean d0.weight for d0_w (which no layer uses)?");
}

TEST_CASE("nnl: a weight saved in another layout gets a hint", "[nnl][weights]") {
  test::TempDir dir("nnl_layout_hint");
  std::filesystem::create_directories(dir / "w");
  save(dir / "w" / "fc.weight.npy", {3, 4});  // [units, in]: PyTorch's nn.Linear layout
  save(dir / "w" / "fc.bias.npy", {3});
  save(dir / "w" / "conv.weight.npy", {3, 3, 1, 2});  // [kH, kW, in, filters]: TensorFlow's layout
  save(dir / "w" / "conv.bias.npy", {2});
  save(dir / "w" / "fc2.weight.npy", {4, 5});  // simply wrong: no hint
  save(dir / "w" / "fc2.bias.npy", {3});
  const Model m = load_with_weights(dir,
                                    "layer v = Input(shape: [4]);\nlayer fc = Dense(units: 3);\n"
                                    "layer img = Input(shape: [5, 5, 1]);\n"
                                    "layer conv = Conv2D(filters: 2, kernel: 3);\n"
                                    "layer u = Input(shape: [4]);\nlayer fc2 = Dense(units: 3);\n");
  const auto diags = walk(m, true);
  std::vector<std::string> messages;
  for (const auto& d : diags)
    if (d.code == "bind.shape-mismatch") messages.push_back(d.message);
  CHECK(messages == std::vector<std::string>{
                        "node 'fc' (linear): parameter fc.weight (" + (dir / "w" / "fc.weight.npy").string() +
                            ") has shape [3, 4], but the layer needs [4, 3]; transposed? it holds the layer's extents "
                            "in reverse order",
                        "node 'conv' (conv): parameter conv.weight (" + (dir / "w" / "conv.weight.npy").string() +
                            ") has shape [3, 3, 1, 2], but the layer needs [2, 1, 3, 3]; another weight layout? it "
                            "holds the layer's extents in another order",
                        "node 'fc2' (linear): parameter fc2.weight (" + (dir / "w" / "fc2.weight.npy").string() +
                            ") has shape [4, 5], but the layer needs [4, 3]"});
}

TEST_CASE("spelling: edit distance, near misses, lookalike parameters", "[nnl][spelling]") {
  CHECK(edit_distance("weigths", "weights") == 1);  // a swap of adjacent letters is one edit
  CHECK(edit_distance("Relu", "ReLU") == 0);        // case is ignored
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);
  const std::vector<std::string> keys = {"precision", "weights", "batch", "io"};
  CHECK(closest_spelling("weigths", keys) == "weights");
  CHECK(closest_spelling("btch", keys) == "batch");
  CHECK(closest_spelling("weights", keys) == std::nullopt);  // an exact match is no suggestion
  CHECK(closest_spelling("target", keys) == std::nullopt);
  CHECK(params_look_alike("bn.running_var", "bn_var"));
  CHECK(params_look_alike("fc1.weight", "fc1.wieght"));
  CHECK(params_look_alike("fc1.weight", "fc1_w"));
  CHECK_FALSE(params_look_alike("bn.beta", "bn_gamma"));
  CHECK_FALSE(params_look_alike("fc1.weight", "conv2.bias"));
  CHECK(lookalike_param("bn.running_var", {"bn_mean", "bn_var"}) == "bn_var");
  CHECK(lookalike_param("bn.running_var", {"fc.kernel"}) == std::nullopt);
}

// ---------------------------------------------------------------- 4. did you mean, BOM, order

TEST_CASE("nnl: near misses get 'did you mean', and the errors they cause follow them", "[nnl]") {
  SECTION("a config key: the missing 'weights' error comes after the misspelt key") {
    near_miss(parse(wrap("layer input = Input(shape: [4]);\n", "weigths: \"w\";")),
              {"nnl.config.unknown-key", 3, 10}, "weights", {"nnl.config.weights-missing", 3, 1});
  }
  SECTION("a layer parameter: the missing 'units' error comes after the misspelt 'unit'") {
    near_miss(one_layer("Dense(unit: 3)", "[4]"), {"nnl.param.unknown", 5, 17}, "units", {"nnl.param.missing", 5, 11});
    CHECK(find_diag(one_layer("ReLU(alpha: 0.1)"), "nnl.param.unknown", 5, 16)->notes.empty());
  }
  SECTION("a connection name, into or out of a layer: its unreachable layer's error follows") {
    near_miss(parse(wrap("layer input = Input(shape: [4]);\nlayer dense1 = ReLU();\n"
                         "connections { input -> dens1; }\n")),
              {"nnl.connection.unknown-layer", 6, 24}, "dense1", {"nnl.graph.unreachable", 5, 7});
    near_miss(parse(wrap("layer input = Input(shape: [4]);\nlayer a = ReLU();\nconnections { inptu -> a; }\n")),
              {"nnl.connection.unknown-layer", 6, 15}, "input", {"nnl.graph.unreachable", 5, 7});
  }
  SECTION("a layer type") {
    CHECK(has_note(*find_diag(one_layer("Conv2d(filters: 1, kernel: 1)"), "nnl.layer.unknown-type", 5, 11),
                   "did you mean 'Conv2D'?"));
    CHECK(has_note(*find_diag(one_layer("Dens(units: 1)", "[4]"), "nnl.layer.unknown-type", 5, 11),
                   "did you mean 'Dense'?"));
  }
}

TEST_CASE("nnl: a UTF-8 byte-order mark at the start is accepted", "[nnl]") {
  const std::string bom = "\xEF\xBB\xBF";
  LoadResult r = parse(bom + wrap("layer input = Input(shape: [4]);\nlayer r = ReLU();\n"));
  CHECK(r.diagnostics.empty());
  CHECK(ok_model(r).graph.nodes.size() == 2);
  // Columns on line 1 count from after the mark.
  LoadResult v = parse(bom + "version 0.3;\nmodel m {\nconfig { weights: \"w\"; }\nlayer i = Input(shape: [1]);\n}\n");
  CHECK(has_diag(v, "nnl.version.unsupported", 1, 1));
  // Elsewhere it is no token.
  CHECK(has_diag(parse(wrap("layer input = Input(shape: [4]);\n" + bom + "\n")), "nnl.syntax.unexpected-char", 5, 1));
}

// ---------------------------------------------------------------- 5. operands named by their layers

TEST_CASE("nnl: Add and Concat mismatches name the layers that feed them", "[nnl][shapes]") {
  const std::string layers = "layer input = Input(shape: [8, 8, 2]);\nlayer conv = Conv2D(filters: 2, kernel: 3);\n";
  SECTION("Add") {
    const Model m =
        ok_model(parse(wrap(layers + "layer res = Add();\nconnections { input -> conv; [input, conv] -> res; }\n")));
    CHECK(only(walk(m, false), "shape.add_n.mismatch").message ==
          "node 'res' (add_n): add_n: 'conv' (input 1) has shape [1, 6, 6, 2], but 'input' (input 0) has shape "
          "[1, 8, 8, 2]; all inputs must have the same shape (per-sample axis 0: 6 vs 8)");
  }
  SECTION("Concat") {
    const Model m =
        ok_model(parse(wrap(layers + "layer cat = Concat();\nconnections { input -> conv; [input, conv] -> cat; }\n")));
    CHECK(only(walk(m, false), "shape.concat.extent-mismatch").message ==
          "node 'cat' (concat): concat inputs disagree on per-sample axis 0: 'input' (input 0) has extent 8, 'conv' "
          "(input 1) has 6");
  }
  SECTION("any op of the IR: broadcasting names both operands, and the ones combined so far") {
    Graph g;
    const int64_t a = g.add("a", InputAttrs{{2, 3}, ElemKind::Real});
    const int64_t b = g.add("b", InputAttrs{{4, 3}, ElemKind::Real});
    const int64_t sum = g.add("sum", BinaryAttrs{BinaryOp::Add, Broadcast::NumpyRight}, {{a, 0}, {b, 0}});
    g.outputs.push_back({"sum", {sum, 0}});
    const auto diags = check_concrete(g, nullptr, {}, 0, 0).diagnostics;
    CHECK(only(diags, "shape.broadcast.incompatible").message ==
          "node 'sum' (add): 'a' (input 0) of shape [2, 3] and 'b' (input 1) of shape [4, 3] are not broadcastable "
          "(NumPy rule): axis 0 has extents 2 and 4");
  }
}
