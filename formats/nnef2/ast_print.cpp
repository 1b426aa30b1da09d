#include "formats/nnef2/ast_print.hpp"

namespace nnref::nnef2 {
namespace {

// The head of a node's S-expression; empty for a leaf printed as its text.
std::string head(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Identifier:
    case ExprKind::Integer:
    case ExprKind::Real:
    case ExprKind::Bool:
      return {};
    case ExprKind::Member:
      return ".";
    case ExprKind::String:
      return "str";
    case ExprKind::Inf:
      return "inf";
    case ExprKind::Pi:
      return "pi";
    case ExprKind::Wildcard:
      return "~";
    case ExprKind::List:
      return "list";
    case ExprKind::Range:
      return "range";
    case ExprKind::Expand:
      return "expand";
    case ExprKind::Zip:
      return "zip";
    case ExprKind::Index:
      return "index";
    case ExprKind::Slice:
      return "slice";
    case ExprKind::Substitute:
      return "<-";
    case ExprKind::Unary:
    case ExprKind::Binary:
      return e.text;
    case ExprKind::NullTest:
      return "?x";
    case ExprKind::Select:
      return "?";
    case ExprKind::Coalesce:
      return "??";
    case ExprKind::Is:
      return "is";
    case ExprKind::In:
      return "in";
    case ExprKind::Fold:
      return "fold " + e.text;
    case ExprKind::CumulativeFold:
      return "cumfold " + e.text;
    case ExprKind::Cast:
      return "cast " + e.text;
    case ExprKind::Builtin:
      return e.text;
    case ExprKind::TensorAccess:
      return "access " + e.text;
    case ExprKind::Bounded:
      return "|";
    case ExprKind::SliceAll:
      return ":";
  }
  return "?";
}

void print(const Expr& e, std::string& out);

void print_args(const Expr& e, std::string& out) {
  for (const ExprPtr& a : e.args) {
    out += ' ';
    if (a) {
      print(*a, out);
    } else {
      out += '_';
    }
  }
}

void print(const Expr& e, std::string& out) {
  std::string h = head(e);
  if (h.empty()) {
    out += e.text;
    return;
  }
  bool leaf =
      e.kind == ExprKind::Inf || e.kind == ExprKind::Pi || e.kind == ExprKind::Wildcard || e.kind == ExprKind::SliceAll;
  if (leaf) {
    out += h;
    return;
  }
  out += '(' + h;
  if (e.kind == ExprKind::String) {
    for (const StringPart& p : e.parts) {
      out += ' ';
      if (p.expr) {
        out += '{';
        print(*p.expr, out);
        out += '}';
      } else {
        out += '"' + p.text + '"';
      }
    }
  }
  if (e.pack_index) {
    out += " [";
    print(*e.pack_index, out);
    out += ']';
  }
  print_args(e, out);
  if (e.kind == ExprKind::Member) out += ' ' + e.text;
  if (e.trailing_comma) out += " ,";
  out += ')';
}

}  // namespace

std::string to_sexpr(const Expr& e) {
  std::string out;
  print(e, out);
  return out;
}

}  // namespace nnref::nnef2
