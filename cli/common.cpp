#include "cli/common.hpp"

#include <ostream>

#include "cli/app.hpp"

namespace nnref {

void print_diagnostics(std::ostream& err, const std::vector<Diagnostic>& diags) {
  for (const auto& d : diags) err << format_diagnostic(d) << "\n";
}

int exit_code_for(const Diagnostic& d) { return d.code.rfind("io.", 0) == 0 ? kExitUsage : kExitInvalid; }

int exit_code_for(const std::vector<Diagnostic>& diags) {
  int code = kExitOk;
  for (const auto& d : diags)
    if (d.severity == Severity::Error) code = std::max(code, exit_code_for(d));
  return code;
}

std::optional<Model> load_reporting(const std::string& path, const LoadOptions& options, std::ostream& err,
                                    int& exit) {
  LoadResult r = load_model(path, options);
  print_diagnostics(err, r.diagnostics);
  if (r.has_errors() || !r.model) {
    exit = r.has_errors() ? exit_code_for(r.diagnostics) : kExitInvalid;
    return std::nullopt;
  }
  return std::move(r.model);
}

std::optional<GraphInfo> shapes_reporting(const Model& model, std::ostream& err, int& exit) {
  auto structure = check_structure(model.graph);
  if (!structure.empty()) {
    print_diagnostics(err, structure);
    exit = kExitInvalid;
    return std::nullopt;
  }
  auto info = infer_shapes(model.graph);
  if (!info) {
    print_diagnostics(err, {info.error()});
    exit = kExitInvalid;
    return std::nullopt;
  }
  return std::move(info).value();
}

}  // namespace nnref
