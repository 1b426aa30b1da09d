// The body of sknd_fuzz: SkriptND (NNEF 2.0) text through the nnef2 parser (formats/nnef2/).
#include <string>

#include "formats/nnef2/parser.hpp"
#include "fuzz/targets.hpp"

namespace nnref::fuzz {

// A document without errors is accepted; every error has a code of its own (nnef2.*) and a
// location (line and column from 1).
Outcome run_sknd(std::span<const uint8_t> input) {
  const std::string text(input.begin(), input.end());
  nnef2::Diags diags;
  const nnef2::Document doc = nnef2::parse_text(text, "fuzz.sknd", diags);
  Outcome out;
  out.accepted = !diags.has_errors();
  for (const Diagnostic& d : diags.list()) {
    out.codes.push_back(d.code);
    if (d.code.rfind("nnef2.", 0) != 0) out.broken = "an error coded " + d.code + ", not nnef2.*";
    if (d.loc.line < 1 || d.loc.column < 1) out.broken = "an error without its line and column: " + d.message;
  }
  if (out.accepted && !doc.version && doc.ops.empty() && doc.imports.empty() && doc.extensions.empty() &&
      text.find_first_not_of(" \t\r\n") != std::string::npos && text.find('#') == std::string::npos)
    out.broken = "a text that is not blank read as an empty document without an error";
  return out;
}

}  // namespace nnref::fuzz
