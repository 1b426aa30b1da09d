#include "formats/nnef2/parser.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <set>
#include <utility>

namespace nnref::nnef2 {
namespace {

// Thrown at the first syntax error, after it is reported, and caught in parse(): never escapes.
struct SyntaxError {};

// Binding strength of the binary operators (docs/nnef2.md "Precedence"); 0 for none. `**` is
// handled apart (right-associative, above the prefix operators); `=>` is right-associative.
int precedence(const std::string& op) {
  if (op == "=>") return 1;
  if (op == "&&" || op == "||" || op == "^") return 2;
  if (op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=" || op == ":=" || op == "is" ||
      op == "in")
    return 3;
  if (op == "<?" || op == ">?") return 4;
  if (op == "+" || op == "-") return 5;
  if (op == "*" || op == "/" || op == "\\" || op == "%") return 6;
  return 0;
}

// The operators that fold a pack (`x + ..`), and those with a cumulative form (`x + ...`);
// `:=` folds a pack whose items are all equal into that item (layout.tensor's `value := ..`).
bool is_fold_op(const std::string& op) {
  static const std::set<std::string> ops = {"<", "<=", ">", ">=", "==", "!=", ":=", "+", "*", "<?", ">?", "&&", "||"};
  return ops.count(op) > 0;
}
bool is_cumulative_op(const std::string& op) {
  static const std::set<std::string> ops = {"+", "*", "<?", ">?", "&&", "||"};
  return ops.count(op) > 0;
}

// §2.16's built-in functions, and erf and frac, which chapter 4 uses (docs/nnef2.md).
bool is_builtin(const std::string& name) {
  static const std::set<std::string> names = {"abs",   "sign", "sqrt",  "exp",   "log",  "sin",  "cos",   "tan",
                                              "asin",  "acos", "atan",  "sinh",  "cosh", "tanh", "asinh", "acosh",
                                              "atanh", "ceil", "floor", "round", "erf",  "frac"};
  return names.count(name) > 0;
}

bool is_type_name(const std::string& name) {
  static const std::set<std::string> names = {"type", "arith", "num", "int", "real", "bool", "str"};
  return names.count(name) > 0;
}

bool is_lowering_op(const std::string& op) {
  static const std::set<std::string> ops = {"=", ":=", "+=", "*=", "&=", "|=", "<=", ">=", "<?=", ">?="};
  return ops.count(op) > 0;
}

const std::array<std::pair<const char*, BlockKind>, 12> kBlocks = {{{"dtype", BlockKind::Dtype},
                                                                    {"attrib", BlockKind::Attrib},
                                                                    {"input", BlockKind::Input},
                                                                    {"output", BlockKind::Output},
                                                                    {"constant", BlockKind::Constant},
                                                                    {"variable", BlockKind::Variable},
                                                                    {"using", BlockKind::Using},
                                                                    {"assert", BlockKind::Assert},
                                                                    {"lower", BlockKind::Lower},
                                                                    {"compose", BlockKind::Compose},
                                                                    {"update", BlockKind::Update},
                                                                    {"quantize", BlockKind::Quantize}}};

ExprPtr node(ExprKind kind, SourceLoc loc, std::string text = {}) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->loc = std::move(loc);
  e->text = std::move(text);
  return e;
}

ExprPtr node(ExprKind kind, SourceLoc loc, std::string text, ExprPtr a, ExprPtr b = nullptr) {
  auto e = node(kind, std::move(loc), std::move(text));
  e->args.push_back(std::move(a));
  if (b) e->args.push_back(std::move(b));
  return e;
}

class Parser {
 public:
  Parser(const std::vector<Token>& tokens, Diags& diags, int depth = 0) : t_(tokens), diags_(diags), depth_(depth) {}

  Document document() {
    Document doc;
    if (is_word("version")) doc.version = version();
    while (is_word("extension")) doc.extensions.push_back(names_until_semicolon());
    while (is_word("import")) {
      doc.import_locs.emplace_back();
      doc.imports.push_back(names_until_semicolon(&doc.import_locs.back()));
    }
    while (!at(Tok::End)) doc.ops.push_back(op_definition());
    return doc;
  }

