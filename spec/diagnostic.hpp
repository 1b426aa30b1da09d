// Diagnostics: what every layer reports instead of crashing.
#pragma once

#include <string>
#include <vector>

namespace nnref {

struct SourceLoc {
  std::string file;
  int line = 0;    // 1-based; 0 when unknown
  int column = 0;  // 1-based; 0 when unknown
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string code;     // stable, dotted: "shape.conv.window-exceeds-input"
  std::string message;  // one sentence, names the culprit
  SourceLoc loc;
  std::string node;     // the node or layer the problem is about, when there is one
  std::vector<std::string> notes;
};

Diagnostic make_error(std::string code, std::string message, SourceLoc loc = {});
Diagnostic make_warning(std::string code, std::string message, SourceLoc loc = {});

// "file:line:col: error[code]: message" followed by one "  note: ..." line per note.
std::string format_diagnostic(const Diagnostic& d);

const char* severity_name(Severity s);

}  // namespace nnref
