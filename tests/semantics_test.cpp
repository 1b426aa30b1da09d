// Well-formedness, bindings, the memory plan and the evaluator, on graphs built by hand.
#include <catch2/catch.hpp>

#include "semantics/evaluate.hpp"
#include "semantics/plan.hpp"
#include "semantics/wellformed.hpp"

using namespace nnref;

namespace {

HostTensor host(std::vector<int64_t> dims, std::vector<double> values, DType t = DType::F32) {
  return HostTensor{t, Shape::make(std::move(dims)).value(), std::move(values)};
}

SourceLoc at(int line) { return SourceLoc{"m.nnl", line, 3}; }

// x [1, 2] → fc (y = x·W + b, W [2, 3]) → relu
struct Dense {
  Graph g;
  Payload p;
  Dense() {
    int64_t x = g.add("x", InputAttrs{{1, 2}}, {}, at(1));
    int64_t fc = g.add("fc", LinearAttrs{3, WeightLayout::InOut, true}, {{x, 0}}, at(2));
    int64_t r = g.add("fc/relu", UnaryAttrs{UnaryOp::Relu}, {{fc, 0}}, at(2));
    g.outputs.push_back({"fc", {r, 0}});
    p.set("fc", "weight", {host({2, 3}, {1, -2, 0.5, 3, 1, -1}), "fc.weight.npy"});
    p.set("fc", "bias", {host({3}, {0.25, 0, -4}), "fc.bias.npy"});
  }
};

}  // namespace

TEST_CASE("evaluate: dense layer and relu, by hand") {
  Dense m;
  // x = [2, -1]: x·W = [2·1 + -1·3, 2·-2 + -1·1, 2·0.5 + -1·-1] = [-1, -5, 2]; + b = [-0.75, -5, -2]
  // relu → [0, 0, 0]; with x = [1, 1]: [4, -1, -0.5] + b = [4.25, -1, -4.5] → [4.25, 0, 0]
  auto r = evaluate<double>(m.g, m.p, {host({1, 2}, {1, 1})}, {});
  REQUIRE(r.ok());
  REQUIRE(r->size() == 1);
  CHECK(r->at(0).shape() == Shape::of({1, 3}));
  CHECK(r->at(0)[0] == 4.25);
  CHECK(r->at(0)[1] == 0.0);
  CHECK(r->at(0)[2] == 0.0);
}

TEST_CASE("evaluate: f32, f64 and mp agree on values exact in every precision") {
  Dense m;
  auto f = evaluate<float>(m.g, m.p, {host({1, 2}, {1, 1})}, {});
  auto d = evaluate<double>(m.g, m.p, {host({1, 2}, {1, 1})}, {});
  auto q = evaluate<mp50>(m.g, m.p, {host({1, 2}, {1, 1})}, {});
  REQUIRE((f.ok() && d.ok() && q.ok()));
  for (int i = 0; i < 3; ++i) {
    CHECK(double(f->at(0)[i]) == d->at(0)[i]);
    CHECK(q->at(0)[i] == mp50(d->at(0)[i]));
  }
}

TEST_CASE("evaluate: a constant broadcast onto an input, and several outputs") {
  Graph g;
  Payload p;
  int64_t x = g.add("x", InputAttrs{{2, 2}});
  int64_t c = g.add("c", ConstAttrs{{2}});
  int64_t s = g.add("s", BinaryAttrs{BinaryOp::Sub, Broadcast::NumpyRight}, {{x, 0}, {c, 0}});
  int64_t e = g.add("e", UnaryAttrs{UnaryOp::Exp}, {{x, 0}});
  g.outputs = {{"s", {s, 0}}, {"e", {e, 0}}};
  p.set("c", "value", {host({2}, {1, 10}), "<const>"});
  auto r = evaluate<double>(g, p, {host({2, 2}, {1, 2, 3, 4})}, {});
  REQUIRE(r.ok());
  // [[1-1, 2-10], [3-1, 4-10]]
  CHECK(r->at(0).values() == std::vector<double>{0, -8, 2, -6});
  CHECK(r->at(1)[3] == Approx(std::exp(4.0)).epsilon(1e-15));
}

// The diagnostics of the concrete check, bindings included, without a memory budget.
std::vector<Diagnostic> bindings(const Graph& g, const Payload& p, const ParamNames& names = {}) {
  return check_concrete(g, &p, names, 0, 0).diagnostics;
}

// The diagnostics of the concrete check with a budget at 8 bytes per element.
std::vector<Diagnostic> budget_check(const Graph& g, int64_t budget) {
  return check_concrete(g, nullptr, {}, 8, budget).diagnostics;
}

