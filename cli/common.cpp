#include "cli/common.hpp"

#include <ostream>

#include "cli/app.hpp"
#include "spec/scalars.hpp"

namespace nnref {

int64_t bytes_per_element(const std::string& precision) {
  if (precision == "f32") return sizeof(float);
  if (precision == "mp") return sizeof(mp50);
  if (precision == "interval") return ScalarOps<Interval>::bytes;
  if (precision == "envelope") return ScalarOps<Envelope>::bytes;
  return sizeof(double);
}

void print_diagnostics(std::ostream& err, const std::vector<Diagnostic>& diags) {
  for (const auto& d : diags) err << format_diagnostic(d) << "\n";
}

int exit_code_for(const Diagnostic& d) {
  for (const char* prefix : {"io.", "usage.", "npy.", "npz.", "pb.", "input.", "internal.", "hw.config."})
    if (d.code.rfind(prefix, 0) == 0) return kExitUsage;
  return kExitInvalid;
}

int exit_code_for(const std::vector<Diagnostic>& diags) {
  int code = kExitOk;
  for (const auto& d : diags)
    if (d.severity == Severity::Error) code = std::max(code, exit_code_for(d));
  return code;
}

std::optional<Model> load_reporting(const std::string& path, const LoadOptions& options, std::ostream& err,
                                    int& exit) {
  return model_reporting(load_model(path, options), err, exit);
}

std::optional<Model> model_reporting(LoadResult r, std::ostream& err, int& exit) {
  print_diagnostics(err, r.diagnostics);
  if (r.has_errors() || !r.model) {
    exit = r.has_errors() ? exit_code_for(r.diagnostics) : kExitInvalid;
    return std::nullopt;
  }
  return std::move(r.model);
}

std::optional<GraphInfo> shapes_reporting(const Model& model, int64_t scalar_size, std::ostream& err, int& exit) {
  ConcreteCheck c = check_concrete(model.graph, nullptr, model.param_keys, scalar_size, kDefaultMaxMemory);
  if (c.ok()) return std::move(c.info);
  // Structure errors come all at once (check_concrete stops after them); otherwise the first.
  auto structure = check_structure(model.graph);
  print_diagnostics(err, structure.empty() ? std::vector<Diagnostic>{c.diagnostics.front()} : structure);
  exit = kExitInvalid;
  return std::nullopt;
}

}  // namespace nnref
