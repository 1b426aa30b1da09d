#include "formats/nnef/composer.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <set>

#include "formats/nnef/lower_ops.hpp"
#include "formats/nnef/standard_fragments.hpp"
#include "semantics/node_rule.hpp"

namespace nnref::nnef {

namespace {

constexpr size_t kMaxExpansionDepth = 500;
// The most items (counted through nested arrays) a compile-time array or string may hold, so that
// repetition and concatenation cannot exhaust memory.
constexpr uint64_t kMaxItems = uint64_t{1} << 24;

uint64_t deep_size(const Value& v) {
  uint64_t n = 1;
  for (const Value& x : v.items) n += deep_size(x);
  return n;
}

bool has_tensor(const Type& t) {
  if (t.kind == Type::Kind::Tensor) return true;
  return std::any_of(t.items.begin(), t.items.end(), has_tensor);
}
bool has_generic(const Type& t) {
  if (t.kind == Type::Kind::Generic) return true;
  return std::any_of(t.items.begin(), t.items.end(), has_generic);
}
bool is_literal(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::Integer:
    case Expr::Kind::Real:
    case Expr::Kind::String:
    case Expr::Kind::Logical: return true;
    case Expr::Kind::Array:
    case Expr::Kind::Tuple:
      return std::all_of(e.items.begin(), e.items.end(), [](const ExprPtr& x) { return is_literal(*x); });
    default: return false;
  }
}
std::optional<Type::Kind> generic_of(const std::string& name) {
  if (name == "integer") return Type::Kind::Integer;
  if (name == "scalar") return Type::Kind::Scalar;
  if (name == "logical") return Type::Kind::Logical;
  if (name == "string") return Type::Kind::String;
  return std::nullopt;
}
ElemKind elem_kind(Type::Kind k) {
  return k == Type::Kind::Integer ? ElemKind::Integer : k == Type::Kind::Logical ? ElemKind::Logical : ElemKind::Real;
}
Type::Kind kind_of(ElemKind k) {
  return k == ElemKind::Integer ? Type::Kind::Integer : k == ElemKind::Logical ? Type::Kind::Logical : Type::Kind::Scalar;
}
Type::Kind kind_of(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Integer: return Type::Kind::Integer;
    case Value::Kind::Logical: return Type::Kind::Logical;
    case Value::Kind::String: return Type::Kind::String;
    default: return Type::Kind::Scalar;
  }
}
std::string loc_text(const SourceLoc& l) { return std::to_string(l.line) + ":" + std::to_string(l.column); }
// The operator an expression spells, as the fragment it becomes when an operand is a tensor (§3.3.3).
const char* tensor_operator(const std::string& op) {
  static const std::map<std::string, const char*> ops = {
      {"+", "add"}, {"-", "sub"}, {"*", "mul"}, {"/", "div"}, {"^", "pow"}, {"<", "lt"}, {"<=", "le"},
      {">", "gt"},  {">=", "ge"}, {"==", "eq"}, {"!=", "ne"}, {"&&", "and"}, {"||", "or"}};
  const auto it = ops.find(op);
  return it == ops.end() ? nullptr : it->second;
}
bool valid_label(const std::string& s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.' || c == '/' || c == '\\';
  });
}
std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}
std::string exact_decimal(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

Composer::Composer(Model& model, Diags& diags, int64_t max_memory, VariableLoader loader,
                   const std::map<std::string, QuantEntry>& quant)
    : model_(model), diags_(diags), max_memory_(max_memory), loader_(std::move(loader)), quant_(quant) {}

SourceLoc Composer::at(const SourceLoc& loc) const {
  if (loc.file != kStandardFragmentsFile) return loc;
  for (const Frame& f : frames_)
    if (f.call.file != kStandardFragmentsFile) return f.call;
  return loc;
}

void Composer::fail(const std::string& code, const std::string& message, const SourceLoc& loc, std::vector<std::string> notes) {
  // The innermost expansions (a runaway recursion would list hundreds).
  constexpr size_t kFramesShown = 6;
  size_t shown = 0;
  for (auto f = frames_.rbegin(); f != frames_.rend() && shown++ < kFramesShown; ++f)
    notes.push_back("in the expansion of '" + f->fragment + "'" +
                    (f->call.file == kStandardFragmentsFile ? " (a standard fragment of NNEF 1.0 §4)"
                                                           : " called at line " + loc_text(f->call)));
  if (frames_.size() > kFramesShown)
    notes.push_back("... in " + std::to_string(frames_.size() - kFramesShown) + " enclosing expansions");
  diags_.error(code, message, at(loc), statement_, std::move(notes));
  throw ComposeError{};
}

void Composer::compose(const std::vector<Fragment>& standard, const Document& doc) {
  for (const Fragment& f : standard) fragments_[f.name] = &f;
  for (const Fragment& f : doc.fragments) {
    check_declaration(f);
    declare(f);
  }
  if (doc.graph) compose_graph(*doc.graph);
}

void Composer::declare(const Fragment& f) {
  const auto [it, fresh] = fragments_.emplace(f.name, &f);
  if (!fresh)
    fail("nnef.fragment.redefined",
         "fragment '" + f.name + "' is already defined" +
             (it->second->standard ? " as a standard operation of NNEF 1.0" : " at line " + loc_text(it->second->loc)),
         f.loc);
}

void Composer::check_declaration(const Fragment& f) {
  std::set<std::string> names;
  bool attribute_seen = false;
  for (const Param& p : f.params) {
    if (!names.insert(p.name).second)
      fail("nnef.fragment.duplicate-parameter", "fragment '" + f.name + "' declares '" + p.name + "' twice", p.loc);
    if (has_tensor(p.type) && attribute_seen)
      fail("nnef.fragment.parameter-order",
           "tensor parameter '" + p.name + "' of fragment '" + f.name + "' comes after an attribute (tensors first)", p.loc);
    attribute_seen = attribute_seen || !has_tensor(p.type);
    if (p.default_value && !is_literal(*p.default_value))
      fail("nnef.fragment.bad-default",
           "the default of '" + p.name + "' in fragment '" + f.name + "' is not a literal (or an array or tuple of them)",
           p.default_value->loc);
  }
  for (const Param& r : f.results) {
    if (!names.insert(r.name).second)
      fail("nnef.fragment.duplicate-parameter", "fragment '" + f.name + "' declares '" + r.name + "' twice", r.loc);
    if (!has_tensor(r.type))
      fail("nnef.fragment.result-not-tensor",
           "result '" + r.name + "' of fragment '" + f.name + "' has type " + type_text(r.type) + ": results are tensors",
           r.loc);
  }
  bool generic = false;
  for (const auto* list : {&f.params, &f.results})
    for (const Param& p : *list) generic = generic || has_generic(p.type);
  if (generic != f.generic)
    fail("nnef.fragment.generic-marker",
         generic ? "fragment '" + f.name + "' uses '?' in its types but is not declared generic ('" + f.name + "<?>')"
                 : "fragment '" + f.name + "' is declared generic but no parameter or result uses '?'",
         f.loc);
}

void Composer::compose_graph(const GraphDecl& g) {
  in_graph_ = true;
  Scope scope;
  std::set<std::string> params;
  for (const auto& [name, loc] : g.params)
    if (!params.insert(name).second) fail("nnef.identifier.redefined", "graph input '" + name + "' is listed twice", loc);
  graph_params_ = params;
  for (const Assignment& a : g.body) {
    const Expr* first = a.lhs.get();
    while (first->kind != Expr::Kind::Ident && !first->items.empty()) first = first->items[0].get();
    statement_ = first->kind == Expr::Kind::Ident ? first->text : "";
    statement_nodes_.clear();
    assign(*a.lhs, eval_rhs(a.rhs, scope), scope, true, a.loc);
    name_statement_results(*a.lhs, scope);
  }
  statement_.clear();
  for (const auto& entry : scope) graph_ids_.insert(entry.first);
  for (const auto& [name, loc] : g.params)
    if (!externals_.count(name))
      fail("nnef.graph.input-not-external",
           "graph input '" + name + "' is not assigned by an external(...) invocation in the graph's body", loc);
  std::set<std::string> seen;
  for (const auto& [name, loc] : g.results) {
    const auto it = scope.find(name);
    if (it == scope.end())
      fail("nnef.graph.output-unassigned", "graph output '" + name + "' is never assigned in the graph's body", loc);
    if (!seen.insert(name).second) fail("nnef.identifier.redefined", "graph output '" + name + "' is listed twice", loc);
    model_.graph.outputs.push_back(GraphOutput{name, materialise(it->second)});
  }
}

void Composer::assign(const Expr& lhs, const Value& v, Scope& scope, bool graph_level, const SourceLoc& loc) {
  if (lhs.kind == Expr::Kind::Ident) {
    if (scope.count(lhs.text))
      fail("nnef.identifier.redefined", "identifier '" + lhs.text + "' is already assigned (identifiers are assigned once" +
                                            (graph_level ? ")" : "; fragment parameters are never assigned)"),
           lhs.loc);
    if (graph_level && v.kind != Value::Kind::Tensor)
      fail("nnef.type.not-tensor",
           "graph identifier '" + lhs.text + "' would hold " + value_type_text(v, tensors_) + " " + value_text(v) +
               ": every identifier of the graph's body is a single tensor",
           lhs.loc);
    scope[lhs.text] = graph_level ? quantized(lhs.text, v, loc) : v;
    return;
  }
  const bool array = lhs.kind == Expr::Kind::Array;
  const Value::Kind want = array ? Value::Kind::Array : Value::Kind::Tuple;
  if (v.kind != want || v.items.size() != lhs.items.size())
    fail("nnef.assignment.structure",
         std::string("the left-hand side is ") + (array ? "an array" : "a tuple") + " of " +
             std::to_string(lhs.items.size()) + " but the right-hand side gives " + value_type_text(v, tensors_) +
             (v.kind == Value::Kind::Array || v.kind == Value::Kind::Tuple
                  ? " of " + std::to_string(v.items.size())
                  : std::string()),
         lhs.loc);
  for (size_t k = 0; k < lhs.items.size(); ++k) assign(*lhs.items[k], v.items[k], scope, graph_level, loc);
}

Value Composer::quantized(const std::string& id, const Value& v, const SourceLoc& loc) {
  const auto it = quant_.find(id);
  if (it == quant_.end() || tensors_[v.tensor].dequantized) return v;
  const auto f = fragments_.find(it->second.algorithm);
  if (f == fragments_.end() || f->second->params.empty())
    fail("nnef.quant.unknown-algorithm",
         "graph.quant gives '" + id + "' the algorithm '" + it->second.algorithm + "', which is no fragment", it->second.loc);
  Args args = it->second.args;
  args[f->second->params[0].name] = v;
  std::vector<Value> out = apply(it->second.algorithm, std::move(args), loc);
  return out[0];
}

std::vector<Value> Composer::apply(const std::string& fragment, Args args, const SourceLoc& loc) {
  const auto f = fragments_.find(fragment);
  if (f == fragments_.end()) fail("nnef.fragment.undefined", "no fragment named '" + fragment + "'", loc);
  std::vector<std::pair<std::string, Value>> named(args.begin(), args.end());
  return invoke(*f->second, {}, std::move(named), "", loc);
}

Value Composer::eval(const ExprPtr& ep, Scope& scope) {
  const Expr& e = *ep;
  switch (e.kind) {
    case Expr::Kind::Integer: {
      errno = 0;
      char* end = nullptr;
      const long long v = std::strtoll(e.text.c_str(), &end, 10);
      if (errno == ERANGE) fail("nnef.literal.range", "integer " + e.text + " does not fit 64 bits", e.loc);
      return Value::integer(v);
    }
    case Expr::Kind::Real: {
      const double v = std::strtod(e.text.c_str(), nullptr);
      if (!std::isfinite(v)) fail("nnef.literal.range", "number " + e.text + " does not fit a double", e.loc);
      return Value::scalar(Real(v, e.text));
    }
    case Expr::Kind::String: return Value::string(e.text);
    case Expr::Kind::Logical: return Value::logical(e.text == "true");
    case Expr::Kind::Ident: {
      const auto it = scope.find(e.text);
      if (it == scope.end()) fail("nnef.identifier.undefined", "identifier '" + e.text + "' is not defined before its use", e.loc);
      return it->second;
    }
    case Expr::Kind::Array:
    case Expr::Kind::Tuple: {
      std::vector<Value> items;
      for (const ExprPtr& x : e.items) items.push_back(eval(x, scope));
      return e.kind == Expr::Kind::Array ? Value::array(std::move(items)) : Value::tuple(std::move(items));
    }
    case Expr::Kind::Unary: return eval_unary(e, scope);
    case Expr::Kind::Binary: return eval_binary(e, scope);
    case Expr::Kind::IfElse: {
      const Value c = eval(e.items[1], scope);
      if (c.kind != Value::Kind::Logical)
        fail("nnef.type.mismatch", "the condition of an if-else is " + value_type_text(c, tensors_) + ", not logical",
             e.items[1]->loc);
      return eval(e.items[c.b ? 0 : 2], scope);  // lazy: the branch not taken is not evaluated
    }
    case Expr::Kind::For: return eval_for(e, scope);
    case Expr::Kind::Index:
    case Expr::Kind::Slice: return eval_subscript(e, scope);
    case Expr::Kind::Call:
      if (!fragments_.count(e.text) && (e.text == "shape_of" || e.text == "length_of" || e.text == "range_of" ||
                                        e.text == "integer" || e.text == "scalar" || e.text == "logical" ||
                                        e.text == "string"))
        return eval_builtin(e, scope);
      return eval_call(e, scope, true);
  }
  fail("nnef.internal", "an expression of unknown kind", e.loc);
}

Value Composer::eval_rhs(const ExprPtr& e, Scope& scope) {
  // An invocation on its own may return several results (a tuple); anywhere else it returns one.
  if (e->kind == Expr::Kind::Call && fragments_.count(e->text)) return eval_call(*e, scope, false);
  return eval(e, scope);
}

Value Composer::eval_unary(const Expr& e, Scope& scope) {
  const Value x = eval(e.items[0], scope);
  if (x.kind == Value::Kind::Tensor) {
    const char* f = e.text == "-" ? "neg" : e.text == "+" ? "copy" : "not";
    return invoke(*fragments_.at(f), {x}, {}, "", e.loc)[0];
  }
  if (e.text == "!" && x.kind == Value::Kind::Logical) return Value::logical(!x.b);
  if (e.text == "+" && (x.kind == Value::Kind::Integer || x.kind == Value::Kind::Scalar)) return x;
  if (e.text == "-" && x.kind == Value::Kind::Integer) {
    if (x.i == INT64_MIN) fail("nnef.arithmetic.overflow", "-(" + value_text(x) + ") does not fit 64 bits", e.loc);
    return Value::integer(-x.i);
  }
  if (e.text == "-" && x.kind == Value::Kind::Scalar) {
    const std::string& d = x.r.decimal;
    return Value::scalar(Real(-x.r.value, d.empty() ? "" : d[0] == '-' ? d.substr(1) : "-" + d));
  }
  fail("nnef.type.mismatch", "unary '" + e.text + "' does not apply to " + value_type_text(x, tensors_), e.loc);
}

Value Composer::eval_binary(const Expr& e, Scope& scope) {
  const std::string& op = e.text;
  const Value a = eval(e.items[0], scope);
  if ((op == "&&" || op == "||") && a.kind == Value::Kind::Logical && a.b == (op == "||")) return a;  // lazy
  const Value b = eval(e.items[1], scope);
  const auto mismatch = [&]() -> Value {
    fail("nnef.type.mismatch",
         "operator '" + op + "' does not apply to " + value_type_text(a, tensors_) + " and " + value_type_text(b, tensors_) +
             " (no implicit conversion between integer and scalar)",
         e.loc);
  };
  if (a.kind == Value::Kind::Tensor || b.kind == Value::Kind::Tensor) {
    const char* f = tensor_operator(op);
    if (!f) return mismatch();
    return invoke(*fragments_.at(f), {a, b}, {}, "", e.loc)[0];
  }
  if (op == "in") {
    if (b.kind != Value::Kind::Array) return mismatch();
    return Value::logical(std::any_of(b.items.begin(), b.items.end(), [&](const Value& x) { return values_equal(a, x); }));
  }
  if (op == "&&" || op == "||") {
    if (a.kind != Value::Kind::Logical || b.kind != Value::Kind::Logical) return mismatch();
    return b;
  }
  if (op == "==" || op == "!=") {
    if (a.kind != b.kind || !a.is_primitive()) return mismatch();
    return Value::logical(values_equal(a, b) == (op == "=="));
  }
  if (op == "<" || op == "<=" || op == ">" || op == ">=") {
    if (a.kind != b.kind) return mismatch();
    int c = 0;
    if (a.kind == Value::Kind::Integer) c = a.i < b.i ? -1 : a.i > b.i;
    else if (a.kind == Value::Kind::Scalar) c = a.r.value < b.r.value ? -1 : a.r.value > b.r.value;
    else if (a.kind == Value::Kind::String) c = a.s.compare(b.s) < 0 ? -1 : a.s.compare(b.s) > 0;
    else return mismatch();
    return Value::logical(op == "<" ? c < 0 : op == "<=" ? c <= 0 : op == ">" ? c > 0 : c >= 0);
  }
  // Arrays and strings: + concatenates, * repeats.
  if ((a.kind == Value::Kind::Array || a.kind == Value::Kind::String) && (op == "+" || op == "*")) {
    if (op == "+" && b.kind == a.kind) {
      if ((a.kind == Value::Kind::String ? a.s.size() + b.s.size() : deep_size(a) + deep_size(b)) > kMaxItems)
        fail("nnef.arithmetic.overflow", "concatenating arrays or strings of over 2^24 items", e.loc);
      if (a.kind == Value::Kind::String) return Value::string(a.s + b.s);
      std::vector<Value> items = a.items;
      items.insert(items.end(), b.items.begin(), b.items.end());
      return Value::array(std::move(items));
    }
    if (op == "*" && b.kind == Value::Kind::Integer) {
      const size_t n = a.kind == Value::Kind::String ? a.s.size() : deep_size(a);
      if (b.i < 0 || (n > 0 && static_cast<uint64_t>(b.i) > kMaxItems / n))
        fail("nnef.arithmetic.overflow", "repeating " + std::to_string(n) + " items " + std::to_string(b.i) +
                                             " times: the count is negative or the result over 2^24 items", e.loc);
      Value out = a;
      out.items.clear();
      out.s.clear();
      for (int64_t k = 0; k < b.i; ++k) {
        out.items.insert(out.items.end(), a.items.begin(), a.items.end());
        out.s += a.s;
      }
      return out;
    }
    return mismatch();
  }
  if (a.kind != b.kind) return mismatch();
  if (a.kind == Value::Kind::Integer) {
    int64_t r = 0;
    bool overflow = false;
    if (op == "+") overflow = __builtin_add_overflow(a.i, b.i, &r);
    else if (op == "-") overflow = __builtin_sub_overflow(a.i, b.i, &r);
    else if (op == "*") overflow = __builtin_mul_overflow(a.i, b.i, &r);
    else if (op == "/") {
      if (b.i == 0) fail("nnef.arithmetic.division-by-zero", "integer division " + value_text(a) + " / 0", e.loc);
      overflow = a.i == INT64_MIN && b.i == -1;
      r = overflow ? 0 : a.i / b.i;  // truncates, as C++ (and the reference parser) does
    } else if (op == "^") {
      if (b.i < 0) fail("nnef.type.mismatch", "integer power with a negative exponent " + value_text(b), e.loc);
      r = 1;
      for (int64_t k = 0; k < b.i && !overflow; ++k) overflow = __builtin_mul_overflow(r, a.i, &r);
    }
    if (overflow) fail("nnef.arithmetic.overflow", value_text(a) + " " + op + " " + value_text(b) + " does not fit 64 bits", e.loc);
    return Value::integer(r);
  }
  if (a.kind == Value::Kind::Scalar) {
    const double x = a.r.value, y = b.r.value;
    const double r = op == "+" ? x + y : op == "-" ? x - y : op == "*" ? x * y : op == "/" ? x / y : std::pow(x, y);
    return Value::scalar(Real(r));
  }
  return mismatch();
}

Value Composer::eval_for(const Expr& e, Scope& scope) {
  std::vector<Value> sources;
  for (const Iterator& it : e.iterators) {
    sources.push_back(eval(it.source, scope));
    if (sources.back().kind != Value::Kind::Array)
      fail("nnef.type.mismatch", "loop variable '" + it.name + "' iterates over " +
                                     value_type_text(sources.back(), tensors_) + ", not an array", it.loc);
    if (sources.back().items.size() != sources[0].items.size())
      fail("nnef.type.length-mismatch",
           "the arrays of a 'for' comprehension have different lengths (" + std::to_string(sources[0].items.size()) +
               " and " + std::to_string(sources.back().items.size()) + "): several iterators walk them together",
           it.loc);
  }
  std::vector<Value> out;
  for (size_t k = 0; k < sources[0].items.size(); ++k) {
    Scope inner = scope;
    for (size_t j = 0; j < e.iterators.size(); ++j) inner[e.iterators[j].name] = sources[j].items[k];
    if (e.filter) {
      const Value keep = eval(e.filter, inner);
      if (keep.kind != Value::Kind::Logical)
        fail("nnef.type.mismatch", "the 'if' of a comprehension is " + value_type_text(keep, tensors_) + ", not logical",
             e.filter->loc);
      if (!keep.b) continue;
    }
    out.push_back(eval(e.yield, inner));
  }
  return Value::array(std::move(out));
}

Value Composer::eval_subscript(const Expr& e, Scope& scope) {
  const Value x = eval(e.items[0], scope);
  const bool str = x.kind == Value::Kind::String;
  if (x.kind == Value::Kind::Tensor)
    fail("nnef.type.mismatch", "a tensor cannot be subscripted at composition time (use slice)", e.loc);
  const auto index = [&](const ExprPtr& p, int64_t fallback) {
    if (!p) return fallback;
    const Value i = eval(p, scope);
    if (i.kind != Value::Kind::Integer)
      fail("nnef.type.mismatch", "a subscript is " + value_type_text(i, tensors_) + ", not integer", p->loc);
    return i.i;
  };
  if (e.kind == Expr::Kind::Index) {
    if (x.kind == Value::Kind::Tuple && e.items[1]->kind != Expr::Kind::Integer)
      fail("nnef.type.tuple-index", "a tuple's subscript must be an integer literal", e.items[1]->loc);
    if (!str && x.kind != Value::Kind::Array && x.kind != Value::Kind::Tuple)
      fail("nnef.type.mismatch", value_type_text(x, tensors_) + " cannot be subscripted", e.loc);
    const int64_t n = str ? static_cast<int64_t>(x.s.size()) : static_cast<int64_t>(x.items.size());
    const int64_t i = index(e.items[1], 0);
    if (i < 0 || i >= n)
      fail("nnef.index.out-of-range", "subscript " + std::to_string(i) + " of " + value_text(x) + " (length " +
                                          std::to_string(n) + ")", e.loc);
    return str ? Value::string(x.s.substr(static_cast<size_t>(i), 1)) : x.items[static_cast<size_t>(i)];
  }
  if (!str && x.kind != Value::Kind::Array) fail("nnef.type.mismatch", value_type_text(x, tensors_) + " cannot be sliced", e.loc);
  const int64_t n = str ? static_cast<int64_t>(x.s.size()) : static_cast<int64_t>(x.items.size());
  const int64_t b = index(e.items[1], 0), en = index(e.items[2], n);
  if (b < 0 || en < 0 || b > n || en > n)
    fail("nnef.index.out-of-range", "slice [" + std::to_string(b) + ":" + std::to_string(en) + "] of " + value_text(x) +
                                        " (length " + std::to_string(n) + ")", e.loc);
  if (b >= en) return str ? Value::string("") : Value::array({});
  if (str) return Value::string(x.s.substr(static_cast<size_t>(b), static_cast<size_t>(en - b)));
  return Value::array(std::vector<Value>(x.items.begin() + b, x.items.begin() + en));
}

Value Composer::eval_builtin(const Expr& e, Scope& scope) {
  if (e.args.size() != 1 || !e.args[0].name.empty())
    fail("nnef.argument.count", "built-in '" + e.text + "' takes one positional argument", e.loc);
  const Value x = eval(e.args[0].value, scope);
  const auto bad = [&]() -> Value {
    fail("nnef.type.mismatch", "built-in '" + e.text + "' does not apply to " + value_type_text(x, tensors_), e.loc);
  };
  const bool seq = x.kind == Value::Kind::Array || x.kind == Value::Kind::String;
  const int64_t n = x.kind == Value::Kind::String ? static_cast<int64_t>(x.s.size()) : static_cast<int64_t>(x.items.size());
  if (e.text == "shape_of") {
    if (x.kind != Value::Kind::Tensor) return Value::array({});  // §3.3.3: [] for a non-tensor
    used_shape_of_ = true;
    std::vector<Value> dims;
    for (int64_t d : tensors_[x.tensor].shape) dims.push_back(Value::integer(d));
    return Value::array(std::move(dims));
  }
  if (e.text == "length_of") return seq ? Value::integer(n) : bad();
  if (e.text == "range_of") {
    if (!seq) return bad();
    std::vector<Value> r;
    for (int64_t k = 0; k < n; ++k) r.push_back(Value::integer(k));
    return Value::array(std::move(r));
  }
  const auto parse = [&](bool integral) -> Value {
    char* end = nullptr;
    errno = 0;
    const char* s = x.s.c_str();
    Value v = integral ? Value::integer(std::strtoll(s, &end, 10)) : Value::scalar(Real(std::strtod(s, &end), x.s));
    if (x.s.empty() || *end != '\0' || errno == ERANGE)
      fail("nnef.type.conversion", "string '" + x.s + "' is not " + (integral ? "an integer" : "a number"), e.loc);
    return v;
  };
  if (e.text == "integer") {
    switch (x.kind) {
      case Value::Kind::Integer: return x;
      case Value::Kind::Logical: return Value::integer(x.b ? 1 : 0);
      case Value::Kind::String: return parse(true);
      case Value::Kind::Scalar: {
        const double f = std::floor(x.r.value);  // "truncated to the closest smaller integer": floor
        if (!(f >= -9.2e18 && f <= 9.2e18)) fail("nnef.arithmetic.overflow", "integer(" + value_text(x) + ") does not fit 64 bits", e.loc);
        return Value::integer(static_cast<int64_t>(f));
      }
      default: return bad();
    }
  }
  if (e.text == "scalar") {
    switch (x.kind) {
      case Value::Kind::Scalar: return x;
      case Value::Kind::Integer: return Value::scalar(Real(static_cast<double>(x.i), std::to_string(x.i)));
      case Value::Kind::Logical: return Value::scalar(Real(x.b ? 1.0 : 0.0));
      case Value::Kind::String: return parse(false);
      default: return bad();
    }
  }
  if (e.text == "logical") {
    switch (x.kind) {
      case Value::Kind::Logical: return x;
      case Value::Kind::Integer: return Value::logical(x.i != 0);
      case Value::Kind::Scalar: return Value::logical(x.r.value != 0.0);
      case Value::Kind::String: return Value::logical(!x.s.empty());
      default: return bad();
    }
  }
  if (!x.is_primitive()) return bad();
  return Value::string(x.kind == Value::Kind::String ? x.s : value_text(x));  // string(x)
}

Value Composer::eval_call(const Expr& e, Scope& scope, bool single) {
  const auto f = fragments_.find(e.text);
  if (f == fragments_.end()) fail("nnef.fragment.undefined", "no operation or fragment named '" + e.text + "'", e.loc);
  std::vector<Value> positional;
  std::vector<std::pair<std::string, Value>> named;
  for (const Argument& a : e.args) {
    if (a.name.empty() && !named.empty())
      fail("nnef.argument.positional-after-named", "a positional argument of '" + e.text + "' after a named one", a.loc);
    Value v = eval(a.value, scope);
    if (a.name.empty()) positional.push_back(std::move(v));
    else named.emplace_back(a.name, std::move(v));
  }
  std::string generic = e.generic;
  if (generic == "?") {
    if (frames_.empty() || !frames_.back().generic)
      fail("nnef.type.generic-ambiguous", "'<?>' outside a generic fragment", e.loc);
    generic = type_text(Type{*frames_.back().generic, {}});
  }
  std::vector<Value> results = invoke(*f->second, std::move(positional), std::move(named), generic, e.loc);
  if (results.size() == 1) return results[0];
  if (single)
    fail("nnef.type.not-single", "'" + e.text + "' returns " + std::to_string(results.size()) +
                                     " results: an invocation inside an expression must return one tensor", e.loc);
  return Value::tuple(std::move(results));
}

std::vector<Value> Composer::invoke(const Fragment& f, std::vector<Value> positional,
                                    std::vector<std::pair<std::string, Value>> named, const std::string& generic_name,
                                    const SourceLoc& loc) {
  if (positional.size() > f.params.size())
    fail("nnef.argument.count", "'" + f.name + "' takes " + std::to_string(f.params.size()) + " parameters, given " +
                                    std::to_string(positional.size()) + " positional arguments", loc);
  Args args;
  for (size_t k = 0; k < positional.size(); ++k) {
    if (!has_tensor(f.params[k].type))
      fail("nnef.argument.positional-attribute",
           "attribute '" + f.params[k].name + "' of '" + f.name + "' is given by position: attributes are named (" +
               f.params[k].name + " = ...)", loc);
    args[f.params[k].name] = std::move(positional[k]);
  }
  for (auto& [name, v] : named) {
    // An init-capture: clang 14 (the fuzz build's compiler) cannot capture a structured binding.
    const auto p = std::find_if(f.params.begin(), f.params.end(), [&n = name](const Param& x) { return x.name == n; });
    if (p == f.params.end()) {
      std::string known;
      for (const Param& x : f.params) known += (known.empty() ? "" : ", ") + x.name;
      fail("nnef.argument.unknown", "'" + f.name + "' has no parameter '" + name + "' (its parameters: " + known + ")", loc);
    }
    if (args.count(name)) fail("nnef.argument.repeated", "argument '" + name + "' of '" + f.name + "' is given twice", loc);
    args[name] = std::move(v);
  }
  std::optional<Type::Kind> generic;
  if (!generic_name.empty()) {
    if (!f.generic) fail("nnef.type.generic-mismatch", "'" + f.name + "' is not generic, given <" + generic_name + ">", loc);
    generic = generic_of(generic_name);
  }
  Scope none;
  for (const Param& p : f.params) {
    auto it = args.find(p.name);
    if (it == args.end()) {
      if (!p.default_value) fail("nnef.argument.missing", "'" + f.name + "' needs argument '" + p.name + "'", loc);
      it = args.emplace(p.name, eval(p.default_value, none)).first;
    }
    it->second = cast(it->second, p.type, generic, "argument '" + p.name + "' of '" + f.name + "'", loc);
  }
  if (f.generic && !generic) {
    if (!f.generic_default)
      fail("nnef.type.generic-ambiguous", "the generic type of '" + f.name + "' cannot be deduced from its arguments; "
                                          "give it as " + f.name + "<scalar>(...)", loc);
    generic = f.generic_default->kind;
  }
  if (frames_.size() >= kMaxExpansionDepth)
    fail("nnef.fragment.recursion", "fragments expand more than " + std::to_string(kMaxExpansionDepth) +
                                        " levels deep (at '" + f.name + "')", loc);
  if (f.standard && (f.name == "external" || f.name == "variable" || f.name == "constant" || f.name == "update"))
    return introduce(f, args, generic, loc);
  if (f.standard) {
    frames_.push_back({f.name, loc, generic});
    std::optional<std::vector<Value>> lowered = lower_standard(*this, f.name, args, loc);
    frames_.pop_back();
    if (lowered) return *lowered;
  }
  if (f.body) return expand(f, std::move(args), generic, loc);
  fail("nnef.op-unsupported",
       std::string("operation '") + f.name + "' " +
           (f.standard ? "has no counterpart in nnref's IR yet (docs/nnef.md lists the status of every operation)"
                       : "is declared without a body, so its meaning is unknown to nnref"),
       loc);
}

Value Composer::cast(const Value& v, const Type& t, std::optional<Type::Kind>& generic, const std::string& what,
                     const SourceLoc& loc) {
  const auto mismatch = [&]() -> Value {
    fail("nnef.type.mismatch",
         what + " has type " + type_text(t) + (generic ? " (? = " + type_text(Type{*generic, {}}) + ")" : "") +
             ", given " + value_type_text(v, tensors_) +
             (v.kind == Value::Kind::Tensor ? std::string() : " " + value_text(v)),
         loc);
  };
  const auto item_fits = [&](Type::Kind want, Type::Kind have) {
    if (want == Type::Kind::Generic) {
      if (generic && *generic != have) return false;
      generic = have;
      return true;
    }
    return want == have;
  };
  switch (t.kind) {
    case Type::Kind::Integer:
    case Type::Kind::Scalar:
    case Type::Kind::Logical:
    case Type::Kind::String:
    case Type::Kind::Generic:
      if (!v.is_primitive() || !item_fits(t.kind, kind_of(v))) return mismatch();
      return v;
    case Type::Kind::Tensor: {
      const bool any = t.items.empty();
      if (v.kind == Value::Kind::Tensor) {
        if (!any && !item_fits(t.items[0].kind, kind_of(tensors_[v.tensor].kind))) return mismatch();
        return v;
      }
      if (v.kind == Value::Kind::String || !v.is_primitive()) return mismatch();
      if (!any && !item_fits(t.items[0].kind, kind_of(v))) return mismatch();
      return literal_tensor(real_of(v, loc), elem_kind(kind_of(v)), loc);
    }
    case Type::Kind::Array: {
      if (v.kind != Value::Kind::Array) return mismatch();
      Value out = v;
      for (Value& x : out.items) x = cast(x, t.items[0], generic, what, loc);
      return out;
    }
    case Type::Kind::Tuple: {
      if (v.kind != Value::Kind::Tuple || v.items.size() != t.items.size()) return mismatch();
      Value out = v;
      for (size_t k = 0; k < out.items.size(); ++k) out.items[k] = cast(out.items[k], t.items[k], generic, what, loc);
      return out;
    }
  }
  return mismatch();
}

std::vector<Value> Composer::expand(const Fragment& f, Args args, const std::optional<Type::Kind>& generic,
                                    const SourceLoc& loc) {
  frames_.push_back({f.name, loc, generic});
  Scope scope(args.begin(), args.end());
  std::set<std::string> params;
  for (const Param& p : f.params) params.insert(p.name);
  for (const Assignment& a : *f.body) {
    assign(*a.lhs, eval_rhs(a.rhs, scope), scope, false, a.loc);
  }
  std::vector<Value> out;
  for (const Param& r : f.results) {
    const auto it = scope.find(r.name);
    if (it == scope.end() || params.count(r.name))
      fail("nnef.fragment.result-unassigned", "fragment '" + f.name + "' never assigns its result '" + r.name + "'", r.loc);
    std::optional<Type::Kind> g = generic;
    out.push_back(cast(it->second, r.type, g, "result '" + r.name + "' of '" + f.name + "'", r.loc));
  }
  frames_.pop_back();
  return out;
}

void Composer::check_volume(const std::vector<int64_t>& shape, const std::string& what, const SourceLoc& loc) {
  for (int64_t d : shape)
    if (d <= 0) fail("nnef.shape.nonpositive", what + " has shape " + dims_str(shape) + ": every extent must be positive", loc);
  const int64_t n = checked_element_count(shape);
  if (n < 0 || n > max_memory_ / 8)
    fail("nnef.size.over-budget",
         what + " of shape " + dims_str(shape) + " holds " + (n < 0 ? std::string("more than 2^63") : std::to_string(n)) +
             " elements, over the memory budget of " + std::to_string(max_memory_) + " bytes (8 bytes an element)",
         loc);
}

std::vector<Value> Composer::introduce(const Fragment& f, const Args& args, const std::optional<Type::Kind>& generic,
                                       const SourceLoc& loc) {
  const ElemKind kind = elem_kind(generic.value_or(Type::Kind::Scalar));
  if (f.name == "update")
    fail("nnef.variable.update-unsupported",
         "update(...) changes a variable between runs (§4.8): nnref evaluates inference, where variables are constant, "
         "so a graph with updates is not supported", loc);
  if (!in_graph_ || !frames_.empty())
    fail("nnef.fragment.introduces-tensor", "'" + f.name + "' may only be invoked in the graph's body, not in a fragment", loc);
  if (generic == Type::Kind::String) fail("nnef.type.mismatch", "a tensor of strings ('" + f.name + "<string>')", loc);
  std::vector<int64_t> shape;
  for (const Value& d : args.at("shape").items) shape.push_back(d.i);
  TensorInfo t;
  t.kind = kind;
  t.loc = at(loc);
  t.shape = shape;
  if (f.name == "external") {
    if (!graph_params_.count(statement_))
      fail("nnef.graph.input-not-declared",
           "external '" + statement_ + "' is not among the graph's inputs (each external is a graph input)", loc);
    if (!externals_.insert(statement_).second)
      fail("nnef.identifier.redefined", "graph input '" + statement_ + "' is assigned twice", loc);
    check_volume(shape, "external '" + statement_ + "'", loc);
    const int64_t id = model_.graph.add(fresh_name("external"), InputAttrs{shape, kind}, {}, at(loc));
    t.ref = ValueRef{id, 0};
    tensors_.push_back(std::move(t));
    return {Value::of_tensor(tensors_.size() - 1)};
  }
  if (f.name == "constant") {
    check_volume(shape, "constant '" + statement_ + "'", loc);
    const std::vector<Value>& values = args.at("value").items;
    const int64_t n = checked_element_count(shape);
    if (static_cast<int64_t>(values.size()) != n && values.size() != 1)
      fail("nnef.constant.value-count", "constant '" + statement_ + "' of shape " + dims_str(shape) + " has " +
                                            std::to_string(values.size()) + " values: it needs " + std::to_string(n) +
                                            " or 1", loc);
    ParamEntry e{HostTensor{DType::F64, shape_from(shape), {}}, "graph.nnef"};
    for (int64_t k = 0; k < n; ++k) {
      const Real r = real_of(values[values.size() == 1 ? 0 : static_cast<size_t>(k)], loc);
      e.tensor.values.push_back(r.value);
      e.decimals.push_back(r.decimal.empty() ? exact_decimal(r.value) : r.decimal);
    }
    t.data = std::move(e);
    t.is_literal = true;
    t.identifier = statement_;
    tensors_.push_back(std::move(t));
    return {Value::of_tensor(tensors_.size() - 1)};
  }
  // variable
  const std::string label = args.at("label").s;
  if (!valid_label(label))
    fail("nnef.label.invalid", "variable '" + statement_ + "' has label '" + label + "': a label is not empty and has only "
                               "letters, digits, _ - . / and \\", loc);
  check_volume(shape, "variable '" + statement_ + "'", loc);
  const auto [it, fresh] = labels_.emplace(lower(label), std::make_pair(label, shape));
  if (!fresh && it->second.second != shape)
    fail("nnef.label.shape-conflict", "variable '" + statement_ + "' has label '" + label + "' and shape " + dims_str(shape) +
                                          ", but label '" + it->second.first + "' (the same, ignoring case) has shape " +
                                          dims_str(it->second.second), loc);
  variable_bytes_ += checked_element_count(shape) * 8;
  if (variable_bytes_ > max_memory_)
    fail("nnef.size.over-budget", "the variables declared up to '" + statement_ + "' hold " +
                                      std::to_string(variable_bytes_) + " bytes (8 an element), over the memory budget of " +
                                      std::to_string(max_memory_) + " bytes", loc);
  VariableData data = loader_(label, shape, kind, statement_, at(loc));
  if (data.tensor) t.data = ParamEntry{std::move(*data.tensor), data.source};
  t.dequantized = data.dequantized;
  t.label = label;
  tensors_.push_back(std::move(t));
  return {Value::of_tensor(tensors_.size() - 1)};
}

std::optional<ElemKind> Composer::generic_kind() const {
  if (frames_.empty() || !frames_.back().generic || *frames_.back().generic == Type::Kind::String) return std::nullopt;
  return elem_kind(*frames_.back().generic);
}

std::string Composer::fresh_name(const std::string& op, std::string base) {
  if (base.empty()) base = statement_.empty() ? op : statement_;
  if (names_.insert(base).second) return base;
  base += "/" + op;
  std::string name = base;
  for (int k = 2; !names_.insert(name).second; ++k) name = base + "_" + std::to_string(k);
  return name;
}

void Composer::name_statement_results(const Expr& lhs, const Scope& scope) {
  std::vector<std::string> identifiers;
  const std::function<void(const Expr&)> collect = [&](const Expr& e) {
    if (e.kind == Expr::Kind::Ident) identifiers.push_back(e.text);
    for (const auto& item : e.items) collect(*item);
  };
  collect(lhs);
  const auto made = [&](int64_t id) {
    for (const auto& [n, op] : statement_nodes_)
      if (n == id) return true;
    return false;
  };
  std::set<int64_t> named;  // nodes that already carry one of the statement's identifiers
  for (const std::string& identifier : identifiers) {
    const auto value = scope.find(identifier);
    if (value == scope.end() || value->second.kind != Value::Kind::Tensor) continue;
    const std::optional<ValueRef>& result = tensors_[value->second.tensor].ref;
    // A node made earlier, or one already named for an earlier identifier (a, b = split(...)),
    // keeps its name.
    if (!result || !made(result->node) || named.count(result->node)) continue;
    named.insert(result->node);
    const std::vector<Node>& nodes = model_.graph.nodes;
    if (nodes[static_cast<size_t>(result->node)].name == identifier) continue;
    // The statement's first node was named after the first identifier: it takes an "id/op" name.
    for (const auto& [first, op] : statement_nodes_)
      if (nodes[static_cast<size_t>(first)].name == identifier) {
        rename_node(first, fresh_name(op));
        break;
      }
    rename_node(result->node, identifier);
  }
}

void Composer::rename_node(int64_t id, const std::string& name) {
  Node& n = model_.graph.nodes[static_cast<size_t>(id)];
  const std::string old = n.name;
  n.name = name;
  model_.payload.rename(old, name);
  std::map<std::pair<std::string, std::string>, std::string> keys;
  for (auto& [key, value] : model_.param_keys) {
    if (key.first != old) {
      keys.emplace(key, std::move(value));
      continue;
    }
    const bool own = value == old + "." + key.second;  // a literal's key names its node (bind_param)
    keys.emplace(std::pair{name, key.second}, own ? name + "." + key.second : std::move(value));
  }
  model_.param_keys = std::move(keys);
  names_.insert(name);
}

Value Composer::literal_tensor(const Real& v, ElemKind kind, const SourceLoc& loc) {
  TensorInfo t;
  t.kind = kind;
  t.shape = {1};
  t.is_literal = true;
  t.loc = at(loc);
  t.data = ParamEntry{HostTensor{DType::F64, Shape::of({1}), {v.value}}, "graph.nnef",
                      {v.decimal.empty() ? exact_decimal(v.value) : v.decimal}};
  tensors_.push_back(std::move(t));
  return Value::of_tensor(tensors_.size() - 1);
}

Value Composer::literal_tensor(const std::vector<double>& values, const std::vector<int64_t>& shape,
                               const SourceLoc& loc, ElemKind kind) {
  TensorInfo t;
  t.kind = kind;
  t.shape = shape;
  t.is_literal = true;
  t.loc = at(loc);
  t.data = ParamEntry{HostTensor{DType::F64, shape_from(shape), values}, "graph.nnef"};
  tensors_.push_back(std::move(t));
  return Value::of_tensor(tensors_.size() - 1);
}

// A primitive as the real a tensor of its kind holds (logical values as 0 and 1); an integer must be
// one a double holds exactly.
Real Composer::real_of(const Value& v, const SourceLoc& loc) {
  if (v.kind == Value::Kind::Scalar) return v.r;
  if (v.kind == Value::Kind::Logical) return Real(v.b ? 1.0 : 0.0);
  constexpr int64_t kExact = int64_t{1} << 53;
  if (v.i > kExact || v.i < -kExact)
    fail("nnef.literal.range", "the integer " + std::to_string(v.i) + " in a tensor: nnref holds tensor items as "
                               "doubles, exact up to 2^53 in magnitude", loc);
  return Real(static_cast<double>(v.i), std::to_string(v.i));
}

ValueRef Composer::materialise(const Value& v) {
  TensorInfo& t = tensors_[v.tensor];
  if (t.ref) return *t.ref;
  const std::string name = fresh_name("constant", t.label.empty() ? t.identifier : t.label);
  const int64_t id = model_.graph.add(name, ConstAttrs{t.shape, t.kind}, {}, t.loc);
  statement_nodes_.emplace_back(id, "constant");
  if (t.data) {
    ParamEntry e = *t.data;
    if (t.kind != ElemKind::Real) e.tensor.dtype = DType::F64;  // items held as reals, as every parameter (spec/ops/const.hpp)
    model_.payload.set(name, "value", std::move(e));
  }
  model_.param_keys[{name, "value"}] = t.label.empty() ? name : t.label;
  t.ref = ValueRef{id, 0};
  return *t.ref;
}

bool Composer::bind_param(const Value& tensor, const std::string& role, const std::vector<int64_t>& shape) {
  const TensorInfo& t = tensors_[tensor.tensor];
  if (t.label.empty() && !t.is_literal) return false;
  const std::string& node = model_.graph.nodes.back().name;
  model_.param_keys[{node, role}] = t.label.empty() ? node + "." + role : t.label;
  if (!t.data) return true;  // a variable whose data was not read
  ParamEntry e = *t.data;
  const int64_t n = checked_element_count(shape);
  if (static_cast<int64_t>(e.tensor.values.size()) == n) {
    e.tensor.shape = shape_from(shape);
  } else if (e.tensor.values.size() == 1 && n > 0) {
    e.tensor = HostTensor{e.tensor.dtype, shape_from(shape), std::vector<double>(static_cast<size_t>(n), e.tensor.values[0])};
    if (!e.decimals.empty()) e.decimals.assign(static_cast<size_t>(n), e.decimals[0]);
  }  // otherwise as it is: the binding check reports the shape, naming the label
  model_.payload.set(node, role, std::move(e));
  return true;
}

std::vector<Value> Composer::add_node(const std::string& op, OpAttrs attrs, const std::vector<Value>& inputs,
                                      const SourceLoc& loc) {
  std::vector<ValueRef> refs;
  std::vector<ElemKind> kinds;
  std::vector<Dims<CDim>> dims;
  for (const Value& v : inputs) {
    refs.push_back(materialise(v));
    const TensorInfo& t = tensors_[v.tensor];
    kinds.push_back(t.kind);
    dims.emplace_back(t.shape.begin(), t.shape.end());
  }
  ConcreteSink sink;
  const auto out = node_obligations<CDim>(attrs, kinds, dims, sink);
  if (!sink.ok()) {
    const Failure& first = sink.failures()[0];
    fail(std::string(first.obligation->code), op + ": " + first.message + " (at the sizes the document declares)", loc);
  }
  if (!out) fail("nnef.internal", op + ": the shape rule gave no result", loc);
  const ElemKind result = std::visit([](const auto& a) { return op_signature(a).result; }, attrs);
  const int64_t id = model_.graph.add(fresh_name(op), std::move(attrs), std::move(refs), at(loc));
  statement_nodes_.emplace_back(id, op);
  std::vector<Value> values;
  for (size_t k = 0; k < out->outputs.size(); ++k) {
    TensorInfo t;
    t.ref = ValueRef{id, static_cast<int>(k)};
    for (const CDim& d : out->outputs[k]) t.shape.push_back(d.v);
    t.kind = result;
    t.loc = at(loc);
    tensors_.push_back(std::move(t));
    values.push_back(Value::of_tensor(tensors_.size() - 1));
  }
  return values;
}

}  // namespace nnref::nnef
