#include "checker/check_model.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "checker/assume_expr.hpp"
#include "checker/prover.hpp"
#include "checker/sym_dim.hpp"
#include "checker/term_text.hpp"
#include "checker/sym_rules.hpp"
#include "semantics/graph_walk.hpp"

namespace nnref {

namespace {

// "batch = 1, input.0 = 64".
std::string show(const Assignment& a) {
  std::string s;
  for (const auto& [name, v] : a) s += (s.empty() ? "" : ", ") + name + " = " + std::to_string(v);
  return s;
}

// Whether `name` occurs in `text` as a whole name (not inside a longer one).
bool mentions(const std::string& text, const std::string& name) {
  const auto part = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.'; };
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const size_t end = at + name.size();
    if ((at == 0 || !part(text[at - 1])) && (end == text.size() || !part(text[end]))) return true;
  }
  return false;
}

// The symbolic reading of the graph walk: decides each obligation (known ones at once, the others
// with the prover), counts it, and turns each failure into a located diagnostic.
class SymbolicReading final : public GraphReading<SymDim>, private ObligationSink<SymDim> {
 public:
  SymbolicReading(Prover& prover, const SizeSymbols& symbols, const CheckSettings& settings, CheckReport& report,
                  const Graph& g)
      : prover_(prover), symbols_(symbols), settings_(settings), report_(report), graph_(&g) {}

  ObligationSink<SymDim>& sink() override { return *this; }
  void at(const Node* node) override {
    node_ = node;
    failed_ = false;
  }
  bool node_failed() const override { return failed_; }
  Dims<SymDim> input_dims(const Node& input) override { return symbols_.input_dims(input); }
  // Simplified at each node so that terms stay small along a chain of layers: "same" padding
  // mentions its input several times, so unsimplified terms would grow exponentially. And
  // settled under the facts, so that an extent prints without the case splits the facts decide
  // ("3", not "(input.2 == 1 ? 3 : input.2)" once input.2 must be 1 or 3), and one they fix is
  // known from then on.
  void settle(ShapeOut<SymDim>& out) override {
    const auto simplify = [&](SymDim& d) {
      if (d.is_known()) return;
      const z3::expr t = prover_.settle(d.term());
      int64_t v = 0;
      d = t.is_numeral_i64(v) ? SymDim(v) : SymDim(t);
    };
    for (auto& dims : out.outputs)
      for (auto& d : dims) simplify(d);
    for (auto& p : out.params)
      for (auto& d : p.dims) simplify(d);
  }
  void require_budget(const MemoryUse<SymDim>& use) override;

  void require(const SymPred& pred, const ObligationSpec& obligation, std::string message) override {
    ++report_.counts.total;
    const std::string code(obligation.code);
    last_ = Outcome{};
    if (pred.is_known()) {
      if (pred.known()) {
        ++report_.counts.proved;
      } else {
        ++report_.counts.refuted;
        failed_ = true;
        emit(make_error(code, std::move(message)));
      }
      return;
    }
    last_ = prover_.discharge(pred.term());
    const Outcome& o = last_;
    if (o.verdict == Verdict::Proved) {
      ++report_.counts.proved;
      return;
    }
    Diagnostic d = make_error(code, std::move(message));
    if (o.verdict == Verdict::Unknown) {
      ++report_.counts.unknown;
      d.message = "could not be decided: " + d.message;
      d.notes.push_back(o.reason + "; raise --solver-budget or narrow the --dim ranges");
    } else {
      ++report_.counts.refuted;
      d.counterexample = o.counterexample;
      d.counterexample_minimised = o.smallest;
      if (!o.smallest)
        d.notes.push_back("the counterexample is not minimised: " + o.reason +
                          "; raise --solver-budget for the smallest");
    }
    d.notes.push_back("needs " + o.formula + allowed(o.formula));
    if (o.everywhere) {
      d.notes.push_back("this fails for every size the --dim ranges and --assume options admit");
      failed_ = true;
    }
    emit(std::move(d));
  }

 private:
  // ", but --dim allows input.0 = 1..100" for the symbols the formula mentions.
  std::string allowed(const std::string& formula) const {
    std::string s;
    for (const auto& sym : symbols_.symbols())
      if (mentions(formula, sym.name))
        s += (s.empty() ? ", but --dim allows " : ", ") + sym.name + " = " + std::to_string(sym.lo) + ".." +
             std::to_string(sym.hi);
    return s;
  }

  void emit(Diagnostic d) { report_.diagnostics.push_back(node_ ? at_node(std::move(d), *node_) : std::move(d)); }

