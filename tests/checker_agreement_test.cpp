// The checker against the concrete evaluator: for random concrete sizes inside the --dim ranges,
// the checker (run with point ranges, lo = hi = the drawn value) proves every obligation exactly
// when the concrete reading accepts the instantiated model: check_graph (what every engine runs
// before evaluating) succeeds and evaluate<double> then runs on inputs of the instantiated shapes.
// Then the range form: one check over the whole ranges either proves everything (and every draw
// was accepted concretely) or refutes an obligation whose counterexample the concrete reading
// rejects with the same code. (The properties issue will turn the draws into a rapidcheck property.)
//
// Models: the NNL examples downsample_block, mnist_classifier and resnet_block, and graphs built
// here with rules that are easy to get wrong (a valid conv then a stride-2 pool, a 3-way split, a
// reshape with an inferred extent over a symbolic count, a concat of differently pooled
// branches), plus one case on size.budget with a hand-computed threshold.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <z3++.h>

#include "checker/check_model.hpp"
#include "checker/size_symbols.hpp"
#include "formats/model.hpp"
#include "semantics/evaluate.hpp"
#include "semantics/graph.hpp"
#include "semantics/payload.hpp"
#include "semantics/wellformed.hpp"
#include "spec/diagnostic.hpp"
#include "spec/host_tensor.hpp"
#include "spec/shape.hpp"

using namespace nnref;
namespace fs = std::filesystem;

