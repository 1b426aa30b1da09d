#include "spec/diagnostic.hpp"

namespace nnref {

Diagnostic make_error(std::string code, std::string message, SourceLoc loc) {
  return Diagnostic{Severity::Error, std::move(code), std::move(message), std::move(loc), {}, {}, {}};
}

Diagnostic make_warning(std::string code, std::string message, SourceLoc loc) {
  return Diagnostic{Severity::Warning, std::move(code), std::move(message), std::move(loc), {}, {}, {}};
}

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

std::string format_diagnostic(const Diagnostic& d) {
  std::string out;
  if (!d.loc.file.empty()) {
    out += d.loc.file;
    if (d.loc.line > 0) {
      out += ":" + std::to_string(d.loc.line);
      if (d.loc.column > 0) out += ":" + std::to_string(d.loc.column);
    }
    out += ": ";
  }
  out += severity_name(d.severity);
  out += "[" + d.code + "]: " + d.message;
  for (size_t i = 0; i < d.counterexample.size(); ++i)
    out += (i ? ", " : d.counterexample_minimised ? "\n  counterexample: " : "\n  counterexample (not minimised): ") +
           d.counterexample[i].first + " = " +
           std::to_string(d.counterexample[i].second);
  for (const auto& n : d.notes) out += "\n  note: " + n;
  return out;
}

}  // namespace nnref
