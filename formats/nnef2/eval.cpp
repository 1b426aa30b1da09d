#include "formats/nnef2/eval.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include "formats/nnef2/diags.hpp"
#include "spec/size_program.hpp"

namespace nnref::nnef2 {

namespace {

using Kind = Val::Kind;

[[noreturn]] void fail(const std::string& code, const std::string& message, const SourceLoc& loc) {
  throw EvalError{code, message, loc};
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Null:
      return "null";
    case Kind::Int:
      return "int";
    case Kind::Real:
      return "real";
    case Kind::Bool:
      return "bool";
    case Kind::Str:
      return "str";
    case Kind::Pack:
      return "pack";
    case Kind::Tensor:
      return "tensor";
  }
  return "value";
}

// Floor division and the floor remainder of §2.4 (the quotient rounds toward
// −∞, the remainder takes the divisor's sign), and the ceiling division of `\`.
int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t ceil_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

// a op b, or nnef2.eval.overflow when it does not fit in 64 bits.
int64_t exact(const std::string& op, int64_t a, int64_t b, const SourceLoc& loc) {
  int64_t r = 0;
  const bool overflow = op == "+"   ? __builtin_add_overflow(a, b, &r)
                        : op == "-" ? __builtin_sub_overflow(a, b, &r)
                                    : __builtin_mul_overflow(a, b, &r);
  if (overflow) fail("nnef2.eval.overflow", "integer overflow in '" + op + "'", loc);
  return r;
}

// By squaring: at most 64 steps, whatever the exponent.
int64_t int_power(int64_t a, int64_t b, const SourceLoc& loc) {
  if (b < 0) fail("nnef2.eval.value", "int ** with the negative exponent " + std::to_string(b), loc);
  int64_t r = 1;
  for (; b > 0; b >>= 1) {
    if (b & 1) r = exact("*", r, a, loc);
    if (b > 1) a = exact("*", a, a, loc);
  }
  return r;
}

// The longest pack composition builds (a range, a repetition): far beyond any rank or attribute
// list, short enough that no text makes it allocate without bound.
constexpr int64_t kMaxPack = int64_t{1} << 16;

void check_pack_length(int64_t n, const SourceLoc& loc) {
  if (n > kMaxPack)
    fail("nnef2.eval.value",
         "a pack of " + std::to_string(n) + " items (composition builds at most " + std::to_string(kMaxPack) + ")", loc);
}

Val int_arith(const std::string& op, int64_t a, int64_t b, const SourceLoc& loc) {
  if (op == "+" || op == "-" || op == "*") return Val::integer(exact(op, a, b, loc));
  if (op == "**") return Val::integer(int_power(a, b, loc));
  if (op == "<?") return Val::integer(std::min(a, b));
  if (op == ">?") return Val::integer(std::max(a, b));
  if (b == 0) fail("nnef2.eval.division-by-zero", std::to_string(a) + " " + op + " 0: division by zero", loc);
  if (b == -1 && a == INT64_MIN) fail("nnef2.eval.overflow", "integer overflow in '" + op + "'", loc);
  if (op == "/") return Val::integer(floor_div(a, b));
  if (op == "\\") return Val::integer(ceil_div(a, b));
  if (op == "%") return Val::integer(a - b * floor_div(a, b));
  fail("nnef2.eval.type", "'" + op + "' is not defined for int operands", loc);
}

Val real_arith(const std::string& op, double a, double b, const SourceLoc& loc) {
  if (op == "+") return Val::real(a + b);
  if (op == "-") return Val::real(a - b);
  if (op == "*") return Val::real(a * b);
  if (op == "/") return Val::real(a / b);
  if (op == "**") return Val::real(std::pow(a, b));
  if (op == "<?") return Val::real(std::min(a, b));
  if (op == ">?") return Val::real(std::max(a, b));
  fail("nnef2.eval.type", "'" + op + "' is not defined for real operands", loc);
}

bool compare(const std::string& op, const Val& a, const Val& b, const SourceLoc& loc) {
  if (op == "==") return a == b;
  if (op == "!=") return !(a == b);
  double x = 0, y = 0;
  if (a.kind == Kind::Int) x = static_cast<double>(a.i), y = static_cast<double>(b.i);
  if (a.kind == Kind::Real) x = a.r, y = b.r;
  if (a.kind == Kind::Int) {  // exact for all integers
    if (op == "<") return a.i < b.i;
    if (op == "<=") return a.i <= b.i;
    if (op == ">") return a.i > b.i;
    return a.i >= b.i;
  }
  if (a.kind != Kind::Real) fail("nnef2.eval.type", "'" + op + "' orders numbers, not " + kind_name(a.kind), loc);
  if (op == "<") return x < y;
  if (op == "<=") return x <= y;
  if (op == ">") return x > y;
  return x >= y;
}

bool is_comparison(const std::string& op) {
  return op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=";
}
bool is_logical(const std::string& op) { return op == "&&" || op == "||" || op == "^" || op == "=>"; }

// Applies f item by item: packs of one length, a non-pack broadcast, null if
// either is null.
Val elementwise(const Val& a, const Val& b, const std::function<Val(const Val&, const Val&)>& f, const SourceLoc& loc) {
  if (a.is_null() || b.is_null()) return Val{};
  if (!a.is_pack() && !b.is_pack()) return f(a, b);
  if (a.is_pack() && b.is_pack() && a.items.size() != b.items.size())
    fail("nnef2.eval.length",
         "packs of lengths " + std::to_string(a.items.size()) + " and " + std::to_string(b.items.size()) +
             " combined item by item",
         loc);
  const size_t n = a.is_pack() ? a.items.size() : b.items.size();
  std::vector<Val> out;
  for (size_t k = 0; k < n; ++k) {
    Val r = f(a.is_pack() ? a.items[k] : a, b.is_pack() ? b.items[k] : b);
    if (r.is_null()) return Val{};
    out.push_back(std::move(r));
  }
  return Val::pack(std::move(out));
}

Val map_items(const Val& a, const std::function<Val(const Val&)>& f) {
  if (a.is_null()) return a;
  if (!a.is_pack()) return f(a);
  std::vector<Val> out;
  for (const Val& v : a.items) out.push_back(f(v));
  return Val::pack(std::move(out));
}

int64_t want_int(const Val& v, const char* what, const SourceLoc& loc) {
  if (v.kind == Kind::Bool) return v.b ? 1 : 0;
  if (v.kind != Kind::Int) fail("nnef2.eval.type", std::string(what) + " must be an int, not " + show(v), loc);
  return v.i;
}

// The position `k` (negative: from the end) in a sequence of n items.
size_t position(int64_t k, size_t n, const SourceLoc& loc) {
  const int64_t p = k < 0 ? k + static_cast<int64_t>(n) : k;
  if (p < 0 || p >= static_cast<int64_t>(n))
    fail("nnef2.eval.index", "index " + std::to_string(k) + " out of range for " + std::to_string(n) + " items", loc);
  return static_cast<size_t>(p);
}

}  // namespace

