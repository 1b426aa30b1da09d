// The generator and the shrinker (properties/): every model well formed for the concrete reading
// with no diagnostic at all, the same seed the same model, every op of the op list reached, the
// size limits and the allowed ops respected, the shapes a generated graph needs (fan-out,
// multi-input and multi-output ops, several outputs), and shrinking toward one node.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "properties/generate.hpp"
#include "properties/shrink.hpp"
#include "semantics/evaluate.hpp"
#include "semantics/op.hpp"
#include "semantics/wellformed.hpp"

using namespace nnref;
using namespace nnref::properties;

namespace {

constexpr uint64_t kSeed = 20261124;
constexpr int kModels = 300;

GeneratedModel generated(uint64_t seed, const GenOptions& o = {}) {
  Choices c = Choices::fresh(seed);
  auto g = generate(c, o);
  INFO("seed " << seed);
  REQUIRE(g);
  return std::move(g).value();
}

bool is_leaf(const Node& n) {
  return std::holds_alternative<InputAttrs>(n.op) || std::holds_alternative<ConstAttrs>(n.op);
}

int op_nodes(const Graph& g) {
  return static_cast<int>(std::count_if(g.nodes.begin(), g.nodes.end(), [](const Node& n) { return !is_leaf(n); }));
}

// The structure and parameters of a model as text, to compare two models exactly.
std::string fingerprint(const GeneratedModel& m) {
  std::string s;
  for (const Node& n : m.model.graph.nodes) {
    s += n.name + "=" + op_name(n.op) + "(";
    for (const ValueRef& r : n.inputs) s += std::to_string(r.node) + ":" + std::to_string(r.output) + ",";
    s += ");";
  }
  for (const GraphOutput& o : m.model.graph.outputs) s += o.name + "<-" + std::to_string(o.value.node) + ";";
  for (const auto& [key, e] : m.model.payload.entries())
    for (double v : e.tensor.values) s += key.first + "." + key.second + ":" + std::to_string(v) + ",";
  for (const HostTensor& t : m.inputs)
    for (double v : t.values) s += std::to_string(v) + ",";
  return s;
}

}  // namespace

TEST_CASE("every generated model is well formed, with no diagnostic, and evaluates to finite values") {
  for (uint64_t seed = kSeed; seed < kSeed + kModels; ++seed) {
    const GeneratedModel m = generated(seed);
    INFO("seed " << seed);
    const ConcreteCheck check = check_concrete(m.model.graph, &m.model.payload, m.model.param_keys, 8, int64_t{1} << 30);
    for (const Diagnostic& d : check.diagnostics) UNSCOPED_INFO(d.code << ": " << d.message);
    REQUIRE(check.ok());
    CHECK(check.diagnostics.empty());
    REQUIRE(m.inputs.size() == m.model.graph.input_ids().size());
    REQUIRE(!m.model.graph.outputs.empty());
    auto out = evaluate<double>(m.model.graph, m.model.payload, m.inputs, EvalOptions{});
    REQUIRE(out);
    for (const Tensor<double>& t : *out)
      for (double v : t.values()) REQUIRE((std::isfinite(v) && std::abs(v) <= 65536.0));
  }
}

TEST_CASE("the same seed gives the same model, and its recorded choices rebuild it") {
  for (uint64_t seed = kSeed; seed < kSeed + 50; ++seed) {
    const GeneratedModel a = generated(seed), b = generated(seed);
    CHECK(a.choices == b.choices);
    CHECK(fingerprint(a) == fingerprint(b));
    Choices replay = Choices::replay(a.choices);
    auto c = generate(replay, GenOptions{});
    REQUIRE(c);
    CHECK(fingerprint(*c) == fingerprint(a));
  }
  CHECK(fingerprint(generated(kSeed)) != fingerprint(generated(kSeed + 1)));
}

TEST_CASE("the generator knows every op of the op list and builds each of them") {
  std::set<std::string> expected;
  for (const std::string& name : all_op_names())
    if (name != "input" && name != "const") expected.insert(name);
  const std::vector<std::string> names = generated_op_names();
  CHECK(std::set<std::string>(names.begin(), names.end()) == expected);

  std::set<std::string> built;
  for (uint64_t seed = kSeed; seed < kSeed + kModels; ++seed)
    for (const Node& n : generated(seed).model.graph.nodes) built.insert(op_name(n.op));
  for (const std::string& name : expected) {
    INFO("op " << name);
    CHECK(built.count(name) == 1);
  }
  CHECK(built.count("input") == 1);
  CHECK(built.count("const") == 1);
}