namespace {

constexpr uint32_t kSeed = 20261122;
constexpr int kDraws = 30;
constexpr int64_t kHugeBudget = int64_t{1} << 40;  // large enough never to matter
constexpr int64_t kScalar = 8;                     // evaluate<double>

// A range form of the check: --dim ranges (naming every symbol of the case) and --assume options,
// with the assumptions' reading in C++ (nullptr: none) to tell which draws they admit.
struct RangeForm {
  std::vector<DimRange> ranges;
  std::vector<std::string> assumptions;
  std::function<bool(const Assignment&)> assumed;
  bool expect_proved = false;
};

struct Case {
  std::string name;
  Graph graph;
  Payload payload;
  ParamNames names;
  std::vector<SizeName> size_names;  // the front-end's; empty (hand-built graphs): batched_size_names
  std::vector<DimRange> ranges;
  std::vector<Assignment> pinned;  // fixed points checked besides the random draws (edges, known-valid sizes)
  int64_t budget = kHugeBudget;
  int draws = kDraws;               // random draws inside `ranges`
  std::vector<RangeForm> forms;     // range forms checked besides the one over `ranges`
};

// ---- the two readings ---------------------------------------------------------------------------

struct Reading {
  bool accepted = false;
  std::string first;              // the first error, formatted ("" when accepted)
  std::string code;               // its code
  std::set<std::string> codes;    // every error code (the checker reports them all)
  bool eval_failed = false;       // concrete: check_graph accepted but evaluation failed
};

std::string show(const Assignment& a) {
  std::string s;
  for (const auto& [n, v] : a) s += (s.empty() ? "" : ", ") + n + " = " + std::to_string(v);
  return s;
}

Reading checker_reading(const Case& c, const std::vector<DimRange>& ranges) {
  CheckSettings s;
  s.dims = ranges;
  s.budget = c.budget;
  s.scalar_size = kScalar;
  s.size_names = c.size_names;
  auto r = check_model(c.graph, c.payload, c.names, s);
  if (!r) FAIL("check_model usage error: " << format_diagnostic(r.error()));
  Reading out;
  for (const auto& d : r->diagnostics)
    if (d.severity == Severity::Error) {
      if (out.first.empty()) out.first = format_diagnostic(d), out.code = d.code;
      out.codes.insert(d.code);
    }
  out.accepted = r->counts.refuted == 0 && r->counts.unknown == 0 && out.codes.empty();
  if (!out.accepted && out.first.empty())
    out.first = "(no error diagnostic; refuted " + std::to_string(r->counts.refuted) + ", unknown " +
                std::to_string(r->counts.unknown) + ")";
  return out;
}

Reading checker_at_point(const Case& c, const Assignment& a) {
  std::vector<DimRange> point;
  for (const auto& [n, v] : a) point.push_back({n, v, v});
  return checker_reading(c, point);
}

// Inputs of exactly the declared shapes, with small deterministic non-zero values.
std::vector<HostTensor> inputs_for(const Graph& g, const GraphInfo& info) {
  std::vector<HostTensor> out;
  for (int64_t id : g.input_ids()) {
    HostTensor t;
    t.dtype = DType::F64;
    t.shape = info.nodes[static_cast<size_t>(id)].outputs[0];
    t.values.resize(static_cast<size_t>(t.shape.count()));
    for (size_t i = 0; i < t.values.size(); ++i) t.values[i] = std::sin(0.37 * static_cast<double>(i + 1));
    out.push_back(std::move(t));
  }
  return out;
}

Reading concrete_reading(const Graph& g, const Payload& payload, int64_t budget) {
  Reading out;
  auto info = check_graph(g, payload, kScalar, budget);
  if (!info) {
    out.first = format_diagnostic(info.error());
    out.code = info.error().code;
    out.codes.insert(out.code);
    return out;
  }
  auto y = evaluate<double>(g, payload, inputs_for(g, *info), EvalOptions{budget});
  if (!y) {
    out.eval_failed = true;
    out.first = "evaluation failed after check_graph accepted: " + format_diagnostic(y.error());
    out.code = y.error().code;
    out.codes.insert(out.code);
    return out;
  }
  out.accepted = true;
  return out;
}

// ---- the agreement loop ---------------------------------------------------------------------------

struct Tally {
  int draws = 0, agreements = 0, accepted = 0, rejected = 0;
  int random_accepted = 0, random_rejected = 0;  // among the random draws alone (not the pinned points)
};

// Checks one assignment on both sides; returns whether the concrete reading accepted.
bool agree_at(const Case& c, const SizeSymbols& symbols, const Assignment& a, Tally& t) {
  const Reading sym = checker_at_point(c, a);
  const Graph g = symbols.instantiate(c.graph, a);
  const Reading con = concrete_reading(g, c.payload, c.budget);
  INFO("model " << c.name << " at " << show(a));
  INFO("checker:  " << (sym.accepted ? "proved everything" : "rejects: " + sym.first));
  INFO("concrete: " << (con.accepted ? "accepts (check_graph + evaluate<double>)" : "rejects: " + con.first));
  CHECK_FALSE(con.eval_failed);
  CHECK(sym.accepted == con.accepted);
  // Both reject: the concrete reading's (first) error is one the checker reports too.
  if (!sym.accepted && !con.accepted) CHECK(sym.codes.count(con.code) == 1);
  ++t.draws;
  (con.accepted ? t.accepted : t.rejected) += 1;
  if (sym.accepted == con.accepted) ++t.agreements;
  return con.accepted;
}

// Whether assignment a lies in the ranges (every symbol of a is named there) and satisfies the
// C++ reading of the assumptions.
bool admits(const RangeForm& f, const Assignment& a) {
  for (const auto& [n, v] : a) {
    bool inside = false;
    for (const auto& r : f.ranges)
      if (r.name == n) inside = r.lo <= v && v <= r.hi;
    if (!inside) return false;
  }
  return !f.assumed || f.assumed(a);
}

int64_t value_of(const Assignment& a, const std::string& name) {
  for (const auto& [n, v] : a)
    if (n == name) return v;
  FAIL("no value for " << name << " in " << show(a));
  return 0;
}

// One check over whole ranges: proved everything → every draw it admits was accepted
// concretely; refuted → the concrete reading rejects the first error's counterexample with the
// same code. Returns a one-line summary.
std::string range_form(const Case& c, const SizeSymbols& symbols, const RangeForm& f,
                       const std::vector<Assignment>& draws, const std::vector<bool>& accepted) {
  CheckSettings s;
  s.dims = f.ranges;
  s.assumptions = f.assumptions;
  s.budget = c.budget;
  s.scalar_size = kScalar;
  s.size_names = c.size_names;
  auto r = check_model(c.graph, c.payload, c.names, s);
  std::string where;
  for (const auto& d : f.ranges)
    where += (where.empty() ? "" : ", ") + d.name + "=" + std::to_string(d.lo) + ".." + std::to_string(d.hi);
  for (const auto& a : f.assumptions) where += " assuming '" + a + "'";
  if (!r) FAIL("check_model usage error over " << where << ": " << format_diagnostic(r.error()));
  const Diagnostic* first = nullptr;
  for (const auto& d : r->diagnostics)
    if (d.severity == Severity::Error) {
      first = &d;
      break;
    }
  INFO("model " << c.name << " over " << where << ": " << r->counts.proved << " proved, " << r->counts.refuted
                << " refuted, " << r->counts.unknown << " unknown"
                << (first ? "; first error: " + format_diagnostic(*first) : std::string()));
  CHECK(r->counts.unknown == 0);
  if (f.expect_proved) CHECK(r->counts.refuted == 0);
  int admitted = 0;
  if (r->counts.refuted == 0 && r->counts.unknown == 0 && first == nullptr) {
    for (size_t k = 0; k < draws.size(); ++k)
      if (admits(f, draws[k])) {
        ++admitted;
        INFO("draw " << show(draws[k]));
        CHECK(accepted[k]);
      }
  } else if (r->counts.refuted > 0) {
    REQUIRE(first != nullptr);
    Assignment cx = first->counterexample;
    if (cx.empty())  // a refutation known without Z3: it fails for every size, e.g. the lowest
      for (const auto& range : f.ranges) cx.emplace_back(range.name, range.lo);
    INFO("counterexample " << show(cx));
    RangeForm no_assumptions = f;
    no_assumptions.assumed = nullptr;
    CHECK(admits(no_assumptions, cx));
    if (f.assumed) CHECK(f.assumed(cx));
    const Reading con = concrete_reading(symbols.instantiate(c.graph, cx), c.payload, c.budget);
    INFO("concrete at the counterexample: " << (con.accepted ? "accepts" : "rejects: " + con.first));
    CHECK_FALSE(con.accepted);
    CHECK(con.code == first->code);
  }
  std::ostringstream out;
  out << "range check " << where << ": " << r->counts.proved << " proved, " << r->counts.refuted << " refuted, "
      << r->counts.unknown << " unknown";
  if (first) out << " (first: " << first->code << " at " << show(first->counterexample) << ")";
  else out << " (" << admitted << " draws admitted, all accepted concretely)";
  return out.str();
}

// Random draws (plus the pinned points) on both sides, then the range forms. Returns the tally.
Tally run_agreement(const Case& c) {
  z3::context ctx;
  auto bound = SizeSymbols::bind(ctx, c.graph, c.size_names.empty() ? batched_size_names(c.graph) : c.size_names, c.ranges);
  if (!bound) FAIL("bind: " << format_diagnostic(bound.error()));
  const SizeSymbols& symbols = *bound;

  std::mt19937 rng(kSeed);
  std::vector<Assignment> draws;
  for (int k = 0; k < c.draws; ++k) {
    Assignment a;
    for (const auto& r : c.ranges) a.emplace_back(r.name, std::uniform_int_distribution<int64_t>(r.lo, r.hi)(rng));
    draws.push_back(std::move(a));
  }
  for (const auto& p : c.pinned) draws.push_back(p);

  Tally t;
  std::vector<bool> accepted;
  for (size_t k = 0; k < draws.size(); ++k) {
    const bool acc = agree_at(c, symbols, draws[k], t);
    accepted.push_back(acc);
    if (k < static_cast<size_t>(c.draws)) (acc ? t.random_accepted : t.random_rejected) += 1;
  }

  std::vector<RangeForm> forms{RangeForm{c.ranges, {}, nullptr}};
  forms.insert(forms.end(), c.forms.begin(), c.forms.end());
  std::vector<std::string> lines;
  for (const auto& f : forms) lines.push_back(range_form(c, symbols, f, draws, accepted));

  std::cout << "checker_agreement: " << c.name << ": " << t.agreements << "/" << t.draws << " agree ("
            << c.draws << " random draws: " << t.random_accepted << " accepted, " << t.random_rejected
            << " rejected; " << c.pinned.size() << " pinned points)\n";
  for (const auto& l : lines) std::cout << "  " << l << "\n";
  return t;
}

// ---- models -------------------------------------------------------------------------------------

Case nnl_case(const std::string& example) {
  const std::string path = (fs::path(NNREF_SOURCE_DIR) / "examples" / example / "model.nnl").string();
  LoadResult lr = load_model(path, LoadOptions{WeightsPolicy::Required, kHugeBudget});
  std::string diags;
  for (const auto& d : lr.diagnostics) diags += format_diagnostic(d) + "\n";
  INFO(path << "\n" << diags);
  REQUIRE_FALSE(lr.has_errors());
  REQUIRE(lr.model.has_value());
  Case c;
  c.name = example;
  c.graph = lr.model->graph;
  c.payload = lr.model->payload;
  c.names = lr.model->param_keys;
  c.size_names = lr.model->size_names;
  REQUIRE_FALSE(c.size_names.empty());
  return c;
}

void zeros(Payload& p, const std::string& node, const std::string& role, std::vector<int64_t> dims) {
  HostTensor t;
  t.dtype = DType::F64;
  t.shape = Shape::make(std::move(dims)).value();
  t.values.assign(static_cast<size_t>(t.shape.count()), 0.0);
  p.set(node, role, ParamEntry{std::move(t), "zeros"});
}

PoolAttrs pool(PoolOp op, std::vector<int64_t> k, std::vector<int64_t> s, PadMode mode = PadMode::Explicit) {
  PoolAttrs a;
  a.op = op;
  a.kernel = std::move(k);
  a.stride = std::move(s);
  a.pad_mode = mode;
  a.layout = Layout::ChannelsFirst;
  return a;
}

// x [1, 2, H, W] → conv 5x5 valid (3 filters) → max pool 2 stride 2: needs H, W ≥ 6.
Case conv5_pool_case() {
  Case c;
  c.name = "conv5_pool";
  const int64_t x = c.graph.add("x", InputAttrs{{1, 2, 9, 9}});
  ConvAttrs conv;
  conv.out_channels = 3;
  conv.kernel = {5, 5};
  conv.layout = Layout::ChannelsFirst;
  const int64_t cv = c.graph.add("conv", conv, {{x, 0}});
  const int64_t pl = c.graph.add("pool", pool(PoolOp::Max, {2, 2}, {2, 2}), {{cv, 0}});
  c.graph.outputs.push_back({"y", {pl, 0}});
  zeros(c.payload, "conv", "weight", {3, 2, 5, 5});
  zeros(c.payload, "conv", "bias", {3});
  c.ranges = {{"x.1", 1, 20}, {"x.2", 1, 20}};
  c.pinned = {{{"x.1", 5}, {"x.2", 6}}, {{"x.1", 6}, {"x.2", 6}}, {{"x.1", 6}, {"x.2", 5}}, {{"x.1", 7}, {"x.2", 20}}};
  c.forms = {RangeForm{{{"x.1", 6, 20}, {"x.2", 6, 20}}, {}, nullptr, true}};
  return c;
}

// x [N, 4, L] → split into 3 equal parts along L → add_n of the parts: needs L % 3 == 0.
Case split3_case() {
  Case c;
  c.name = "split3";
  const int64_t x = c.graph.add("x", InputAttrs{{1, 4, 9}});
  const int64_t sp = c.graph.add("split", SplitAttrs{2, {1, 1, 1}}, {{x, 0}});
  const int64_t sum = c.graph.add("sum", AddNAttrs{}, {{sp, 0}, {sp, 1}, {sp, 2}});
  c.graph.outputs.push_back({"y", {sum, 0}});
  c.ranges = {{"batch", 1, 3}, {"x.1", 1, 40}};
  c.pinned = {{{"batch", 1}, {"x.1", 1}}, {{"batch", 2}, {"x.1", 3}}, {{"batch", 3}, {"x.1", 39}}, {{"batch", 1}, {"x.1", 40}}};
  c.forms = {RangeForm{c.ranges, {"x.1 % 3 == 0"}, [](const Assignment& a) { return value_of(a, "x.1") % 3 == 0; }, true}};
  return c;
}

// x [N, H, W] → reshape [-1, 4] → linear (2 units): needs N·H·W % 4 == 0.
Case reshape_case() {
  Case c;
  c.name = "reshape_infer";
  const int64_t x = c.graph.add("x", InputAttrs{{1, 4, 4}});
  const int64_t rs = c.graph.add("reshape", ReshapeAttrs{{-1, 4}}, {{x, 0}});
  LinearAttrs lin;
  lin.units = 2;
  const int64_t fc = c.graph.add("fc", lin, {{rs, 0}});
  c.graph.outputs.push_back({"y", {fc, 0}});
  zeros(c.payload, "fc", "weight", {4, 2});
  zeros(c.payload, "fc", "bias", {2});
  c.ranges = {{"batch", 1, 6}, {"x.0", 1, 10}, {"x.1", 1, 10}};
  c.pinned = {{{"batch", 2}, {"x.0", 2}, {"x.1", 1}}, {{"batch", 1}, {"x.0", 2}, {"x.1", 3}},
              {{"batch", 3}, {"x.0", 3}, {"x.1", 3}}, {{"batch", 4}, {"x.0", 1}, {"x.1", 1}}};
  c.forms = {RangeForm{c.ranges, {"batch * x.0 * x.1 % 4 == 0"},
                       [](const Assignment& a) {
                         return value_of(a, "batch") * value_of(a, "x.0") * value_of(a, "x.1") % 4 == 0;
                       },
                       true}};
  return c;
}

// x [1, 2, H, W] → (max pool 2 stride 2: ⌊H/2⌋) and (max pool 3 stride 2 valid: ⌊(H−1)/2⌋), concat
// along channels: the spatial extents agree exactly when H and W are odd and at least 3.
Case concat_pools_case() {
  Case c;
  c.name = "concat_pools";
  const int64_t x = c.graph.add("x", InputAttrs{{1, 2, 7, 7}});
  const int64_t a = c.graph.add("pool_a", pool(PoolOp::Max, {2, 2}, {2, 2}), {{x, 0}});
  const int64_t b = c.graph.add("pool_b", pool(PoolOp::Avg, {3, 3}, {2, 2}), {{x, 0}});
  const int64_t cat = c.graph.add("cat", ConcatAttrs{1}, {{a, 0}, {b, 0}});
  c.graph.outputs.push_back({"y", {cat, 0}});
  c.ranges = {{"x.1", 1, 20}, {"x.2", 1, 20}};
  c.pinned = {{{"x.1", 1}, {"x.2", 1}}, {{"x.1", 2}, {"x.2", 3}}, {{"x.1", 3}, {"x.2", 3}},
              {{"x.1", 19}, {"x.2", 5}}, {{"x.1", 20}, {"x.2", 19}}};
  c.forms = {// Both windows fit: the first refutation is the concat's extent mismatch.
             RangeForm{{{"x.1", 3, 20}, {"x.2", 3, 20}}, {}, nullptr, false},
             RangeForm{{{"x.1", 3, 20}, {"x.2", 3, 20}},
                       {"x.1 % 2 == 1", "x.2 % 2 == 1"},
                       [](const Assignment& a) { return value_of(a, "x.1") % 2 == 1 && value_of(a, "x.2") % 2 == 1; },
                       true}};
  return c;
}

}  // namespace

