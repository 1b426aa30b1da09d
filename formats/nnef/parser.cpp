#include "formats/nnef/parser.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace nnref::nnef {

// Reserved words (§3.1; true and false too, as the reference parser has them).
constexpr std::array<std::string_view, 19> kKeywords = {
    "version", "extension", "graph", "fragment", "tensor", "integer", "scalar", "logical", "string", "shape_of",
    "length_of", "range_of", "for", "in", "yield", "if", "else", "true", "false"};

bool is_keyword(const std::string& s) { return std::find(kKeywords.begin(), kKeywords.end(), s) != kKeywords.end(); }

namespace {

// Keywords that may be called as built-in functions.
constexpr std::array<std::string_view, 7> kBuiltins = {"shape_of", "length_of", "range_of", "integer",
                                                       "scalar",   "logical",   "string"};

bool is_builtin(const std::string& s) { return std::find(kBuiltins.begin(), kBuiltins.end(), s) != kBuiltins.end(); }

struct SyntaxError {};

class Parser {
 public:
  Parser(const std::vector<Token>& t, Diags& d, bool prelude)
      : toks_(t), diags_(d), prelude_(prelude), fragments_on_(prelude), operators_on_(prelude) {}

  std::vector<QuantLine> quant() {
    std::vector<QuantLine> lines;
    try {
      while (peek().kind != Tok::End) {
        QuantLine q;
        q.loc = peek().loc;
        if (peek().kind != Tok::String) fail("nnef.syntax.expected", "expected a quoted tensor identifier, found " + describe(peek()));
        q.id = next().text;
        expect_op(":", "after the tensor identifier");
        const ExprPtr algorithm = expression();
        if (algorithm->kind != Expr::Kind::Call)
          fail("nnef.syntax.expected", "expected a quantization algorithm invocation", &algorithm->loc);
        q.algorithm = algorithm->text;
        q.args = algorithm->args;
        for (const Argument& a : q.args)
          if (a.name.empty())
            fail("nnef.quant.positional", "graph.quant names every argument; the tensor itself is not given", &a.loc);
        expect_op(";", "at the end of the line");
        lines.push_back(std::move(q));
      }
    } catch (const SyntaxError&) {
    }
    return lines;
  }

  Document run() {
    Document doc;
    try {
      if (!prelude_) header(doc);
      while (at_ident("fragment")) doc.fragments.push_back(fragment());
      if (!prelude_) {
        if (!at_ident("graph")) fail("nnef.syntax.expected", "expected 'fragment' or 'graph', found " + describe(peek()));
        doc.graph = graph();
        if (peek().kind != Tok::End) fail("nnef.syntax.after-graph", "the graph must come last, found " + describe(peek()));
      } else if (peek().kind != Tok::End) {
        fail("nnef.syntax.expected", "expected 'fragment', found " + describe(peek()));
      }
    } catch (const SyntaxError&) {
    }
    return doc;
  }