std::vector<size_t> index_positions(const Val& idx, size_t n, const SourceLoc& loc) {
  std::vector<size_t> out;
  if (!idx.is_pack()) return {position(want_int(idx, "an index", loc), n, loc)};
  const bool mask = !idx.items.empty() && idx.items[0].kind == Kind::Bool;
  if (mask && idx.items.size() != n)
    fail("nnef2.eval.length", "a mask of " + std::to_string(idx.items.size()) + " items for " + std::to_string(n), loc);
  for (size_t k = 0; k < idx.items.size(); ++k) {
    if (mask) {
      if (idx.items[k].b) out.push_back(k);
    } else {
      out.push_back(position(want_int(idx.items[k], "an index", loc), n, loc));
    }
  }
  return out;
}

namespace {

// The positions of a[begin:end:stride], Python's reading (which §2.4 describes:
// omitted bounds depend on the stride's sign, negative ones count from the end,
// the range is clamped).
std::vector<size_t> slice_positions(std::optional<int64_t> begin, std::optional<int64_t> end, int64_t stride,
                                    size_t size, const SourceLoc& loc) {
  if (stride == 0) fail("nnef2.eval.value", "a slice with stride 0", loc);
  const int64_t n = static_cast<int64_t>(size);
  const auto fix = [&](int64_t k, int64_t low, int64_t high) {
    if (k < 0) k += n;
    return std::clamp(k, low, high);
  };
  std::vector<size_t> out;
  if (stride > 0) {
    const int64_t b = begin ? fix(*begin, 0, n) : 0, e = end ? fix(*end, 0, n) : n;
    for (int64_t k = b; k < e; k += stride) out.push_back(static_cast<size_t>(k));
  } else {
    const int64_t b = begin ? fix(*begin, -1, n - 1) : n - 1, e = end ? fix(*end, -1, n - 1) : -1;
    for (int64_t k = b; k > e; k += stride) out.push_back(static_cast<size_t>(k));
  }
  return out;
}

std::vector<Val> items_of(const Val& v) { return v.is_pack() ? v.items : std::vector<Val>{v}; }

Val pick(const Val& obj, const std::vector<size_t>& at, bool single) {
  if (obj.kind == Kind::Str) {
    std::string s;
    for (size_t k : at) s += obj.s[k];
    return Val::string(s);
  }
  if (single) return obj.items[at[0]];
  std::vector<Val> out;
  for (size_t k : at) out.push_back(obj.items[k]);
  return Val::pack(std::move(out));
}

size_t length(const Val& obj, const SourceLoc& loc) {
  if (obj.kind == Kind::Str) return obj.s.size();
  if (!obj.is_pack()) fail("nnef2.eval.type", "indexing " + show(obj) + ", which is not a pack or a string", loc);
  return obj.items.size();
}

Val builtin(const std::string& f, const Val& v, const SourceLoc& loc) {
  if (v.kind == Kind::Int && (f == "abs" || f == "sign"))
    return Val::integer(f == "abs" ? (v.i < 0 ? -v.i : v.i) : (v.i > 0) - (v.i < 0));
  if (v.kind != Kind::Real) fail("nnef2.eval.type", f + " of " + show(v) + ": it takes a real", loc);
  const double x = v.r;
  static const std::map<std::string, double (*)(double)> fns = {
      {"sqrt", std::sqrt},   {"exp", std::exp},   {"log", std::log},     {"sin", std::sin},     {"cos", std::cos},
      {"tan", std::tan},     {"asin", std::asin}, {"acos", std::acos},   {"atan", std::atan},   {"sinh", std::sinh},
      {"cosh", std::cosh},   {"tanh", std::tanh}, {"asinh", std::asinh}, {"acosh", std::acosh}, {"atanh", std::atanh},
      {"floor", std::floor}, {"ceil", std::ceil}, {"abs", std::fabs},    {"erf", std::erf}};
  if (f == "round") return Val::real(std::floor(x + 0.5));  // NNEF 1.0's round; the draft says no more
  if (f == "frac") return Val::real(x - std::floor(x));
  if (f == "sign") return Val::real(x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0);
  const auto it = fns.find(f);
  if (it == fns.end()) fail("nnef2.eval.builtin", "the built-in '" + f + "' is not evaluated at composition", loc);
  return Val::real(it->second(x));
}

Val cast_to(const std::string& type, const Val& v, const SourceLoc& loc) {
  if (type == "int") {
    if (v.kind == Kind::Real) {
      if (!std::isfinite(v.r) || std::fabs(v.r) > 9.0e18) fail("nnef2.eval.value", "int(" + show(v) + ")", loc);
      return Val::integer(static_cast<int64_t>(std::trunc(v.r)));
    }
    return Val::integer(want_int(v, "int()'s argument", loc));
  }
  if (type == "real") {
    if (v.kind == Kind::Int) return Val::real(static_cast<double>(v.i));
    if (v.kind == Kind::Bool) return Val::real(v.b ? 1.0 : 0.0);
    if (v.kind == Kind::Real) return v;
  }
  if (type == "bool") {
    if (v.kind == Kind::Int) return Val::boolean(v.i != 0);
    if (v.kind == Kind::Real) return Val::boolean(v.r != 0.0);
    if (v.kind == Kind::Bool) return v;
  }
  if (type == "str" && v.kind == Kind::Str) return v;
  fail("nnef2.eval.type", "cannot cast " + show(v) + " to " + type, loc);
}

Val default_of(const std::string& type, const SourceLoc& loc) {
  if (type == "int") return Val::integer(0);
  if (type == "real") return Val::real(0.0);
  if (type == "bool") return Val::boolean(false);
  if (type == "str") return Val::string("");
  fail("nnef2.eval.type", "no default value of type " + type, loc);
}

}  // namespace