TEST_CASE("bindings: missing, misshapen, non-float and unused parameters are named") {
  Dense m;
  SECTION("missing") {
    Payload p;
    p.set("fc", "weight", *m.p.find("fc", "weight"));
    auto d = bindings(m.g, p, {{{"fc", "bias"}, "fc.bias"}});
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == "bind.missing");
    CHECK(d[0].loc.line == 2);
    CHECK(d[0].message.find("fc.bias") != std::string::npos);
    CHECK(d[0].message.find("[3]") != std::string::npos);
  }
  SECTION("misshapen") {
    m.p.set("fc", "weight", {host({3, 2}, {1, 2, 3, 4, 5, 6}), "fc.weight.npy"});
    auto d = bindings(m.g, m.p);
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == "bind.shape-mismatch");
    CHECK(d[0].message.find("[3, 2]") != std::string::npos);
    CHECK(d[0].message.find("[2, 3]") != std::string::npos);
    auto r = evaluate<double>(m.g, m.p, {host({1, 2}, {1, 1})}, {});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "bind.shape-mismatch");
  }
  SECTION("integer dtype") {
    m.p.set("fc", "bias", {host({3}, {1, 2, 3}, DType::I32), "fc.bias.npy"});
    auto d = bindings(m.g, m.p);
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == "bind.dtype");
  }
  SECTION("unused is a warning and does not stop evaluation") {
    m.p.set("fc", "gamma", {host({3}, {1, 2, 3}), "fc.gamma.npy"});
    auto d = bindings(m.g, m.p);
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == "bind.unused");
    CHECK(d[0].severity == Severity::Warning);
    CHECK(evaluate<double>(m.g, m.p, {host({1, 2}, {1, 1})}, {}).ok());
  }
}

TEST_CASE("structure: every problem is found and located") {
  Graph g;
  g.add("x", InputAttrs{{1, 4}}, {}, at(1));
  g.add("a", UnaryAttrs{UnaryOp::Relu}, {{2, 0}}, at(2));   // reads a later node
  g.add("a", UnaryAttrs{UnaryOp::Relu}, {{0, 0}}, at(3));   // duplicate name
  g.outputs = {{"a", {2, 0}}};
  auto d = check_structure(g);
  REQUIRE(d.size() == 2);
  CHECK(d[0].code == "graph.topology");
  CHECK(d[0].loc.line == 2);
  CHECK(d[1].code == "graph.name-duplicate");
  CHECK(d[1].loc.line == 3);

  Graph empty;
  auto e = check_structure(empty);
  REQUIRE(e.size() == 1);
  CHECK(e[0].code == "graph.no-outputs");
}

TEST_CASE("arity: an op's input count is its first obligation, located at its node") {
  Graph g;
  g.add("x", InputAttrs{{1, 4}}, {}, at(1));
  g.add("s", AddNAttrs{}, {{0, 0}}, at(4));  // add_n needs two inputs
  g.outputs = {{"s", {1, 0}}};
  REQUIRE(check_structure(g).empty());
  auto info = infer_shapes(g);
  REQUIRE_FALSE(info.ok());
  CHECK(info.error().code == "graph.arity");
  CHECK(info.error().loc.line == 4);
  CHECK(info.error().node == "s");
  CHECK(info.error().message.find("takes at least 2 inputs, got 1") != std::string::npos);
}

TEST_CASE("shapes: a shape rule's failure is located at its node") {
  Graph g;
  int64_t x = g.add("x", InputAttrs{{1, 4}}, {}, at(1));
  int64_t y = g.add("y", InputAttrs{{1, 5}}, {}, at(2));
  int64_t s = g.add("sum", BinaryAttrs{BinaryOp::Add, Broadcast::Equal}, {{x, 0}, {y, 0}}, at(7));
  g.outputs = {{"sum", {s, 0}}};
  auto info = infer_shapes(g);
  REQUIRE_FALSE(info.ok());
  CHECK(info.error().loc.line == 7);
  CHECK(info.error().node == "sum");
  CHECK(info.error().message.find("'sum'") != std::string::npos);
}

TEST_CASE("inputs: count and shape are checked") {
  Dense m;
  auto none = evaluate<double>(m.g, m.p, {}, {});
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().code == "input.count");
  auto wrong = evaluate<double>(m.g, m.p, {host({2, 2}, {1, 1, 1, 1})}, {});
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().code == "input.shape-mismatch");
  CHECK(wrong.error().loc.line == 1);
}

