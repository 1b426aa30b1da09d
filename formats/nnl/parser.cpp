#include "formats/nnl/parser.hpp"

#include <charconv>
#include <cmath>
#include <optional>

namespace nnref::nnl {

const char* kind_name(Value::Kind k) {
  switch (k) {
    case Value::Kind::Integer: return "an integer";
    case Value::Kind::Number: return "a number";
    case Value::Kind::String: return "a string";
    case Value::Kind::Shape: return "a shape";
    case Value::Kind::Ident: return "a bare identifier";
    case Value::Kind::Invalid: return "an invalid value";
  }
  return "a value";
}

namespace {

class Parser {
 public:
  Parser(const std::vector<Token>& toks, Diags& diags) : toks_(toks), diags_(diags) {}

  Program run() {
    Program p;
    if (is_word("version")) {
      p.has_version = true;
      p.version_loc = next().loc;
      if (peek().kind == Tok::Number || peek().kind == Tok::Integer) {
        p.version = next().text;
        if (!expect(Tok::Semi, "after the version")) skip_statement();
      } else {
        expected("a version number such as 0.2");
        skip_statement();
      }
    }
    if (!is_word("model")) {
      expected("'model'");
      return p;
    }
    p.model_loc = next().loc;
    if (peek().kind != Tok::Ident) {
      expected("the model name");
      return p;
    }
    p.model_name = next().text;
    if (!expect(Tok::LBrace, "after the model name")) return p;
    p.has_model = true;
    model_body(p);
    if (peek().kind != Tok::End)
      diags_.error("nnl.syntax.trailing", "unexpected " + describe(peek()) + " after the end of the model",
                   peek().loc);
    return p;
  }

 private:
  const Token& peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < toks_.size() ? toks_[i] : toks_.back();
  }
  const Token& next() {
    const Token& t = peek();
    if (pos_ < toks_.size() - 1) ++pos_;
    return t;
  }
  bool is_word(const char* w) const { return peek().kind == Tok::Ident && peek().text == w; }

  void expected(const std::string& what) {
    diags_.error("nnl.syntax.expected", "expected " + what + ", found " + describe(peek()), peek().loc);
  }
  bool expect(Tok k, const std::string& context) {
    if (peek().kind == k) {
      next();
      return true;
    }
    expected(std::string(tok_name(k)) + " " + context);
    return false;
  }

  // Skips to just after the next ';' at this nesting depth, or to just before the '}' that closes
  // the enclosing block, or past a whole `{ ... }` group that ends the statement.
  void skip_statement() {
    int depth = 0;
    while (peek().kind != Tok::End) {
      Tok k = peek().kind;
      if (k == Tok::RBrace) {
        if (depth == 0) return;
        next();
        if (--depth == 0) return;
        continue;
      }
      next();
      if (k == Tok::Semi && depth == 0) return;
      if (k == Tok::LBrace) ++depth;
    }
  }

  // The closing '}' of a block; false at end of file (reported).
  bool block_end(const char* block) {
    if (peek().kind == Tok::RBrace) {
      next();
      return true;
    }
    if (peek().kind == Tok::End) {
      diags_.error("nnl.syntax.expected", std::string("expected '}' to close the ") + block + ", found end of file",
                   peek().loc);
      return true;
    }
    return false;
  }

  void model_body(Program& p) {
    while (!block_end("model")) {
      if (is_word("config")) {
        config(p);
      } else if (is_word("layer")) {
        layer(p);
      } else if (is_word("connections")) {
        connections(p);
      } else {
        diags_.error("nnl.syntax.unexpected-token",
                     "expected 'config', 'layer' or 'connections', found " + describe(peek()), peek().loc);
        skip_statement();
      }
    }
  }

  void config(Program& p) {
    SourceLoc loc = next().loc;
    if (p.config_blocks++ == 0) p.config_loc = loc;
    if (!expect(Tok::LBrace, "after 'config'")) {
      skip_statement();
      return;
    }
    while (!block_end("config block")) {
      if (peek().kind == Tok::Ident) p.broken_config_keys.push_back(peek().text);
      std::optional<Entry> e = entry();
      if (e && !expect(Tok::Semi, "after the config entry")) e.reset();
      if (!e) {
        skip_statement();
        continue;
      }
      p.broken_config_keys.pop_back();
      p.config.push_back(std::move(*e));
    }
  }

  // `key: value`
  std::optional<Entry> entry() {
    if (peek().kind != Tok::Ident) {
      expected("a key");
      return std::nullopt;
    }
    Entry e;
    e.key = peek().text;
    e.loc = next().loc;
    if (!expect(Tok::Colon, "after '" + e.key + "'")) return std::nullopt;
    std::optional<Value> v = value();
    if (!v) return std::nullopt;
    e.value = std::move(*v);
    return e;
  }

