#include "checker/prover.hpp"

#include "checker/term_text.hpp"

namespace nnref {

Prover::Prover(z3::context& c, const SizeSymbols& symbols, std::vector<z3::expr> assumptions, unsigned timeout_ms)
    : c_(c), symbols_(symbols), facts_(symbols.range_constraints()), solver_(c), bounds_(symbols), timeout_ms_(timeout_ms) {
  for (auto& a : assumptions) facts_.push_back(std::move(a));
  z3::params p(c_);
  p.set("timeout", timeout_ms_);
  solver_.set(p);
  for (const auto& f : facts_) solver_.add(f);
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
  z3::params p(c_);
  p.set("timeout", timeout_ms_);
  opt.set(p);
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
  if (r == z3::unknown) out.reason = solver_.reason_unknown();
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