TEST_CASE("memory: an absurd model is a diagnostic, not an allocation") {
  SECTION("over the budget: names the largest tensor") {
    Graph g;
    int64_t x = g.add("x", InputAttrs{{1, 1000}});
    int64_t r = g.add("big", UnaryAttrs{UnaryOp::Relu}, {{x, 0}});
    g.outputs = {{"big", {r, 0}}};
    // While big runs, x and big are live: 2 tensors × 1000 elements × 8 bytes = 16000 bytes
    CHECK(budget_check(g, 16000).empty());
    auto over = budget_check(g, 15999);
    REQUIRE(over.size() == 1);
    CHECK(over[0].code == "size.budget");
    CHECK(over[0].message.find("16000") != std::string::npos);
    REQUIRE(over[0].notes.size() == 1);
    CHECK(over[0].notes[0].find("'x'") != std::string::npos);
  }
  SECTION("2^60 elements fit a count but not the budget") {
    Graph g;
    int64_t x = g.add("x", InputAttrs{{int64_t{1} << 30, int64_t{1} << 30}});
    g.outputs = {{"x", {x, 0}}};
    auto r = evaluate<double>(g, {}, {}, {});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "size.budget");
  }
  SECTION("2^80 elements do not fit a count") {
    Graph g;
    int64_t x = g.add("x", InputAttrs{{int64_t{1} << 40, int64_t{1} << 40}});
    g.outputs = {{"x", {x, 0}}};
    auto r = infer_shapes(g);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "size.overflow");
  }
}

TEST_CASE("structure: ids, names, outputs and output indices") {
  Graph g;
  g.add("x", InputAttrs{{1, 4}}, {}, at(1));
  g.add("", UnaryAttrs{UnaryOp::Relu}, {{0, 0}}, at(2));
  g.add("late", UnaryAttrs{UnaryOp::Exp}, {{0, 0}}, at(3));
  g.nodes.back().id = 7;
  g.outputs = {{"y", {99, 0}}};
  auto d = check_structure(g);
  REQUIRE(d.size() == 3);
  CHECK(d[0].code == "graph.name-empty");
  CHECK(d[0].loc.line == 2);
  CHECK(d[1].code == "graph.id");
  CHECK(d[1].loc.line == 3);
  CHECK(d[2].code == "graph.output");
  CHECK(d[2].message.find("'y'") != std::string::npos);

  // Structure cannot see how many outputs a node has; shape inference can.
  Graph h;
  int64_t x = h.add("x", InputAttrs{{1, 4}}, {}, at(1));
  int64_t r = h.add("r", UnaryAttrs{UnaryOp::Relu}, {{x, 1}}, at(2));
  h.outputs = {{"r", {r, 0}}};
  REQUIRE(check_structure(h).empty());
  auto bad_edge = infer_shapes(h);
  REQUIRE_FALSE(bad_edge.ok());
  CHECK(bad_edge.error().code == "graph.output-index");
  CHECK(bad_edge.error().loc.line == 2);
  h.nodes[1].inputs = {{x, 0}};
  h.outputs = {{"r", {r, 2}}};
  auto bad_output = infer_shapes(h);
  REQUIRE_FALSE(bad_output.ok());
  CHECK(bad_output.error().code == "graph.output");
}

TEST_CASE("memory: the budget diagnostic is located at the node with the largest tensor") {
  Graph g;
  int64_t x = g.add("x", InputAttrs{{1, 10}}, {}, at(1));
  int64_t b = g.add("wide", BroadcastToAttrs{{1000, 10}, Broadcast::NumpyRight}, {{x, 0}}, at(9));
  g.outputs = {{"wide", {b, 0}}};
  auto over = budget_check(g, 1000);
  REQUIRE(over.size() == 1);
  CHECK(over[0].loc.line == 9);
  CHECK(over[0].node == "wide");
}

// x [1, 1000] → a → b → c, each a relu, c the output. Every tensor has 1000 elements, 8000 bytes
// in f64; the four together are 32000 bytes, but a value dies after its last reader, so while a
// node runs only its input and its output are live: the peak is 16000 bytes.
TEST_CASE("memory: the budget bounds the peak live set, not the sum of every tensor") {
  Graph g;
  int64_t prev = g.add("x", InputAttrs{{1, 1000}});
  for (const char* name : {"a", "b", "c"}) prev = g.add(name, UnaryAttrs{UnaryOp::Relu, 0.0}, {{prev, 0}});
  g.outputs = {{"c", {prev, 0}}};
  auto fits = check_concrete(g, nullptr, {}, 8, 16000);
  REQUIRE(fits.ok());
  CHECK(fits.info->peak_bytes == 16000);
  auto over = budget_check(g, 15999);
  REQUIRE(over.size() == 1);
  CHECK(over[0].message.find("16000 bytes at its peak") != std::string::npos);

  // The oracle frees as the plan says, and runs within that budget.
  auto r = evaluate<double>(g, {}, {host({1, 1000}, std::vector<double>(1000, -1.0))}, EvalOptions{16000});
  REQUIRE(r.ok());
  CHECK((*r)[0][999] == 0.0);
}

