#include "checker/prover.hpp"

#include "checker/term_text.hpp"

#include <algorithm>
#include <tuple>

namespace nnref {

namespace {

// The interval search judges one box (a pass of interval arithmetic over the facts and the goal,
// no Z3 call) per this many units of the solver budget: 10,000 boxes at the default budget.
// Measured: a box costs about 7 µs on the checker's small models; the memory budget of a CNN whose
// Dense weight pins (H/4)·(W/4), over batch 1..64 and H, W 32..1024, needs up to 3,809 boxes.
constexpr unsigned kUnitsPerBox = 5;
// The interval search for some admissible size judges at least this many boxes (a CNN whose
// weights pin ⌊H/4⌋·⌊W/4⌋ over H, W 32..1024 needs 198).
constexpr int64_t kSampleBoxes = 1'000;

std::string gave_up(const BoxSearch& s) {
  return s.end == BoxSearch::End::CannotEvaluate
             ? "so did the interval search, at a size where it cannot evaluate a term"
             : "so did the interval search, after " + std::to_string(s.boxes) + " boxes of sizes";
}

}  // namespace

Prover::Prover(z3::context& c, const SizeSymbols& symbols, std::vector<z3::expr> assumptions, unsigned budget)
    : c_(c), symbols_(symbols), facts_(symbols.range_constraints()), solver_(c), bounds_(symbols), budget_(budget) {
  for (auto& a : assumptions) facts_.push_back(std::move(a));
  solver_.set(budget_params());
  for (const auto& f : facts_) solver_.add(f);
}

z3::params Prover::budget_params() {
  z3::params p(c_);
  p.set("rlimit", budget_);
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

Prover::Search Prover::exists(const z3::expr& goal, bool maximise) {
  Search out;
  solver_.push();
  solver_.add(goal);
  ++solver_calls_;
  out.result = solver_.check();
  if (out.result == z3::sat) out.best = Optimum{read(solver_.get_model()), false, ""};
  if (out.result == z3::unknown) out.best.reason = "Z3 gave up: " + unknown_reason();
  solver_.pop();
  if (out.result != z3::unknown) return out;
  const BoxSearch s = search(goal, maximise);
  if (s.end == BoxSearch::End::Found) return Search{z3::sat, Optimum{s.sizes, true, ""}};
  if (s.end == BoxSearch::End::None) return Search{z3::unsat, {}};
  out.best.reason += "; " + gave_up(s);
  return out;
}

Prover::Search Prover::optimise(const z3::expr& goal, bool maximise) {
  Search out = exists(goal, maximise);
  if (out.result != z3::sat || out.best.optimal) return out;
  out.best = bisect(goal, maximise, std::move(out.best.sizes));
  if (out.best.optimal) return out;
  const BoxSearch s = search(goal, maximise);
  if (s.end == BoxSearch::End::Found) out.best = Optimum{s.sizes, true, ""};
  else out.best.reason += "; " + gave_up(s);
  return out;
}

Optimum Prover::bisect(const z3::expr& goal, bool maximise, Assignment witness) {
  Optimum out{std::move(witness), true, ""};
  solver_.push();
  solver_.add(goal);
  const auto& symbols = symbols_.symbols();
  for (size_t i = 0; i < symbols.size() && out.optimal; ++i) {
    const z3::expr& x = symbols[i].var;
    // The optimum lies between the value found and the end of the symbol's range. The first
    // probe is that end, where the optimum often is (the smallest batch, the largest extent).
    int64_t found = out.sizes[i].second;
    int64_t limit = maximise ? symbols[i].hi : symbols[i].lo;
    bool first = true;
    while (found != limit) {
      const int64_t mid = first ? limit : maximise ? found + (limit - found + 1) / 2 : found - (found - limit + 1) / 2;
      first = false;
      solver_.push();
      solver_.add(maximise ? x >= c_.int_val(mid) : x <= c_.int_val(mid));
      ++solver_calls_;
      const z3::check_result r = solver_.check();
      if (r == z3::sat) {
        out.sizes = read(solver_.get_model());
        found = out.sizes[i].second;
      } else if (r == z3::unsat) {
        limit = maximise ? mid - 1 : mid + 1;
      } else {
        out.optimal = false;
        out.reason = "Z3 gave up: " + unknown_reason();
      }
      solver_.pop();
      if (!out.optimal) break;
    }
    solver_.add(x == c_.int_val(found));
  }
  solver_.pop();
  return out;
}

int64_t Prover::max_boxes() const { return budget_ / kUnitsPerBox; }

BoxSearch Prover::search(const z3::expr& goal, bool maximise, std::optional<int64_t> boxes) {
  return search_boxes(symbols_, facts_, goal, maximise, boxes.value_or(max_boxes()));
}

z3::expr Prover::simplify(const z3::expr& term) {
  auto it = simplified_.find(term.id());
  if (it == simplified_.end()) it = simplified_.emplace(term.id(), std::pair{term, term.simplify()}).first;
  return it->second.second;
}

z3::expr Prover::settle(const z3::expr& raw) {
  const z3::expr term = simplify(raw);
  if (!term.is_app() || term.num_args() == 0) return term;  // a number or a size symbol
  refresh();
  if (auto it = settled_.find(term.id()); it != settled_.end()) return it->second.result;
  bool had_ite = false;
  z3::expr out = decide_ites(term, had_ite);
  if (had_ite) out = simplify(out);
  out = tidy(out);
  if (had_ite) {
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

std::pair<z3::expr, int64_t> Prover::split_constant(const z3::expr& sum) {
  if (!sum.is_app() || sum.decl().decl_kind() != Z3_OP_ADD) return {sum, 0};
  int64_t c = 0;
  z3::expr rest = c_.int_val(0);
  for (unsigned i = 0; i < sum.num_args(); ++i) {
    int64_t v = 0;
    if (c == 0 && sum.arg(i).is_numeral_i64(v)) c = v;
    else rest = rest + sum.arg(i);
  }
  return {simplify(rest), c};
}

z3::expr Prover::tidy(const z3::expr& e) {
  if (!e.is_app() || e.num_args() == 0) return e;
  refresh();
  if (auto it = tidied_.find(e.id()); it != tidied_.end()) return it->second.second;
  z3::expr_vector args(c_);
  bool changed = false;
  for (unsigned i = 0; i < e.num_args(); ++i) {
    args.push_back(tidy(e.arg(i)));
    changed = changed || !z3::eq(args.back(), e.arg(i));
  }
  z3::expr r = changed ? simplify(e.decl()(args)) : e;
  int64_t k = 0;
  if (r.decl().decl_kind() == Z3_OP_IDIV && r.arg(1).is_numeral_i64(k) && k >= 1) {
    const z3::expr x = r.arg(0);
    int64_t j = 0;
    if (x.is_app() && x.decl().decl_kind() == Z3_OP_IDIV && x.arg(1).is_numeral_i64(j) && j >= 1 &&
        j <= INT64_MAX / k) {
      r = tidy(x.arg(0) / c_.int_val(j * k));  // ⌊⌊y/j⌋/k⌋ = ⌊y/(j·k)⌋
    } else if (const auto [rest, c] = split_constant(x); c != 0) {
      const int64_t q = c >= 0 ? c / k : -((-c + k - 1) / k), m = c - q * k;  // c = q·k + m, 0 <= m < k
      z3::expr y = rest;
      int64_t cj = 0;
      // ⌈⌈y/j⌉/k⌉ = ⌈y/(j·k)⌉, ⌈y/j⌉ being ⌊(y + j - 1)/j⌋: strided "same" convolutions.
      if (c == k - 1 && rest.is_app() && rest.decl().decl_kind() == Z3_OP_IDIV && rest.arg(1).is_numeral_i64(j) &&
          j >= 1 && j <= INT64_MAX / k && (std::tie(y, cj) = split_constant(rest.arg(0)), cj == j - 1))
        r = tidy((y + c_.int_val(j * k - 1)) / c_.int_val(j * k));
      else if (m == 0 || implied(z3::mod(rest, c_.int_val(k)) == 0))
        r = tidy(rest / c_.int_val(k)) + c_.int_val(q);
    }
    r = simplify(r);
  }
  tidied_.emplace(e.id(), std::pair{e, r});
  return r;
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

void Prover::refresh() {
  if (facts_settled_ == facts_.size()) return;
  // The facts grew (a refuted or undecided obligation is assumed from now on): what was settled
  // stays equal, but an ite left undecided may be decided now, and the model may not hold.
  settled_.clear();
  ites_decided_.clear();
  implied_.clear();
  tidied_.clear();
  facts_model_.reset();
  facts_model_tried_ = false;
  facts_settled_ = facts_.size();
}

const z3::model* Prover::facts_model() {
  refresh();
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
  out.formula = term_text(tidy(p));
  if (p.is_true() || bounds_.holds_everywhere(p)) return cache_.emplace(p.id(), out).first->second;
  if (p.is_false()) {
    out.verdict = Verdict::Refuted;
    out.everywhere = true;
    return cache_.emplace(p.id(), out).first->second;
  }
  const Search failing = optimise(!p, false);
  if (failing.result == z3::unsat) return cache_.emplace(p.id(), out).first->second;
  if (failing.result == z3::unknown) {
    out.verdict = Verdict::Unknown;
    out.reason = failing.best.reason;
    // Some admissible size, to say where the failure would be (the budget's largest tensor):
    // found with at least kSampleBoxes boxes, so that a small budget still names one.
    if (const z3::model* m = facts_model()) out.sample = read(*m);
    else if (BoxSearch any = search(c_.bool_val(true), false, std::max(max_boxes(), kSampleBoxes));
             any.end == BoxSearch::End::Found)
      out.sample = any.sizes;
  } else {
    out.verdict = Verdict::Refuted;
    out.counterexample = failing.best.sizes;
    out.smallest = failing.best.optimal;
    out.reason = failing.best.reason;
    // Assumed from here on only where some size satisfies it; otherwise it fails everywhere.
    out.everywhere = exists(p, false).result == z3::unsat;
    if (out.everywhere) return cache_.emplace(p.id(), out).first->second;
  }
  // Later obligations are checked where this one holds (for Unknown: as if it held).
  facts_.push_back(p);
  solver_.add(p);
  return cache_.emplace(p.id(), out).first->second;
}

Prover::Search Prover::largest_satisfying(const z3::expr& pred) { return optimise(pred, true); }

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
