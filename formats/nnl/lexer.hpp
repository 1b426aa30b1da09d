// NNL tokens: identifiers, numbers, strings, punctuation; `//` and `/* */` comments skipped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "formats/nnl/diags.hpp"

namespace nnref::nnl {

enum class Tok {
  Ident, Integer, Number, String,
  LBrace, RBrace, LParen, RParen, LBracket, RBracket,
  Colon, Semi, Comma, Equals, Arrow, End
};

struct Token {
  Tok kind = Tok::End;
  std::string text;  // identifier, number spelling, or string contents (escapes resolved)
  SourceLoc loc;
};

// Always ends with an End token. Lexical errors (unexpected characters, unterminated strings or
// block comments, malformed numbers) are reported and the offending characters skipped.
std::vector<Token> lex(std::string_view src, const std::string& file, Diags& diags);

// How a token is named in "expected X, found Y" messages.
std::string describe(const Token& t);
const char* tok_name(Tok k);

}  // namespace nnref::nnl
