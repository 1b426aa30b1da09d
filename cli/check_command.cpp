// nnref check: every structure, shape, binding and size obligation of a model, proved with Z3
// for every size the --dim ranges and --assume options admit, or refuted with a counterexample.
#include <algorithm>
#include <ostream>

#include "cli/audit_stdlib.hpp"
#include "checker/check_model.hpp"
#include "checker/report.hpp"
#include "semantics/catalogue.hpp"
#include "semantics/evaluate.hpp"
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

namespace {

// The check of a model read (`loaded`), over the --dim ranges `dims`.
Result<CheckReport> check_loaded(const CheckOptions& o, LoadResult loaded, const std::vector<std::string>& dims) {
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
  if (!dims.empty() && loaded.model->size_names.empty())
    return make_error("usage.dim",
                      "--dim " + dims.front() +
                          ": this model's input extents have no size names, so "
                          "they cannot vary: the file fixes them (an ONNX input without dim_param), or its "
                          "lowering depends on them (NNEF: nnef.shape-of.fixed, nnef.extents.fixed); check it "
                          "at its declared sizes, without --dim");
  CheckSettings s;
  for (const auto& text : dims) {
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
  // Every output is empty (the load's note[onnx.empty-output] says so for each): no graph, nothing to prove.
  auto checked =
      m.graph.outputs.empty() ? Result<CheckReport>(CheckReport{}) : check_model(m.graph, m.payload, m.param_keys, s);
  if (!checked) return checked;
  // The front-end's warnings come first, in source order.
  checked->diagnostics.insert(checked->diagnostics.begin(), loaded.diagnostics.begin(), loaded.diagnostics.end());
  if (!m.weights_loaded) checked->diagnostics.push_back(bindings_not_checked(m));
  return checked;
}

// The most instantiations a proof by enumeration reads and checks (each is a load and a check).
constexpr int64_t kMaxInstantiations = 4096;

bool failed(const CheckReport& r) {
  return !r.model_read || r.counts.refuted + r.counts.unknown > 0 || exit_code_for(r.diagnostics) != kExitOk;
}

// Whether --dim gives a range of the size `name`.
bool ranged(const CheckOptions& o, const std::string& name) {
  return std::any_of(o.dims.begin(), o.dims.end(), [&](const std::string& text) {
    auto r = parse_dim_range(text);
    return r && r->name == name;
  });
}

// A model whose reading needs the sizes `names` (each with a --dim range) as numbers
// (LoadResult::sizes_needed_at_load): read and checked at each value of their ranges in turn, the
// other ranges symbolic; the first instantiation that fails is the report (its values the
// counterexample), else the sum of all.
Result<CheckReport> check_enumerated(const CheckOptions& o, std::vector<std::string> names) {
  std::vector<DimRange> ranges;
  std::vector<std::string> symbolic;
  for (const auto& text : o.dims) {
    auto r = parse_dim_range(text);
    if (!r) return std::move(r).error();
    if (std::find(names.begin(), names.end(), r->name) != names.end())
      ranges.push_back(*r);
    else
      symbolic.push_back(text);
  }
  int64_t count = 1;
  for (const DimRange& r : ranges)
    count = r.hi - r.lo + 1 > kMaxInstantiations / count ? kMaxInstantiations + 1 : count * (r.hi - r.lo + 1);
  if (count > kMaxInstantiations)
    return make_error("usage.enumeration-limit",
                      o.model +
                          ": the model is read with each value of the --dim ranges of the sizes it needs as "
                          "numbers when it is read; their ranges hold more than " +
                          std::to_string(kMaxInstantiations) + " combinations: narrow them");
  CheckReport total;
  std::vector<int64_t> value;
  for (const DimRange& r : ranges) value.push_back(r.lo);
  for (int64_t k = 1;; ++k) {
    LoadOptions options{WeightsPolicy::IfPresent, o.max_memory};
    options.enclose_constants = enclose_constants;
    std::vector<std::pair<std::string, int64_t>> at;
    for (size_t i = 0; i < ranges.size(); ++i) {
      options.fixed_sizes[ranges[i].name] = value[i];
      at.emplace_back(ranges[i].name, value[i]);
    }
    LoadResult loaded = load_model(o.model, options);
    for (const std::string& more : loaded.sizes_needed_at_load)  // a size that mattered only once others were fixed
      if (std::find(names.begin(), names.end(), more) == names.end() && ranged(o, more)) {
        names.push_back(more);
        return check_enumerated(o, names);
      }
    auto checked = check_loaded(o, std::move(loaded), symbolic);
    if (!checked) return checked;
    CheckReport& r = *checked;
    r.enumerated = ranges;
    r.instantiations = k;
    if (failed(r)) {
      r.failed_at = at;
      std::string values;
      for (const auto& [name, v] : at) values += (values.empty() ? "" : ", ") + name + " = " + std::to_string(v);
      for (Diagnostic& d : r.diagnostics)
        if (d.severity == Severity::Error)
          d.notes.push_back("at " + values + ": the model was read with this value (a proof by enumeration)");
      return checked;
    }
    total.diagnostics = std::move(r.diagnostics);  // the warnings of one reading (the same in each)
    total.counts.total += r.counts.total;
    total.counts.proved += r.counts.proved;
    total.solver_calls += r.solver_calls;
    total.ranges = r.ranges;
    total.fixed_sizes = r.fixed_sizes;
    total.bindings_checked = r.bindings_checked;
    size_t i = ranges.size();  // the next combination, the last range fastest
    while (i > 0 && value[i - 1] == ranges[i - 1].hi) value[i - 1] = ranges[i - 1].lo, --i;
    if (i == 0) {
      total.enumerated = ranges;
      total.instantiations = k;
      return total;
    }
    ++value[i - 1];
  }
}

}  // namespace

Result<CheckReport> check_findings(const CheckOptions& o) {
  LoadOptions options{WeightsPolicy::IfPresent, o.max_memory};
  options.enclose_constants = enclose_constants;
  LoadResult loaded = load_model(o.model, options);
  // A translation needs sizes as numbers when the model is read (an unrolled LSTM's sequence): a
  // proof by enumeration over their ranges (docs/architecture.md, "Sizes fixed at load").
  const std::vector<std::string>& needed = loaded.sizes_needed_at_load;
  if (!loaded.has_errors() || needed.empty()) return check_loaded(o, std::move(loaded), o.dims);
  if (std::all_of(needed.begin(), needed.end(), [&](const std::string& n) { return ranged(o, n); })) {
    std::vector<std::string> names = needed;
    loaded = LoadResult{};  // not held while the model is read again for each value (the budget bounds one)
    return check_enumerated(o, std::move(names));
  }
  std::string list;
  for (const std::string& n : needed) list += (list.empty() ? "" : ", ") + n;
  for (Diagnostic& d : loaded.diagnostics)
    if (d.severity == Severity::Error && d.code != "onnx.size-needed-at-load")  // its message says so
      d.notes.push_back("check --dim NAME=LO..HI for each of " + list +
                        " reads the model with each value of the ranges (a proof by enumeration)");
  return check_loaded(o, std::move(loaded), o.dims);
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
  if (o.audit_stdlib) return audit_stdlib_command(out, err);
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
