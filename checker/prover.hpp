// Discharges obligations with Z3, one at a time and in order (DESIGN idea 3). Each obligation is
// checked for every size the ranges and assumptions admit, with the earlier obligations assumed
// (so a refutation names the first place a size fails, not every consequence of it). Known
// predicates, and those that interval bounds over the ranges prove, never reach Z3; equal predicates (Z3 terms are hash-consed) are decided once; the
// solver is incremental (push/pop). Each solver call has a resource budget (Z3's rlimit), after
// which Z3's answer is unknown; then the interval search (checker/box_search.hpp) tries, and
// only when it gives up too is the verdict Unknown. Never a time limit: Z3 4.8's timer can deadlock the call it times
// (Z3 issue 5990), and a budget gives the same verdict on every machine and every run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <z3++.h>

#include "checker/bounds.hpp"
#include "checker/box_search.hpp"
#include "checker/size_symbols.hpp"

namespace nnref {

enum class Verdict { Proved, Refuted, Unknown };

struct Outcome {
  Verdict verdict = Verdict::Proved;
  Assignment counterexample;  // Refuted: failing sizes, the smallest in symbol order when `smallest`
  bool smallest = true;       // Refuted: the counterexample is proved the smallest
  bool everywhere = false;    // Refuted: no admissible size satisfies it
  // Unknown: why it was not decided; Refuted and not smallest: why the minimisation stopped.
  std::string reason;
  Assignment sample;          // Unknown: some admissible size (where it may or may not hold), if found
  std::string formula;        // the predicate after simplification, in --assume syntax
};

// Admissible sizes that optimise something, and whether they are proved optimal.
struct Optimum {
  Assignment sizes;
  bool optimal = true;
  std::string reason;  // not optimal: why the search stopped
};

class Prover {
 public:
  Prover(z3::context& c, const SizeSymbols& symbols, std::vector<z3::expr> assumptions, unsigned budget);

  // Whether any size satisfies the ranges and assumptions (sat), none does (unsat), or unknown.
  z3::check_result admissible();
  Outcome discharge(const z3::expr& pred);
  // The term simplified by Z3, memoised: Z3's simplify costs ~15 µs a call, and along a chain
  // of layers the same raw term recurs.
  z3::expr simplify(const z3::expr& term);
  // The term simplified, then, where it contains an ite (a size rule's case split: broadcasting,
  // max, division by a size), settled under the facts: each ite whose condition the facts decide
  // (interval bounds first, else one solver call) is replaced by its branch, so is each whose
  // branches are equal where its condition holds (x == 1 ? 1 : x is x), and the whole term by a
  // number when the facts fix its value. The result equals the term for every size the facts
  // admit, and facts only grow, so it stays equal for every later obligation: a verdict never
  // depends on it. Undecided or out of budget, the ite stays. Memoised, as simplify.
  z3::expr settle(const z3::expr& term);
  // The term with its floor divisions by constants written as a person would, equal wherever the
  // facts hold: ⌊⌊x/a⌋/b⌋ is ⌊x/(a·b)⌋ (always), ⌊(x + q·k)/k⌋ is ⌊x/k⌋ + q (always), and
  // ⌈⌈x/a⌉/b⌉ is ⌈x/(a·b)⌉ (always), and ⌊(x + r)/k⌋ with 0 < r < k is x/k where the facts imply
  // x % k == 0 (one solver call at most, memoised). Five halvings of input.0 read input.0 / 32 under input.0 % 32 == 0. Memoised
  // until the facts grow; settle applies it, and the "needs" formulas are printed through it.
  z3::expr tidy(const z3::expr& term);
  // A sum as (the rest, its constant term), the constant 0 when there is none.
  std::pair<z3::expr, int64_t> split_constant(const z3::expr& sum);
  // Whether some admissible size satisfies `goal`: sat with such sizes in `best`, unsat when
  // none does, unknown (with the reason in best.reason) when neither Z3 nor the interval search
  // could tell.
  struct Search {
    z3::check_result result = z3::unknown;
    Optimum best;
  };
  // Whether some admissible size satisfies pred, with the largest such sizes, maximised in symbol order.
  Search largest_satisfying(const z3::expr& pred);
  // The value of an integer term at the given sizes.
  int64_t value_at(const z3::expr& term, const Assignment& a);

