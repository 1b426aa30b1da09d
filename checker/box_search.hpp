// The interval search: the prover's fallback when Z3 gives up, which it does on the nonlinear
// predicates of memory totals (batch · H · W ...) under facts that pin a product of sizes (a
// Dense weight binding (H/4)·(W/4)·32 == 8192). It needs no Z3 call: branch and bound over boxes
// of sizes, each judged by interval arithmetic (checker/bounds.hpp). A box where some fact or the
// goal is false for every size is dropped; one where all of them hold for every size is solved by
// its corner; any other box is halved along its widest symbol, down to single sizes, where
// interval arithmetic is exact. Boxes are taken in the lexicographic order of their lower corners
// (upper corners, for a maximum), so the first solved box gives the lexicographic optimum in
// symbol (--dim) order. It is sound by construction, and bounded by a number of boxes.
#pragma once

#include <cstdint>
#include <vector>

#include <z3++.h>

#include "checker/size_symbols.hpp"

namespace nnref {

struct BoxSearch {
  enum class End {
    Found,           // `sizes` is the optimum
    None,            // no size in the ranges satisfies the facts and the goal
    OutOfBoxes,      // gave up after max_boxes
    CannotEvaluate,  // gave up at a single size where a term is outside what the bounds evaluate
  };
  End end = End::OutOfBoxes;
  Assignment sizes;
  int64_t boxes = 0;  // boxes judged
};

// The lexicographically smallest sizes in symbol order (largest when `maximise`) within the
// --dim ranges where every fact and `goal` hold, judging at most `max_boxes` boxes.
BoxSearch search_boxes(const SizeSymbols& symbols, const std::vector<z3::expr>& facts, const z3::expr& goal,
                       bool maximise, int64_t max_boxes);

}  // namespace nnref