  ExprPtr whole_expression() {
    ExprPtr e = expr();
    if (!at(Tok::End)) fail("nnef2.syntax.expected", "expected the end of the expression");
    return e;
  }

 private:
  // The depth of the tree being built, bounded: a Nest counts one level for its production and
  // restores the count on leaving it; a loop that makes a node of the previous one (a + b + c,
  // x[i][j]) counts a level per node (deeper()), since the tree's depth is what recursion over it
  // (its destructor included) pays.
  class Nest {
   public:
    explicit Nest(Parser& p) : p_(p), entry_(p.depth_) { p_.deeper(); }
    ~Nest() { p_.depth_ = entry_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;

   private:
    Parser& p_;
    int entry_;
  };

  void deeper() {
    if (++depth_ > kMaxNesting)
      fail("nnef2.syntax.too-deep", "the expression nests deeper than " + std::to_string(kMaxNesting) + " levels");
  }

  // ---- tokens

  const Token& peek(size_t ahead = 0) const { return t_[std::min(pos_ + ahead, t_.size() - 1)]; }
  bool at(Tok kind) const { return peek().kind == kind; }
  bool is_op(const char* op, size_t ahead = 0) const { return peek(ahead).kind == Tok::Op && peek(ahead).text == op; }
  bool is_word(const char* w, size_t ahead = 0) const {
    return peek(ahead).kind == Tok::Ident && peek(ahead).text == w;
  }
  const Token& next() {
    const Token& tok = peek();
    if (pos_ + 1 < t_.size()) ++pos_;
    return tok;
  }
  bool accept(const char* op) {
    if (!is_op(op)) return false;
    next();
    return true;
  }

  [[noreturn]] void fail(const std::string& code, const std::string& what) {
    diags_.error(code, what + ", found " + describe(peek()), peek().loc);
    throw SyntaxError{};
  }
  void expect(const char* op) {
    if (!accept(op)) fail("nnef2.syntax.expected", std::string("expected '") + op + "'");
  }
  std::string identifier(const char* what) {
    if (!at(Tok::Ident)) fail("nnef2.syntax.expected", std::string("expected ") + what);
    return next().text;
  }
  std::string qualified_identifier(const char* what) {
    std::string name = identifier(what);
    while (is_op(".") && peek(1).kind == Tok::Ident) {
      next();
      name += "." + next().text;
    }
    return name;
  }

  // ---- document level

  // `version M.m;`: the lexer reads M.m as one real; each part must fit an int.
  std::pair<int, int> version() {
    next();
    const Token& tok = peek();
    std::pair<int, int> v{-1, -1};
    size_t dot = tok.text.find('.');
    if (tok.kind == Tok::Real && dot != std::string::npos) {
      const char* text = tok.text.data();
      auto major = std::from_chars(text, text + dot, v.first);
      auto minor = std::from_chars(text + dot + 1, text + tok.text.size(), v.second);
      if (major.ec != std::errc() || major.ptr != text + dot || minor.ec != std::errc() ||
          minor.ptr != text + tok.text.size())
        v = {-1, -1};
    }
    if (v.first < 0) fail("nnef2.syntax.version", "expected a version as major.minor (version 2.0;)");
    next();
    expect(";");
    return v;
  }

  // The names after `extension` or `import`, up to ';' (with where each is written, if asked).
  std::vector<std::string> names_until_semicolon(std::vector<SourceLoc>* locs = nullptr) {
    next();
    std::vector<std::string> names;
    do {
      if (locs) locs->push_back(peek().loc);
      names.push_back(qualified_identifier(names.empty() ? "a name" : "a name or ';'"));
    } while (!accept(";"));
    return names;
  }

  OpDef op_definition() {
    OpDef op;
    op.loc = peek().loc;
    if (is_word("public")) {
      next();
      op.is_public = true;
      if (!is_word("operator")) fail("nnef2.syntax.expected", "expected 'operator' after 'public'");
    }
    if (is_word("graph")) {
      op.is_graph = true;
    } else if (!is_word("operator")) {
      fail("nnef2.syntax.expected", "expected an operator or graph definition");
    }
    next();
    op.name = identifier("the operator's name");
    expect("{");
    do {
      op.blocks.push_back(block());
    } while (!accept("}"));
    return op;
  }

