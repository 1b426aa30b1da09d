// Interval bounds of a size term over the --dim ranges: a sound, Z3-free decision for the many
// obligations that hold for every size in the ranges (a window that fits the smallest input,
// a memory total that fits at the largest). Assumptions are ignored, which only widens the set
// of sizes considered, so a predicate the bounds decide true is proved.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include <z3++.h>

#include "checker/size_symbols.hpp"
#include "spec/dim.hpp"

namespace nnref {

class Bounds {
 public:
  explicit Bounds(const SizeSymbols& symbols);
  // true: holds for every size in the ranges; nullopt: the bounds cannot tell.
  std::optional<bool> holds_everywhere(const z3::expr& pred);

 private:
  struct Range {
    CDim lo, hi;  // saturating: INT64_MIN/INT64_MAX stand for unbounded
  };
  Range range(const z3::expr& term);
  std::optional<bool> truth(const z3::expr& pred);

  std::unordered_map<std::string, Range> symbols_;
  std::unordered_map<unsigned, std::pair<z3::expr, Range>> memo_;  // by AST id; the term kept alive
};

}  // namespace nnref
