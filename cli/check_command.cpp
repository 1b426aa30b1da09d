// nnref check: every structure, shape, binding and size obligation of a model, proved with Z3
// for every size the --dim ranges and --assume options admit, or refuted with a counterexample.
#include <ostream>

#include "checker/check_model.hpp"
#include "checker/report.hpp"
#include "semantics/catalogue.hpp"
#include "cli/app.hpp"
#include "cli/codes.hpp"
#include "cli/commands.hpp"
#include "cli/deadline.hpp"

namespace nnref {

namespace {

// An obligation's catalogue entry, or what another code means and where it is documented.
int explain_command(const std::string& code, std::ostream& out, std::ostream& err) {
  if (const ObligationSpec* e = find_obligation(code)) {
    out << explain(*e);
    return kExitOk;
  }
  if (const CodeInfo* c = find_code(code)) {
    out << code << ": " << c->meaning << "\n"
        << (c->warning ? std::string("a warning") : "an error, exit code " + std::to_string(exit_code_for(make_error(code, ""))))
        << "; see docs/" << c->page << ".md\n";
    return kExitOk;
  }
  err << "error[usage.explain]: nnref prints no code '" << code
      << "'; docs/obligations.md and docs/cli.md list them all\n";
  return kExitUsage;
}

// The warning of a check before the weights exist: what was not checked, and how to go on.
Diagnostic bindings_not_checked(const Model& m) {
  Diagnostic d = make_warning("check.no-weights",
                              "weights '" + m.weights_path + "' do not exist: the bindings of " +
                                  std::to_string(m.param_keys.size()) +
                                  " parameters were not checked, only structure, shapes and memory",
                              m.weights_loc);
  d.notes.push_back("`nnref init-weights " + m.path + "` writes random weights of the right shapes there");
  return d;
}

}  // namespace

Result<CheckReport> check_findings(const CheckOptions& o) {
  LoadResult loaded = load_model(o.model, LoadOptions{WeightsPolicy::IfPresent, o.max_memory});
  if (loaded.has_errors() || !loaded.model) {
    CheckReport report;
    report.model_read = false;
    report.diagnostics = std::move(loaded.diagnostics);
    return report;
  }
  // A front-end that names no extent fixed them (an ONNX file without dim_param, an NNEF document
  // lowered at its declared extents): the graph means the file only at those sizes, so no --dim
  // may vary them (the checker's generic names would prove other sizes of a graph that does not
  // mean the file there).
  if (!o.dims.empty() && loaded.model->size_names.empty())
    return make_error("usage.dim", "--dim " + o.dims.front() + ": this model's input extents have no size names, so "
                                   "they cannot vary: the file fixes them (an ONNX input without dim_param), or its "
                                   "lowering depends on them (NNEF: nnef.shape-of.fixed, nnef.extents.fixed); check it "
                                   "at its declared sizes, without --dim");
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
  s.check_bindings = m.weights_loaded;
  auto checked = check_model(m.graph, m.payload, m.param_keys, s);
  if (!checked) return checked;
  // The front-end's warnings come first, in source order.
  checked->diagnostics.insert(checked->diagnostics.begin(), loaded.diagnostics.begin(), loaded.diagnostics.end());
  if (!m.weights_loaded) checked->diagnostics.push_back(bindings_not_checked(m));
  return checked;
}

namespace {

// Prints the report in the chosen format; returns the exit code.
int print_report(const CheckReport& r, const CheckOptions& o, std::ostream& out, std::ostream& err) {
  if (o.format == "json") {
    out << report_json(r, o.model);
  } else if (o.format == "sarif") {
    out << report_sarif(r, o.model);
  } else {
    print_diagnostics(err, r.diagnostics);
    // Without --dim every size is one value: say which, so that a size the file leaves open (an
    // ONNX dim_param, checked at a placeholder) is not taken for proved at every value.
    if (o.dims.empty()) out << fixed_sizes_note(r, o.model);
    out << report_summary(r, o.model);
  }
  const int worst = exit_code_for(r.diagnostics);
  if (worst != kExitOk) return worst;
  if (r.counts.refuted + r.counts.unknown > 0) return kExitInvalid;
  return r.bindings_checked ? kExitOk : kExitBindingsNotChecked;
}

int check_and_report(const CheckOptions& o, std::ostream& out, std::ostream& err) {
  auto r = check_findings(o);
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
