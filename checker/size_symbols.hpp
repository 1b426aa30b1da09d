// The size symbols of a check: which extents of which inputs vary, and over what range. Extents
// are named by the front-end (semantics/size_names.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <z3++.h>

#include "checker/sym_dim.hpp"
#include "semantics/graph.hpp"
#include "semantics/size_names.hpp"
#include "spec/result.hpp"

namespace nnref {

// One --dim option: NAME=LO..HI, 1 ≤ LO ≤ HI.
struct DimRange {
  std::string name;
  int64_t lo = 1;
  int64_t hi = 1;
};

// Parses "NAME=LO..HI"; a "usage.dim" error otherwise.
Result<DimRange> parse_dim_range(std::string_view text);
// Parses "NAME=V" (run --dim: one size), as the range V..V; a "usage.dim" error otherwise.
Result<DimRange> parse_dim_value(std::string_view text);

// Values for some size symbols, in the order the symbols were declared.
using Assignment = std::vector<std::pair<std::string, int64_t>>;

struct SizeSymbol {
  std::string name;
  int64_t lo = 1, hi = 1;
  z3::expr var;                                   // the Z3 integer constant named `name`
  std::vector<std::pair<int64_t, size_t>> slots;  // (Input node id, graph axis) it stands for
};

class SizeSymbols {
 public:
  // Binds each range to the input extents it names. Errors ("usage.dim"): an unknown input or
  // axis, a name given twice.
  static Result<SizeSymbols> bind(z3::context& c, const Graph& g, const std::vector<SizeName>& names,
                                  const std::vector<DimRange>& ranges);

  const std::vector<SizeSymbol>& symbols() const { return symbols_; }
  // The extents of Input node `id`: its symbols where --dim gave one, else the declared values.
  Dims<SymDim> input_dims(const Node& input) const;
  // Any nameable extent (with or without --dim), as --assume reads it; nullopt for an unknown name.
  std::optional<SymDim> lookup(const std::string& name) const;
  // LO ≤ s ≤ HI for every symbol.
  std::vector<z3::expr> range_constraints() const;
  // The graph with every symbol replaced by its value in `a` (symbols a does not name keep
  // their declared extent): the concrete instance the evaluator would run.
  Graph instantiate(const Graph& g, const Assignment& a) const;

 private:
  struct Slot {
    int64_t node;
    size_t axis;
  };
  // Every nameable extent: name → (input node, graph axis).
  std::map<std::string, std::vector<Slot>> names_;
  std::map<std::pair<int64_t, size_t>, size_t> symbol_at_;  // (node, axis) → index in symbols_
  std::vector<SizeSymbol> symbols_;
  const Graph* graph_ = nullptr;
};

}  // namespace nnref