  Block block() {
    Block b;
    b.loc = peek().loc;
    if (!is_op("@") || peek(1).kind != Tok::Ident)
      fail("nnef2.syntax.expected", "expected a block such as @input or @lower");
    next();
    const Token& name = next();
    auto it = std::find_if(kBlocks.begin(), kBlocks.end(), [&](const auto& k) { return name.text == k.first; });
    if (it == kBlocks.end()) {
      --pos_;
      fail("nnef2.syntax.block",
           "expected a block name (dtype, attrib, input, output, constant, variable, using, "
           "assert, lower, compose, update or quantize)");
    }
    b.kind = it->second;
    expect("{");
    while (!accept("}")) entry(b);
    return b;
  }

  void entry(Block& b) {
    switch (b.kind) {
      case BlockKind::Dtype:
        b.dtypes.push_back(dtype_definition());
        break;
      case BlockKind::Attrib:
      case BlockKind::Input:
      case BlockKind::Output:
      case BlockKind::Constant:
      case BlockKind::Variable:
        b.params.push_back(param_definition());
        break;
      case BlockKind::Using:
        b.usings.push_back(using_entry());
        break;
      case BlockKind::Assert:
        b.assertions.push_back(assertion());
        break;
      case BlockKind::Lower:
        b.lowerings.push_back(lowering());
        break;
      case BlockKind::Compose:
      case BlockKind::Update:
        b.components.push_back(component());
        break;
      case BlockKind::Quantize:
        b.quantizations.push_back(quantization());
        break;
    }
  }

  // ---- declarations

  std::string type_name() {
    if (!at(Tok::Ident) || !is_type_name(peek().text))
      fail("nnef2.syntax.expected", "expected a type name (type, arith, num, int, real, bool or str)");
    return next().text;
  }

  DtypeDef dtype_definition() {
    DtypeDef d;
    d.loc = peek().loc;
    d.name = identifier("a generic type's name");
    expect(":");
    d.type = type_name();
    if (accept("=")) d.default_type = type_name();
    expect(";");
    return d;
  }

  std::optional<PackSpec> pack_spec() {
    if (!is_op("..")) return std::nullopt;
    PackSpec p;
    p.loc = next().loc;
    if (accept("(")) {
      p.count = expr();
      expect(")");
    }
    return p;
  }

  std::vector<ShapeItem> shape_spec() {
    expect("[");
    std::vector<ShapeItem> items;
    if (accept("]")) return items;
    do {
      ShapeItem item;
      item.loc = peek().loc;
      item.spread = accept("..");
      item.extent = is_op("~") ? node(ExprKind::Wildcard, next().loc) : expr();
      if (accept("|")) item.bound = expr();
      item.pack = pack_spec();
      items.push_back(std::move(item));
    } while (accept(","));
    expect("]");
    return items;
  }

  TypeSpec type_spec() {
    TypeSpec t;
    t.loc = peek().loc;
    if (is_word("optional")) {
      next();
      t.optional = true;
    }
    t.type = identifier("a type");
    if (accept("^")) {  // T^(r): the rank of the whole shape captured
      expect("(");
      t.rank = expr();
      expect(")");
    }
    if (is_op("[")) {
      t.is_tensor = true;
      t.shape = shape_spec();
    }
    t.pack = pack_spec();
    return t;
  }

  LoopBound loop_bound() {
    LoopBound b;
    b.loc = peek().loc;
    b.index = identifier("a loop index (i < n)");
    expect("<");
    b.limit = expr();
    return b;
  }

  ParamDef param_definition() {
    ParamDef p;
    p.loc = peek().loc;
    p.name = identifier("a parameter's name");
    expect(":");
    p.type = type_spec();
    if (accept("=")) {
      p.value = expr();
      while (accept(",")) p.bounds.push_back(loop_bound());
    }
    expect(";");
    return p;
  }