// ---- test cases ---------------------------------------------------------------------------------

TEST_CASE("agreement: downsample_block is valid exactly when input.0 and input.1 are multiples of 4", "[agreement]") {
  Case c = nnl_case("downsample_block");
  c.ranges = {{"batch", 1, 2}, {"input.0", 1, 40}, {"input.1", 1, 40}};
  c.pinned = {{{"batch", 1}, {"input.0", 32}, {"input.1", 32}}, {{"batch", 2}, {"input.0", 4}, {"input.1", 8}},
              {{"batch", 1}, {"input.0", 3}, {"input.1", 4}}, {{"batch", 1}, {"input.0", 40}, {"input.1", 39}}};
  c.draws = 60;  // a draw is valid with probability 1/16: enough draws that both outcomes occur
  const std::vector<DimRange> fits = {{"batch", 1, 2}, {"input.0", 4, 40}, {"input.1", 4, 40}};
  c.forms = {// The pool window fits: the first refutation is the Add of ⌊H/4⌋ and ⌈H/4⌉ (input.0 = 5).
             RangeForm{fits, {}, nullptr, false},
             RangeForm{fits,
                       {"input.0 % 4 == 0", "input.1 % 4 == 0"},
                       [](const Assignment& a) {
                         return value_of(a, "input.0") % 4 == 0 && value_of(a, "input.1") % 4 == 0;
                       },
                       true}};
  const Tally t = run_agreement(c);
  CHECK(t.agreements == t.draws);
  // Not vacuous: both outcomes occur among the random draws (the pinned points aside).
  CHECK(t.random_accepted > 0);
  CHECK(t.random_rejected > 0);
}