// Over more models than the op coverage: a split is one of the many ops drawn, real in one draw of
// three, and a later output of it is read in a few of those.
TEST_CASE("generated graphs have fan-out, multi-input ops, several outputs and read several outputs of a split") {
  bool fan_out = false, multi_input = false, several_outputs = false, split_read = false;
  for (uint64_t seed = kSeed; seed < kSeed + 3 * kModels; ++seed) {
    const Graph g = generated(seed).model.graph;
    std::map<std::pair<int64_t, int>, int> readers;
    for (const Node& n : g.nodes) {
      for (const ValueRef& r : n.inputs) ++readers[{r.node, r.output}];
      std::set<int64_t> distinct;
      for (const ValueRef& r : n.inputs) distinct.insert(r.node);
      multi_input = multi_input || distinct.size() >= 2;
      split_read = split_read || std::any_of(n.inputs.begin(), n.inputs.end(), [&](const ValueRef& r) {
                     return r.output >= 1 && std::holds_alternative<SplitAttrs>(g.nodes[static_cast<size_t>(r.node)].op);
                   });
    }
    for (const auto& [value, count] : readers) fan_out = fan_out || count >= 2;
    several_outputs = several_outputs || g.outputs.size() >= 2;
  }
  CHECK(fan_out);
  CHECK(multi_input);
  CHECK(several_outputs);
  CHECK(split_read);
}

TEST_CASE("the size limits and the allowed ops of the options hold") {
  GenOptions small;
  small.max_nodes = 3;
  small.max_rank = 2;
  small.max_extent = 3;
  small.max_elements = 6;
  for (uint64_t seed = kSeed; seed < kSeed + 100; ++seed) {
    const GeneratedModel m = generated(seed, small);
    INFO("seed " << seed);
    CHECK(op_nodes(m.model.graph) <= 3);
    auto info = infer_shapes(m.model.graph);
    REQUIRE(info);
    for (const NodeInfo& n : info->nodes) {
      for (const Shape& s : n.outputs) {
        CHECK(s.count() <= 6);
        CHECK(s.rank() <= 2);
        for (int64_t d : s.dims()) CHECK(d <= 3);
      }
    }
  }
  GenOptions convs;
  convs.ops = {"conv", "relu"};
  for (uint64_t seed = kSeed; seed < kSeed + 50; ++seed) {
    const GeneratedModel m = generated(seed, convs);
    for (const Node& n : m.model.graph.nodes)
      if (!is_leaf(n)) CHECK((op_name(n.op) == "conv" || op_name(n.op) == "relu"));
  }
}

// pow with a constant whole exponent on a base of any sign: the exponent a constant whose every
// element is one k in [-3, 4], the base negative somewhere in some models, and away from 0
// (|x| >= 1/8) wherever k < 0, so that the f64 value is finite.
TEST_CASE("pow is built with a whole exponent on a base of any sign") {
  GenOptions o;
  o.ops = {"pow"};
  int whole = 0, negative_base = 0, negative_exponent = 0;
  for (uint64_t seed = kSeed; seed < kSeed + kModels; ++seed) {
    const GeneratedModel m = generated(seed, o);
    const Graph& g = m.model.graph;
    auto info = infer_shapes(g);
    REQUIRE(info);
    // Every node's f64 value, to read the bases.
    Graph all = g;
    all.outputs.clear();
    for (const Node& n : all.nodes) all.outputs.push_back({"v" + std::to_string(n.id), {n.id, 0}});
    auto values = evaluate<double>(all, m.model.payload, m.inputs, EvalOptions{});
    REQUIRE(values);
    for (const Node& n : g.nodes) {
      if (op_name(n.op) != "pow") continue;
      const Node& e = g.nodes[static_cast<size_t>(n.inputs[1].node)];
      const ParamEntry* k = std::holds_alternative<ConstAttrs>(e.op) ? m.model.payload.find(e.name, "value") : nullptr;
      if (k == nullptr || k->tensor.values.empty()) continue;
      const double v = k->tensor.values[0];
      if (v != std::floor(v) || std::any_of(k->tensor.values.begin(), k->tensor.values.end(), [&](double x) { return x != v; }))
        continue;  // a real exponent (its base is positive)
      ++whole;  // or a real exponent that happens to be whole (-4, 4): its base is positive
      const Tensor<double>& base = (*values)[static_cast<size_t>(n.inputs[0].node)];
      for (double x : base.values())
        if (v < 0) CHECK(std::abs(x) >= 0.125);
      if (std::none_of(base.values().begin(), base.values().end(), [](double x) { return x < 0; })) continue;
      ++negative_base;  // only a whole exponent has a base of any sign
      CHECK((v >= -3 && v <= 4));
      negative_exponent += v < 0;
    }
  }
  CHECK(whole >= 50);
  CHECK(negative_base >= 10);
  CHECK(negative_exponent >= 10);
}