  LvalueItem lvalue_item() {
    LvalueItem item;
    item.loc = peek().loc;
    if (accept("~")) {
      item.form = LvalueItem::Form::Drop;
      return item;
    }
    auto typed_name = [&] {
      item.names.push_back(identifier("a name"));
      std::optional<TypeSpec> type;
      if (accept(":")) {
        type.emplace();
        type->loc = peek().loc;
        type->type = identifier("a type");
        type->is_tensor = true;
        type->shape = shape_spec();
      }
      item.types.push_back(std::move(type));
    };
    if (accept("(")) {
      item.form = LvalueItem::Form::Tuple;
      do typed_name();
      while (accept(","));
      expect(")");
    } else {
      typed_name();
    }
    item.pack = pack_spec();
    return item;
  }

  Lvalue lvalue() {
    Lvalue lv;
    lv.loc = peek().loc;
    if (accept("[")) {
      lv.bracketed = true;
      do lv.items.push_back(lvalue_item());
      while (accept(","));
      expect("]");
    } else {
      lv.items.push_back(lvalue_item());
    }
    return lv;
  }

  Using using_entry() {
    Using u;
    u.loc = peek().loc;
    u.lhs = lvalue();
    expect("=");
    u.value = expr();
    expect(";");
    return u;
  }

  Assertion assertion() {
    Assertion a;
    a.loc = peek().loc;
    a.condition = expr();
    if (accept(":")) {
      if (!at(Tok::String)) fail("nnef2.syntax.expected", "expected the assertion's message (a string)");
      a.message = string_literal();
      while (accept(",")) {
        AssertArg arg;
        if (at(Tok::String) && is_op(":", 1)) {
          arg.label = next().text;
          next();
        }
        arg.value = item();
        a.args.push_back(std::move(arg));
      }
    }
    expect(";");
    return a;
  }

  IterCount iter_count() {
    IterCount c;
    c.loc = peek().loc;
    expect("..");
    expect("(");
    if (at(Tok::Ident) && is_op("->", 1)) {
      c.index = next().text;
      next();
    }
    c.count = expr();
    expect(")");
    return c;
  }

  // name = value, or name : value (a scan input); typed: `name: T[shape] = value`.
  Binding binding(const char* separator, bool typed = false) {
    Binding b;
    b.loc = peek().loc;
    b.name = identifier("a name");
    if (typed && is_op(":")) {
      next();
      b.type.emplace();
      b.type->loc = peek().loc;
      b.type->type = identifier("a type");
      b.type->is_tensor = true;
      b.type->shape = shape_spec();
    }
    expect(separator);
    b.value = expr();
    return b;
  }

  Lowering lowering() {
    Lowering l;
    l.loc = peek().loc;
    if (is_word("unroll")) {
      next();
      l.unroll = iter_count();
    }
    if (is_word("with")) {  // Revision 8: with a = x, b = y:
      next();
      do l.locals.push_back(binding("="));
      while (accept(","));
      expect(":");
    }
    while (at(Tok::Ident) && is_op("=", 1)) {  // Revision 6: a = x, b = y, target = ...
      l.locals.push_back(binding("="));
      expect(",");
    }
    l.target = postfix();
    if (peek().kind != Tok::Op || !is_lowering_op(peek().text))
      fail("nnef2.syntax.lowering-op", "expected a lowering's assignment (= := += *= &= |= <?= >?=)");
    l.op = next().text;
    l.value = expr();
    while (accept(",")) l.bounds.push_back(loop_bound());
    if (accept("|")) l.condition = expr();
    expect(";");
    return l;
  }

  // ---- @compose

  std::vector<Attribute> attributes() {
    std::vector<Attribute> attrs;
    if (!accept("{")) return attrs;
    do {
      Attribute a;
      a.loc = peek().loc;
      a.name = identifier("an attribute's name");
      expect("=");
      a.value = expr();
      attrs.push_back(std::move(a));
    } while (accept(","));
    expect("}");
    return attrs;
  }

  std::vector<std::string> generics() {
    std::vector<std::string> types;
    if (!accept("<")) return types;
    do types.push_back(identifier("a type"));
    while (accept(","));
    expect(">");
    return types;
  }