 private:
  const Token& peek(size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  const Token& next() {
    const Token& t = peek();
    if (pos_ + 1 < toks_.size()) ++pos_;
    return t;
  }
  bool at_op(std::string_view op, size_t k = 0) const { return peek(k).kind == Tok::Op && peek(k).text == op; }
  bool at_ident(std::string_view s) const { return peek().kind == Tok::Ident && peek().text == s; }
  [[noreturn]] void fail(const char* code, const std::string& message, const SourceLoc* at = nullptr) {
    diags_.error(code, message, at ? *at : peek().loc);
    throw SyntaxError{};
  }
  void expect_op(std::string_view op, const char* where) {
    if (!at_op(op)) fail("nnef.syntax.expected", "expected '" + std::string(op) + "' " + where + ", found " + describe(peek()));
    next();
  }
  void expect_keyword(std::string_view kw, const char* where) {
    if (!at_ident(kw)) fail("nnef.syntax.expected", "expected '" + std::string(kw) + "' " + where + ", found " + describe(peek()));
    next();
  }
  // An identifier that is not a keyword.
  std::string name(const char* what) {
    if (peek().kind != Tok::Ident) fail("nnef.syntax.expected", std::string("expected ") + what + ", found " + describe(peek()));
    if (is_keyword(peek().text))
      fail("nnef.syntax.keyword", "'" + peek().text + "' is a reserved word and cannot be " + what);
    return next().text;
  }
  void needs_operators(const SourceLoc& loc, const std::string& what) {
    if (!operators_on_)
      fail("nnef.syntax.extension-required",
           what + " needs 'extension " + kOperatorsExtension + ";' (the flat grammar allows only invocations of "
                  "identifiers and literals)", &loc);
  }

  void header(Document& doc) {
    doc.version_loc = peek().loc;
    expect_keyword("version", "at the start of the document");
    if (peek().kind != Tok::Real) fail("nnef.syntax.version", "expected a version number major.minor, found " + describe(peek()));
    doc.version = next().text;
    if (doc.version != "1.0")
      fail("nnef.version.unsupported", "NNEF version " + doc.version + " is not supported (this reader knows 1.0)",
           &doc.version_loc);
    expect_op(";", "after the version");
    while (at_ident("extension")) {
      next();
      do {
        const SourceLoc loc = peek().loc;
        const std::string ext = name("an extension name");
        if (ext == kFragmentsExtension) {
          fragments_on_ = true;
        } else if (ext == kOperatorsExtension) {
          operators_on_ = true;
        } else {
          fail("nnef.extension.unknown", "unknown extension '" + ext + "': this reader knows " + kFragmentsExtension +
                                             " and " + kOperatorsExtension, &loc);
        }
        doc.extensions.emplace_back(ext, loc);
      } while (at_op(",") && (next(), true));
      expect_op(";", "after the extension names");
    }
  }

  Type type_spec() {
    Type t;
    if (at_op("(")) {
      next();
      t.kind = Type::Kind::Tuple;
      t.items.push_back(type_spec());
      while (at_op(",")) {
        next();
        t.items.push_back(type_spec());
      }
      if (t.items.size() < 2) fail("nnef.syntax.expected", "a tuple type has at least two items");
      expect_op(")", "after a tuple type");
    } else if (at_ident("tensor")) {
      next();
      t.kind = Type::Kind::Tensor;
      expect_op("<", "after 'tensor'");
      if (!at_op(">")) t.items.push_back(type_name());
      expect_op(">", "after the tensor's item type");
    } else {
      t = type_name();
    }
    while (at_op("[") && at_op("]", 1)) {
      next();
      next();
      t = Type{Type::Kind::Array, {t}};
    }
    return t;
  }
  Type type_name() {
    const Token& tok = peek();
    if (at_op("?")) {
      next();
      return Type{Type::Kind::Generic, {}};
    }
    if (tok.kind == Tok::Ident) {
      if (tok.text == "integer") return next(), Type{Type::Kind::Integer, {}};
      if (tok.text == "scalar") return next(), Type{Type::Kind::Scalar, {}};
      if (tok.text == "logical") return next(), Type{Type::Kind::Logical, {}};
      if (tok.text == "string") return next(), Type{Type::Kind::String, {}};
    }
    fail("nnef.syntax.type", "expected a type (integer, scalar, logical, string, ?, tensor<...>), found " + describe(tok));
  }

  std::vector<Param> params(bool results) {
    std::vector<Param> out;
    expect_op("(", results ? "before the results" : "before the parameters");
    do {
      Param p;
      p.loc = peek().loc;
      p.name = name(results ? "a result name" : "a parameter name");
      expect_op(":", "after the name");
      p.type = type_spec();
      if (!results && at_op("=")) {
        next();
        p.default_value = expression();
      }
      out.push_back(std::move(p));
    } while (at_op(",") && (next(), true));
    expect_op(")", results ? "after the results" : "after the parameters");
    return out;
  }

  Fragment fragment() {
    const SourceLoc loc = peek().loc;
    if (!fragments_on_)
      fail("nnef.syntax.extension-required",
           std::string("a fragment definition needs 'extension ") + kFragmentsExtension + ";'");
    next();
    Fragment f;
    f.loc = loc;
    f.standard = prelude_;
    f.name = name("a fragment name");
    if (at_op("<")) {
      next();
      if (!at_op("?")) fail("nnef.syntax.expected", "expected '?' in a generic fragment's '<...>', found " + describe(peek()));
      next();
      f.generic = true;
      if (at_op("=")) {
        next();
        f.generic_default = type_name();
      }
      expect_op(">", "after the generic marker");
    }
    f.params = params(false);
    expect_op("->", "before the results");
    f.results = params(true);
    if (at_op(";")) {
      next();
    } else {
      f.body = block();
    }
    return f;
  }

  std::vector<Assignment> block() {
    expect_op("{", "to open the body");
    std::vector<Assignment> body;
    while (!at_op("}")) {
      if (peek().kind == Tok::End) fail("nnef.syntax.expected", "expected '}' to close the body, found the end of the file");
      body.push_back(assignment());
    }
    next();
    return body;
  }

  GraphDecl graph() {
    GraphDecl g;
    g.loc = peek().loc;
    next();
    g.name = name("the graph's name");
    auto ids = [&](const char* where) {
      std::vector<std::pair<std::string, SourceLoc>> out;
      expect_op("(", where);
      if (!at_op(")")) do {
          const SourceLoc loc = peek().loc;
          out.emplace_back(name("a tensor identifier"), loc);
        } while (at_op(",") && (next(), true));
      expect_op(")", where);
      return out;
    };
    g.params = ids("around the graph's inputs");
    expect_op("->", "before the graph's outputs");
    g.results = ids("around the graph's outputs");
    if (g.results.empty()) fail("nnef.syntax.expected", "a graph has at least one output", &g.loc);
    g.body = block();
    if (g.body.empty()) fail("nnef.syntax.expected", "a graph's body has at least one assignment", &g.loc);
    return g;
  }

  Assignment assignment() {
    Assignment a;
    a.loc = peek().loc;
    a.lhs = lvalue(true);
    expect_op("=", "after the left-hand side");
    a.rhs = expression();
    if (!operators_on_ && a.rhs->kind != Expr::Kind::Call)
      needs_operators(a.rhs->loc, "an assignment whose right-hand side is not an invocation");
    expect_op(";", "at the end of the assignment");
    return a;
  }
  // ID | '[' lvalues ']' | '(' lvalues ')' | lvalue (',' lvalue)+ at the top.
  ExprPtr lvalue(bool top) {
    auto e = std::make_shared<Expr>();
    e->loc = peek().loc;
    if (at_op("[") || at_op("(")) {
      const bool array = at_op("[");
      next();
      e->kind = array ? Expr::Kind::Array : Expr::Kind::Tuple;
      if (!(array && at_op("]"))) do
          e->items.push_back(lvalue(false));
        while (at_op(",") && (next(), true));
      expect_op(array ? "]" : ")", "to close the left-hand side");
    } else {
      e->kind = Expr::Kind::Ident;
      e->text = name("an identifier on the left-hand side");
    }
    if (top && at_op(",")) {
      auto tuple = std::make_shared<Expr>();
      tuple->kind = Expr::Kind::Tuple;
      tuple->loc = e->loc;
      tuple->items.push_back(e);
      while (at_op(",")) {
        next();
        tuple->items.push_back(lvalue(false));
      }
      return tuple;
    }
    return e;
  }

  struct Depth {
    explicit Depth(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxNesting)
        p_.fail("nnef.syntax.too-deep", "expressions nested more than " + std::to_string(kMaxNesting) + " deep");
    }
    ~Depth() { --p_.depth_; }
    Parser& p_;
  };