Val Val::ints(const std::vector<int64_t>& v) {
  std::vector<Val> out;
  for (int64_t x : v) out.push_back(integer(x));
  return pack(std::move(out));
}

const char* type_name(ElemType t) { return t == ElemType::Int ? "int" : t == ElemType::Bool ? "bool" : "real"; }

std::optional<ElemType> elem_type(const std::string& type) {
  if (type == "real") return ElemType::Real;
  if (type == "int") return ElemType::Int;
  if (type == "bool") return ElemType::Bool;
  return std::nullopt;
}

std::optional<ElemType> elem_type_of(const Val& v) {
  if (v.kind == Kind::Int) return ElemType::Int;
  if (v.kind == Kind::Real) return ElemType::Real;
  if (v.kind == Kind::Bool) return ElemType::Bool;
  return std::nullopt;
}

bool Val::operator==(const Val& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::Null:
      return true;
    case Kind::Int:
      return i == o.i;
    case Kind::Real:
      return r == o.r;
    case Kind::Bool:
      return b == o.b;
    case Kind::Str:
      return s == o.s;
    case Kind::Pack:
      return items == o.items;
    case Kind::Tensor:
      return tensor == o.tensor;
  }
  return false;
}

std::string show(const Val& v) {
  switch (v.kind) {
    case Kind::Null:
      return "null";
    case Kind::Int:
      return std::to_string(v.i);
    case Kind::Real: {
      std::ostringstream s;
      s.precision(17);
      s << v.r;
      std::string t = s.str();
      if (t.find_first_of(".eEn") == std::string::npos) t += ".0";
      return t;
    }
    case Kind::Bool:
      return v.b ? "true" : "false";
    case Kind::Str:
      return "'" + v.s + "'";
    case Kind::Tensor:
      return (v.elem == ElemType::Real ? "tensor" : std::string(type_name(v.elem)) + " tensor") +
             show(Val::ints(v.shape));
    case Kind::Pack: {
      std::string out = "[";
      for (size_t k = 0; k < v.items.size(); ++k) out += (k ? ", " : "") + show(v.items[k]);
      return out + "]";
    }
  }
  return "?";
}

