// --assume EXPR: a lexer that splits the text into tokens, then a recursive-descent parser with one
// function per rule of the grammar in assume_expr.hpp. Values are built only with SymDim/SymPred
// operations, so constants fold exactly as the rest of the checker folds them.
#include "checker/assume_expr.hpp"

#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <variant>
#include <vector>

#include "spec/diagnostic.hpp"
#include "spec/escaped.hpp"

namespace nnref {

namespace {

// Bounds the nesting of '(', '-' and '!', and with it the parser's recursion: hostile input must
// produce an error, not a stack overflow.
constexpr int kMaxNesting = 200;

struct Token {
  enum Kind { Int, Name, Op, End };
  Kind kind = End;
  std::string text;
  int64_t value = 0;  // Int only
  size_t column = 0;  // 1-based
};

// Every error of this file: "--assume '<text>': column N: <what>".
Diagnostic assume_error(std::string_view text, size_t column, const std::string& what) {
  return make_error("usage.assume",
                    "--assume '" + std::string(text) + "': column " + std::to_string(column) + ": " + what);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Longest operators first, so that "<=" is not read as "<" then "=".
constexpr std::string_view kOperators[] = {"==", "!=", "<=", ">=", "&&", "||", "+", "-",
                                           "*",  "/",  "%",  "<",  ">",  "!",  "(", ")"};

// End of the span of characters from i that satisfy pred.
template <class Pred>
size_t span_end(std::string_view s, size_t i, Pred pred) {
  while (i < s.size() && pred(s[i])) ++i;
  return i;
}

// End of the name starting at i: an identifier, then any ".<digits>" or ".<ident>" parts.
size_t name_end(std::string_view s, size_t i) {
  i = span_end(s, i, is_ident_char);
  while (i + 1 < s.size() && s[i] == '.') {
    if (is_digit(s[i + 1])) {
      i = span_end(s, i + 1, is_digit);
    } else if (is_ident_start(s[i + 1])) {
      i = span_end(s, i + 1, is_ident_char);
    } else {
      break;
    }
  }
  return i;
}

// The text split into tokens, ending with an End token at the column after the last character.
Result<std::vector<Token>> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    const size_t column = i + 1;
    if (is_space(c)) {
      ++i;
    } else if (is_digit(c)) {
      const size_t end = span_end(text, i, is_digit);
      Token t{Token::Int, std::string(text.substr(i, end - i)), 0, column};
      if (std::from_chars(text.data() + i, text.data() + end, t.value).ec != std::errc())
        return assume_error(text, column, "the integer " + t.text + " does not fit in 64 bits");
      tokens.push_back(std::move(t));
      i = end;
    } else if (is_ident_start(c)) {
      const size_t end = name_end(text, i);
      tokens.push_back({Token::Name, std::string(text.substr(i, end - i)), 0, column});
      i = end;
    } else {
      std::string_view op;
      for (std::string_view o : kOperators)
        if (text.substr(i, o.size()) == o) {
          op = o;
          break;
        }
      if (op.empty()) {
        std::string what = "unexpected character '" + escaped(std::string_view(&c, 1)) + "'";
        if (c == '=' || c == '&' || c == '|') what += " (did you mean '" + std::string(2, c) + "'?)";
        return assume_error(text, column, what);
      }
      tokens.push_back({Token::Op, std::string(op), 0, column});
      i += op.size();
    }
  }
  tokens.push_back({Token::End, "", 0, text.size() + 1});
  return tokens;
}

using ExprValue = std::variant<SymDim, SymPred>;
using Ops = std::initializer_list<std::string_view>;

// Counts one level of nesting for as long as it lives.
class Nesting {
 public:
  explicit Nesting(int& depth) : depth_(depth) { ++depth_; }
  ~Nesting() { --depth_; }
  Nesting(const Nesting&) = delete;
  Nesting& operator=(const Nesting&) = delete;

