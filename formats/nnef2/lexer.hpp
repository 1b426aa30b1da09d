// SkriptND (NNEF 2.0) tokens: identifiers (keywords among them), integer, real and string literals,
// operators and punctuation; `#` comments and whitespace skipped. Both dialects of the draft are
// read: Revision 6's `<<`/`>>` (and `<<=`/`>>=`) come out as Revision 8's `<?`/`>?` (`<?=`/`>?=`),
// and Revision 6's back-ticked built-ins (`abs`) as plain identifiers, so that both give one tree.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "formats/nnef2/diags.hpp"

namespace nnref::nnef2 {

enum class Tok { Ident, Integer, Real, String, Op, End };

struct Token {
  Tok kind = Tok::End;
  std::string text;  // identifier, numeric spelling, string contents (adjacent ones joined), or the operator
  SourceLoc loc;
};

// Always ends with an End token. A character that starts no token, an unterminated string or
// back-tick, or a malformed number is reported (nnef2.lex.character, nnef2.lex.string,
// nnef2.lex.number) and skipped. `line`/`column` offset the locations (a string's `{expr}` part).
std::vector<Token> lex(std::string_view src, const std::string& file, Diags& diags, int line = 1, int column = 1);

// How a token is named in "expected X, found Y" messages.
std::string describe(const Token& t);

}  // namespace nnref::nnef2
