// Diagnostics: what every layer reports instead of crashing.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
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
  std::string code;     // stable, dotted: "shape.window.exceeds-input"
  std::string message;  // one sentence, names the culprit
  SourceLoc loc;
  std::string node;     // the node or layer the problem is about, when there is one
  std::vector<std::string> notes;
  // Size symbols and the values for which the obligation fails (the checker's refutations).
  std::vector<std::pair<std::string, int64_t>> counterexample;
  // Whether the counterexample is proved the smallest (in the order of the size symbols); false
  // when the search for it gave up, and a note says why.
  bool counterexample_minimised = true;
};

Diagnostic make_error(std::string code, std::string message, SourceLoc loc = {});
Diagnostic make_warning(std::string code, std::string message, SourceLoc loc = {});

// "file:line:col: error[code]: message", then "  counterexample: a = 1, b = 2" when there is
// one ("  counterexample (not minimised): ..." when it is not proved the smallest), then one
// "  note: ..." line per note.
std::string format_diagnostic(const Diagnostic& d);

const char* severity_name(Severity s);

}  // namespace nnref