std::vector<int64_t> as_ints(const Val& v) {
  std::vector<int64_t> out;
  for (const Val& x : items_of(v)) out.push_back(x.kind == Kind::Int ? x.i : 0);
  return out;
}

namespace {

Val concrete_binary(const std::string& op, const Val& a, const Val& b, const SourceLoc& loc) {
  if (is_logical(op)) {
    if (a.kind != Kind::Bool || b.kind != Kind::Bool)
      fail("nnef2.eval.type", "'" + op + "' of " + show(a) + " and " + show(b) + ": it takes bools", loc);
    if (op == "&&") return Val::boolean(a.b && b.b);
    if (op == "||") return Val::boolean(a.b || b.b);
    if (op == "^") return Val::boolean(a.b != b.b);
    return Val::boolean(!a.b || b.b);
  }
  if (a.kind != b.kind)
    fail("nnef2.eval.type", "'" + op + "' of " + show(a) + " and " + show(b) + ": the operands' types differ", loc);
  if (is_comparison(op)) return Val::boolean(compare(op, a, b, loc));
  if (a.kind == Kind::Int) return int_arith(op, a.i, b.i, loc);
  if (a.kind == Kind::Real) return real_arith(op, a.r, b.r, loc);
  fail("nnef2.eval.type", "'" + op + "' of " + show(a) + " and " + show(b), loc);
}

// Whether v is an int or a bool: a value a term can stand for.
bool sized(const Val& v) { return v.kind == Kind::Int || v.kind == Kind::Bool; }

// The term of `a op b` from the operands' programs (§2.4's operators as size program tokens), or
// nullopt for an operator that has none (`**`).
std::optional<std::vector<int64_t>> binary_term(const std::string& op, const Val& a, const Val& b) {
  using namespace size_code;
  static const std::map<std::string, int64_t> tokens = {
      {"+", kAdd},   {"-", kSub},        {"*", kMul},   {"/", kFloorDiv}, {"\\", kCeilDiv}, {"%", kMod},
      {"<?", kMin},  {">?", kMax},       {"<", kLess},  {"<=", kLessEqual}, {"==", kEqual}, {"!=", kNotEqual},
      {"&&", kAnd},  {"||", kOr},        {"^", kNotEqual}};
  const bool swapped = op == ">" || op == ">=";  // a > b is b < a
  std::vector<int64_t> code = code_of(swapped ? b : a);
  if (op == "=>") code.push_back(kNot);
  const std::vector<int64_t> rhs = code_of(swapped ? a : b);
  code.insert(code.end(), rhs.begin(), rhs.end());
  if (op == "=>" || swapped) {
    code.push_back(op == "=>" ? kOr : op == ">" ? kLess : kLessEqual);
    return code;
  }
  const auto it = tokens.find(op);
  if (it == tokens.end()) return std::nullopt;
  code.push_back(it->second);
  return code;
}

}  // namespace

Val apply_binary(const std::string& op, const Val& a, const Val& b, const SourceLoc& loc, SizeConditions* conditions) {
  Val r = concrete_binary(op, a, b, loc);
  if (!conditions || !(a.term || b.term) || (r.kind != Kind::Int && r.kind != Kind::Bool)) return r;
  if (std::optional<std::vector<int64_t>> code = binary_term(op, a, b)) {
    r.term = std::make_shared<const std::vector<int64_t>>(std::move(*code));
  } else {
    pin(a, "the operand of '" + op + "'", loc, conditions);
    pin(b, "the operand of '" + op + "'", loc, conditions);
  }
  return r;
}

std::vector<int64_t> code_of(const Val& v) {
  if (v.term) return *v.term;
  return {size_code::kConstant, v.kind == Kind::Bool ? int64_t{v.b} : v.i};
}

Val extent_of(const Val& t, size_t k, const SizeConditions* conditions) {
  Val x = Val::integer(t.shape[k]);
  if (conditions && t.tensor >= 0)
    x.term = std::make_shared<const std::vector<int64_t>>(
        std::vector<int64_t>{size_code::kExtent, t.tensor, static_cast<int64_t>(k)});
  return x;
}

void pin(const Val& v, const std::string& what, const SourceLoc& loc, SizeConditions* conditions) {
  if (!conditions) return;
  if (v.is_pack()) {
    for (const Val& x : v.items) pin(x, what, loc, conditions);
    return;
  }
  if (!v.term) return;
  std::vector<int64_t> code = *v.term;
  const int64_t number = v.kind == Kind::Bool ? int64_t{v.b} : v.i;
  code.insert(code.end(), {size_code::kConstant, number, size_code::kEqual});
  const std::string where = loc.file.empty() ? "" : " (" + located(loc) + ")";
  conditions->push_back(
      {std::move(code), what + " is " + show(v) + " as composed at the declared sizes" + where, true});
}

void require_term(const Val& condition, const std::string& message, SizeConditions* conditions) {
  if (conditions && condition.term) conditions->push_back({*condition.term, message, false});
}

