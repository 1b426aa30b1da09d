#include "formats/nnl/lexer.hpp"

#include "spec/escaped.hpp"

namespace nnref::nnl {

namespace {

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

class Lexer {
 public:
  Lexer(std::string_view src, const std::string& file, Diags& diags) : src_(src), file_(file), diags_(diags) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    // A UTF-8 byte-order mark (Windows editors write one) is not part of the text: columns on
    // line 1 count from after it.
    if (src_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
    while (true) {
      skip_space_and_comments();
      if (pos_ >= src_.size()) break;
      SourceLoc loc = here();
      char c = src_[pos_];
      if (is_ident_start(c)) {
        size_t start = pos_;
        while (pos_ < src_.size() && is_ident_char(src_[pos_])) advance();
        out.push_back({Tok::Ident, std::string(src_.substr(start, pos_ - start)), loc});
      } else if (is_digit(c) || (c == '-' && pos_ + 1 < src_.size() && is_digit(src_[pos_ + 1]))) {
        lex_number(out, loc);
      } else if (c == '"') {
        lex_string(out, loc);
      } else if (c == '-' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '>') {
        advance();
        advance();
        out.push_back({Tok::Arrow, "->", loc});
      } else {
        Tok k = Tok::End;
        switch (c) {
          case '{': k = Tok::LBrace; break;
          case '}': k = Tok::RBrace; break;
          case '(': k = Tok::LParen; break;
          case ')': k = Tok::RParen; break;
          case '[': k = Tok::LBracket; break;
          case ']': k = Tok::RBracket; break;
          case ':': k = Tok::Colon; break;
          case ';': k = Tok::Semi; break;
          case ',': k = Tok::Comma; break;
          case '=': k = Tok::Equals; break;
          default: break;
        }
        if (k != Tok::End) {
          advance();
          out.push_back({k, std::string(1, c), loc});
        } else {
          unexpected_run(loc);
        }
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
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
        advance();
      } else if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') advance();
      } else if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '*') {
        SourceLoc loc = here();
        advance();
        advance();
        bool closed = false;
        while (pos_ < src_.size()) {
          if (src_[pos_] == '*' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '/') {
            advance();
            advance();
            closed = true;
            break;
          }
          advance();
        }
        if (!closed)
          diags_.error("nnl.syntax.unterminated-comment", "block comment '/*' is never closed by '*/'", loc);
      } else {
        break;
      }
    }
  }

  // One diagnostic for a run of characters that start no token.
  bool starts_token(size_t i) const {
    char c = src_[i];
    if (is_ident_char(c) || c == '"') return true;
    if (std::string_view("{}()[]:;,= \t\r\n\f\v").find(c) != std::string_view::npos) return true;
    bool has_next = i + 1 < src_.size();
    if (c == '/' && has_next && (src_[i + 1] == '/' || src_[i + 1] == '*')) return true;
    if (c == '-' && has_next && (is_digit(src_[i + 1]) || src_[i + 1] == '>')) return true;
    return false;
  }

  // One diagnostic for a run of characters that start no token.
  void unexpected_run(SourceLoc loc) {
    size_t start = pos_;
    advance();
    while (pos_ < src_.size() && !starts_token(pos_)) advance();
    diags_.error("nnl.syntax.unexpected-char", "unexpected character(s) '" + escaped(src_.substr(start, pos_ - start), 16) + "'", loc);
  }

  void lex_number(std::vector<Token>& out, SourceLoc loc) {
    size_t start = pos_;
    bool is_float = false;
    bool bad = false;
    if (src_[pos_] == '-') advance();
    while (pos_ < src_.size() && is_digit(src_[pos_])) advance();
    if (pos_ < src_.size() && src_[pos_] == '.') {
      is_float = true;
      advance();
      if (pos_ >= src_.size() || !is_digit(src_[pos_])) bad = true;
      while (pos_ < src_.size() && is_digit(src_[pos_])) advance();
    }
    if (pos_ < src_.size() && (src_[pos_] == 'e' || src_[pos_] == 'E')) {
      is_float = true;
      advance();
      if (pos_ < src_.size() && (src_[pos_] == '+' || src_[pos_] == '-')) advance();
      if (pos_ >= src_.size() || !is_digit(src_[pos_])) bad = true;
      while (pos_ < src_.size() && is_digit(src_[pos_])) advance();
    }
    // A number glued to letters (`12abc`) is one malformed token, not two.
    while (pos_ < src_.size() && is_ident_char(src_[pos_])) {
      bad = true;
      advance();
    }
    std::string text(src_.substr(start, pos_ - start));
    if (bad) {
      std::string shown = text.size() > 40 ? text.substr(0, 40) + "..." : text;
      diags_.error("nnl.syntax.bad-number", "malformed number '" + shown + "'", loc);
      return;
    }
    out.push_back({is_float ? Tok::Number : Tok::Integer, std::move(text), loc});
  }

  void lex_string(std::vector<Token>& out, SourceLoc loc) {
    advance();  // opening quote
    std::string text;
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == '"') {
        advance();
        out.push_back({Tok::String, std::move(text), loc});
        return;
      }
      if (c == '\n') break;
      if (c == '\\' && pos_ + 1 < src_.size() && (src_[pos_ + 1] == '"' || src_[pos_ + 1] == '\\')) {
        advance();
        c = src_[pos_];
      }
      text += c;
      advance();
    }
    diags_.error("nnl.syntax.unterminated-string", "string is not closed by '\"' before the end of the line",
                 loc);
    // Keep it as a token so that the parser does not add a second error for the missing value.
    out.push_back({Tok::String, std::move(text), loc});
  }

  std::string_view src_;
  const std::string& file_;
  Diags& diags_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
};

}  // namespace

std::vector<Token> lex(std::string_view src, const std::string& file, Diags& diags) {
  return Lexer(src, file, diags).run();
}

const char* tok_name(Tok k) {
  switch (k) {
    case Tok::Ident: return "an identifier";
    case Tok::Integer: return "an integer";
    case Tok::Number: return "a number";
    case Tok::String: return "a string";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::LBracket: return "'['";
    case Tok::RBracket: return "']'";
    case Tok::Colon: return "':'";
    case Tok::Semi: return "';'";
    case Tok::Comma: return "','";
    case Tok::Equals: return "'='";
    case Tok::Arrow: return "'->'";
    case Tok::End: return "end of file";
  }
  return "a token";
}

std::string describe(const Token& t) {
  auto shorten = [](const std::string& s) { return s.size() > 40 ? s.substr(0, 40) + "..." : s; };
  switch (t.kind) {
    case Tok::Ident: return "'" + shorten(t.text) + "'";
    case Tok::Integer:
    case Tok::Number: return "number " + shorten(t.text);
    case Tok::String: return "string \"" + shorten(t.text) + "\"";
    default: return tok_name(t.kind);
  }
}

}  // namespace nnref::nnl