  static ExprPtr make(Expr::Kind k, std::string text, std::vector<ExprPtr> items, SourceLoc loc) {
    auto e = std::make_shared<Expr>();
    e->kind = k;
    e->text = std::move(text);
    e->items = std::move(items);
    e->loc = std::move(loc);
    return e;
  }

  // expr ::= in-expr ['if' in-expr 'else' expr]   (right-associative)
  ExprPtr expression() {
    Depth d(*this);
    ExprPtr e = in_expr();
    if (at_ident("if")) {
      const SourceLoc loc = peek().loc;
      needs_operators(loc, "an if-else expression");
      next();
      ExprPtr cond = in_expr();
      expect_keyword("else", "in an if-else expression");
      ExprPtr other = expression();
      return make(Expr::Kind::IfElse, "if", {e, cond, other}, loc);
    }
    return e;
  }
  ExprPtr in_expr() {
    ExprPtr e = binary(0);
    while (at_ident("in")) {
      const SourceLoc loc = peek().loc;
      needs_operators(loc, "the operator 'in'");
      next();
      e = make(Expr::Kind::Binary, "in", {e, binary(0)}, loc);
    }
    return e;
  }
  // Levels, loosest first: && ||, comparisons, + -, * /, ^; all left-associative.
  ExprPtr binary(int level) {
    static const std::array<std::vector<std::string_view>, 5> kLevels = {
        std::vector<std::string_view>{"&&", "||"}, {"<", "<=", ">", ">=", "==", "!="}, {"+", "-"}, {"*", "/"}, {"^"}};
    if (level == static_cast<int>(kLevels.size())) return unary();
    Depth d(*this);
    ExprPtr e = binary(level + 1);
    while (peek().kind == Tok::Op &&
           std::find(kLevels[level].begin(), kLevels[level].end(), peek().text) != kLevels[level].end()) {
      const Token& op = next();
      needs_operators(op.loc, "the operator '" + op.text + "'");
      e = make(Expr::Kind::Binary, op.text, {e, binary(level + 1)}, op.loc);
    }
    return e;
  }
  ExprPtr unary() {
    Depth d(*this);
    if (at_op("-") || at_op("+") || at_op("!")) {
      const Token& op = next();
      // A sign directly before a number is part of the literal (the flat grammar's -1).
      if (op.text == "-" && (peek().kind == Tok::Integer || peek().kind == Tok::Real) && peek().loc.line == op.loc.line &&
          peek().loc.column == op.loc.column + 1) {
        const Token& num = next();
        return postfix(make(num.kind == Tok::Integer ? Expr::Kind::Integer : Expr::Kind::Real, "-" + num.text, {}, op.loc));
      }
      needs_operators(op.loc, "the unary operator '" + op.text + "'");
      return make(Expr::Kind::Unary, op.text, {unary()}, op.loc);
    }
    return postfix(primary());
  }
  ExprPtr postfix(ExprPtr e) {
    while (at_op("[")) {
      const SourceLoc loc = peek().loc;
      needs_operators(loc, "a subscript");
      next();
      ExprPtr begin, end;
      if (!at_op(":")) begin = expression();
      if (at_op(":")) {
        next();
        if (!at_op("]")) end = expression();
        expect_op("]", "to close the slice");
        e = make(Expr::Kind::Slice, ":", {e, begin, end}, loc);
      } else {
        if (!begin) fail("nnef.syntax.expected", "expected an index in '[...]'");
        expect_op("]", "to close the subscript");
        e = make(Expr::Kind::Index, "[]", {e, begin}, loc);
      }
    }
    return e;
  }
  ExprPtr primary() {
    const Token& t = peek();
    switch (t.kind) {
      case Tok::Integer: next(); return make(Expr::Kind::Integer, t.text, {}, t.loc);
      case Tok::Real: next(); return make(Expr::Kind::Real, t.text, {}, t.loc);
      case Tok::String: next(); return make(Expr::Kind::String, t.text, {}, t.loc);
      case Tok::End: fail("nnef.syntax.expected", "expected an expression, found the end of the file");
      default: break;
    }
    if (t.kind == Tok::Ident) {
      if (t.text == "true" || t.text == "false") return next(), make(Expr::Kind::Logical, t.text, {}, t.loc);
      const bool callable = !is_keyword(t.text) || is_builtin(t.text);
      // `f<scalar>(` is a generic invocation; `x < y` a comparison.
      const Token& g = peek(2);
      const bool generic = at_op("<", 1) && at_op(">", 3) && at_op("(", 4) &&
                           (at_op("?", 2) || (g.kind == Tok::Ident && (g.text == "integer" || g.text == "scalar" ||
                                                                      g.text == "logical" || g.text == "string")));
      if (callable && (at_op("(", 1) || (generic && !is_builtin(t.text)))) return call();
      return make(Expr::Kind::Ident, name("an expression"), {}, t.loc);
    }
    if (at_op("[")) return array();
    if (at_op("(")) {
      const SourceLoc loc = next().loc;
      ExprPtr first = expression();
      if (at_op(")")) {  // parentheses for grouping
        next();
        needs_operators(loc, "a parenthesised expression");
        return first;
      }
      std::vector<ExprPtr> items{first};
      while (at_op(",")) {
        next();
        items.push_back(expression());
      }
      expect_op(")", "to close the tuple");
      return make(Expr::Kind::Tuple, "()", std::move(items), loc);
    }
    fail("nnef.syntax.expected", "expected an expression, found " + describe(t));
  }
  ExprPtr array() {
    const SourceLoc loc = next().loc;
    if (at_ident("for")) return comprehension(loc);
    std::vector<ExprPtr> items;
    if (!at_op("]")) do
        items.push_back(expression());
      while (at_op(",") && (next(), true));
    expect_op("]", "to close the array");
    return make(Expr::Kind::Array, "[]", std::move(items), loc);
  }
  // '[' 'for' ID 'in' expr (',' ID 'in' expr)* ['if' expr] 'yield' expr ']'
  ExprPtr comprehension(const SourceLoc& loc) {
    needs_operators(loc, "a 'for' comprehension");
    next();
    auto e = std::make_shared<Expr>();
    e->kind = Expr::Kind::For;
    e->loc = loc;
    do {
      Iterator it;
      it.loc = peek().loc;
      it.name = name("a loop variable");
      expect_keyword("in", "after the loop variable");
      it.source = binary(0);
      e->iterators.push_back(std::move(it));
    } while (at_op(",") && (next(), true));
    if (at_ident("if")) {
      next();
      e->filter = binary(0);
    }
    expect_keyword("yield", "in a 'for' comprehension");
    e->yield = expression();
    expect_op("]", "to close the comprehension");
    return e;
  }
  ExprPtr call() {
    auto e = std::make_shared<Expr>();
    e->kind = Expr::Kind::Call;
    e->loc = peek().loc;
    e->text = next().text;
    if (is_builtin(e->text)) needs_operators(e->loc, "the built-in '" + e->text + "'");
    if (in_call_ > 0) needs_operators(e->loc, "an invocation nested in an argument ('" + e->text + "')");
    if (at_op("<")) {
      next();
      const Token& g = peek();
      if (!(at_op("?") || (g.kind == Tok::Ident && (g.text == "integer" || g.text == "scalar" || g.text == "logical" ||
                                                     g.text == "string"))))
        fail("nnef.syntax.type", "expected a generic type (integer, scalar, logical, string, ?), found " + describe(g));
      e->generic = next().text;
      expect_op(">", "after the generic type");
    }
    expect_op("(", "to open the arguments");
    ++in_call_;
    if (!at_op(")")) do {
        Argument a;
        a.loc = peek().loc;
        if (peek().kind == Tok::Ident && at_op("=", 1)) {
          a.name = next().text;
          next();
        }
        a.value = expression();
        e->args.push_back(std::move(a));
      } while (at_op(",") && (next(), true));
    expect_op(")", "to close the arguments");
    --in_call_;
    return e;
  }

  const std::vector<Token>& toks_;
  Diags& diags_;
  bool prelude_;
  bool fragments_on_, operators_on_;
  size_t pos_ = 0;
  int depth_ = 0;
  int in_call_ = 0;
};

}  // namespace

std::vector<QuantLine> parse_quant(const std::vector<Token>& tokens, Diags& diags) {
  return Parser(tokens, diags, true).quant();
}

Document parse(const std::vector<Token>& tokens, Diags& diags, bool prelude) {
  return Parser(tokens, diags, prelude).run();
}

}  // namespace nnref::nnef
