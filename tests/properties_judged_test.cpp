// Every output element a correct float32 runtime can be judged on (issue 28): wherever the exact
// value of a generated model's output is finite, the float32 envelope `nnref conform` judges with
// (enclose_outputs, cli/verdict.hpp) must have both sides finite. The generator keeps every exact
// value within 2^16 and every operand of a restricted domain at a margin from its edge
// (docs/testing.md), so no correct float32 evaluation of these models overflows or leaves a domain:
// an envelope with an infinite or NaN side there has lost its bound, and `nnref conform` would
// accept any answer for that element. The models include pow with a whole exponent on a base of
// any sign and LayerNorm decomposed as PyTorch exports it before opset 17.
// This tests the envelope's arithmetic, so conform's rule that makes an envelope compounded wider
// than its values lost (CompoundedWidth, onnx_test "an envelope compounded wider ...") is off here:
// an ill-conditioned op (a division by a value near 0) gives such envelopes in small models too.
//
// Plain seeds, no rapidcheck: the test counts every element not judged over all its models and
// prints the count, the ops where the bound is first lost, and the first offending model.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/verdict.hpp"
#include "properties/generate.hpp"
#include "semantics/evaluate.hpp"
#include "semantics/op.hpp"
#include "semantics/wellformed.hpp"

using namespace nnref;
using namespace nnref::properties;

