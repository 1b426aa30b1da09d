#include "checker/prover.hpp"

#include "checker/term_text.hpp"

#include <algorithm>

namespace nnref {

namespace {

// A minimisation (the smallest counterexample, the largest sizes that fit) is a sequence of
// solver calls, so it gets this many budgets. Measured: the checker's tests need up to 2; on
// resnet_block over 1..4096 the memory budget's search takes 0.07 s at 1, 0.66 s at 5 and 5.6 s
// at 10. When it runs out, the counterexample is some failing size rather than the smallest.
constexpr unsigned kOptimiserBudgets = 4;

}  // namespace

Prover::Prover(z3::context& c, const SizeSymbols& symbols, std::vector<z3::expr> assumptions, unsigned budget)
    : c_(c), symbols_(symbols), facts_(symbols.range_constraints()), solver_(c), bounds_(symbols), budget_(budget) {
  for (auto& a : assumptions) facts_.push_back(std::move(a));
  solver_.set(budget_params());
  for (const auto& f : facts_) solver_.add(f);
}

z3::params Prover::budget_params(unsigned budgets) {
  z3::params p(c_);
  p.set("rlimit", static_cast<unsigned>(std::min<uint64_t>(uint64_t{budget_} * budgets, UINT32_MAX)));
  p.set("ctrl_c", false);  // Ctrl-C ends nnref, rather than cancelling one call and going on
  return p;
}

std::string Prover::unknown_reason() {
  const std::string z3_says = solver_.reason_unknown();
  // Z3 4.8 says "canceled" when a call runs out of its resource limit: say which limit.
  if (z3_says == "canceled" || z3_says.find("resource") != std::string::npos)
    return "it used its whole budget of " + std::to_string(budget_) + " units";
  return z3_says;
}

z3::check_result Prover::admissible() {
  ++solver_calls_;
  return solver_.check();
}

Assignment Prover::read(const z3::model& m) const {
  Assignment a;
  for (const auto& s : symbols_.symbols()) {
    int64_t v = 0;
    m.eval(s.var, true).is_numeral_i64(v);
    a.emplace_back(s.name, v);
  }
  return a;
}

std::optional<Assignment> Prover::optimise(const z3::expr& goal, bool maximise) {
  z3::optimize opt(c_);
  opt.set(budget_params(kOptimiserBudgets));
  for (const auto& f : facts_) opt.add(f);
  opt.add(goal);
  for (const auto& s : symbols_.symbols()) maximise ? opt.maximize(s.var) : opt.minimize(s.var);  // lexicographic
  ++solver_calls_;
  if (opt.check() != z3::sat) return std::nullopt;
  return read(opt.get_model());
}

z3::expr Prover::simplify(const z3::expr& term) {
  auto it = simplified_.find(term.id());
  if (it == simplified_.end()) it = simplified_.emplace(term.id(), std::pair{term, term.simplify()}).first;
  return it->second.second;
}

z3::expr Prover::settle(const z3::expr& raw) {
  const z3::expr term = simplify(raw);
  if (!term.is_app() || term.num_args() == 0) return term;  // a number or a size symbol
  if (facts_settled_ != facts_.size()) {
    // The facts grew (a refuted or undecided obligation is assumed from now on): what was
    // settled stays equal, but an ite left undecided may be decided now.
    settled_.clear();
    ites_decided_.clear();
    implied_.clear();
    facts_model_.reset();
    facts_model_tried_ = false;
    facts_settled_ = facts_.size();
  }
  if (auto it = settled_.find(term.id()); it != settled_.end()) return it->second.result;
  bool had_ite = false;
  z3::expr out = decide_ites(term, had_ite);
  if (had_ite) {
    out = simplify(out);
    // Still a term: it may have one value wherever the facts hold (broadcasting [C] against [3]
    // where C must be 1 or 3 gives C == 1 ? 3 : C, which is 3 for both). Any model of the facts
    // gives the only candidate, and one call proves that no admissible size gives another.
    const z3::model* m = out.is_numeral() ? nullptr : facts_model();
    int64_t v = 0;
    if (m && m->eval(out, true).is_numeral_i64(v)) {
      const z3::expr value = c_.int_val(v);
      bool fixed = bounds_.holds_everywhere(out == value).has_value();
      if (!fixed) {
        solver_.push();
        solver_.add(out != value);
        ++solver_calls_;
        fixed = solver_.check() == z3::unsat;
        solver_.pop();
      }
      if (fixed) out = value;
    }
  }
  settled_.emplace(term.id(), Settled{term, out, had_ite});
  return out;
}

z3::expr Prover::decide_ites(const z3::expr& e, bool& had_ite) {
  had_ite = false;
  if (!e.is_app() || e.num_args() == 0) return e;
  if (auto it = ites_decided_.find(e.id()); it != ites_decided_.end()) {
    had_ite = it->second.had_ite;
    return it->second.result;
  }
  z3::expr_vector args(c_);
  bool changed = false;
  for (unsigned i = 0; i < e.num_args(); ++i) {
    bool sub = false;
    args.push_back(decide_ites(e.arg(i), sub));
    had_ite = had_ite || sub;
    changed = changed || !z3::eq(args.back(), e.arg(i));
  }
  z3::expr r = changed ? e.decl()(args) : e;
  if (e.decl().decl_kind() == Z3_OP_ITE) {
    had_ite = true;
    const z3::expr cond = r.arg(0), then = r.arg(1), other = r.arg(2);
    if (implied(cond)) r = then;
    else if (implied(!cond)) r = other;
    else if (branches_agree(cond, then, other)) r = other;
  }
  ites_decided_.emplace(e.id(), Settled{e, r, had_ite});
  return r;
}

bool Prover::branches_agree(const z3::expr& cond, const z3::expr& then, const z3::expr& other) {
  // Broadcasting x against an extent 1 gives x == 1 ? 1 : x, which is x for every x: where the
  // condition is x == k, the branches agree when they do with k for x. No solver call.
  if (cond.decl().decl_kind() == Z3_OP_EQ) {
    for (unsigned side = 0; side < 2; ++side) {
      const z3::expr x = cond.arg(side), k = cond.arg(1 - side);
      if (!k.is_numeral() || x.is_numeral()) continue;
      z3::expr_vector from(c_), to(c_);
      from.push_back(x);
      to.push_back(k);
      z3::expr a = then, b = other;  // substitute is not const
      if (z3::eq(simplify(a.substitute(from, to)), simplify(b.substitute(from, to)))) return true;
    }
  }
  // Otherwise: whether the facts imply that where cond holds, the branches are equal.
  return implied(z3::implies(cond, then == other));
}

bool Prover::implied(const z3::expr& pred) {
  if (pred.is_true()) return true;
  if (pred.is_false()) return false;
  if (auto it = implied_.find(pred.id()); it != implied_.end()) return it->second.second;
  bool yes = bounds_.holds_everywhere(pred).has_value();
  // A model of the facts that violates pred shows they do not imply it, without a solver call;
  // so of an ite's condition and its negation, at most one reaches the solver.
  if (!yes)
    if (const z3::model* m = facts_model(); m && m->eval(pred, true).is_true()) {
      solver_.push();
      solver_.add(!pred);
      ++solver_calls_;
      yes = solver_.check() == z3::unsat;  // unknown: not shown, the ite stays
      solver_.pop();
    }
  implied_.emplace(pred.id(), std::pair{pred, yes});
  return yes;
}

const z3::model* Prover::facts_model() {
  if (!facts_model_tried_) {
    facts_model_tried_ = true;
    ++solver_calls_;
    if (solver_.check() == z3::sat) facts_model_ = solver_.get_model();
  }
  return facts_model_ ? &*facts_model_ : nullptr;
}

Outcome Prover::discharge(const z3::expr& pred) {
  const z3::expr p = simplify(pred);
  if (auto it = cache_.find(p.id()); it != cache_.end()) {
    // A refuted or undecided predicate has been assumed since (unless it fails everywhere), so
    // its recurrence is a consequence of the first failure, not a new one.
    if (it->second.verdict != Verdict::Proved && !it->second.everywhere) return Outcome{};
    return it->second;
  }
  Outcome out;
  out.formula = term_text(p);
  if (p.is_true() || bounds_.holds_everywhere(p)) return cache_.emplace(p.id(), out).first->second;
  if (p.is_false()) {
    out.verdict = Verdict::Refuted;
    out.everywhere = true;
    return cache_.emplace(p.id(), out).first->second;
  }
  solver_.push();
  solver_.add(!p);
  ++solver_calls_;
  const z3::check_result r = solver_.check();
  std::optional<Assignment> witness;
  if (r == z3::sat) witness = read(solver_.get_model());
  if (r == z3::unknown) out.reason = unknown_reason();
  solver_.pop();

  if (r == z3::unsat) return cache_.emplace(p.id(), out).first->second;
  if (r == z3::unknown) {
    out.verdict = Verdict::Unknown;
  } else {
    out.verdict = Verdict::Refuted;
    auto smallest = optimise(!p, false);
    out.counterexample = smallest ? *smallest : *witness;
    // Assumed from here on only where some size satisfies it; otherwise it fails everywhere.
    solver_.push();
    solver_.add(p);
    ++solver_calls_;
    out.everywhere = solver_.check() == z3::unsat;
    solver_.pop();
    if (out.everywhere) return cache_.emplace(p.id(), out).first->second;
  }
  // Later obligations are checked where this one holds (for Unknown: as if it held).
  facts_.push_back(p);
  solver_.add(p);
  return cache_.emplace(p.id(), out).first->second;
}

std::optional<Assignment> Prover::largest_satisfying(const z3::expr& pred) { return optimise(pred, true); }

int64_t Prover::value_at(const z3::expr& term, const Assignment& a) {
  z3::expr_vector from(c_), to(c_);
  for (const auto& s : symbols_.symbols())
    for (const auto& [name, v] : a)
      if (name == s.name) from.push_back(s.var), to.push_back(c_.int_val(v));
  z3::expr e = term;
  int64_t v = 0;
  e.substitute(from, to).simplify().is_numeral_i64(v);
  return v;
}

}  // namespace nnref