// x [1, 4] → bad (reshape to [3, 3]: 9 elements of 4) → r1 → r2, and x → other: the reshape's
// error is reported once; the two nodes after it are not checked; other, which does not depend on
// it, is, and has an error of its own.
TEST_CASE("root causes: the nodes that depend on a failed node are skipped, and counted") {
  Graph g;
  const int64_t x = g.add("x", InputAttrs{{1, 4}}, {}, at(1));
  const int64_t bad = g.add("bad", ReshapeAttrs{{3, 3}}, {{x, 0}}, at(2));
  const int64_t r1 = g.add("r1", UnaryAttrs{UnaryOp::Relu, 0.0}, {{bad, 0}}, at(3));
  const int64_t r2 = g.add("r2", UnaryAttrs{UnaryOp::Relu, 0.0}, {{r1, 0}}, at(4));
  const int64_t other = g.add("other", BroadcastToAttrs{{2, 0}, Broadcast::NumpyRight}, {{x, 0}}, at(5));
  g.outputs = {{"r2", {r2, 0}}, {"other", {other, 0}}};
  auto c = check_concrete(g, nullptr, {}, 0, 0);
  REQUIRE(c.diagnostics.size() == 2);
  CHECK(c.diagnostics[0].code == "shape.reshape.count-mismatch");
  CHECK(c.diagnostics[0].node == "bad");
  REQUIRE_FALSE(c.diagnostics[0].notes.empty());
  CHECK(c.diagnostics[0].notes.back() == "2 later nodes not checked: they depend on 'bad'");
  // An independent failure is still found: [1, 4] does not broadcast to [2, 0].
  CHECK(c.diagnostics[1].node == "other");
  CHECK(c.diagnostics[1].loc.line == 5);
}

// x [1, 2] → fc, whose weight the graph computes: w = w0 · k from two constants (an ONNX weight
// written as a Mul of initializers), bound by Node::param_values instead of the payload.
struct ComputedWeight {
  Graph g;
  Payload p;
  int64_t x, w0, k, w, fc;
  explicit ComputedWeight(std::vector<int64_t> w0_dims = {2, 3}) {
    x = g.add("x", InputAttrs{{1, 2}}, {}, at(1));
    w0 = g.add("w0", ConstAttrs{w0_dims}, {}, at(2));
    k = g.add("k", ConstAttrs{{1}}, {}, at(3));
    w = g.add("w", BinaryAttrs{BinaryOp::Mul, Broadcast::NumpyRight}, {{w0, 0}, {k, 0}}, at(4));
    fc = g.add("fc", LinearAttrs{3, WeightLayout::InOut, false}, {{x, 0}}, at(5));
    g.nodes[static_cast<size_t>(fc)].param_values.push_back({"weight", {w, 0}});
    g.outputs.push_back({"fc", {fc, 0}});
    p.set("w0", "value", {host(std::move(w0_dims), {0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, DType::F64), "w0.npy"});
    p.set("k", "value", {host({1}, {3}, DType::F64), "k.npy"});
  }
};

TEST_CASE("computed parameters: a weight the graph computes from constants, in the run's scalar") {
  ComputedWeight m;
  REQUIRE(bindings(m.g, m.p).empty());
  // y = x · (3 w0) with x = [1, 2]: y_j = 3 w0[0][j] + 6 w0[1][j], each product rounded in double.
  auto d = evaluate<double>(m.g, m.p, {host({1, 2}, {1, 2})}, {});
  REQUIRE(d.ok());
  for (int j = 0; j < 3; ++j) {
    const double w_0 = 0.1 * (j + 1) * 3, w_1 = (0.4 + 0.1 * j) * 3;
    CHECK(d->at(0)[j] == Approx(w_0 + 2 * w_1).epsilon(1e-15));
  }
  // In mp50 the weight is the exact product of the doubles 0.1 and 3, not its double 0.30000000000000004.
  auto q = evaluate<mp50>(m.g, m.p, {host({1, 2}, {1, 0})}, {});
  REQUIRE(q.ok());
  CHECK(q->at(0)[0] == mp50(0.1) * 3);
  CHECK(q->at(0)[0] != mp50(0.1 * 3));
}

TEST_CASE("computed parameters: a wrong shape, a graph input, an unknown role and a double binding are named") {
  SECTION("misshapen") {
    ComputedWeight m({3, 2});
    auto d = bindings(m.g, m.p);
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == "bind.shape-mismatch");
    CHECK(d[0].loc.line == 5);
    INFO(d[0].message);
    CHECK(d[0].message.find("parameter fc/weight is computed by 'w' with shape [3, 2], but the layer needs [2, 3]") !=
          std::string::npos);
  }
  SECTION("from a graph input") {
    ComputedWeight m;
    m.g.nodes[static_cast<size_t>(m.fc)].param_values[0].value = {m.x, 0};
    auto d = bindings(m.g, m.p);
    REQUIRE_FALSE(d.empty());
    bool named = false;
    for (const auto& e : d)
      named = named || (e.code == "bind.computed" && e.message.find("computed by 'x', which reads a graph input") !=
                                                         std::string::npos);
    CHECK(named);
  }
  SECTION("a role the op does not have") {
    ComputedWeight m;
    m.g.nodes[static_cast<size_t>(m.fc)].param_values[0].role = "gamma";
    auto d = bindings(m.g, m.p);
    REQUIRE_FALSE(d.empty());
    CHECK(d[0].code == "bind.computed");
    CHECK(d[0].message.find("a value is bound to parameter 'gamma', which linear does not have") != std::string::npos);
  }
  SECTION("computed and in the weights") {
    ComputedWeight m;
    m.p.set("fc", "weight", {host({2, 3}, {1, 2, 3, 4, 5, 6}), "fc.weight.npy"});
    auto d = bindings(m.g, m.p);
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == "bind.computed");
    CHECK(d[0].message.find("is both computed in the graph and given by the weights") != std::string::npos);
  }
}