namespace {

constexpr uint64_t kSeed = 20261124;
constexpr int64_t kMemory = int64_t{1} << 30;

bool is_leaf(const Node& n) {
  return std::holds_alternative<InputAttrs>(n.op) || std::holds_alternative<ConstAttrs>(n.op);
}

std::string dims_text(const Shape& s) {
  std::string t = "[";
  for (size_t i = 0; i < s.rank(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

// The model as a list of its nodes, "n3 = pow(x0, c1) [2, 3]", and its outputs.
std::string describe(const GeneratedModel& g) {
  std::ostringstream s;
  const Graph& graph = g.model.graph;
  auto info = infer_shapes(graph);
  for (const Node& n : graph.nodes) {
    s << "  " << n.name << " = " << op_name(n.op) << "(";
    for (size_t i = 0; i < n.inputs.size(); ++i)
      s << (i ? ", " : "") << graph.nodes[static_cast<size_t>(n.inputs[i].node)].name
        << (n.inputs[i].output ? ":" + std::to_string(n.inputs[i].output) : "");
    s << ")";
    if (info) s << " " << dims_text(info->nodes[static_cast<size_t>(n.id)].outputs.at(0));
    if (std::holds_alternative<ConstAttrs>(n.op)) {
      const ParamEntry* e = g.model.payload.find(n.name, "value");
      if (e != nullptr && !e->tensor.values.empty()) s << " = " << e->tensor.values[0] << (e->tensor.values.size() > 1 ? ", ..." : "");
    }
    s << "\n";
  }
  s << "  outputs:";
  for (const GraphOutput& o : graph.outputs) s << " " << graph.nodes[static_cast<size_t>(o.value.node)].name;
  return s.str();
}

// Whether an op node is pow with a constant exponent holding one whole number, and whether the
// model holds the LayerNorm decomposition (a div by sqrt(add(mean_reduce(pow(...)), ε))).
bool whole_pow(const Graph& g, const Payload& p, const Node& n) {
  const auto* b = std::get_if<BinaryAttrs>(&n.op);
  if (b == nullptr || b->op != BinaryOp::Pow) return false;
  const Node& e = g.nodes[static_cast<size_t>(n.inputs[1].node)];
  const ParamEntry* v = std::holds_alternative<ConstAttrs>(e.op) ? p.find(e.name, "value") : nullptr;
  return v != nullptr && !v->tensor.values.empty() && v->tensor.values[0] == std::floor(v->tensor.values[0]);
}

bool layer_norm_decomposed(const Graph& g) {
  const auto producer = [&](const Node& n, size_t i) -> const Node& { return g.nodes[static_cast<size_t>(n.inputs[i].node)]; };
  const auto is = [](const Node& n, const char* name) { return op_name(n.op) == name; };
  for (const Node& n : g.nodes) {
    if (!is(n, "div")) continue;
    const Node& s = producer(n, 1);
    if (!is(s, "sqrt")) continue;
    const Node& a = producer(s, 0);
    if (!is(a, "add")) continue;
    const Node& v = producer(a, 0);
    if (is(v, "mean_reduce") && is(producer(v, 0), "pow")) return true;
  }
  return false;
}

struct Tally {
  int64_t models = 0, with_whole_pow = 0, with_layer_norm = 0;
  int64_t elements = 0, exact_finite = 0, not_judged = 0, offending_models = 0;
  int64_t interval_failures = 0;          // models whose exact value could not be computed
  std::map<std::string, int64_t> origins;  // where the bound is first lost: elements per op
  std::string first;                       // the first offending model
};

// Where the bound is first lost: every real op value of the model made an output, its envelope
// and exact value evaluated; a node with an element whose exact value is finite and whose envelope
// is not bounded, while every real operand's envelope is bounded everywhere, is where the loss
// appears. Labelled with its op, and for pow, sqrt, rsqrt, log and log2 whether an operand's
// envelope reaches 0 or below there ("pow, an operand's envelope reaching <= 0").
void attribute(const GeneratedModel& g, Tally& t) {
  auto info = infer_shapes(g.model.graph);
  if (!info) return;
  Graph all = g.model.graph;
  all.outputs.clear();
  for (const Node& n : all.nodes) {
    const NodeInfo& ni = info->nodes[static_cast<size_t>(n.id)];
    if (ni.kind != ElemKind::Real) continue;  // leaves too: a pow's base may be one
    for (size_t k = 0; k < ni.outputs.size(); ++k)
      all.outputs.push_back({"v" + std::to_string(all.outputs.size()), {n.id, static_cast<int>(k)}});
  }
  Model m = g.model;
  m.graph = all;
  auto e = enclose_outputs(m, g.inputs, *runtime_model("f32"), kMemory, nullptr, ExactValue::Computed,
                           CompoundedWidth::Kept);
  if (!e) return;
  std::map<std::pair<int64_t, int>, bool> bounded;  // per real op value: its envelope bounded everywhere
  std::map<std::pair<int64_t, int>, int64_t> lost;  // per real op value: elements exact finite, envelope not bounded
  for (size_t k = 0; k < all.outputs.size(); ++k) {
    const auto key = std::make_pair(all.outputs[k].value.node, all.outputs[k].value.output);
    bool b = true;
    int64_t l = 0;
    for (int64_t i = 0; i < e->envelope[k].size(); ++i) {
      const bool env = sc::enclosure(e->envelope[k][i]).bounded();
      b = b && env;
      if (!env && sc::enclosure(e->exact[k][i]).bounded()) ++l;
    }
    bounded[key] = b;
    lost[key] = l;
  }
  for (const auto& [key, l] : lost) {
    if (l == 0 || is_leaf(all.nodes[static_cast<size_t>(key.first)])) continue;
    const Node& n = all.nodes[static_cast<size_t>(key.first)];
    bool operands_bounded = true;
    for (const ValueRef& r : n.inputs) {
      const auto it = bounded.find({r.node, r.output});
      if (it != bounded.end() && !it->second) operands_bounded = false;
    }
    if (!operands_bounded) continue;
    std::string label = op_name(n.op);
    if (label == "pow" || label == "sqrt" || label == "rsqrt" || label == "log" || label == "log2") {
      bool reaches_zero = false;
      for (size_t k = 0; k < all.outputs.size(); ++k)
        if (all.outputs[k].value.node == n.inputs[0].node && all.outputs[k].value.output == n.inputs[0].output)
          for (int64_t i = 0; i < e->envelope[k].size(); ++i) reaches_zero = reaches_zero || !(e->envelope[k][i].lo > 0);
      label += reaches_zero ? ", its operand's envelope reaching <= 0" : ", its operand's envelope positive";
    }
    t.origins[label] += l;
  }
}

void examine(const GeneratedModel& g, Tally& t) {
  ++t.models;
  const Graph& graph = g.model.graph;
  if (std::any_of(graph.nodes.begin(), graph.nodes.end(), [&](const Node& n) { return whole_pow(graph, g.model.payload, n); }))
    ++t.with_whole_pow;
  if (layer_norm_decomposed(graph)) ++t.with_layer_norm;
  Result<Enclosures> e = make_error("test", "not run");
  try {
    e = enclose_outputs(g.model, g.inputs, *runtime_model("f32"), kMemory, nullptr, ExactValue::Computed,
                        CompoundedWidth::Kept);
  } catch (const std::exception& x) {  // MPFI's interval_error: no exact value to judge with
    ++t.interval_failures;
    return;
  }
  REQUIRE(e.ok());
  int64_t not_judged = 0;
  for (size_t k = 0; k < e->envelope.size(); ++k) {
    for (int64_t i = 0; i < e->envelope[k].size(); ++i) {
      ++t.elements;
      if (!sc::enclosure(e->exact[k][i]).bounded()) continue;
      ++t.exact_finite;
      if (!sc::enclosure(e->envelope[k][i]).bounded()) ++not_judged;
    }
  }
  if (not_judged == 0) return;
  t.not_judged += not_judged;
  if (t.offending_models++ == 0) t.first = describe(g);
  attribute(g, t);
}

void run(const std::string& what, const GenOptions& o, uint64_t seed, int64_t count, Tally& t) {
  for (uint64_t s = seed; s < seed + static_cast<uint64_t>(count); ++s) {
    Choices c = Choices::fresh(s);
    auto g = generate(c, o);
    INFO(what << ", seed " << s << ": " << (g.ok() ? "" : g.error().message));
    REQUIRE(g.ok());
    examine(*g, t);
  }
}

std::string report(const std::string& what, const Tally& t, double seconds) {
  std::ostringstream s;
  s << what << ": " << t.models << " models (" << t.with_whole_pow << " with pow of a constant whole exponent, "
    << t.with_layer_norm << " with the LayerNorm decomposition), " << t.elements << " output elements, "
    << t.exact_finite << " with a finite exact value; " << t.not_judged << " of those with an envelope not bounded, in "
    << t.offending_models << " models; " << t.interval_failures << " models without an exact value; " << seconds << " s\n";
  if (!t.origins.empty()) {
    s << "where the bound is first lost (elements of the first node whose envelope is unbounded, its operands' bounded):\n";
    for (const auto& [label, n] : t.origins) s << "  " << label << ": " << n << "\n";
  }
  if (!t.first.empty()) s << "first offending model:\n" << t.first << "\n";
  return s.str();
}

void check_judged(const std::string& what, const GenOptions& o, uint64_t seed, int64_t count, int64_t min_pow,
                  int64_t min_layer_norm) {
  Tally t;
  const auto start = std::chrono::steady_clock::now();
  run(what, o, seed, count, t);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string r = report(what, t, seconds);
  WARN(r);
  CHECK(t.with_whole_pow >= min_pow);
  CHECK(t.with_layer_norm >= min_layer_norm);
  CHECK(t.interval_failures == 0);
  CHECK(t.not_judged == 0);
}

}  // namespace

// Every op and the composites but prod_reduce, small models: 10,000 of them. prod_reduce is left
// out because there the premise fails: a product of up to 256 factors of at most 4 whose exact
// value is small (a factor 1/8 or 0 among them) may overflow in float32 for some order of the
// multiplications, and its envelope is rightly unbounded.
TEST_CASE("properties: the float32 envelope is bounded wherever the exact value is finite") {
  GenOptions o;
  o.max_nodes = 8;
  o.max_elements = 256;
  for (const std::string& op : generated_op_names())
    if (op != "prod_reduce") o.ops.push_back(op);
  for (const std::string& c : generated_composite_names()) o.ops.push_back(c);
  check_judged("every op but prod_reduce", o, kSeed, 10000, 300, 20);
}

// pow and the LayerNorm decomposition among a few ops a transformer block is made of, where the
// issue's losses were seen: 4,000 models, the composite drawn one step in eleven.
TEST_CASE("properties: the float32 envelope is bounded over pow and the LayerNorm decomposition") {
  GenOptions o;
  o.max_nodes = 12;
  o.max_elements = 256;
  o.ops = {"layer_norm_decomposed", "pow", "linear", "matmul", "relu", "add", "mul", "mean_reduce", "sum_reduce", "sqrt", "div"};
  check_judged("pow and the LayerNorm decomposition", o, kSeed, 4000, 500, 500);
}