 private:
  int& depth_;
};

class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> tokens, const SizeLookup& lookup)
      : text_(text), tokens_(std::move(tokens)), lookup_(lookup) {}

  Result<SymPred> assumption();

 private:
  using Rule = Result<ExprValue> (Parser::*)();
  using Combine = Result<ExprValue> (Parser::*)(const Token&, size_t, const ExprValue&, const ExprValue&) const;

  Result<ExprValue> expr() { return left_assoc({"||"}, &Parser::conjunction, &Parser::logic); }
  Result<ExprValue> conjunction() { return left_assoc({"&&"}, &Parser::comparison, &Parser::logic); }
  Result<ExprValue> comparison();
  Result<ExprValue> sum() { return left_assoc({"+", "-"}, &Parser::product, &Parser::arithmetic); }
  Result<ExprValue> product() { return left_assoc({"*", "/", "%"}, &Parser::unary, &Parser::arithmetic); }
  Result<ExprValue> unary();
  Result<ExprValue> parenthesized(size_t open_column);
  Result<ExprValue> atom();

  Result<ExprValue> left_assoc(Ops ops, Rule operand, Combine combine);
  Result<ExprValue> arithmetic(const Token& op, size_t rhs_column, const ExprValue& lhs, const ExprValue& rhs) const;
  Result<ExprValue> logic(const Token& op, size_t rhs_column, const ExprValue& lhs, const ExprValue& rhs) const;

  const Token& peek() const { return tokens_[pos_]; }
  bool at_any(Ops ops) const;
  Diagnostic error(size_t column, const std::string& what) const { return assume_error(text_, column, what); }

  std::string_view text_;
  std::vector<Token> tokens_;
  const SizeLookup& lookup_;
  size_t pos_ = 0;
  int depth_ = 0;
};

// ", found 'x'" for a token, nothing at the end of the text.
std::string found(const Token& t) { return t.kind == Token::End ? "" : ", found '" + t.text + "'"; }

bool Parser::at_any(Ops ops) const {
  if (peek().kind != Token::Op) return false;
  for (std::string_view o : ops)
    if (peek().text == o) return true;
  return false;
}

Result<SymPred> Parser::assumption() {
  const Token first = peek();
  if (first.kind == Token::End)
    return error(first.column, "the assumption is empty; expected a comparison, e.g. 'input.0 % 4 == 0'");
  Result<ExprValue> v = expr();
  if (!v) return v.error();
  if (peek().kind != Token::End)
    return error(peek().column, "unexpected '" + peek().text + "'; expected an operator or the end of the assumption");
  const auto* p = std::get_if<SymPred>(&*v);
  if (!p) return error(first.column, "the assumption must be a comparison, e.g. 'input.0 % 4 == 0'");
  return *p;
}

// operand (op operand)*, folded left to right with combine.
Result<ExprValue> Parser::left_assoc(Ops ops, Rule operand, Combine combine) {
  Result<ExprValue> lhs = (this->*operand)();
  while (lhs && at_any(ops)) {
    const Token& op = tokens_[pos_++];
    const size_t rhs_column = peek().column;
    Result<ExprValue> rhs = (this->*operand)();
    if (!rhs) return rhs;
    lhs = (this->*combine)(op, rhs_column, *lhs, *rhs);
  }
  return lhs;
}

Result<ExprValue> Parser::arithmetic(const Token& op, size_t rhs_column, const ExprValue& lhs, const ExprValue& rhs) const {
  const auto* a = std::get_if<SymDim>(&lhs);
  const auto* b = std::get_if<SymDim>(&rhs);
  if (!a || !b) return error(op.column, "'" + op.text + "' needs numbers on both sides");
  if (op.text == "+") return ExprValue(*a + *b);
  if (op.text == "-") return ExprValue(*a - *b);
  if (op.text == "*") return ExprValue(*a * *b);
  // floor_div would quietly read a divisor ≤ 0 as a quotient of 0; a known one is a mistake.
  if (b->is_known() && b->known() <= 0)
    return error(rhs_column, "the divisor of '" + op.text + "' must be positive, not " + std::to_string(b->known()));
  if (op.text == "/") return ExprValue(floor_div(*a, *b));
  return ExprValue(*a - floor_div(*a, *b) * *b);  // '%': the remainder of floor division
}

