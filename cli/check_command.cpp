// nnref check: every structure, shape, binding and size obligation of a model, proved with Z3
// for every size the --dim ranges and --assume options admit, or refuted with a counterexample.
#include <ostream>

#include "checker/catalogue.hpp"
#include "checker/check_model.hpp"
#include "checker/report.hpp"
#include "cli/app.hpp"
#include "cli/commands.hpp"

namespace nnref {

namespace {

int explain_command(const std::string& code, std::ostream& out, std::ostream& err) {
  if (const ObligationEntry* e = find_obligation(code)) {
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
  s.timeout_ms = o.timeout_ms;
  s.budget = o.max_memory;
  s.batch_prepended = loaded.model->batch_prepended;
  const Model& m = *loaded.model;
  auto checked = check_model(m.graph, m.payload, m.param_keys, s);
  if (!checked) return checked;
  // The front-end's warnings come first, in source order.
  checked->diagnostics.insert(checked->diagnostics.begin(), loaded.diagnostics.begin(), loaded.diagnostics.end());
  return checked;
}

}  // namespace

int check_command(const CheckOptions& o, std::ostream& out, std::ostream& err) {
  if (!o.explain.empty()) return explain_command(o.explain, out, err);
  if (o.model.empty()) {
    err << "error[usage.model]: check needs a model file (or --explain CODE)\n";
    return kExitUsage;
  }
  auto r = findings(o);
  if (!r) {
    err << format_diagnostic(r.error()) << "\n";
    return kExitUsage;
  }
  if (o.format == "json") {
    out << report_json(*r, o.model);
  } else if (o.format == "sarif") {
    out << report_sarif(*r, o.model);
  } else {
    print_diagnostics(err, r->diagnostics);
    out << report_summary(*r, o.model);
  }
  const int worst = exit_code_for(r->diagnostics);
  if (worst != kExitOk) return worst;
  return r->counts.refuted + r->counts.unknown > 0 ? kExitInvalid : kExitOk;
}

}  // namespace nnref