  // Whether an invocation starts here: [label:] a.b.c followed by `<types>`, `{` or `(`; a cast
  // or a built-in call (`int(x)`, `abs(x)`) is an expression.
  bool invocation_ahead() const {
    size_t i = 0;
    if (peek().kind == Tok::Ident && is_op(":", 1) && peek(2).kind == Tok::Ident) i = 2;
    if (peek(i).kind != Tok::Ident) return false;
    bool qualified = false;
    while (is_op(".", i + 1) && peek(i + 2).kind == Tok::Ident) {
      i += 2;
      qualified = true;
    }
    if (!qualified && i == 0 && (is_builtin(peek().text) || is_type_name(peek().text))) return false;
    ++i;
    if (is_op("<", i)) {  // generics: < name, ... > then { or (
      ++i;
      while (peek(i).kind == Tok::Ident && (is_op(",", i + 1) || is_op(">", i + 1))) {
        if (is_op(">", i + 1)) return is_op("{", i + 2) || is_op("(", i + 2);
        i += 2;
      }
      return false;
    }
    return is_op("{", i) || is_op("(", i);
  }

  Invocation invocation() {
    Invocation inv;
    inv.loc = peek().loc;
    if (at(Tok::Ident) && is_op(":", 1)) {
      inv.label = next().text;
      next();
    }
    inv.op = qualified_identifier("an operator's name");
    inv.generics = generics();
    inv.attributes = attributes();
    expect("(");
    if (!accept(")")) {
      do inv.args.push_back(is_op("~") ? node(ExprKind::Wildcard, next().loc) : item());
      while (accept(","));
      expect(")");
    }
    return inv;
  }

  Computation computation() {
    Nest nest(*this);
    Computation c;
    c.loc = peek().loc;
    if (is_op("{")) {
      c.block = sub_block();
    } else if (invocation_ahead()) {
      c.call = std::make_unique<Invocation>(invocation());
    } else {
      c.expr = expr();
    }
    return c;
  }

  std::unique_ptr<SubBlock> sub_block() {
    auto b = std::make_unique<SubBlock>();
    b->loc = next().loc;
    while (!is_word("yield")) b->components.push_back(component());
    next();
    do b->yields.push_back(item());
    while (accept(","));
    expect(";");
    expect("}");
    return b;
  }

  std::unique_ptr<Branch> branch() {
    auto b = std::make_unique<Branch>();
    next();  // if
    do {
      Computation cond = computation();
      if (!is_word("then")) fail("nnef2.syntax.expected", "expected 'then'");
      next();
      b->cases.emplace_back(std::move(cond), computation());
    } while (is_word("elif") && (next(), true));
    if (!is_word("else")) fail("nnef2.syntax.expected", "expected 'elif' or 'else'");
    next();
    b->otherwise = computation();
    return b;
  }

  std::optional<Computation> while_clause() {
    if (!is_word("while")) return std::nullopt;
    next();
    return computation();
  }

  std::unique_ptr<Loop> loop() {
    auto l = std::make_unique<Loop>();
    if (is_word("with")) {
      next();
      do l->with.push_back(binding("=", true));
      while (accept(","));
    }
    if (is_word("for")) {
      next();
      do l->for_each.push_back(binding(":"));
      while (accept(","));
    }
    l->while_before = while_clause();
    if (!is_word("do") && !is_word("unroll")) fail("nnef2.syntax.expected", "expected 'do' or 'unroll'");
    l->unroll = next().text == "unroll";
    if (is_op("..")) l->count = iter_count();
    l->body = computation();
    l->while_after = while_clause();
    return l;
  }

  Component component() {
    Component c;
    c.loc = peek().loc;
    do c.lhs.push_back(lvalue());
    while (accept(","));
    expect("=");
    if (is_word("if")) {
      c.form = Component::Form::Branch;
      c.branch = branch();
    } else if (is_word("with") || is_word("for") || is_word("while") || is_word("do") || is_word("unroll")) {
      c.form = Component::Form::Loop;
      c.loop = loop();
    } else {
      c.computation = computation();
    }
    expect(";");
    return c;
  }

