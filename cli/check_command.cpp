// nnref check: every structure, shape, binding and size obligation of a model, proved with Z3
// for every size the --dim ranges and --assume options admit, or refuted with a counterexample.
#include <ostream>

#include "checker/check_model.hpp"
#include "checker/report.hpp"
#include "semantics/catalogue.hpp"
#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/deadline.hpp"

namespace nnref {

namespace {

int explain_command(const std::string& code, std::ostream& out, std::ostream& err) {
  if (const ObligationSpec* e = find_obligation(code)) {
    out << explain(*e);
    return kExitOk;
  }
  err << "error[usage.explain]: no obligation has the code '" << code
      << "'; docs/obligations.md lists them all\n";
  return kExitUsage;
}

// The findings of a check, or of a load that failed before one could run.
Result<CheckReport> findings(const CheckOptions& o) {
  LoadResult loaded = load_model(o.model, LoadOptions{true, o.max_memory});
  CheckReport report;
  if (loaded.has_errors() || !loaded.model) {
    for (const auto& d : loaded.diagnostics)
      if (d.severity == Severity::Error) ++report.counts.total, ++report.counts.refuted;
    report.diagnostics = std::move(loaded.diagnostics);
    return report;
  }
  CheckSettings s;
  for (const auto& text : o.dims) {
    auto r = parse_dim_range(text);
    if (!r) return std::move(r).error();
    s.dims.push_back(*r);
  }
  s.assumptions = o.assumes;
  s.solver_budget = o.solver_budget;
  s.budget = o.max_memory;
  s.size_names = loaded.model->size_names;
  const Model& m = *loaded.model;
  auto checked = check_model(m.graph, m.payload, m.param_keys, s);
  if (!checked) return checked;
  // The front-end's warnings come first, in source order.
  checked->diagnostics.insert(checked->diagnostics.begin(), loaded.diagnostics.begin(), loaded.diagnostics.end());
  return checked;
}

// Prints the report in the chosen format; returns the exit code.
int print_report(const CheckReport& r, const CheckOptions& o, std::ostream& out, std::ostream& err) {
  if (o.format == "json") {
    out << report_json(r, o.model);
  } else if (o.format == "sarif") {
    out << report_sarif(r, o.model);
  } else {
    print_diagnostics(err, r.diagnostics);
    out << report_summary(r, o.model);
  }
  const int worst = exit_code_for(r.diagnostics);
  if (worst != kExitOk) return worst;
  return r.counts.refuted + r.counts.unknown > 0 ? kExitInvalid : kExitOk;
}

int check_and_report(const CheckOptions& o, std::ostream& out, std::ostream& err) {
  auto r = findings(o);
  if (!r) {
    err << format_diagnostic(r.error()) << "\n";
    return kExitUsage;
  }
  return print_report(*r, o, out, err);
}

// The report of a check that --deadline ended: one unknown, since nothing was proved.
CheckReport deadline_report(const CheckOptions& o) {
  CheckReport r;
  for (const auto& text : o.dims)
    if (auto range = parse_dim_range(text)) r.ranges.push_back(*range);
  Diagnostic d = make_error("check.deadline", "the check did not finish within --deadline " +
                                                  std::to_string(o.deadline_s) + " s; nothing was proved");
  d.notes.push_back("lower --solver-budget, narrow the --dim ranges, or raise --deadline");
  r.diagnostics.push_back(std::move(d));
  r.counts.total = r.counts.unknown = 1;
  return r;
}

}  // namespace

int check_command(const CheckOptions& o, std::ostream& out, std::ostream& err) {
  if (!o.explain.empty()) return explain_command(o.explain, out, err);
  if (o.model.empty()) {
    err << "error[usage.model]: check needs a model file (or --explain CODE)\n";
    return kExitUsage;
  }
  if (o.deadline_s == 0) return check_and_report(o, out, err);
  const Work work = [&o](std::ostream& child_out, std::ostream& child_err) { return check_and_report(o, child_out, child_err); };
  if (auto code = run_with_deadline(o.deadline_s, work, out, err)) return *code;
  return print_report(deadline_report(o), o, out, err);
}

}  // namespace nnref