Result<ExprValue> Parser::logic(const Token& op, size_t /*rhs_column*/, const ExprValue& lhs, const ExprValue& rhs) const {
  const auto* a = std::get_if<SymPred>(&lhs);
  const auto* b = std::get_if<SymPred>(&rhs);
  if (!a || !b) return error(op.column, "'" + op.text + "' needs comparisons on both sides");
  return ExprValue(op.text == "&&" ? (*a && *b) : (*a || *b));
}

Result<ExprValue> Parser::comparison() {
  const Ops kComparisons = {"==", "!=", "<", "<=", ">", ">="};
  Result<ExprValue> lhs = sum();
  if (!lhs || !at_any(kComparisons)) return lhs;
  const Token& op = tokens_[pos_++];
  Result<ExprValue> rhs = sum();
  if (!rhs) return rhs;
  if (at_any(kComparisons)) return error(peek().column, "comparisons do not chain; join them with '&&'");
  const auto* a = std::get_if<SymDim>(&*lhs);
  const auto* b = std::get_if<SymDim>(&*rhs);
  if (!a || !b) return error(op.column, "'" + op.text + "' needs numbers on both sides");
  if (op.text == "==") return ExprValue(*a == *b);
  if (op.text == "!=") return ExprValue(*a != *b);
  if (op.text == "<") return ExprValue(*a < *b);
  if (op.text == "<=") return ExprValue(*a <= *b);
  if (op.text == ">") return ExprValue(*a > *b);
  return ExprValue(*a >= *b);
}

Result<ExprValue> Parser::unary() {
  const Token& t = peek();
  if (!at_any({"-", "!", "("})) return atom();
  if (depth_ == kMaxNesting)
    return error(t.column, "more than " + std::to_string(kMaxNesting) + " nested parentheses and unary operators");
  Nesting level(depth_);
  ++pos_;
  if (t.text == "(") return parenthesized(t.column);
  Result<ExprValue> operand = unary();
  if (!operand) return operand;
  if (t.text == "-") {
    const auto* x = std::get_if<SymDim>(&*operand);
    if (!x) return error(t.column, "'-' needs a number after it");
    return ExprValue(SymDim(int64_t{0}) - *x);
  }
  const auto* p = std::get_if<SymPred>(&*operand);
  if (!p) return error(t.column, "'!' needs a comparison after it");
  return ExprValue(!*p);
}

Result<ExprValue> Parser::parenthesized(size_t open_column) {
  Result<ExprValue> inner = expr();
  if (!inner) return inner;
  if (!at_any({")"}))
    return error(peek().column,
                 "expected ')' to close the '(' at column " + std::to_string(open_column) + found(peek()));
  ++pos_;
  return inner;
}

Result<ExprValue> Parser::atom() {
  const Token& t = peek();
  if (t.kind == Token::Int) {
    ++pos_;
    return ExprValue(SymDim(t.value));
  }
  if (t.kind == Token::Name) {
    std::optional<SymDim> extent = lookup_(t.text);
    if (!extent) return error(t.column, "unknown size name '" + t.text + "'");
    ++pos_;
    return ExprValue(*extent);
  }
  return error(t.column, "expected a number, a name or '('" + found(t));
}

}  // namespace

Result<SymPred> parse_assumption(std::string_view text, const SizeLookup& lookup) {
  Result<std::vector<Token>> tokens = tokenize(text);
  if (!tokens) return tokens.error();
  return Parser(text, std::move(*tokens), lookup).assumption();
}

}  // namespace nnref
