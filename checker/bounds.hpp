// Interval bounds of a size term over the --dim ranges: a sound, Z3-free decision for the many
// obligations that hold for every size in the ranges (a window that fits the smallest input,
// a memory total that fits at the largest). Assumptions are ignored, which only widens the set
// of sizes considered, so a predicate the bounds decide true is proved. Over a box of sizes
// narrower than the ranges (the interval search, checker/box_search.hpp) they decide predicates
// there; at a single size every term they know (+ - * / %, ite, comparisons, && || !) is exact.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include <z3++.h>

#include "checker/size_symbols.hpp"
#include "spec/dim.hpp"

namespace nnref {

// For each size symbol, in symbol order, the values it takes: lo..hi.
using Box = std::vector<std::pair<int64_t, int64_t>>;

class Bounds {
 public:
  explicit Bounds(const SizeSymbols& symbols);
  // Over the box instead of the --dim ranges (one pair per symbol).
  Bounds(const SizeSymbols& symbols, const Box& box);
  // true: holds for every size in the ranges; nullopt: the bounds cannot tell.
  std::optional<bool> holds_everywhere(const z3::expr& pred);
  // true: holds for every size in the ranges; false: for none; nullopt: the bounds cannot tell.
  std::optional<bool> truth(const z3::expr& pred);

 private:
  struct Range {
    CDim lo, hi;  // saturating: INT64_MIN/INT64_MAX stand for unbounded
  };
  Range range(const z3::expr& term);

  std::unordered_map<std::string, Range> symbols_;
  std::unordered_map<unsigned, std::pair<z3::expr, Range>> memo_;  // by AST id; the term kept alive
};

}  // namespace nnref