  Value number(const Token& t) {
    Value v;
    v.loc = t.loc;
    v.text = t.text;
    const char* b = t.text.data();
    const char* e = b + t.text.size();
    if (t.kind == Tok::Integer) {
      auto r = std::from_chars(b, e, v.integer);
      if (r.ec == std::errc() && r.ptr == e) {
        v.kind = Value::Kind::Integer;
        v.number = static_cast<double>(v.integer);
        return v;
      }
      diags_.error("nnl.number.out-of-range",
                   "integer " + shorten(t.text) + " does not fit a 64-bit signed integer", t.loc);
      return v;  // Invalid
    }
    auto r = std::from_chars(b, e, v.number);
    if (r.ec == std::errc() && r.ptr == e && std::isfinite(v.number)) {
      v.kind = Value::Kind::Number;
      return v;
    }
    diags_.error("nnl.number.out-of-range", "number " + shorten(t.text) + " is out of the range of a double",
                 t.loc);
    return v;
  }

  static std::string shorten(const std::string& s) { return s.size() > 40 ? s.substr(0, 40) + "..." : s; }

  std::optional<Value> value() {
    const Token& t = peek();
    switch (t.kind) {
      case Tok::String: {
        Value v;
        v.kind = Value::Kind::String;
        v.text = t.text;
        v.loc = next().loc;
        return v;
      }
      case Tok::Ident: {
        Value v;
        v.kind = Value::Kind::Ident;
        v.text = t.text;
        v.loc = next().loc;
        return v;
      }
      case Tok::Integer:
      case Tok::Number: return number(next());
      case Tok::LBracket: {
        Value v;
        v.kind = Value::Kind::Shape;
        v.loc = next().loc;
        bool invalid = false;
        while (peek().kind != Tok::RBracket) {
          if (peek().kind != Tok::Integer && peek().kind != Tok::Number) {
            expected("a number or ']' in the list");
            return std::nullopt;
          }
          Value item = number(next());
          if (item.kind == Value::Kind::Invalid) invalid = true;
          v.items.push_back(std::move(item));
          if (peek().kind == Tok::Comma) {
            next();
          } else if (peek().kind != Tok::RBracket) {
            expected("',' or ']' in the list");
            return std::nullopt;
          }
        }
        next();
        if (invalid) v.kind = Value::Kind::Invalid;
        return v;
      }
      default: expected("a value (string, number or [list])"); return std::nullopt;
    }
  }

  void layer(Program& p) {
    next();  // 'layer'
    if (peek().kind != Tok::Ident) {
      expected("a layer id");
      skip_statement();
      return;
    }
    LayerDecl& L = p.layers.emplace_back();
    L.id = peek().text;
    L.loc = next().loc;
    if (!expect(Tok::Equals, "after the layer id")) return skip_statement();
    if (peek().kind != Tok::Ident) {
      expected("a layer type");
      return skip_statement();
    }
    L.type = peek().text;
    L.type_loc = next().loc;
    if (!expect(Tok::LParen, "after the layer type")) return skip_statement();
    while (peek().kind != Tok::RParen) {
      std::optional<Entry> e = entry();
      if (!e) return skip_statement();
      L.params.push_back(std::move(*e));
      if (peek().kind == Tok::Comma) {
        next();
      } else if (peek().kind != Tok::RParen) {
        expected("',' or ')' in the parameter list");
        return skip_statement();
      }
    }
    next();
    if (!expect(Tok::Semi, "after the layer declaration")) return skip_statement();
    L.complete = true;
  }

  std::optional<NameRef> name() {
    if (peek().kind != Tok::Ident) {
      expected("a layer id");
      return std::nullopt;
    }
    NameRef r{peek().text, peek().loc};
    next();
    return r;
  }

  void connections(Program& p) {
    SourceLoc loc = next().loc;
    if (p.connection_blocks++ == 0) p.connections_loc = loc;
    if (!expect(Tok::LBrace, "after 'connections'")) return skip_statement();
    while (!block_end("connections block")) {
      if (!edge_statement(p)) skip_statement();
    }
  }

  // `a -> b;`, `[a, b] -> c;`, `a -> b -> c;`. Edges are added only when the statement is whole.
  bool edge_statement(Program& p) {
    std::vector<Edge> edges;
    std::vector<NameRef> from;
    if (peek().kind == Tok::LBracket) {
      next();
      while (true) {
        auto n = name();
        if (!n) return false;
        from.push_back(std::move(*n));
        if (peek().kind == Tok::Comma) {
          next();
        } else if (peek().kind == Tok::RBracket) {
          next();
          break;
        } else {
          expected("',' or ']' in the list of layers");
          return false;
        }
      }
    } else {
      auto n = name();
      if (!n) return false;
      from.push_back(std::move(*n));
    }
    if (!expect(Tok::Arrow, "in the connection")) return false;
    while (true) {
      auto to = name();
      if (!to) return false;
      edges.push_back(Edge{from, *to});
      from = {*to};
      if (peek().kind != Tok::Arrow) break;
      next();
    }
    if (!expect(Tok::Semi, "after the connection")) return false;
    for (auto& e : edges) p.edges.push_back(std::move(e));
    return true;
  }

  const std::vector<Token>& toks_;
  Diags& diags_;
  size_t pos_ = 0;
};

}  // namespace

Program parse(const std::vector<Token>& tokens, Diags& diags) { return Parser(tokens, diags).run(); }

}  // namespace nnref::nnl