void referenced_names(const Expr& e, std::vector<std::string>& out) {
  if (e.kind == ExprKind::Identifier) out.push_back(e.text);
  for (const ExprPtr& a : e.args)
    if (a) referenced_names(*a, out);
  for (const StringPart& p : e.parts)
    if (p.expr) referenced_names(*p.expr, out);
  if (e.pack_index) referenced_names(*e.pack_index, out);
}

bool Evaluator::bound(const Expr& e) const {
  std::vector<std::string> names;
  referenced_names(e, names);
  return std::all_of(names.begin(), names.end(), [&](const std::string& n) { return symbols.count(n) > 0; });
}

Val Evaluator::eval(const Expr& e) const {
  switch (e.kind) {
    case ExprKind::Identifier: {
      const auto it = symbols.find(e.text);
      if (it == symbols.end()) fail("nnef2.eval.name", "'" + e.text + "' is not defined here", e.loc);
      return it->second;
    }
    case ExprKind::Integer: {
      errno = 0;
      const long long v = std::strtoll(e.text.c_str(), nullptr, 10);
      if (errno == ERANGE) fail("nnef2.eval.overflow", "the integer " + e.text + " does not fit in 64 bits", e.loc);
      return Val::integer(v);
    }
    case ExprKind::Real:
      return Val::real(std::strtod(e.text.c_str(), nullptr));
    case ExprKind::String:
      return text(e);
    case ExprKind::Bool:
      return Val::boolean(e.text == "true");
    case ExprKind::Inf:
      return Val::real(INFINITY);
    case ExprKind::Pi:
      return Val::real(M_PI);
    case ExprKind::Member:
      return member(e);
    case ExprKind::List:
      return list(e);
    case ExprKind::Range:
      return range(e);
    case ExprKind::Expand:
      return expand(e);
    case ExprKind::Index:
      return index(e);
    case ExprKind::Slice:
      return slice(e);
    case ExprKind::Substitute:
      return substitute(e);
    case ExprKind::Select:
      return select(e);
    case ExprKind::Fold:
      return fold(e);
    case ExprKind::CumulativeFold:
      return cumulative(e);
    case ExprKind::Unary: {
      const Val x = eval(*e.args[0]);
      return map_items(x, [&](const Val& v) {
        if (e.text == "!" && v.kind == Kind::Bool)
          return apply_binary("==", v, Val::boolean(false), e.loc, conditions);  // kNot's term
        if (e.text == "+" && (v.kind == Kind::Int || v.kind == Kind::Real)) return v;
        if (e.text == "-" && v.kind == Kind::Real) return Val::real(-v.r);
        if (e.text == "-" && v.kind == Kind::Int) return apply_binary("-", Val::integer(0), v, e.loc, conditions);
        fail("nnef2.eval.type", "'" + e.text + "' of " + show(v), e.loc);
      });
    }
    case ExprKind::NullTest:
      return Val::boolean(!eval(*e.args[0]).is_null());
    case ExprKind::Binary: {
      const Val a = eval(*e.args[0]), b = eval(*e.args[1]);
      return elementwise(
          a, b, [&](const Val& x, const Val& y) { return apply_binary(e.text, x, y, e.loc, conditions); }, e.loc);
    }
    case ExprKind::Coalesce: {
      Val a = eval(*e.args[0]);
      return a.is_null() ? eval(*e.args[1]) : a;
    }
    case ExprKind::Is: {
      const Val a = eval(*e.args[0]), b = eval(*e.args[1]);
      return elementwise(
          a, b,
          [&](const Val& x, const Val& y) {
            if (sized(x) && x.kind == y.kind) return apply_binary("==", x, y, e.loc, conditions);
            pin(x, "an operand of 'is'", e.loc, conditions);
            pin(y, "an operand of 'is'", e.loc, conditions);
            return Val::boolean(x == y);
          },
          e.loc);
    }
    case ExprKind::In: {
      const Val a = eval(*e.args[0]), b = eval(*e.args[1]);
      if (a.is_null() || b.is_null()) return Val{};
      pin(a, "an operand of 'in'", e.loc, conditions);
      pin(b, "an operand of 'in'", e.loc, conditions);
      const auto contained = [&](const Val& x) {
        return Val::boolean(std::find(b.items.begin(), b.items.end(), x) != b.items.end());
      };
      return map_items(a, contained);
    }
    case ExprKind::Cast: {
      std::string type = e.text;
      const auto generic = symbols.find(type);
      if (generic != symbols.end() && generic->second.kind == Kind::Str) type = generic->second.s;
      if (e.args.empty()) return default_of(type, e.loc);
      const Val x = eval(*e.args[0]);
      if (type != "int" || x.kind == Kind::Real) pin(x, "the argument of " + type + "()", e.loc, conditions);
      return map_items(x, [&](const Val& v) {
        Val r = cast_to(type, v, e.loc);
        if (type == "int" && v.kind != Kind::Real) r.term = v.term;  // int() of an int or a bool: its number
        return r;
      });
    }
    case ExprKind::Builtin: {
      const Val x = eval(*e.args[0]);
      pin(x, "the argument of " + e.text + "()", e.loc, conditions);
      return map_items(x, [&](const Val& v) { return builtin(e.text, v, e.loc); });
    }
    case ExprKind::Bounded:
      if (lowering) return guarded(e);
      fail("nnef2.eval.lowering", "a guarded index outside a tensor access of @lower", e.loc);
    case ExprKind::Zip:
      fail("nnef2.eval.zip", "a zip (a, b) must be expanded in a list: [(a, b)..]", e.loc);
    default:
      fail("nnef2.eval.lowering", "a tensor access or guarded index outside @lower", e.loc);
  }
}