  Prover& prover_;
  const SizeSymbols& symbols_;
  const CheckSettings& settings_;
  CheckReport& report_;
  const Graph* graph_;
  const Node* node_ = nullptr;
  bool failed_ = false;  // an obligation of the current node fails for every admissible size
  Outcome last_;         // the prover's outcome for the last obligation (Proved when it was known)
};

// One Z3 context per thread, created once and never destroyed: Z3 4.8's Z3_del_context takes
// time quadratic in the terms a check has made (270 s after a 10,000-node model), while the
// terms themselves are freed by reference counting as each check ends.
z3::context& shared_context() {
  static thread_local z3::context* ctx = new z3::context;
  return *ctx;
}

// Σ bytes live ≤ budget while each node runs, and where it fails, the largest admissible sizes
// that fit.
void SymbolicReading::require_budget(const MemoryUse<SymDim>& use) {
  const int64_t budget = settings_.budget;
  const std::vector<SymDim> totals = use.totals();
  SymPred fits = true;
  // The peak as a number when every step is known; the message is the same in the concrete reading.
  std::optional<int64_t> peak = 0;
  for (const SymDim& b : totals) {
    fits = fits && (b <= SymDim(budget));
    peak = peak && b.is_known() ? std::optional(std::max(*peak, b.known())) : std::nullopt;
  }
  const size_t before = report_.diagnostics.size();
  at(nullptr);
  const std::string over = "over the budget of " + std::to_string(budget) + " bytes (--max-memory)";
  require(fits, kBudget,
          peak ? "evaluation needs " + std::to_string(*peak) + " bytes at its peak, " + over
               : "evaluation can need more bytes than fit, " + over);
  if (report_.diagnostics.size() == before) return;
  Diagnostic& d = report_.diagnostics.back();
  // The sizes to read the peak at: the counterexample, or when undecided some admissible size.
  const bool undecided = last_.verdict == Verdict::Unknown;
  const Assignment& sizes = undecided ? last_.sample : d.counterexample;
  if (!peak && sizes.empty()) return;  // no sizes to read the peak at
  const std::string there = undecided ? "at the admissible size " + show(sizes) : "at the counterexample";
  const Peak<SymDim> at_peak = find_peak(use, totals, [&](const SymDim& x) {
    return x.is_known() ? x.known() : prover_.value_at(x.term(), sizes);
  });
  if (!peak) d.notes.push_back(there + " it needs " + std::to_string(at_peak.bytes) + " bytes at its peak");
  if (at_peak.largest) {
    const Node& node = graph_->nodes[static_cast<size_t>(at_peak.largest->node)];
    d.loc = node.loc;
    d.node = node.name;
    d.notes.push_back("the largest tensor is " + at_peak.largest->what + ", " + std::to_string(at_peak.largest_bytes) +
                      " bytes" + (peak ? "" : " " + there));
  }
  if (undecided) {
    d.notes.push_back("to decide it, narrow the --dim ranges or --assume the sizes the model allows (those the "
                      "weights pin, say), so that fewer sizes remain to cover");
    return;
  }
  if (fits.is_known()) return;
  const Prover::Search fit = prover_.largest_satisfying(fits.term());
  if (fit.result == z3::sat)
    d.notes.push_back(fit.best.optimal
                          ? "the largest admissible sizes that fit (maximised in --dim order): " + show(fit.best.sizes)
                          : "admissible sizes that fit (not maximised: " + fit.best.reason + "): " + show(fit.best.sizes));
  else if (fit.result == z3::unknown)
    d.notes.push_back("no admissible sizes that fit were found: " + fit.best.reason);
}

// The size names no --dim ranges over, each at its extent; a name whose extents differ (the walk
// reads each input's own) with each input's.
std::vector<FixedSize> fixed_sizes(const Graph& g, const std::vector<SizeName>& names, const std::vector<DimRange>& dims) {
  std::vector<FixedSize> out;
  std::vector<std::vector<std::pair<std::string, int64_t>>> extents;  // per entry of `out`: every input's
  for (const SizeName& n : names) {
    if (std::any_of(dims.begin(), dims.end(), [&](const DimRange& d) { return d.name == n.name; })) continue;
    const Node& input = g.nodes[static_cast<size_t>(n.node)];
    const int64_t v = std::get<InputAttrs>(input.op).dims[n.axis];
    const auto seen = std::find_if(out.begin(), out.end(), [&](const FixedSize& f) { return f.name == n.name; });
    if (seen == out.end()) {
      out.push_back({n.name, v, n.symbolic, {}});
      extents.push_back({{input.name, v}});
      continue;
    }
    seen->left_open = seen->left_open || n.symbolic;
    extents[static_cast<size_t>(seen - out.begin())].emplace_back(input.name, v);
  }
  for (size_t k = 0; k < out.size(); ++k)
    for (const auto& [input, v] : extents[k])
      if (v != out[k].value) out[k].by_input = extents[k];
  return out;
}

}  // namespace

Result<CheckReport> check_model(const Graph& g, const Payload& payload, const ParamNames& names,
                                const CheckSettings& settings) {
  CheckReport report;
  report.ranges = settings.dims;
  auto structure = check_structure(g);
  if (!structure.empty()) {
    report.counts.total = report.counts.refuted = static_cast<int64_t>(structure.size());
    report.diagnostics = std::move(structure);
    return report;
  }

  z3::context& ctx = shared_context();
  TermTextCache texts;
  const std::vector<SizeName> size_names = settings.size_names.empty() ? batched_size_names(g) : settings.size_names;
  auto symbols = SizeSymbols::bind(ctx, g, size_names, settings.dims);
  if (!symbols) return std::move(symbols).error();
  report.fixed_sizes = fixed_sizes(g, size_names, settings.dims);
  std::vector<z3::expr> assumptions;
  for (const auto& text : settings.assumptions) {
    auto a = parse_assumption(text, [&](const std::string& n) { return symbols->lookup(n); });
    if (!a) return std::move(a).error();
    if (!a->is_known())
      assumptions.push_back(a->term());
    else if (!a->known())
      return make_error("usage.assume", "--assume '" + text + "' is false for the declared sizes");
  }
  Prover prover(ctx, *symbols, std::move(assumptions), settings.solver_budget);
  if (prover.admissible() == z3::unsat)
    return make_error("usage.assume", "no size satisfies the --dim ranges and the --assume options together");

  SymbolicReading reading(prover, *symbols, settings, report, g);
  const Payload* bound = settings.check_bindings ? &payload : nullptr;
  const WalkResult<SymDim> w = walk_graph<SymDim>(g, bound, names, reading, settings.scalar_size);
  add_skip_notes(g, w.root, report.diagnostics);
  if (bound)
    for (auto& d : unused_parameters(payload, w.used, names)) report.diagnostics.push_back(std::move(d));
  report.bindings_checked = settings.check_bindings;
  report.solver_calls = prover.solver_calls();
  return report;
}

}  // namespace nnref