TEST_CASE("agreement: mnist_classifier, whose dense weights pin the spatial size", "[agreement]") {
  Case c = nnl_case("mnist_classifier");
  // Narrow ranges around 28 so that draws can reach the valid sizes (⌊(H−2)/2⌋ = 13: H ∈ {28, 29}).
  c.ranges = {{"input.0", 20, 34}, {"input.1", 20, 34}};
  c.pinned = {{{"input.0", 28}, {"input.1", 28}}, {{"input.0", 29}, {"input.1", 28}},
              {{"input.0", 28}, {"input.1", 29}}, {{"input.0", 27}, {"input.1", 28}},
              {{"input.0", 28}, {"input.1", 30}}};
  c.forms = {RangeForm{{{"input.0", 28, 29}, {"input.1", 28, 29}}, {}, nullptr, true}};
  const Tally t = run_agreement(c);
  CHECK(t.agreements == t.draws);
  CHECK(t.accepted > 0);
}

TEST_CASE("agreement: resnet_block, with same padding, is valid for every size", "[agreement]") {
  Case c = nnl_case("resnet_block");
  c.ranges = {{"input.0", 1, 12}, {"input.1", 1, 12}};  // 64 channels: small, so that evaluation is quick
  c.pinned = {{{"input.0", 1}, {"input.1", 1}}, {{"input.0", 12}, {"input.1", 1}}};
  const Tally t = run_agreement(c);
  CHECK(t.agreements == t.draws);
  CHECK(t.rejected == 0);
}