// |i| or |i <> low : high|, item by item over packs: each int marked with its guard.
Val Evaluator::guarded(const Expr& e) const {
  const Val i = eval(*e.args[0]);
  if (e.args.size() < 3)
    return map_items(i, [&](const Val& v) {
      Val g = Val::integer(number(v, "a guarded index", e.loc));
      g.guard = Val::Guard::Skip;
      return g;
    });
  const Val low = eval(*e.args[1]), high = eval(*e.args[2]);
  const auto remap = [&](const Val& v, const Val& bounds) {
    Val g = Val::integer(number(v, "a guarded index", e.loc));
    g.guard = Val::Guard::Remap;
    g.low = number(bounds.items[0], "a guarded index's low", e.loc);
    g.high = number(bounds.items[1], "a guarded index's high", e.loc);
    return g;
  };
  if (!i.is_pack()) return remap(i, Val::pack({low, high}));
  std::vector<Val> out;
  for (size_t k = 0; k < i.items.size(); ++k) {
    const auto item = [&](const Val& p) {
      if (!p.is_pack()) return p;
      if (p.items.size() != i.items.size()) fail("nnef2.eval.length", "a guarded index's packs differ in length", e.loc);
      return p.items[k];
    };
    out.push_back(remap(i.items[k], Val::pack({item(low), item(high)})));
  }
  return Val::pack(std::move(out));
}

Val Evaluator::text(const Expr& e) const {
  std::string out;
  for (const StringPart& p : e.parts) {
    if (!p.expr) {
      out += p.text;
      continue;
    }
    const Val v = eval(*p.expr);
    pin(v, "a value in a string", e.loc, conditions);
    out += v.kind == Kind::Str ? v.s : show(v);
  }
  return Val::string(out);
}

Val Evaluator::member(const Expr& e) const {
  const Val x = eval(*e.args[0]);
  if (x.is_null()) return x;
  if (e.text == "size") {
    if (!x.is_pack()) fail("nnef2.eval.type", ".size of " + show(x) + ", which is not a pack", e.loc);
    return Val::integer(static_cast<int64_t>(x.items.size()));
  }
  if (x.kind != Kind::Tensor)
    fail("nnef2.eval.type", "." + e.text + " of " + show(x) + ", which is not a tensor", e.loc);
  if (e.text == "rank") return Val::integer(static_cast<int64_t>(x.shape.size()));
  std::vector<Val> extents;
  for (size_t k = 0; k < x.shape.size(); ++k) extents.push_back(extent_of(x, k, conditions));
  return Val::pack(std::move(extents));
}

int64_t Evaluator::number(const Val& v, const char* what, const SourceLoc& loc) const {
  pin(v, what, loc, conditions);
  return want_int(v, what, loc);
}

void Evaluator::append_item(const Expr& item, std::vector<Val>& out) const {
  if (item.kind == ExprKind::Expand && item.args[0]->kind == ExprKind::Zip) {
    std::vector<Val> packs;
    for (const ExprPtr& p : item.args[0]->args) packs.push_back(eval(*p));
    for (const Val& p : packs)
      if (!p.is_pack() || p.items.size() != packs[0].items.size())
        fail("nnef2.eval.length", "a zip of packs of different lengths", item.loc);
    for (size_t k = 0; k < packs[0].items.size(); ++k)
      for (const Val& p : packs) out.push_back(p.items[k]);
    return;
  }
  Val v = item.kind == ExprKind::Range || item.kind == ExprKind::Expand ? eval(item) : eval(item);
  if (v.is_pack() && item.kind != ExprKind::Range && item.kind != ExprKind::Expand)
    fail("nnef2.eval.type", "the pack " + show(v) + " is an item of a list without '..' to expand it", item.loc);
  if (v.is_pack()) {
    out.insert(out.end(), v.items.begin(), v.items.end());
  } else {
    out.push_back(std::move(v));
  }
}

Val Evaluator::list(const Expr& e) const { return items(e.args); }

Val Evaluator::items(const std::vector<ExprPtr>& args) const {
  std::vector<Val> out;
  for (const ExprPtr& item : args) {
    std::vector<Val> part;
    append_item(*item, part);
    for (Val& v : part) {
      if (v.is_null()) return Val{};
      out.push_back(std::move(v));
    }
  }
  return Val::pack(std::move(out));
}

