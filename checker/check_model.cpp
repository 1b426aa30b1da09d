#include "checker/check_model.hpp"

#include <optional>
#include <set>

#include "checker/assume_expr.hpp"
#include "checker/prover.hpp"
#include "checker/sym_dim.hpp"
#include "checker/term_text.hpp"
#include "semantics/binding_rule.hpp"
#include "semantics/node_rule.hpp"

namespace nnref {

namespace {

// Whether `name` occurs in `text` as a whole name (not inside a longer one).
bool mentions(const std::string& text, const std::string& name) {
  const auto part = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.'; };
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const size_t end = at + name.size();
    if ((at == 0 || !part(text[at - 1])) && (end == text.size() || !part(text[end]))) return true;
  }
  return false;
}

// Receives every obligation of every node, decides it (known ones at once, the others with the
// prover), counts it, and turns each failure into a located diagnostic.
class SymbolicSink {
 public:
  SymbolicSink(Prover& prover, const SizeSymbols& symbols, CheckReport& report)
      : prover_(prover), symbols_(symbols), report_(report) {}

  void at(const Node* node) { node_ = node; }

  void require(bool holds, std::string_view code, std::string message) { require(SymPred(holds), code, std::move(message)); }

  void require(const SymPred& pred, std::string_view code, std::string message) {
    ++report_.counts.total;
    if (pred.is_known()) {
      if (pred.known()) {
        ++report_.counts.proved;
      } else {
        ++report_.counts.refuted;
        emit(make_error(std::string(code), std::move(message)));
      }
      return;
    }
    const Outcome o = prover_.discharge(pred.term());
    if (o.verdict == Verdict::Proved) {
      ++report_.counts.proved;
      return;
    }
    Diagnostic d = make_error(std::string(code), std::move(message));
    if (o.verdict == Verdict::Unknown) {
      ++report_.counts.unknown;
      d.message = "could not be decided: " + d.message;
      d.notes.push_back("Z3 gave up: " + o.reason + "; raise --solver-budget or narrow the --dim ranges");
    } else {
      ++report_.counts.refuted;
      d.counterexample = o.counterexample;
    }
    d.notes.push_back("needs " + o.formula + allowed(o.formula));
    if (o.everywhere) d.notes.push_back("this fails for every size the --dim ranges and --assume options admit");
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
  CheckReport& report_;
  const Node* node_ = nullptr;
};

// One Z3 context per thread, created once and never destroyed: Z3 4.8's Z3_del_context takes
// time quadratic in the terms a check has made (270 s after a 10,000-node model), while the
// terms themselves are freed by reference counting as each check ends.
z3::context& shared_context() {
  static thread_local z3::context* ctx = new z3::context;
  return *ctx;
}

using NodeShapes = std::vector<std::optional<ShapeOut<SymDim>>>;  // per node; nullopt where a rule could not run

// The shapes a node reads, or nullopt when one is unknown (an earlier failure) or missing.
std::optional<std::vector<Dims<SymDim>>> node_inputs(const Graph& g, const Node& node, const NodeShapes& shapes,
                                                     SymbolicSink& sink) {
  std::vector<Dims<SymDim>> in;
  for (const auto& r : node.inputs) {
    const auto& parent = shapes[static_cast<size_t>(r.node)];
    if (!parent) return std::nullopt;
    if (r.output >= static_cast<int>(parent->outputs.size())) {
      sink.require(false, "graph.output-index",
                   "reads output " + std::to_string(r.output) + " of node '" + g.nodes[static_cast<size_t>(r.node)].name +
                       "', which has " + std::to_string(parent->outputs.size()));
      return std::nullopt;
    }
    in.push_back(parent->outputs[static_cast<size_t>(r.output)]);
  }
  return in;
}

// Simplified at each node so that terms stay small along a chain of layers: "same" padding
// mentions its input several times, so unsimplified terms would grow exponentially.
void simplify_shapes(ShapeOut<SymDim>& out, Prover& prover) {
  const auto simplify = [&](SymDim& d) {
    if (d.is_known()) return;
    const z3::expr t = prover.simplify(d.term());
    int64_t v = 0;
    d = t.is_numeral_i64(v) ? SymDim(v) : SymDim(t);
  };
  for (auto& dims : out.outputs)
    for (auto& d : dims) simplify(d);
  for (auto& p : out.params)
    for (auto& d : p.dims) simplify(d);
}

// One tensor evaluation holds, for the memory obligation.
struct Held {
  const Node* node;
  std::string what;
  SymDim bytes;
};

// Σ bytes ≤ budget, and where it fails, the largest admissible sizes that fit.
void require_budget(const std::vector<Held>& held, const CheckSettings& s, Prover& prover, SymbolicSink& sink,
                    CheckReport& report) {
  SymDim total = int64_t{0};
  for (const auto& h : held) total = total + h.bytes;
  const size_t before = report.diagnostics.size();
  const SymPred fits = total <= SymDim(s.budget);
  sink.at(nullptr);
  const std::string over = "over the budget of " + std::to_string(s.budget) + " bytes (--max-memory)";
  sink.require(fits, "size.budget",
               total.is_known() ? "evaluation needs " + std::to_string(total.known()) + " bytes, " + over
                                : "evaluation can need more bytes than fit, " + over);
  if (report.diagnostics.size() == before) return;
  // Locate it at the node holding the largest tensor for the failing sizes: the place to start shrinking.
  Diagnostic& d = report.diagnostics.back();
  const auto value = [&](const SymDim& x) {
    return x.is_known() ? x.known() : prover.value_at(x.term(), d.counterexample);
  };
  const Held* largest = nullptr;
  int64_t largest_bytes = -1;
  const bool sizes_known = total.is_known() || !d.counterexample.empty();  // not when undecided
  for (const auto& h : held)
    if (int64_t b = value(h.bytes); sizes_known && b > largest_bytes) largest = &h, largest_bytes = b;
  if (!total.is_known() && !d.counterexample.empty())
    d.notes.push_back("at the counterexample it needs " + std::to_string(value(total)) + " bytes");
  if (largest) {
    d.loc = largest->node->loc;
    d.node = largest->node->name;
    d.notes.push_back("the largest tensor is " + largest->what + ", " + std::to_string(largest_bytes) + " bytes" +
                      (d.counterexample.empty() ? "" : " at the counterexample"));
  }
  if (!fits.is_known() && !d.counterexample.empty())  // refuted, not undecided
    if (auto fit = prover.largest_satisfying(fits.term())) {
      std::string s2;
      for (const auto& [name, v] : *fit) s2 += (s2.empty() ? "" : ", ") + name + " = " + std::to_string(v);
      d.notes.push_back("the largest admissible sizes that fit (maximised in --dim order): " + s2);
    }
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
  auto symbols = SizeSymbols::bind(ctx, g, settings.dims, settings.batch_prepended);
  if (!symbols) return std::move(symbols).error();
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

  SymbolicSink sink(prover, *symbols, report);
  NodeShapes shapes;
  std::set<std::pair<std::string, std::string>> used;
  std::vector<Held> held;
  for (const Node& node : g.nodes) {
    sink.at(&node);
    const auto in = node_inputs(g, node, shapes, sink);
    std::optional<ShapeOut<SymDim>> out;
    if (in && std::holds_alternative<InputAttrs>(node.op)) {
      out = ShapeOut<SymDim>{{symbols->input_dims(node)}, {}};  // its size symbols, not the declared dims
      require_valid_shapes(op_name(node.op), *out, sink);
    } else if (in) {
      out = node_obligations(node.op, *in, sink);
    }
    if (!out) {
      // Its parameters are not known: do not call them unused.
      for (const auto& [key, entry] : payload.entries())
        if (key.first == node.name) used.insert(key);
      shapes.push_back(std::nullopt);
      continue;
    }
    simplify_shapes(*out, prover);
    for (size_t k = 0; k < out->outputs.size(); ++k)
      held.push_back({&node, "the output of node '" + node.name + "'" + (k ? " #" + std::to_string(k) : ""),
                      element_count(out->outputs[k]) * settings.scalar_size});
    for (const auto& p : out->params) {
      const ParamEntry* e = payload.find(node.name, p.role);
      if (e) used.insert({node.name, p.role});
      require_binding(p, e, param_name(names, node.name, p.role), sink);
      held.push_back({&node, "parameter " + node.name + "/" + p.role, element_count(p.dims) * settings.scalar_size});
    }
    shapes.push_back(std::move(out));
  }
  sink.at(nullptr);
  for (const auto& o : g.outputs) {
    const auto& node_shapes = shapes[static_cast<size_t>(o.value.node)];
    sink.require(!node_shapes || o.value.output < static_cast<int>(node_shapes->outputs.size()), "graph.output",
                 "output '" + o.name + "' refers to no output of its node");
  }
  require_budget(held, settings, prover, sink, report);
  for (auto& d : unused_parameters(payload, used, names)) report.diagnostics.push_back(std::move(d));
  report.solver_calls = prover.solver_calls();
  return report;
}

}  // namespace nnref