  Quantization quantization() {
    Quantization q;
    q.loc = peek().loc;
    q.tensor = qualified_identifier("a tensor's name");
    expect(":");
    q.op = qualified_identifier("an operator's name");
    q.generics = generics();
    q.attributes = attributes();
    expect(";");
    return q;
  }

  // ---- expressions

  // select: c ? a [: b], right-associative, the loosest.
  ExprPtr expr() {
    Nest nest(*this);
    ExprPtr cond = coalesce();
    if (!is_op("?")) return cond;
    SourceLoc loc = next().loc;
    ExprPtr sel = node(ExprKind::Select, loc, {}, std::move(cond), expr());
    if (accept(":")) sel->args.push_back(expr());
    return sel;
  }

  ExprPtr coalesce() {
    ExprPtr lhs = binary(1);
    if (!is_op("??")) return lhs;
    SourceLoc loc = next().loc;
    return node(ExprKind::Coalesce, loc, {}, std::move(lhs), coalesce());
  }

  std::string binary_op_ahead() const {
    const Token& tok = peek();
    if (tok.kind == Tok::Op || (tok.kind == Tok::Ident && (tok.text == "is" || tok.text == "in")))
      return precedence(tok.text) > 0 ? tok.text : std::string();
    return {};
  }

  ExprKind binary_kind(const std::string& op) const {
    if (op == "is") return ExprKind::Is;
    if (op == "in") return ExprKind::In;
    return ExprKind::Binary;
  }

  // Precedence climbing over the levels of precedence(); a fold `x op ..` may take an initial
  // value, `x op .. op y`.
  ExprPtr binary(int min_prec) {
    Nest nest(*this);
    ExprPtr lhs = unary();
    for (std::string op = binary_op_ahead(); !op.empty() && precedence(op) >= min_prec; op = binary_op_ahead()) {
      deeper();
      int prec = precedence(op);
      SourceLoc loc = next().loc;
      if (is_op("..") || is_op("...")) {
        bool cumulative = is_op("...");
        if (!(cumulative ? is_cumulative_op(op) : is_fold_op(op)))
          fail("nnef2.syntax.fold-op", "expected an operator with a " + std::string(cumulative ? "cumulative " : "") +
                                           "fold form before '" + peek().text + "', not '" + op + "'");
        next();
        lhs = node(cumulative ? ExprKind::CumulativeFold : ExprKind::Fold, loc, op, std::move(lhs));
        if (!cumulative && is_op(op.c_str()) && !is_op("..", 1)) {
          next();
          lhs->args.push_back(binary(prec + 1));
        }
        continue;
      }
      ExprPtr rhs = binary(op == "=>" ? prec : prec + 1);
      lhs = node(binary_kind(op), loc, binary_kind(op) == ExprKind::Binary ? op : std::string(), std::move(lhs),
                 std::move(rhs));
    }
    return lhs;
  }

  // Prefix - + ! ?, looser than ** (-x ** 2 is -(x ** 2)).
  ExprPtr unary() {
    Nest nest(*this);
    if (is_op("-") || is_op("+") || is_op("!") || is_op("?")) {
      const Token& op = next();
      return node(op.text == "?" ? ExprKind::NullTest : ExprKind::Unary, op.loc, op.text == "?" ? "" : op.text,
                  unary());
    }
    ExprPtr base = postfix();
    if (!is_op("**")) return base;
    SourceLoc loc = next().loc;
    return node(ExprKind::Binary, loc, "**", std::move(base), unary());
  }

  // A primary with its subscripts, tensor accesses, .shape/.rank/.size, and a substitution.
  ExprPtr postfix() {
    Nest nest(*this);
    ExprPtr e = primary();
    while (true) {
      deeper();
      if (is_op("[")) {
        e = subscript(std::move(e));
      } else if (is_op(".") && peek(1).kind == Tok::Ident &&
                 (peek(1).text == "shape" || peek(1).text == "rank" || peek(1).text == "size")) {
        SourceLoc loc = next().loc;
        e = node(ExprKind::Member, loc, next().text, std::move(e));
      } else if (is_op("<-") && (e->kind == ExprKind::Index || e->kind == ExprKind::Slice)) {
        SourceLoc loc = next().loc;
        return node(ExprKind::Substitute, loc, {}, std::move(e), binary(1));
      } else {
        return e;
      }
    }
  }

