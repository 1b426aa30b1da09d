// NNEF 1.0 tokens (§3.1): identifiers (keywords among them), numeric, string and logical
// literals, operators and punctuation; `#` comments and whitespace skipped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "formats/nnl/diags.hpp"

namespace nnref::nnef {

using nnl::Diags;

enum class Tok { Ident, Integer, Real, String, Op, End };

struct Token {
  Tok kind = Tok::End;
  std::string text;  // identifier, numeric spelling, string contents, or the operator itself
  SourceLoc loc;
};

// Always ends with an End token. A character that starts no token, an unterminated string or a
// malformed number is reported (nnef.syntax.character, nnef.syntax.string, nnef.syntax.number)
// and skipped.
std::vector<Token> lex(std::string_view src, const std::string& file, Diags& diags);

// How a token is named in "expected X, found Y" messages.
std::string describe(const Token& t);

}  // namespace nnref::nnef
