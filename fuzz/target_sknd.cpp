// The body of sknd_fuzz: SkriptND (NNEF 2.0) text through the nnef2 parser (formats/nnef2/), and
// a document that parses through the front-end's composition (formats/nnef2_model/), without weights.
#include <string>

#include "formats/nnef2/parser.hpp"
#include "formats/nnef2_model/nnef2_model.hpp"
#include "fuzz/targets.hpp"

namespace nnref::fuzz {

// A document that parses, composed into a model (no .dat file is read): each error is coded and
// located, and a model comes with none.
void compose(const std::string& text, Outcome& out) {
  const LoadResult r = load_nnef2_text(text, "fuzz.sknd", "/nonexistent", LoadOptions(WeightsPolicy::Skip));
  for (const Diagnostic& d : r.diagnostics) {
    if (d.severity != Severity::Error) continue;
    out.codes.push_back(d.code);
    if (d.loc.line < 1 && d.loc.column < 1) out.broken = "a composition error without its location: " + d.message;
  }
  if (r.model.has_value() == r.has_errors()) out.broken = "a composition with a model and errors, or neither";
  out.accepted = !r.has_errors();
}

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
  // Blank: the lexer's whitespace, std::isspace's (a form feed too).
  if (out.accepted && !doc.version && doc.ops.empty() && doc.imports.empty() && doc.extensions.empty() &&
      text.find_first_not_of(" \t\n\v\f\r") != std::string::npos && text.find('#') == std::string::npos)
    out.broken = "a text that is not blank read as an empty document without an error";
  if (out.accepted) compose(text, out);
  return out;
}

}  // namespace nnref::fuzz
