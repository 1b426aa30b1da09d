#include "formats/nnef/lexer.hpp"

#include <array>

#include "spec/escaped.hpp"

namespace nnref::nnef {

namespace {

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Longest first, so that "<=" is not read as "<" then "=".
constexpr std::array<std::string_view, 26> kOps = {"->", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/",
                                                   "^",  "<",  ">",  "!",  "(",  ")",  "[",  "]", "{", "}",
                                                   ":",  "=",  ",",  ";", "?"};

class Lexer {
 public:
  Lexer(std::string_view src, const std::string& file, Diags& diags) : src_(src), file_(file), diags_(diags) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    if (src_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
    while (true) {
      skip_space_and_comments();
      if (pos_ >= src_.size()) break;
      const SourceLoc loc = here();
      const char c = src_[pos_];
      if (is_ident_start(c)) {
        const size_t start = pos_;
        while (pos_ < src_.size() && (is_ident_start(src_[pos_]) || is_digit(src_[pos_]))) advance();
        out.push_back({Tok::Ident, std::string(src_.substr(start, pos_ - start)), loc});
      } else if (is_digit(c)) {
        lex_number(out, loc);
      } else if (c == '\'' || c == '"') {
        lex_string(out, loc);
      } else if (!lex_op(out, loc)) {
        diags_.error("nnef.syntax.character", "unexpected character '" + escaped(src_.substr(pos_, 1)) + "'", loc);
        advance();
      }
    }
    out.push_back({Tok::End, "", here()});
    return out;
  }

 private:
  SourceLoc here() const { return SourceLoc{file_, line_, col_}; }
  void advance() {
    if (src_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }
  void skip_space_and_comments() {
    while (pos_ < src_.size()) {
      const char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
        advance();
      } else if (c == '#') {
        while (pos_ < src_.size() && src_[pos_] != '\n') advance();
      } else {
        break;
      }
    }
  }
  // digits ['.' digits] [('e'|'E') ['+'|'-'] digits]; "1." is accepted as the reference parser does.
  void lex_number(std::vector<Token>& out, const SourceLoc& loc) {
    const size_t start = pos_;
    bool real = false;
    while (pos_ < src_.size() && is_digit(src_[pos_])) advance();
    if (pos_ < src_.size() && src_[pos_] == '.') {
      real = true;
      advance();
      while (pos_ < src_.size() && is_digit(src_[pos_])) advance();
    }
    if (pos_ < src_.size() && (src_[pos_] == 'e' || src_[pos_] == 'E')) {
      real = true;
      advance();
      if (pos_ < src_.size() && (src_[pos_] == '+' || src_[pos_] == '-')) advance();
      if (pos_ >= src_.size() || !is_digit(src_[pos_])) {
        diags_.error("nnef.syntax.number", "malformed number '" + std::string(src_.substr(start, pos_ - start)) +
                                               "': an exponent needs digits", loc);
        return;
      }
      while (pos_ < src_.size() && is_digit(src_[pos_])) advance();
    }
    out.push_back({real ? Tok::Real : Tok::Integer, std::string(src_.substr(start, pos_ - start)), loc});
  }
  // Quoted by ' or "; the opening quote and \ are escaped with \ inside.
  void lex_string(std::vector<Token>& out, const SourceLoc& loc) {
    const char quote = src_[pos_];
    advance();
    std::string text;
    while (pos_ < src_.size() && src_[pos_] != quote && src_[pos_] != '\n') {
      if (src_[pos_] == '\\' && pos_ + 1 < src_.size() && (src_[pos_ + 1] == quote || src_[pos_ + 1] == '\\')) advance();
      text += src_[pos_];
      advance();
    }
    if (pos_ >= src_.size() || src_[pos_] != quote) {
      diags_.error("nnef.syntax.string", "unterminated string: no closing " + std::string(1, quote) + " on its line",
                   loc);
      return;
    }
    advance();
    out.push_back({Tok::String, std::move(text), loc});
  }
  bool lex_op(std::vector<Token>& out, const SourceLoc& loc) {
    for (std::string_view op : kOps)
      if (src_.substr(pos_).starts_with(op)) {
        for (size_t k = 0; k < op.size(); ++k) advance();
        out.push_back({Tok::Op, std::string(op), loc});
        return true;
      }
    return false;
  }

  std::string_view src_;
  std::string file_;
  Diags& diags_;
  size_t pos_ = 0;
  int line_ = 1, col_ = 1;
};

}  // namespace

std::vector<Token> lex(std::string_view src, const std::string& file, Diags& diags) {
  return Lexer(src, file, diags).run();
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::End: return "the end of the file";
    case Tok::String: return "string '" + t.text + "'";
    case Tok::Integer:
    case Tok::Real: return "number " + t.text;
    default: return "'" + t.text + "'";
  }
}

}  // namespace nnref::nnef
