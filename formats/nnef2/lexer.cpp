#include "formats/nnef2/lexer.hpp"

#include <array>
#include <cctype>
#include <cstdint>
#include <cstdio>

namespace nnref::nnef2 {
namespace {

// Longest first, so that maximal munch picks `<?=` over `<?` over `<`.
constexpr std::array<std::string_view, 42> kOperators = {"...", "<?=", ">?=", "<<=", ">>=", "..", "<?", ">?", "<<",
                                                         ">>",  "<-",  "<>",  "<=",  ">=",  "==", "!=", "&&", "||",
                                                         "=>",  "??",  "**",  "+=",  "*=",  "&=", "|=", ":=", "->",
                                                         "<",   ">",   "=",   "+",   "-",   "*",  "/",  "\\", "%",
                                                         "^",   "!",   "?",   ":",   "|",   "~"};

// Revision 6's spelling of an operator, in Revision 8's.
std::string_view rev8_spelling(std::string_view op) {
  if (op == "<<") return "<?";
  if (op == ">>") return ">?";
  if (op == "<<=") return "<?=";
  if (op == ">>=") return ">?=";
  return op;
}

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

class Lexer {
 public:
  Lexer(std::string_view src, const std::string& file, Diags& diags, int line, int column)
      : src_(src), file_(file), diags_(diags), line_(line), column_(column) {}

  std::vector<Token> run() {
    while (skip_blank(), pos_ < src_.size()) {
      SourceLoc loc = here();
      char c = src_[pos_];
      if (is_ident_start(c)) {
        size_t start = pos_;
        while (pos_ < src_.size() && is_ident_char(src_[pos_])) advance();
        push(Tok::Ident, std::string(src_.substr(start, pos_ - start)), loc);
      } else if (c == '`') {
        backticked(loc);
      } else if (is_digit(c)) {
        number(loc);
      } else if (c == '"' || c == '\'') {
        string(loc);
      } else if (!op_or_punct(loc)) {
        bad_character(loc);
      }
    }
    push(Tok::End, "", here());
    return std::move(tokens_);
  }

 private:
  SourceLoc here() const { return {file_, line_, column_}; }
  void advance() {
    if (src_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }
  void push(Tok kind, std::string text, const SourceLoc& loc) {
    tokens_.push_back({kind, std::move(text), loc});
    joinable_ = false;
  }

  void skip_blank() {
    while (pos_ < src_.size()) {
      if (std::isspace(static_cast<unsigned char>(src_[pos_]))) {
        advance();
      } else if (src_[pos_] == '#') {
        while (pos_ < src_.size() && src_[pos_] != '\n') advance();
      } else {
        return;
      }
    }
  }

  // One diagnostic per character: a UTF-8 sequence (a minus sign − pasted from the draft's text)
  // is named whole, with its code point, not byte by byte.
  void bad_character(const SourceLoc& loc) {
    const auto lead = static_cast<unsigned char>(src_[pos_]);
    const size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    uint32_t code = length == 1 ? lead : lead & (0x7Fu >> length);
    size_t n = 1;
    for (; n < length && pos_ + n < src_.size() && (static_cast<unsigned char>(src_[pos_ + n]) & 0xC0) == 0x80; ++n)
      code = (code << 6) | (static_cast<unsigned char>(src_[pos_ + n]) & 0x3Fu);
    std::string message = "unexpected character";
    if (lead < 0x80) {
      message += std::string(" '") + src_[pos_] + "'";
    } else if (n == length && length > 1) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "U+%04X", code);
      message += " '" + std::string(src_.substr(pos_, n)) + "' (" + hex + ")";
    } else {
      message += " (a byte that starts no UTF-8 character)";
      n = 1;
    }
    diags_.error("nnef2.lex.character", message, loc);
    for (size_t k = 0; k < n; ++k) advance();
  }

  // Revision 6 quotes built-in names in back-ticks: `abs`(x) reads as abs(x).
  void backticked(const SourceLoc& loc) {
    advance();
    size_t start = pos_;
    while (pos_ < src_.size() && is_ident_char(src_[pos_])) advance();
    if (pos_ == start || pos_ >= src_.size() || src_[pos_] != '`') {
      diags_.error("nnef2.lex.string", "a back-tick must enclose a name, as in `abs`", loc);
      return;
    }
    push(Tok::Ident, std::string(src_.substr(start, pos_ - start)), loc);
    advance();
  }

  // An integer, or a real when a '.' is followed by a digit or an exponent follows: `1 ..(5)` and
  // `1..(5)` are the integer 1 and an expansion.
  void number(const SourceLoc& loc) {
    size_t start = pos_;
    bool real = false;
    while (pos_ < src_.size() && is_digit(src_[pos_])) advance();
    if (pos_ + 1 < src_.size() && src_[pos_] == '.' && is_digit(src_[pos_ + 1])) {
      real = true;
      advance();
      while (pos_ < src_.size() && is_digit(src_[pos_])) advance();
    }
    if (pos_ < src_.size() && (src_[pos_] == 'e' || src_[pos_] == 'E')) {
      real = true;
      advance();
      if (pos_ < src_.size() && (src_[pos_] == '+' || src_[pos_] == '-')) advance();
      if (pos_ >= src_.size() || !is_digit(src_[pos_])) {
        diags_.error("nnef2.lex.number", "an exponent needs digits after 'e'", loc);
        return;
      }
      while (pos_ < src_.size() && is_digit(src_[pos_])) advance();
    }
    push(real ? Tok::Real : Tok::Integer, std::string(src_.substr(start, pos_ - start)), loc);
  }

  // '…' or "…"; a string right after another string continues it (a message split over lines).
  void string(const SourceLoc& loc) {
    char quote = src_[pos_];
    advance();
    size_t start = pos_;
    while (pos_ < src_.size() && src_[pos_] != quote && src_[pos_] != '\n') advance();
    if (pos_ >= src_.size() || src_[pos_] != quote) {
      diags_.error("nnef2.lex.string", "the string has no closing quote on its line", loc);
      return;
    }
    std::string text(src_.substr(start, pos_ - start));
    advance();
    if (!tokens_.empty() && tokens_.back().kind == Tok::String && joinable_) {
      tokens_.back().text += text;
    } else {
      push(Tok::String, std::move(text), loc);
    }
    joinable_ = true;
  }

  bool op_or_punct(const SourceLoc& loc) {
    static constexpr std::string_view kPunct = "()[]{},;.@";
    for (std::string_view op : kOperators) {
      if (src_.substr(pos_, op.size()) == op) {
        for (size_t i = 0; i < op.size(); ++i) advance();
        push(Tok::Op, std::string(rev8_spelling(op)), loc);
        return true;
      }
    }
    if (kPunct.find(src_[pos_]) == std::string_view::npos) return false;
    push(Tok::Op, std::string(1, src_[pos_]), loc);
    advance();
    return true;
  }

  std::string_view src_;
  const std::string& file_;
  Diags& diags_;
  size_t pos_ = 0;
  int line_;
  int column_;
  bool joinable_ = false;  // the last token is a string that a next string may continue
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> lex(std::string_view src, const std::string& file, Diags& diags, int line, int column) {
  return Lexer(src, file, diags, line, column).run();
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::End:
      return "the end of the file";
    case Tok::String:
      return "the string \"" + t.text + "\"";
    case Tok::Integer:
    case Tok::Real:
      return "the number " + t.text;
    default:
      return "'" + t.text + "'";
  }
}

}  // namespace nnref::nnef2