  // |i| or |i <> low : high|: an index guarded against leaving the tensor.
  ExprPtr bounded() {
    SourceLoc loc = next().loc;
    ExprPtr b = node(ExprKind::Bounded, loc, {}, expr());
    if (accept("<>")) {
      b->args.push_back(expr());
      expect(":");
      b->args.push_back(expr());
    }
    expect("|");
    return b;
  }

  // An item of a list, an argument or an index: x, x .., x ..(n), or a range a : b [: c].
  ExprPtr item(bool ranges = false) {
    ExprPtr e = expr();
    if (ranges && is_op(":")) {
      SourceLoc loc = next().loc;
      e = node(ExprKind::Range, loc, {}, std::move(e), expr());
      if (accept(":")) e->args.push_back(expr());
    }
    return expansion(std::move(e));
  }

  ExprPtr expansion(ExprPtr e) {
    if (!is_op("..")) return e;
    SourceLoc loc = next().loc;
    e = node(ExprKind::Expand, loc, {}, std::move(e));
    if (accept("(")) {
      e->args.push_back(expr());
      expect(")");
    }
    return e;
  }

  ExprPtr index_item() {
    if (is_op(":") && (is_op(",", 1) || is_op("]", 1))) return node(ExprKind::SliceAll, next().loc);
    return item();
  }

  // x[i] (Index), x[a:b:c] (Slice), or a tensor access x[i, j], x[i..], x[|i|], x[i,], x[]; a
  // single plain index stays an Index, which the composer resolves by what x is.
  ExprPtr subscript(ExprPtr base) {
    SourceLoc loc = next().loc;
    if (is_op(":") && !is_op(",", 1) && !is_op("]", 1)) return slice(std::move(base), nullptr, loc);
    std::vector<ExprPtr> items;
    bool trailing_comma = false;
    if (!is_op("]")) {
      items.push_back(index_item());
      if (items.size() == 1 && is_op(":") && items[0]->kind != ExprKind::Expand && items[0]->kind != ExprKind::SliceAll)
        return slice(std::move(base), std::move(items[0]), loc);
      while (accept(",")) {
        if (is_op("]")) {
          trailing_comma = true;
          break;
        }
        items.push_back(index_item());
      }
    }
    expect("]");
    bool plain = items.size() == 1 && !trailing_comma && items[0]->kind != ExprKind::Expand &&
                 items[0]->kind != ExprKind::Bounded && items[0]->kind != ExprKind::SliceAll;
    if (plain) return node(ExprKind::Index, loc, {}, std::move(base), std::move(items[0]));
    return tensor_access(std::move(base), std::move(items), trailing_comma, loc);
  }

  ExprPtr tensor_access(ExprPtr base, std::vector<ExprPtr> items, bool trailing_comma, SourceLoc loc) {
    ExprPtr access = node(ExprKind::TensorAccess, base->loc);
    if (base->kind == ExprKind::Index && base->args[0]->kind == ExprKind::Identifier) {
      access->text = base->args[0]->text;
      access->pack_index = std::move(base->args[1]);
    } else if (base->kind == ExprKind::Identifier) {
      access->text = base->text;
    } else {
      diags_.error("nnef2.syntax.tensor-access", "a tensor access needs a tensor's name before '['", loc);
      throw SyntaxError{};
    }
    access->args = std::move(items);
    access->trailing_comma = trailing_comma;
    return access;
  }

  ExprPtr slice(ExprPtr base, ExprPtr begin, SourceLoc loc) {
    ExprPtr s = node(ExprKind::Slice, loc, {}, std::move(base));
    s->args.push_back(std::move(begin));
    expect(":");
    s->args.push_back(is_op(":") || is_op("]") ? nullptr : expr());
    s->args.push_back(accept(":") && !is_op("]") ? expr() : nullptr);
    expect("]");
    return s;
  }