Val Evaluator::range(const Expr& e) const {
  const Val b = eval(*e.args[0]), en = eval(*e.args[1]);
  const Val s = e.args.size() > 2 ? eval(*e.args[2]) : Val::integer(1);
  if (b.is_null() || en.is_null() || s.is_null()) return Val{};
  const int64_t first = number(b, "a range's begin", e.loc), last = number(en, "a range's end", e.loc);
  const int64_t stride = number(s, "a range's stride", e.loc);
  if (stride == 0) fail("nnef2.eval.value", "a range with stride 0", e.loc);
  // The item count, in 128 bits: the bounds may be anywhere in int64.
  const __int128 span = stride > 0 ? static_cast<__int128>(last) - first : static_cast<__int128>(first) - last;
  const __int128 step = stride > 0 ? stride : -static_cast<__int128>(stride);
  const __int128 count = span <= 0 ? 0 : (span + step - 1) / step;
  check_pack_length(count > kMaxPack ? kMaxPack + 1 : static_cast<int64_t>(count), e.loc);
  std::vector<int64_t> out;
  for (int64_t k = 0; k < static_cast<int64_t>(count); ++k) out.push_back(first + k * stride);
  return Val::ints(out);
}

Val Evaluator::expand(const Expr& e) const {
  Val x = eval(*e.args[0]);
  if (e.args.size() < 2) {
    if (!x.is_pack() && !x.is_null()) fail("nnef2.eval.type", "'..' after " + show(x) + " without a count", e.loc);
    return x;
  }
  const Val count = eval(*e.args[1]);
  if (x.is_null() || count.is_null()) return Val{};
  const int64_t n = number(count, "a repeat count", e.loc);
  if (x.is_pack()) {
    if (static_cast<int64_t>(x.items.size()) != n)
      fail("nnef2.eval.length", "the pack " + show(x) + " expanded to " + std::to_string(n) + " items", e.loc);
    return x;
  }
  if (n < 0) fail("nnef2.eval.value", "a repeat count of " + std::to_string(n), e.loc);
  check_pack_length(n, e.loc);
  return Val::pack(std::vector<Val>(static_cast<size_t>(n), x));
}

Val Evaluator::index(const Expr& e) const {
  const Val obj = eval(*e.args[0]), idx = eval(*e.args[1]);
  if (obj.is_null() || idx.is_null()) return Val{};
  pin(idx, "an index", e.loc, conditions);
  const size_t n = length(obj, e.loc);
  return pick(obj, index_positions(idx, n, e.loc), !idx.is_pack());
}

namespace {
std::optional<int64_t> bound_of(const Evaluator& ev, const ExprPtr& p, bool& null, const SourceLoc& loc) {
  if (!p) return std::nullopt;
  const Val v = ev.eval(*p);
  if (v.is_null()) null = true;
  return v.is_null() ? 0 : ev.number(v, "a slice bound", loc);
}
}  // namespace

Val Evaluator::slice(const Expr& e) const {
  const Val obj = eval(*e.args[0]);
  bool null = obj.is_null();
  const std::optional<int64_t> b = bound_of(*this, e.args[1], null, e.loc),
                               en = bound_of(*this, e.args[2], null, e.loc);
  const int64_t stride = bound_of(*this, e.args[3], null, e.loc).value_or(1);
  if (null) return Val{};
  return pick(obj, slice_positions(b, en, stride, length(obj, e.loc), e.loc), false);
}

Val Evaluator::substitute(const Expr& e) const {
  const Expr& sub = *e.args[0];
  Val obj = eval(*sub.args[0]);
  const Val value = eval(*e.args[1]);
  if (obj.is_null() || value.is_null()) return Val{};
  std::vector<size_t> at;
  bool single = false;
  if (sub.kind == ExprKind::Index) {
    const Val idx = eval(*sub.args[1]);
    if (idx.is_null()) return Val{};
    pin(idx, "an index", e.loc, conditions);
    at = index_positions(idx, length(obj, e.loc), e.loc);
    single = !idx.is_pack();
  } else {
    bool null = false;
    const std::optional<int64_t> b = bound_of(*this, sub.args[1], null, e.loc),
                                 en = bound_of(*this, sub.args[2], null, e.loc);
    const int64_t stride = bound_of(*this, sub.args[3], null, e.loc).value_or(1);
    if (null) return Val{};
    at = slice_positions(b, en, stride, length(obj, e.loc), e.loc);
  }
  if (obj.kind == Kind::Str) fail("nnef2.eval.type", "a substitution into a string", e.loc);
  if (value.is_pack() && (single || value.items.size() != at.size()))
    fail("nnef2.eval.length", "substituting " + show(value) + " at " + std::to_string(at.size()) + " positions", e.loc);
  for (size_t k = 0; k < at.size(); ++k) obj.items[at[k]] = value.is_pack() ? value.items[k] : value;
  return obj;
}

