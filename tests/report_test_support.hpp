// Helpers shared by the report tests (checker_report_test, checker_sarif_test): diagnostics and a
// small report to print, JSON keys, files, and the SARIF validator (python3-jsonschema against
// the OASIS schema in tests/data/sarif/).
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "checker/report.hpp"

namespace nnref::test {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

inline Diagnostic diag(Severity s, std::string code, std::string message, SourceLoc loc = {},
                std::string node = {}) {
  Diagnostic d;
  d.severity = s;
  d.code = std::move(code);
  d.message = std::move(message);
  d.loc = std::move(loc);
  d.node = std::move(node);
  return d;
}

inline std::set<std::string> keys(const Json& j) {
  std::set<std::string> out;
  for (auto it = j.begin(); it != j.end(); ++it) out.insert(it.key());
  return out;
}

inline void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

inline const fs::path kSchema = fs::path(NNREF_SOURCE_DIR) / "tests" / "data" / "sarif" / "sarif-schema-2.1.0.json";

// Exit status of `python3 -c "jsonschema.validate(...)"` on the document at `doc`: 0 when valid.
inline int validate_sarif(const fs::path& doc) {
  std::string cmd =
      "/usr/bin/python3 -c \"import json,jsonschema,sys; "
      "jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))\" '" +
      doc.string() + "' '" + kSchema.string() + "' 2>'" + doc.string() + ".err'";
  int status = std::system(cmd.c_str());
  if (status == -1 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A small report: an error with everything (location, node, counterexample, note) and a
// warning with only a file.
inline CheckReport small_report() {
  CheckReport r;
  Diagnostic e = diag(Severity::Error, "shape.window.exceeds-input",
                      "conv1: the window (5) exceeds the padded input", {"model.nnl", 4, 7}, "conv1");
  e.counterexample = {{"batch", 1}, {"x.1", 3}};
  e.notes = {"the kernel is 5 wide"};
  r.diagnostics.push_back(e);
  r.diagnostics.push_back(
      diag(Severity::Warning, "binding.unused", "parameter fc.bias is never used", {"model.nnl", 0, 0}));
  r.counts = {5, 3, 1, 1};
  r.ranges = {{"batch", 1, 64}, {"x.1", 1, 32}};
  return r;
}

}  // namespace nnref::test