// The LayerNorm decomposition (a composite) is added whole or not at all, in its order, its nodes
// counted against max_nodes; --ops may name it.
TEST_CASE("the LayerNorm decomposition is built whole, as PyTorch exports it before opset 17") {
  GenOptions o;
  o.ops = {"layer_norm_decomposed"};
  o.max_nodes = 9;
  const std::vector<std::string> expected = {"mean_reduce", "sub", "pow", "mean_reduce", "add", "sqrt", "div", "mul", "add"};
  int built = 0, affine = 0;
  for (uint64_t seed = kSeed; seed < kSeed + 100; ++seed) {
    const GeneratedModel m = generated(seed, o);
    std::vector<std::string> ops;
    for (const Node& n : m.model.graph.nodes)
      if (!is_leaf(n)) ops.push_back(op_name(n.op));
    INFO("seed " << seed);
    if (ops.empty()) continue;  // the composite did not fit the drawn node count, or was refused
    REQUIRE(ops.size() >= 7);
    REQUIRE(ops.size() <= 9);
    CHECK(std::equal(ops.begin(), ops.end(), expected.begin()));
    ++built;
    affine += ops.size() > 7;
    // The exponent is the constant 2 and the epsilon a positive constant of one element.
    for (const Node& n : m.model.graph.nodes) {
      if (op_name(n.op) != "pow" && !(op_name(n.op) == "add" && op_name(m.model.graph.nodes[static_cast<size_t>(n.inputs[0].node)].op) == "mean_reduce"))
        continue;
      const ParamEntry* c = m.model.payload.find(m.model.graph.nodes[static_cast<size_t>(n.inputs[1].node)].name, "value");
      REQUIRE(c != nullptr);
      REQUIRE(c->tensor.values.size() == 1);
      if (op_name(n.op) == "pow") CHECK(c->tensor.values[0] == 2.0);
      else CHECK((c->tensor.values[0] == 0x1p-10 || c->tensor.values[0] == static_cast<double>(1e-5f)));
    }
  }
  CHECK(built >= 20);
  CHECK(affine >= 5);
}

TEST_CASE("options that admit no model are errors") {
  Choices c = Choices::fresh(1);
  GenOptions unknown;
  unknown.ops = {"relu", "frobnicate"};
  auto g = generate(c, unknown);
  REQUIRE(!g);
  CHECK(g.error().code == "gen.options");
  CHECK(g.error().message.find("frobnicate") != std::string::npos);
  GenOptions none;
  none.max_nodes = 0;
  auto h = generate(c, none);
  REQUIRE(!h);
  CHECK(h.error().code == "gen.options");
}

TEST_CASE("shrinking keeps the failure and reaches a single node, deterministically") {
  const auto has_exp = [](const GeneratedModel& m) {
    return std::any_of(m.model.graph.nodes.begin(), m.model.graph.nodes.end(),
                       [](const Node& n) { return op_name(n.op) == "exp"; });
  };
  GenOptions o;
  int shrunk_models = 0;
  for (uint64_t seed = kSeed; seed < kSeed + kModels && shrunk_models < 3; ++seed) {
    const GeneratedModel m = generated(seed, o);
    if (!has_exp(m) || op_nodes(m.model.graph) < 3) continue;
    ++shrunk_models;
    const GeneratedModel s = shrink(m, o, has_exp);
    INFO("seed " << seed);
    CHECK(has_exp(s));
    CHECK(op_nodes(s.model.graph) == 1);
    CHECK(s.model.graph.nodes.size() <= 3);  // exp and its leaf, at most a second leaf
    CHECK(fingerprint(shrink(m, o, has_exp)) == fingerprint(s));
  }
  CHECK(shrunk_models == 3);
}