TEST_CASE("agreement: a valid 5x5 conv then a stride-2 pool needs H, W >= 6", "[agreement]") {
  const Tally t = run_agreement(conv5_pool_case());
  CHECK(t.agreements == t.draws);
}

TEST_CASE("agreement: a split into 3 needs the axis divisible by 3", "[agreement]") {
  const Tally t = run_agreement(split3_case());
  CHECK(t.agreements == t.draws);
}

TEST_CASE("agreement: reshape to [-1, 4] over a symbolic element count", "[agreement]") {
  const Tally t = run_agreement(reshape_case());
  CHECK(t.agreements == t.draws);
}

TEST_CASE("agreement: concat of two differently pooled branches", "[agreement]") {
  const Tally t = run_agreement(concat_pools_case());
  CHECK(t.agreements == t.draws);
}

// Memory grows with batch: x [N, 16] → linear (8 units) → relu. Held in doubles (8 bytes): the
// parameters, weight 16·8 = 128 and bias 8 elements, as read for the whole run and converted while
// fc runs; x (16N) until fc has read it, fc's output (8N) until relu has. The peak is while fc
// runs: 2·136 + 16N + 8N elements, so bytes(N) = 8·(24N + 272) = 192N + 2176 (relu's step holds
// 136 + 16N). With a budget of 100000 bytes, N ≤ 509 fits (99904 bytes) and N = 510 is the
// smallest batch over it (100096 bytes).
TEST_CASE("agreement: size.budget, the smallest batch over the budget", "[agreement][budget]") {
  constexpr int64_t kBudget = 100000;
  constexpr int64_t kFirstOver = 510;
  const auto bytes = [](int64_t n) { return 192 * n + 2176; };
  REQUIRE(bytes(kFirstOver - 1) <= kBudget);
  REQUIRE(bytes(kFirstOver) > kBudget);

  Case c;
  c.name = "budget_mlp";
  const int64_t x = c.graph.add("x", InputAttrs{{1, 16}});
  LinearAttrs lin;
  lin.units = 8;
  const int64_t fc = c.graph.add("fc", lin, {{x, 0}});
  const int64_t relu = c.graph.add("relu", UnaryAttrs{UnaryOp::Relu}, {{fc, 0}});
  c.graph.outputs.push_back({"y", {relu, 0}});
  zeros(c.payload, "fc", "weight", {16, 8});
  zeros(c.payload, "fc", "bias", {8});
  c.budget = kBudget;
  c.ranges = {{"batch", 1, 1000}};
  c.forms = {RangeForm{{{"batch", 1, kFirstOver - 1}}, {}, nullptr, true}};

  // The range form by hand: refuted at exactly the smallest batch over the budget.
  CheckSettings s;
  s.dims = c.ranges;
  s.budget = kBudget;
  s.scalar_size = kScalar;
  s.size_names = c.size_names;
  auto r = check_model(c.graph, c.payload, c.names, s);
  REQUIRE(r.ok());
  REQUIRE(r->counts.refuted == 1);
  CHECK(r->counts.unknown == 0);
  const Diagnostic* first = nullptr;
  for (const auto& d : r->diagnostics)
    if (d.severity == Severity::Error && first == nullptr) first = &d;
  REQUIRE(first != nullptr);
  INFO(format_diagnostic(*first));
  CHECK(first->code == "size.budget");
  CHECK(first->counterexample == Assignment{{"batch", kFirstOver}});

  z3::context ctx;
  auto symbols = SizeSymbols::bind(ctx, c.graph, c.size_names.empty() ? batched_size_names(c.graph) : c.size_names, c.ranges);
  REQUIRE(symbols.ok());
  const Reading over = concrete_reading(symbols->instantiate(c.graph, {{"batch", kFirstOver}}), c.payload, kBudget);
  INFO("concrete at batch " << kFirstOver << ": " << (over.accepted ? "accepts" : over.first));
  CHECK_FALSE(over.accepted);
  CHECK(over.code == "size.budget");
  const Reading under = concrete_reading(symbols->instantiate(c.graph, {{"batch", kFirstOver - 1}}), c.payload, kBudget);
  INFO("concrete at batch " << kFirstOver - 1 << ": " << (under.accepted ? "accepts" : under.first));
  CHECK(under.accepted);

  // And the random draws over 1..1000 (check_graph only where over budget; evaluation is cheap below).
  const Tally t = run_agreement(c);
  CHECK(t.agreements == t.draws);
  CHECK(t.accepted > 0);
  CHECK(t.rejected > 0);
}