  ExprPtr primary() {
    const Token& tok = peek();
    switch (tok.kind) {
      case Tok::Integer:
        return node(ExprKind::Integer, next().loc, tok.text);
      case Tok::Real:
        return node(ExprKind::Real, next().loc, tok.text);
      case Tok::String:
        return string_literal();
      case Tok::Ident:
        return named();
      default:
        break;
    }
    if (is_op("(")) return parenthesised();
    if (is_op("[")) return list();
    if (is_op("|")) return bounded();
    fail("nnef2.syntax.expression", "expected an expression");
  }

  ExprPtr named() {
    const Token& tok = next();
    if (tok.text == "true" || tok.text == "false") return node(ExprKind::Bool, tok.loc, tok.text);
    if (tok.text == "inf") return node(ExprKind::Inf, tok.loc);
    if (tok.text == "pi") return node(ExprKind::Pi, tok.loc);
    if (!accept("(")) return node(ExprKind::Identifier, tok.loc, tok.text);
    if (is_builtin(tok.text)) {
      ExprPtr call = node(ExprKind::Builtin, tok.loc, tok.text, expr());
      expect(")");
      return call;
    }
    ExprPtr cast = node(ExprKind::Cast, tok.loc, tok.text);  // T(x), int(x), T() (the default value)
    if (!accept(")")) {
      cast->args.push_back(expr());
      expect(")");
    }
    return cast;
  }

  // (x) or a zip (a, b, ...).
  ExprPtr parenthesised() {
    SourceLoc loc = next().loc;
    ExprPtr first = item();
    if (accept(")")) return first;
    ExprPtr zip = node(ExprKind::Zip, loc, {}, std::move(first));
    while (accept(",")) zip->args.push_back(item());
    expect(")");
    return zip;
  }

  ExprPtr list() {
    ExprPtr l = node(ExprKind::List, next().loc);
    if (accept("]")) return l;
    do l->args.push_back(item(true));
    while (accept(","));
    expect("]");
    return l;
  }

  // A string with its `{expr}` formatting parts parsed.
  ExprPtr string_literal() {
    const Token& tok = next();
    ExprPtr s = node(ExprKind::String, tok.loc, tok.text);
    std::string literal;
    for (size_t i = 0; i < tok.text.size(); ++i) {
      if (tok.text[i] != '{') {
        literal += tok.text[i];
        continue;
      }
      size_t close = tok.text.find('}', i + 1);
      if (close == std::string::npos) {
        // At the '{', by its offset from the opening quote (as the parts' errors are).
        diags_.error("nnef2.syntax.string-format", "a '{' in a string needs its closing '}'",
                     SourceLoc{tok.loc.file, tok.loc.line, tok.loc.column + static_cast<int>(i) + 1});
        throw SyntaxError{};
      }
      if (!literal.empty()) s->parts.push_back({std::move(literal), nullptr});
      literal.clear();
      std::vector<Token> inner = lex(tok.text.substr(i + 1, close - i - 1), tok.loc.file, diags_, tok.loc.line,
                                     tok.loc.column + static_cast<int>(i) + 2);
      Parser sub(inner, diags_, depth_);
      s->parts.push_back({{}, sub.whole_expression()});
      i = close;
    }
    if (!literal.empty()) s->parts.push_back({std::move(literal), nullptr});
    return s;
  }

  const std::vector<Token>& t_;
  Diags& diags_;
  size_t pos_ = 0;
  int depth_;
};

}  // namespace

Document parse(const std::vector<Token>& tokens, Diags& diags) {
  Parser p(tokens, diags);
  try {
    return p.document();
  } catch (const SyntaxError&) {
    return {};
  }
}

Document parse_text(std::string_view src, const std::string& file, Diags& diags) {
  std::vector<Token> tokens = lex(src, file, diags);
  if (diags.has_errors()) return {};
  return parse(tokens, diags);
}

ExprPtr parse_expression(std::string_view src, const std::string& file, Diags& diags) {
  std::vector<Token> tokens = lex(src, file, diags);
  if (diags.has_errors()) return nullptr;
  Parser p(tokens, diags);
  try {
    return p.whole_expression();
  } catch (const SyntaxError&) {
    return nullptr;
  }
}

}  // namespace nnref::nnef2