Val Evaluator::select(const Expr& e) const {
  const Val c = eval(*e.args[0]);
  if (c.is_null()) return c;
  const bool has_else = e.args.size() > 2;
  if (!c.is_pack()) {
    if (c.kind != Kind::Bool) fail("nnef2.eval.type", "the condition " + show(c) + " is not a bool", e.loc);
    if (!c.term || !has_else) {
      pin(c, "a condition", e.loc, conditions);
      if (c.b) return eval(*e.args[1]);
      return has_else ? eval(*e.args[2]) : Val{};
    }
    // A condition on sizes: both branches, when both evaluate, give the term (the untaken one may
    // fail at the declared sizes: then the condition is pinned).
    const Val taken = eval(*e.args[c.b ? 1 : 2]);
    std::optional<Val> other;
    try {
      other = eval(*e.args[c.b ? 2 : 1]);
    } catch (const EvalError&) {
    }
    if (other) return select_item(c, c.b ? taken : *other, c.b ? *other : taken, e.loc);
    pin(c, "a condition", e.loc, conditions);
    return taken;
  }
  const Val a = eval(*e.args[1]);
  const Val b = has_else ? eval(*e.args[2]) : Val{};
  std::vector<Val> out;
  for (size_t k = 0; k < c.items.size(); ++k) {
    if (c.items[k].kind != Kind::Bool)
      fail("nnef2.eval.type", "the condition " + show(c) + " is not a bool pack", e.loc);
    const Val& branch = c.items[k].b ? a : b;
    if (branch.is_null()) return Val{};
    for (const Val& x : {a, b})
      if (x.is_pack() && x.items.size() != c.items.size())
        fail("nnef2.eval.length",
             "a select of " + std::to_string(c.items.size()) + " conditions and the pack " + show(x), e.loc);
    const auto item = [&](const Val& x) { return x.is_pack() ? x.items[k] : x; };
    out.push_back(select_item(c.items[k], item(a), item(b), e.loc));
  }
  return Val::pack(std::move(out));
}

// c ? a : b for one condition (a and b items, or packs of them item by item), with the term
// kSelect where c has one and the branches are ints or bools; otherwise c is pinned.
Val Evaluator::select_item(const Val& c, const Val& a, const Val& b, const SourceLoc& loc) const {
  const Val& taken = c.b ? a : b;
  if (!c.term || !conditions) return taken;
  if (a.is_pack() && b.is_pack() && a.items.size() == b.items.size()) {
    std::vector<Val> out;
    for (size_t k = 0; k < a.items.size(); ++k) out.push_back(select_item(c, a.items[k], b.items[k], loc));
    return Val::pack(std::move(out));
  }
  if (!sized(a) || a.kind != b.kind) {
    pin(c, "a condition", loc, conditions);
    return taken;
  }
  Val r = taken;
  std::vector<int64_t> code = *c.term, x = code_of(a), y = code_of(b);
  code.insert(code.end(), x.begin(), x.end());
  code.insert(code.end(), y.begin(), y.end());
  code.push_back(size_code::kSelect);
  r.term = std::make_shared<const std::vector<int64_t>>(std::move(code));
  return r;
}

Val Evaluator::fold(const Expr& e) const {
  const Val x = eval(*e.args[0]);
  if (x.is_null()) return x;
  const std::vector<Val> items = items_of(x);
  const std::string& op = e.text;
  if (is_comparison(op) || op == ":=") pin(x, "an item of '" + op + " ..'", e.loc, conditions);
  if (is_comparison(op)) {
    bool ok = true;
    for (size_t a = 0; a < items.size(); ++a)
      for (size_t b = a + 1; b < items.size(); ++b) {
        if (op == "!=")
          ok = ok && !(items[a] == items[b]);
        else if (b == a + 1)
          ok = ok && compare(op, items[a], items[b], e.loc);
      }
    return Val::boolean(ok);
  }
  if (op == ":=") {
    if (items.empty()) return Val{};
    for (const Val& v : items)
      if (!(v == items[0])) return Val{};
    return items[0];
  }
  std::optional<Val> acc;
  if (e.args.size() > 1) acc = eval(*e.args[1]);
  for (const Val& v : items) acc = acc ? apply_binary(op, *acc, v, e.loc, conditions) : v;
  if (acc) return *acc;
  if (op == "+") return Val::integer(0);
  if (op == "*") return Val::integer(1);
  if (op == "&&") return Val::boolean(true);
  if (op == "||") return Val::boolean(false);
  fail("nnef2.eval.value", "'" + op + " ..' of an empty pack", e.loc);
}

Val Evaluator::cumulative(const Expr& e) const {
  const Val x = eval(*e.args[0]);
  if (x.is_null()) return x;
  std::vector<Val> out;
  for (const Val& v : items_of(x))
    out.push_back(out.empty() ? v : apply_binary(e.text, out.back(), v, e.loc, conditions));
  return Val::pack(std::move(out));
}

}  // namespace nnref::nnef2
