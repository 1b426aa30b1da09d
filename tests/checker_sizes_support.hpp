// Helpers for the tests of the checker's answers about sizes (checker_optimum_test,
// checker_budget_test): a graph with its weights, checked over ranges by check_model and at single
// sizes by the concrete reading (check_graph on the instantiated graph), and the sizes a report
// names.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <z3++.h>

#include "checker/check_model.hpp"
#include "checker/size_symbols.hpp"
#include "formats/model.hpp"
#include "semantics/wellformed.hpp"
#include "spec/diagnostic.hpp"
#include "temp_dir.hpp"

namespace nnref::test {

constexpr int64_t kScalar = 8;  // check_model's bytes per element (the f64 evaluation)

struct Subject {
  Graph graph;
  Payload payload;
  ParamNames names;
  std::vector<SizeName> size_names;  // empty: batched_size_names
};

inline Subject load_subject(const std::string& path) {
  LoadResult lr = load_model(path, LoadOptions{WeightsPolicy::Required, int64_t{1} << 40});
  std::string diags;
  for (const auto& d : lr.diagnostics) diags += format_diagnostic(d) + "\n";
  INFO(path << "\n" << diags);
  REQUIRE(lr.model.has_value());
  return Subject{lr.model->graph, lr.model->payload, lr.model->param_keys, lr.model->size_names};
}

// The model `name` of tests/data/deploy, copied with weights made by `nnref init-weights --seed 1`
// (the weights are not committed: cnn224's are 26 MB).
struct Deployed {
  TempDir dir;
  Subject subject;
  explicit Deployed(const std::string& name) : dir("checker_deploy_" + name) {
    std::filesystem::copy_file(
        std::filesystem::path(NNREF_SOURCE_DIR) / "tests" / "data" / "deploy" / name / "model.nnl", dir / "model.nnl");
    const std::string cmd = std::string(NNREF_BINARY) + " init-weights '" + (dir / "model.nnl").string() +
                            "' --seed 1 --out '" + (dir / "weights").string() + "' > /dev/null";
    REQUIRE(std::system(cmd.c_str()) == 0);
    subject = load_subject((dir / "model.nnl").string());
  }
};

struct Query {
  std::vector<DimRange> dims;
  std::vector<std::string> assumptions;
  int64_t budget = int64_t{4} << 30;  // --max-memory
  unsigned solver_budget = kDefaultSolverBudget;
};

inline CheckReport check_over(const Subject& s, const Query& q) {
  CheckSettings settings;
  settings.dims = q.dims;
  settings.assumptions = q.assumptions;
  settings.budget = q.budget;
  settings.solver_budget = q.solver_budget;
  settings.scalar_size = kScalar;
  settings.size_names = s.size_names;
  auto r = check_model(s.graph, s.payload, s.names, settings);
  if (!r) FAIL("check_model usage error: " << format_diagnostic(r.error()));
  return *r;
}

// The concrete reading at single sizes: "" when the instantiated graph is accepted, else the code
// of its first error.
class Concrete {
 public:
  Concrete(const Subject& s, const std::vector<DimRange>& dims, int64_t budget) : s_(s), budget_(budget) {
    auto bound = SizeSymbols::bind(ctx_, s.graph, s.size_names.empty() ? batched_size_names(s.graph) : s.size_names,
                                   dims);
    if (!bound) FAIL("bind: " << format_diagnostic(bound.error()));
    symbols_ = std::make_unique<SizeSymbols>(std::move(*bound));
  }
  std::string error_at(const Assignment& a) const {
    auto info = check_graph(symbols_->instantiate(s_.graph, a), s_.payload, kScalar, budget_);
    return info ? std::string() : info.error().code;
  }

 private:
  const Subject& s_;
  int64_t budget_;
  z3::context ctx_;
  std::unique_ptr<SizeSymbols> symbols_;
};

inline std::string show(const Assignment& a) {
  std::string s;
  for (const auto& [n, v] : a) s += (s.empty() ? "" : ", ") + n + " = " + std::to_string(v);
  return s;
}

// The first error with `code`, or nullptr.
inline const Diagnostic* first_error(const CheckReport& r, const std::string& code) {
  for (const auto& d : r.diagnostics)
    if (d.severity == Severity::Error && d.code == code) return &d;
  return nullptr;
}

// "batch = 3, input.0 = 9" as an assignment.
inline Assignment parse_sizes(const std::string& text) {
  Assignment a;
  size_t at = 0;
  while (at < text.size()) {
    const size_t eq = text.find(" = ", at);
    const size_t end = std::min(text.find(", ", eq), text.size());
    a.emplace_back(text.substr(at, eq - at), std::stoll(text.substr(eq + 3, end - eq - 3)));
    at = end + 2;
  }
  return a;
}

// The sizes that fit, from a refuted budget's note: "the largest admissible sizes that fit
// (maximised in --dim order): SIZES" or "admissible sizes that fit (not maximised: WHY): SIZES".
struct Fit {
  Assignment sizes;
  bool maximised = true;
};

inline std::optional<Fit> fit_in_notes(const Diagnostic& d) {
  const std::string largest = "the largest admissible sizes that fit (maximised in --dim order): ";
  const std::string some = "admissible sizes that fit (not maximised: ";
  for (const auto& n : d.notes) {
    if (n.rfind(largest, 0) == 0) return Fit{parse_sizes(n.substr(largest.size())), true};
    if (n.rfind(some, 0) == 0) return Fit{parse_sizes(n.substr(n.rfind("): ") + 3)), false};
  }
  return std::nullopt;
}

}  // namespace nnref::test
