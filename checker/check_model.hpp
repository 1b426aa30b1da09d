// The checker (DESIGN: checker/): every structure, shape, binding and size obligation of a model,
// read over symbolic sizes and discharged by Z3 for every admissible size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checker/size_symbols.hpp"
#include "semantics/graph.hpp"
#include "semantics/payload.hpp"
#include "semantics/wellformed.hpp"
#include "spec/diagnostic.hpp"
#include "spec/result.hpp"

namespace nnref {

// Z3's resource limit (rlimit) bounds each solver call, deterministically. The default is 50
// times what the checker's decided queries were measured to need (docs/cli.md, "Solver budget").
constexpr unsigned kDefaultSolverBudget = 50'000;
// --timeout-ms, the older spelling, is read at this rate, so that its old default (2000) is the
// default budget. Units are not time: Z3 spends anything from 1 µs to far more on one.
constexpr unsigned kSolverUnitsPerMs = 25;

// The budget that --timeout-ms N stands for, at most UINT32_MAX.
constexpr unsigned solver_budget_for_ms(unsigned ms) {
  const uint64_t units = uint64_t{ms} * kSolverUnitsPerMs;
  return units > UINT32_MAX ? UINT32_MAX : static_cast<unsigned>(units);
}

struct CheckSettings {
  std::vector<DimRange> dims;            // --dim
  std::vector<std::string> assumptions;  // --assume
  unsigned solver_budget = kDefaultSolverBudget;  // Z3 resource units per solver call
  int64_t budget = int64_t{4} << 30;     // bytes
  int64_t scalar_size = 8;               // bytes per element (the f64 evaluation)
  std::vector<SizeName> size_names;      // the front-end's; empty: batched_size_names
  bool check_bindings = true;            // false: there are no weights yet; only structure, shapes and sizes
};

struct ObligationCounts {
  int64_t total = 0, proved = 0, refuted = 0, unknown = 0;
};

// A size name that no --dim ranges over: the check reads it at one value, the model's extent.
struct FixedSize {
  std::string name;
  int64_t value = 1;       // the first input's extent
  bool left_open = false;  // the source leaves the extent open (SizeName::symbolic): value is a placeholder
  // When the model has the name's extents unequal (NNEF's batch over inputs declared [2, 3] and
  // [1, 3]): each input's own, in the front-end's order; empty otherwise.
  std::vector<std::pair<std::string, int64_t>> by_input;
};

struct CheckReport {
  // Errors (refuted or unknown obligations, each with its counterexample where there is one) and
  // warnings (unused parameters), in node order.
  std::vector<Diagnostic> diagnostics;
  ObligationCounts counts;
  std::vector<DimRange> ranges;  // the symbols, as given
  std::vector<FixedSize> fixed_sizes;  // every other size name, in the front-end's order
  bool model_read = true;        // false: the model could not be read, and nothing was checked
  bool bindings_checked = true;  // false: CheckSettings::check_bindings was off
  int64_t solver_calls = 0;      // Z3 solver calls: obligations that reached it, their minimisations, settled extents
  // A proof by enumeration (nnref check of a model whose reading needs these sizes as numbers,
  // docs/architecture.md "Sizes fixed at load"): the ranges read one value at a time, how many
  // instantiations were checked, and the values of the first that failed (empty when none did).
  std::vector<DimRange> enumerated;
  int64_t instantiations = 0;
  std::vector<std::pair<std::string, int64_t>> failed_at;
};

// A usage error (bad --dim or --assume, contradictory assumptions: code "usage.*") is the error
// of the Result; every finding about the model is in the report.
Result<CheckReport> check_model(const Graph& g, const Payload& payload, const ParamNames& names,
                                const CheckSettings& settings);

}  // namespace nnref