  int64_t solver_calls() const { return solver_calls_; }

 private:
  // Bounds each solver call by the budget.
  z3::params budget_params();
  // Why the last solver call was undecided, in the user's terms.
  std::string unknown_reason();
  Assignment read(const z3::model& m) const;
  // Z3 first, the interval search when Z3 gives up (whose sizes are then the optimum; Z3's model
  // is any size, not marked optimal, with an empty reason).
  Search exists(const z3::expr& goal, bool maximise);
  // The lexicographic optimum (in symbol order; the largest when `maximise`) of the facts and
  // `goal`: a binary search per symbol with Z3 (bisect), or when one of its steps is unknown the
  // interval search's optimum; when that gives up too, the best sizes found, not optimal.
  Search optimise(const z3::expr& goal, bool maximise);
  // optimise's part with Z3: symbol by symbol in order, the binary search for its optimum with
  // the earlier symbols fixed at theirs, each step one solver call ("some model of the facts, goal
  // and s <= mid" is monotone in mid). Stops at the first unknown step, with the best sizes found.
  Optimum bisect(const z3::expr& goal, bool maximise, Assignment witness);
  // The interval search for the optimum over the facts as they are now, within `boxes` boxes
  // (by default max_boxes).
  BoxSearch search(const z3::expr& goal, bool maximise, std::optional<int64_t> boxes = {});
  int64_t max_boxes() const;
  // When the facts have grown since settle's memos and the model of the facts were computed,
  // clears them.
  void refresh();
  // settle's parts: a model of the facts as they are now (null when none was found: then only
  // interval bounds and substitution decide), the term with its decided ites replaced, and
  // whether the facts imply `pred` (false when undecided).
  const z3::model* facts_model();
  z3::expr decide_ites(const z3::expr& term, bool& had_ite);
  bool implied(const z3::expr& pred);
  // Whether ite(cond, then, other) equals other wherever the facts hold.
  bool branches_agree(const z3::expr& cond, const z3::expr& then, const z3::expr& other);

  z3::context& c_;
  const SizeSymbols& symbols_;
  std::vector<z3::expr> facts_;  // ranges, assumptions, and every obligation discharged so far
  z3::solver solver_;
  Bounds bounds_;
  unsigned budget_;  // Z3 resource units per solver call
  std::unordered_map<unsigned, Outcome> cache_;  // by the simplified predicate's AST id
  // Raw term id → (raw term, kept alive so that its id is not reused; simplified term).
  std::unordered_map<unsigned, std::pair<z3::expr, z3::expr>> simplified_;
  // settle's memos, by AST id, each entry keeping its term alive; valid for the facts they were
  // computed under (facts_settled_ of them): when facts grow, an ite left undecided may become
  // decidable, so they are cleared, and so is the model of the facts.
  struct Settled {
    z3::expr term, result;
    bool had_ite;
  };
  std::unordered_map<unsigned, Settled> settled_;      // a whole (simplified) term
  std::unordered_map<unsigned, Settled> ites_decided_;  // every subterm decide_ites visited
  std::unordered_map<unsigned, std::pair<z3::expr, bool>> implied_;  // a predicate → whether implied
  std::unordered_map<unsigned, std::pair<z3::expr, z3::expr>> tidied_;  // a term → tidy's result
  std::optional<z3::model> facts_model_;
  bool facts_model_tried_ = false;
  size_t facts_settled_ = 0;
  int64_t solver_calls_ = 0;
};

}  // namespace nnref