TEST_CASE("data sizes: a reshape whose dims are elements of an integer input, evaluated when the plan is made") {
  using namespace size_code;
  const auto model = [](std::vector<int64_t> program) {
    Graph g;
    const int64_t x = g.add("x", InputAttrs{{2, 6}}, {}, at(1));
    const int64_t s = g.add("s", InputAttrs{{2}, ElemKind::Integer}, {}, at(2));
    const int64_t r = g.add("r", ReshapeAttrs{{}, ElemKind::Real, std::move(program), {ElemKind::Integer}},
                            {{x, 0}, {s, 0}}, at(3));
    g.outputs.push_back({"r", {r, 0}});
    return g;
  };
  const Graph g = model({kElement, 0, 0, kElement, 0, 1});
  const Payload p;
  std::vector<double> iota;
  for (int k = 0; k < 12; ++k) iota.push_back(k);
  const HostTensor x = host({2, 6}, iota, DType::F64);
  // s = [4, 3]: x as [4, 3], the same elements in order; s = [-1, 2]: −1 inferred, [6, 2].
  auto a = evaluate<double>(g, p, {x, host({2}, {4, 3}, DType::I64)}, {});
  REQUIRE(a.ok());
  CHECK(a->at(0).shape() == Shape::of({4, 3}));
  CHECK(a->at(0)[11] == 11.0);
  auto b = evaluate<float>(g, p, {x, host({2}, {-1, 2}, DType::I64)}, {});
  REQUIRE(b.ok());
  CHECK(b->at(0).shape() == Shape::of({6, 2}));
  // 5 · 3 is not 12: the reshape's own error, at its node.
  auto c = evaluate<double>(g, p, {x, host({2}, {5, 3}, DType::I64)}, {});
  REQUIRE(!c.ok());
  CHECK(c.error().code.rfind("shape.reshape.", 0) == 0);
  CHECK(c.error().node == "r");
  // Without the run's inputs the size is not known: named, at the node.
  auto d = make_plan<double>(g, p, PlanOptions{});
  REQUIRE(!d.ok());
  CHECK(d.error().code == "shape.data-dependent-size");
  CHECK(d.error().node == "r");
  // An element s does not have; an input missing.
  auto e = evaluate<double>(model({kElement, 0, 5, kConstant, -1}), p, {x, host({2}, {4, 3}, DType::I64)}, {});
  REQUIRE(!e.ok());
  CHECK(e.error().code == "shape.size-program");
  auto f = evaluate<double>(g, p, {x}, {});
  REQUIRE(!f.ok());
  CHECK(f.error().code == "input.count");
}
