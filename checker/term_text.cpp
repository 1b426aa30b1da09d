#include "checker/term_text.hpp"

#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nnref {

namespace {

// Binding strength, loosest first; an operand binding more loosely than its operator gets parentheses.
enum Prec { kOr = 1, kAnd, kCompare, kAdd, kMul, kUnary, kAtom };

struct Text {
  std::string s;
  int prec;
};

std::string wrap(const Text& t, int at_least) { return t.prec < at_least ? "(" + t.s + ")" : t.s; }

// Terms are DAGs whose tree form can be exponentially large, so text stops after this many
// subterms, ending in "…".
constexpr int kMaxSubterms = 200;

Text render(const z3::expr& e, int& budget);

// Z3 writes a - b as a + -1 * b: the term b when e is -1 * b, for printing "a - b".
std::optional<z3::expr> negated(const z3::expr& e) {
  int64_t k = 0;
  if (e.is_app() && e.decl().decl_kind() == Z3_OP_MUL && e.num_args() == 2 && e.arg(0).is_numeral_i64(k) && k == -1)
    return e.arg(1);
  return std::nullopt;
}

Text infix(const z3::expr& e, const char* op, int prec, int& budget) {
  // Left-associative: the right operands of - / % bind one level tighter.
  std::string s = wrap(render(e.arg(0), budget), prec);
  const bool add = e.decl().decl_kind() == Z3_OP_ADD;
  for (unsigned i = 1; i < e.num_args(); ++i) {
    if (auto b = add ? negated(e.arg(i)) : std::nullopt) {
      s += " - " + wrap(render(*b, budget), prec + 1);
      continue;
    }
    s += std::string(" ") + op + " " + wrap(render(e.arg(i), budget), prec + 1);
  }
  return {s, prec};
}

Text render(const z3::expr& e, int& budget) {
  if (--budget < 0) return {"…", kAtom};
  if (e.is_numeral()) {
    std::string s = Z3_get_numeral_string(e.ctx(), e);
    return {s, s[0] == '-' ? kUnary : kAtom};
  }
  if (!e.is_app()) return {e.to_string(), kAtom};
  switch (e.decl().decl_kind()) {
    case Z3_OP_TRUE: return {"true", kAtom};
    case Z3_OP_FALSE: return {"false", kAtom};
    case Z3_OP_UNINTERPRETED: return {e.decl().name().str(), kAtom};
    case Z3_OP_ADD: return infix(e, "+", kAdd, budget);
    case Z3_OP_SUB: return infix(e, "-", kAdd, budget);
    case Z3_OP_MUL: return infix(e, "*", kMul, budget);
    case Z3_OP_IDIV: return infix(e, "/", kMul, budget);
    case Z3_OP_MOD: return infix(e, "%", kMul, budget);
    case Z3_OP_UMINUS: return {"-" + wrap(render(e.arg(0), budget), kUnary), kUnary};
    case Z3_OP_LE: return infix(e, "<=", kCompare, budget);
    case Z3_OP_GE: return infix(e, ">=", kCompare, budget);
    case Z3_OP_LT: return infix(e, "<", kCompare, budget);
    case Z3_OP_GT: return infix(e, ">", kCompare, budget);
    case Z3_OP_EQ: return infix(e, "==", kCompare, budget);
    case Z3_OP_DISTINCT: return infix(e, "!=", kCompare, budget);
    case Z3_OP_AND: return infix(e, "&&", kAnd, budget);
    case Z3_OP_OR: return infix(e, "||", kOr, budget);
    case Z3_OP_NOT: return {"!" + wrap(render(e.arg(0), budget), kAtom), kUnary};
    case Z3_OP_ITE:
      return {"(" + render(e.arg(0), budget).s + " ? " + render(e.arg(1), budget).s + " : " + render(e.arg(2), budget).s + ")", kAtom};
    default: return {e.to_string(), kAtom};
  }
}

// The active cache's entries: term id → (the term, kept alive so its id is not reused; its text).
using TextMemo = std::unordered_map<unsigned, std::pair<z3::expr, std::string>>;
thread_local TextMemo* active_memo = nullptr;
thread_local TermTextCache* active_cache = nullptr;

}  // namespace

TermTextCache::TermTextCache() : outer_(active_cache) {
  active_cache = this;
  if (!outer_) active_memo = new TextMemo;
}

TermTextCache::~TermTextCache() {
  active_cache = outer_;
  if (!outer_) {
    delete active_memo;
    active_memo = nullptr;
  }
}

std::string term_text(const z3::expr& e) {
  if (active_memo)
    if (auto it = active_memo->find(e.id()); it != active_memo->end()) return it->second.second;
  int budget = kMaxSubterms;
  std::string text = render(e, budget).s;
  if (active_memo) active_memo->emplace(e.id(), std::pair{e, text});
  return text;
}

}  // namespace nnref
