// Each IR op as the standard SkriptND operator that native.cpp maps onto it, with the attributes
// its definition needs to compute the same formula: the padding placed explicitly, the operands'
// alignment (lhs_align, rhs_align) for NNEF's left-aligned broadcasting, transposes around a
// channels-last window. Parameters are @variables with .dat files in their own width; the size
// names that are identifiers are int graph attributes, which the reader takes as size names.
#include "formats/nnef2_model/writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "formats/nnef/dat.hpp"
#include "formats/write_support.hpp"
#include "semantics/size_names.hpp"
#include "spec/ops/pad.hpp"
#include "spec/ops/range.hpp"
#include "spec/ops/slice.hpp"

namespace nnref {

namespace {

namespace fs = std::filesystem;
using convert::unexpressible;

constexpr std::string_view kFormat = "NNEF 2.0";

// Names a tensor cannot take: keywords, type names and built-ins (which read as a cast or a call
// before '('), and the standard modules (which an invocation names).
bool reserved(const std::string& id) {
  static const std::set<std::string> words = {
      "version", "extension", "import", "public", "operator", "graph", "optional", "if",    "then",  "elif",
      "else",    "for",       "while",  "do",     "unroll",   "with",  "yield",    "is",    "in",    "true",
      "false",   "inf",       "pi",     "type",   "arith",    "num",   "int",      "real",  "bool",  "str",
      "abs",     "sign",      "sqrt",   "exp",    "log",      "sin",   "cos",      "tan",   "asin",  "acos",
      "atan",    "sinh",      "cosh",   "tanh",   "asinh",    "acosh", "atanh",    "ceil",  "floor", "round",
      "erf",     "frac",      "layout", "math",   "linalg",   "nn",    "image",    "quant", "algo"};
  return words.count(id) > 0;
}

// A SkriptND identifier for a name: letters, digits and '_', not starting with a digit, not
// reserved.
std::string identifier_for(const std::string& name) { return convert::identifier(name, reserved); }

// The shortest decimal that reads back as the same double (the reader takes the nearest double),
// with a '.' or an exponent so that it is a real literal.
std::optional<std::string> real_literal(double v) {
  if (std::isnan(v)) return std::nullopt;
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::string s(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string list(const std::vector<int64_t>& v) { return convert::int_list(v); }
std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

const char* unary_operator(UnaryOp op) {
  static const std::map<UnaryOp, const char*> names = {
      {UnaryOp::Copy, "math.iden"},   {UnaryOp::Neg, "math.neg"},       {UnaryOp::Rcp, "math.rcp"},
      {UnaryOp::Sqr, "math.sqr"},     {UnaryOp::Sqrt, "math.sqrt"},     {UnaryOp::Rsqr, "math.rsqr"},
      {UnaryOp::Rsqrt, "math.rsqrt"}, {UnaryOp::Exp, "math.exp"},       {UnaryOp::Log, "math.log"},
      {UnaryOp::Log2, "math.log2"},   {UnaryOp::Sin, "math.sin"},       {UnaryOp::Cos, "math.cos"},
      {UnaryOp::Tan, "math.tan"},     {UnaryOp::Sinh, "math.sinh"},     {UnaryOp::Cosh, "math.cosh"},
      {UnaryOp::Tanh, "math.tanh"},   {UnaryOp::Asin, "math.asin"},     {UnaryOp::Acos, "math.acos"},
      {UnaryOp::Atan, "math.atan"},   {UnaryOp::Asinh, "math.asinh"},   {UnaryOp::Acosh, "math.acosh"},
      {UnaryOp::Atanh, "math.atanh"}, {UnaryOp::Abs, "math.abs"},       {UnaryOp::Sign, "math.sign"},
      {UnaryOp::Floor, "math.floor"}, {UnaryOp::Ceil, "math.ceil"},     {UnaryOp::Round, "math.round"},
      {UnaryOp::Relu, "nn.relu"},     {UnaryOp::Sigmoid, "nn.sigmoid"}, {UnaryOp::Softplus, "nn.softplus"},
      {UnaryOp::Erf, "nn.erf"}};
  const auto it = names.find(op);
  return it == names.end() ? nullptr : it->second;
}

const char* binary_operator(BinaryOp op) {
  static const std::map<BinaryOp, const char*> names = {{BinaryOp::Add, "math.add"}, {BinaryOp::Sub, "math.sub"},
                                                        {BinaryOp::Mul, "math.mul"}, {BinaryOp::Div, "math.div"},
                                                        {BinaryOp::Pow, "math.pow"}, {BinaryOp::Min, "math.min"},
                                                        {BinaryOp::Max, "math.max"}};
  const auto it = names.find(op);
  return it == names.end() ? nullptr : it->second;
}

// The size names written as int graph attributes, with their values: those that are identifiers and
// name extents of one value at the written sizes (`batch`, an ONNX dim_param `N`); the others
// (`input.2`) the reader gives again by its own rule to the literal extents.
std::map<std::string, int64_t> size_attributes(const Model& m, const Graph& g) {
  std::map<std::string, int64_t> values;
  std::set<std::string> left_out;
  for (const SizeName& s : m.size_names) {
    const int64_t v = std::get<InputAttrs>(g.nodes[static_cast<size_t>(s.node)].op).dims[s.axis];
    const auto [it, added] = values.emplace(s.name, v);
    if (identifier_for(s.name) != s.name || (!added && it->second != v)) left_out.insert(s.name);
  }
  for (const Node& n : g.nodes)  // an input of that name would be declared twice
    if (std::holds_alternative<InputAttrs>(n.op)) left_out.insert(identifier_for(n.name));
  for (const std::string& n : left_out) values.erase(n);
  return values;
}

// Every value's shapes again with one size attribute one larger (the others as written), per
// attribute; an attribute whose shapes cannot be inferred there is left out.
std::vector<std::pair<std::string, GraphInfo>> moved_shapes(const Model& m, const Graph& g,
                                                            const std::map<std::string, int64_t>& attributes) {
  std::vector<std::pair<std::string, GraphInfo>> out;
  for (const auto& [name, value] : attributes) {
    Graph moved = g;
    if (!set_input_extents(moved, m.size_names, {{name, value + 1}})) continue;
    Result<GraphInfo> info = infer_shapes(moved);
    if (info) out.emplace_back(name, std::move(info).value());
  }
  return out;
}

// The SkriptND type of a tensor of this kind.
const char* type_name(ElemKind k) { return k == ElemKind::Integer ? "int" : k == ElemKind::Logical ? "bool" : "real"; }

const char* compare_operator(CompareOp op) {
  static const std::map<CompareOp, const char*> names = {{CompareOp::Lt, "math.lt"}, {CompareOp::Gt, "math.gt"},
                                                         {CompareOp::Le, "math.le"}, {CompareOp::Ge, "math.ge"},
                                                         {CompareOp::Eq, "math.eq"}, {CompareOp::Ne, "math.ne"}};
  return names.at(op);
}

// The operators of int tensors that compute the IR's integer ops (math.mod floors, as the IR's Mod).
const char* integer_operator(IntegerOp op) {
  static const std::map<IntegerOp, const char*> names = {{IntegerOp::Add, "math.add"}, {IntegerOp::Sub, "math.sub"},
                                                         {IntegerOp::Mul, "math.mul"}, {IntegerOp::Mod, "math.mod"},
                                                         {IntegerOp::Min, "math.min"}, {IntegerOp::Max, "math.max"}};
  const auto it = names.find(op);
  return it == names.end() ? nullptr : it->second;
}

struct VariableFile {
  std::string name;
  std::string bytes;  // the .dat file
};

class Emitter {
 public:
  Emitter(const Model& m, const convert::Prepared& p)
      : m_(m),
        g_(p.graph),
        info_(p.info),
        sizes_(size_attributes(m, p.graph)),
        moved_(moved_shapes(m, p.graph, sizes_)) {
    for (const auto& [name, value] : sizes_) used_.insert(name);
    for (const Node& n : g_.nodes)
      if (std::holds_alternative<InputAttrs>(n.op)) used_.insert(identifier_for(n.name));
    for (const GraphOutput& o : g_.outputs) outputs_.push_back({o.name, typed(o)});
    for (const GraphOutput& o : outputs_) {
      const std::string id = identifier_for(o.name);
      // The value takes the output's name unless an input has it (then `output = input;`).
      if (used_.insert(id).second) output_names_.emplace(std::pair{o.value.node, o.value.output}, id);
    }
  }

  void run() {
    names_.resize(g_.nodes.size());
    for (const Node& n : g_.nodes) {
      for (size_t k = 0; k < info_.nodes[static_cast<size_t>(n.id)].outputs.size(); ++k) {
        const auto out = output_names_.find({n.id, static_cast<int>(k)});
        names_[static_cast<size_t>(n.id)].push_back(out != output_names_.end() ? out->second
                                                    : std::holds_alternative<InputAttrs>(n.op)
                                                        ? identifier_for(n.name)
                                                        : fresh(identifier_for(n.name)));
      }
      if (!unwritten_.count(n.id)) std::visit([&](const auto& a) { node(n, a); }, n.op);
    }
    for (const GraphOutput& o : outputs_) output(o);
  }

  std::string document(const std::string& graph) const {
    std::ostringstream d;
    d << "version 2.0;\n";
    // A graph that invokes no operator (its outputs are variables or inputs) imports nothing.
    if (!imports_.empty()) {
      d << "import";
      for (const std::string& m : imports_) d << " " << m;
      d << ";\n";
    }
    d << operators_.str();
    d << "\ngraph " << graph << " {\n";
    if (!sizes_.empty()) {
      d << "    @attrib {\n";
      for (const auto& [name, value] : sizes_) d << "        " << name << ": int = " << value << ";\n";
      d << "    }\n";
    }
    d << "    @input {\n" << inputs_.str() << "    }\n";
    d << "    @output {\n" << declared_outputs_.str() << "    }\n";
    if (!files_.empty()) d << "    @variable {\n" << variables_.str() << "    }\n";
    d << "    @compose {\n" << compose_.str() << "    }\n}\n";
    return d.str();
  }
  const std::vector<VariableFile>& files() const { return files_; }

 private:
  std::string fresh(const std::string& base) {
    std::string id = base;
    for (int k = 2; !used_.insert(id).second; ++k) id = base + "_" + std::to_string(k);
    return id;
  }
  void line(const std::string& lhs, const std::string& rhs) { compose_ << "        " << lhs << " = " << rhs << ";\n"; }
  std::string call(const std::string& op, const std::vector<std::string>& attributes, const std::string& args) {
    imports_.insert(op.substr(0, op.find('.')));
    return op + (attributes.empty() ? "" : "{" + join(attributes) + "}") + "(" + args + ")";
  }
  void result(const Node& n, const std::string& rhs) { line(names_[static_cast<size_t>(n.id)][0], rhs); }
  // A helper tensor of node n: "<n>_<what> = rhs;".
  std::string helper(const Node& n, const std::string& what, const std::string& rhs) {
    const std::string id = fresh(identifier_for(n.name) + "_" + what);
    line(id, rhs);
    return id;
  }

  std::string value(ValueRef r) const { return names_[static_cast<size_t>(r.node)][static_cast<size_t>(r.output)]; }
  const std::vector<int64_t>& shape(ValueRef r) const {
    return info_.nodes[static_cast<size_t>(r.node)].outputs[static_cast<size_t>(r.output)].dims();
  }
  const std::vector<int64_t>& out_shape(const Node& n) const { return shape({n.id, 0}); }
  // The extents of value r, each the size attribute it follows (its value at the written sizes, and
  // one more where the attribute is one more: check --dim then proves the graph for a range) or its
  // number: "[batch, 1000]".
  std::string extents(ValueRef r) const {
    std::vector<std::string> out;
    for (size_t k = 0; k < shape(r).size(); ++k) {
      const int64_t at = shape(r)[k];
      std::string e = std::to_string(at);
      for (const auto& [name, info] : moved_)
        if (at == sizes_.at(name) &&
            info.nodes[static_cast<size_t>(r.node)].outputs[static_cast<size_t>(r.output)].dims()[k] == at + 1) {
          e = name;
          break;
        }
      out.push_back(e);
    }
    return "[" + join(out) + "]";
  }

  std::string real(const Node& n, const Real& r, const std::string& what) {
    const auto s = real_literal(r.value);
    if (!s) unexpressible(kFormat, n, what + " is NaN, which no SkriptND literal denotes");
    return *s;
  }
  ElemKind kind(ValueRef r) const { return info_.nodes[static_cast<size_t>(r.node)].kind; }
  void require_real(const Node& n, ElemKind kind) {
    if (kind != ElemKind::Real)
      unexpressible(kFormat, n,
                    std::string("its tensors are ") + elem_kind_name(kind) +
                        ": nnref's NNEF 2.0 reader composes real tensors only");
  }

  // A variable holding this tensor at `extents` (the same values in row-major order), in its own
  // .dat file (reals in their own width, ints as 64-bit signed items, bools as bytes): `id` is its
  // name, or a fresh one from `base`.
  std::string declare_variable(const std::string& id, HostTensor t, const std::vector<int64_t>& extents,
                               ElemKind kind = ElemKind::Real) {
    variables_ << "        " << id << ": " << type_name(kind) << list(extents) << ";\n";
    t.shape = Shape::make(extents).value();
    const auto items = kind == ElemKind::Integer ? nnef::ItemType::Signed : nnef::ItemType::Bool;
    files_.push_back({id, kind == ElemKind::Real ? nnef::write_dat(t)
                                                 : nnef::write_dat(extents, t.values, items,
                                                                   kind == ElemKind::Integer ? 64 : 8)});
    return id;
  }
  std::string variable(const std::string& base, HostTensor t, const std::vector<int64_t>& extents) {
    return declare_variable(fresh(base), std::move(t), extents);
  }
  const ParamEntry& stored(const Node& n, const std::string& role) {
    const ParamEntry* e = m_.payload.find(n.name, role);
    if (!e)
      unexpressible(kFormat, n, "its parameter '" + role + "' has no value (the model was loaded without weights)");
    return *e;
  }
  std::string param(const Node& n, const std::string& role, const std::vector<int64_t>& extents) {
    return variable(identifier_for(n.name) + "_" + role, stored(n, role).tensor, extents);
  }

  // x op y, aligned as the IR's broadcast aligns them: NumPy's right alignment is the definition's
  // default; NNEF's left alignment places the shorter operand at axis 0 (lhs_align, rhs_align).
  std::string broadcast(const std::string& op, const std::string& x, size_t rx, const std::string& y, size_t ry,
                        Broadcast b) {
    std::vector<std::string> attributes;
    if (b == Broadcast::NnefLeft && rx != ry) attributes.push_back(rx < ry ? "lhs_align=0" : "rhs_align=0");
    return call(op, attributes, x + ", " + y);
  }
  std::string transposed(const Node& n, const std::string& x, const std::vector<int64_t>& perm) {
    return helper(n, "transposed", call("layout.transpose", {"perm=" + list(perm)}, x));
  }

  // ---- operators the document defines ----
  // An op no standard operator computes with the IR's formula is an operator of the document, defined
  // at its node's shapes and run by the reader from its @lower body (a contract op, which holds at
  // these sizes only): inputs x0, x1, … and the output y, the loop indices i0, i1, … over y's extents.
  struct Lowered {
    std::string with;   // "with a = …, b = …:" or empty
    std::string value;  // of y[i0, …]
  };
  std::string define(const Node& n, const std::vector<std::string>& lowerings) {
    const std::string name = fresh(identifier_for(n.name) + "_op");
    operators_ << "\noperator " << name << " {\n";
    if (!n.inputs.empty()) {
      operators_ << "    @input {\n";
      for (size_t k = 0; k < n.inputs.size(); ++k)
        operators_ << "        x" << k << ": " << type_name(kind(n.inputs[k])) << list(shape(n.inputs[k])) << ";\n";
      operators_ << "    }\n";
    }
    operators_ << "    @output {\n        y: " << type_name(kind({n.id, 0})) << list(out_shape(n)) << ";\n    }\n";
    operators_ << "    @lower {\n";
    for (const std::string& l : lowerings) operators_ << "        " << l << ";\n";
    operators_ << "    }\n}\n";
    return name;
  }
  // "i0, i1, …" for a rank, and the loops "i0 < e0, i1 < e1, …" over extents.
  static std::string indices(size_t rank) {
    std::vector<std::string> out;
    for (size_t k = 0; k < rank; ++k) out.push_back("i" + std::to_string(k));
    return join(out);
  }
  static std::string loops(const std::vector<int64_t>& extents) {
    std::vector<std::string> out;
    for (size_t k = 0; k < extents.size(); ++k) out.push_back("i" + std::to_string(k) + " < " + std::to_string(extents[k]));
    return out.empty() ? "" : ", " + join(out);
  }
  // Input k read at the output's point y[i0, …], aligned as the IR broadcasts it: an extent 1 where
  // the output's is not is read at 0.
  std::string at_point(const Node& n, size_t k, Broadcast b) const {
    const std::vector<int64_t>& x = shape(n.inputs[k]);
    const std::vector<int64_t>& y = out_shape(n);
    const size_t first = b == Broadcast::NnefLeft ? 0 : y.size() - x.size();
    std::vector<std::string> index;
    for (size_t a = 0; a < x.size(); ++a)
      index.push_back(x[a] == 1 && y[first + a] != 1 ? "0" : "i" + std::to_string(first + a));
    return "x" + std::to_string(k) + "[" + join(index) + "]";
  }
  // An int64 value as the IR's narrower int type holds it (spec/integer_arith.hpp, wrapped): modulo
  // 2^bits by §2.4's floor remainder, shifted by 2^(bits−1) when signed.
  static std::string wrapped_to(IntegerType t, const std::string& v) {
    const int bits = bits_of(t.width);
    if (bits == 64) return v;
    const std::string modulus = std::to_string(int64_t{1} << bits), half = std::to_string(int64_t{1} << (bits - 1));
    return t.is_signed ? "(" + v + " + " + half + ") % " + modulus + " - " + half : "(" + v + ") % " + modulus;
  }
  // y[i0, …] = value at every point of the output, an element-wise op of the document.
  void elementwise(const Node& n, const Lowered& l) {
    const std::string lowering = l.with + "y[" + indices(out_shape(n).size()) + "] = " + l.value + loops(out_shape(n));
    std::vector<std::string> args;
    for (ValueRef r : n.inputs) args.push_back(value(r));
    result(n, define(n, {lowering}) + "(" + join(args) + ")");
  }

  // ---- one function per op ----

  void node(const Node& n, const InputAttrs& a) {
    inputs_ << "        " << value({n.id, 0}) << ": " << type_name(a.kind) << extents({n.id, 0}) << ";\n";
  }

  // A constant is a variable of its name: its .dat file holds its values bit for bit. A graph output
  // is a component, `output = variable;`.
  void node(const Node& n, const ConstAttrs& a) {
    const std::vector<std::string>& names = names_[static_cast<size_t>(n.id)];
    if (output_names_.count({n.id, 0}))
      return line(names[0], declare_variable(fresh(identifier_for(n.name)), stored(n, "value").tensor, a.dims, a.kind));
    declare_variable(names[0], stored(n, "value").tensor, a.dims, a.kind);
  }

  void node(const Node& n, const UnaryAttrs& a) {
    const std::string x = value(n.inputs[0]);
    if (a.op == UnaryOp::Elu) return result(n, call("nn.elu", {"alpha=" + real(n, a.alpha, "alpha")}, x));
    if (a.op == UnaryOp::LeakyRelu) {
      // nn.relu's alpha is max(x, alpha·x), leaky_relu's formula for the alphas its @assert allows.
      // Another alpha (nn.relu's @assert refuses it): the IR's formula as an operator of the document.
      if (!(a.alpha.value >= 0.0 && a.alpha.value <= 1.0)) {
        const std::string at = "x0[" + indices(out_shape(n).size()) + "]";
        return elementwise(n, {"", at + " < 0.0 ? (" + real(n, a.alpha, "alpha") + ") * " + at + " : " + at});
      }
      return result(n, call("nn.relu", {"alpha=" + real(n, a.alpha, "alpha")}, x));
    }
    if (a.op == UnaryOp::RoundEven) return round_even(n);
    const char* op = unary_operator(a.op);
    if (!op)
      unexpressible(kFormat, n,
                    "no standard operator rounds to float16 or bfloat16, and SkriptND has no cast to either");
    result(n, call(op, {}, x));
  }
  // math.round is ⌊x + ½⌋; halves to even, from r = ⌊x⌋ and d = x − r (both exact): r + 1 where
  // d > ½, or d = ½ and r is odd (r % 2, exact for a whole r), else r; a zero result takes x's sign,
  // as nearbyint's does (x · 0).
  void round_even(const Node& n) {
    const std::string x = "x0[" + indices(out_shape(n).size()) + "]";
    elementwise(n, {"with r = floor(" + x + "), d = " + x + " - r, v = (d > 0.5 || (d == 0.5 && r % 2.0 != 0.0)) ? " +
                        "r + 1.0 : r: ",
                    "v == 0.0 ? " + x + " * 0.0 : v"});
  }

  void node(const Node& n, const BinaryAttrs& a) {
    const char* op = binary_operator(a.op);
    if (!op)
      unexpressible(kFormat, n,
                    "math.mod's remainder takes the divisor's sign, fmod's the dividend's, and SkriptND has no exact "
                    "remainder of reals (% is x - y * floor(x / y), each step rounded)");
    result(n, broadcast(op, value(n.inputs[0]), shape(n.inputs[0]).size(), value(n.inputs[1]),
                        shape(n.inputs[1]).size(), a.broadcast));
  }

  // Two operands are math.add; more are math.sum_n, which sums them whole as add_n does.
  void node(const Node& n, const AddNAttrs&) {
    std::vector<std::string> xs;
    for (ValueRef r : n.inputs) xs.push_back(value(r));
    if (xs.size() == 1) return result(n, call("math.iden", {}, xs[0]));
    if (xs.size() == 2) return result(n, call("math.add", {}, join(xs)));
    result(n, call("math.sum_n", {}, "[" + join(xs) + "]"));
  }

  // clamp(x, a, b) is max(min(x, b), a), also where a > b (NNEF 1.0's clamp, which gives a there;
  // math.clamp gives b).
  void node(const Node& n, const ClampAttrs& a) {
    const size_t rx = shape(n.inputs[0]).size(), rb = shape(n.inputs[2]).size();
    const std::string upper =
        helper(n, "upper", broadcast("math.min", value(n.inputs[0]), rx, value(n.inputs[2]), rb, a.broadcast));
    result(n,
           broadcast("math.max", upper, std::max(rx, rb), value(n.inputs[1]), shape(n.inputs[1]).size(), a.broadcast));
  }

  // nn.prelu's slope is one real per index of one axis: the IR slope aligned to the input's rank
  // has extents 1 on every axis but that one. A single slope (every extent 1) is made one per index
  // of axis 1 (0 for a rank-1 input): a variable of ones times it, exactly the slope everywhere.
  void node(const Node& n, const PreluAttrs& a) {
    const std::vector<int64_t>& x = shape(n.inputs[0]);
    std::vector<int64_t> slope = shape(n.inputs[1]);
    if (x.empty() || slope.size() > x.size()) return any_prelu(n, a);
    slope.insert(a.broadcast == Broadcast::NnefLeft ? slope.end() : slope.begin(), x.size() - slope.size(), 1);
    std::vector<size_t> varying;
    for (size_t k = 0; k < x.size(); ++k)
      if (slope[k] != 1) varying.push_back(k);
    const size_t axis = varying.empty() ? (x.size() >= 2 ? 1 : 0) : varying[0];
    if (varying.size() > 1 || (!varying.empty() && slope[axis] != x[axis])) return any_prelu(n, a);
    std::string alpha = value(n.inputs[1]);
    if (shape(n.inputs[1]).size() != 1)
      alpha = helper(n, "alpha", view(alpha, shape(n.inputs[1]).empty(), list({slope[axis]}), 1));
    if (varying.empty() && x[axis] != 1) {
      const HostTensor ones{DType::F64, Shape::make({x[axis]}).value(),
                            std::vector<double>(static_cast<size_t>(x[axis]), 1.0)};
      alpha = helper(n, "slopes",
                     call("math.mul", {}, variable(identifier_for(n.name) + "_ones", ones, {x[axis]}) + ", " + alpha));
    }
    result(n, call("nn.prelu", {"axis=" + std::to_string(axis)}, value(n.inputs[0]) + ", " + alpha));
  }

  // A slope nn.prelu does not take (one per index of one axis of a tensor): the IR's formula, x < 0 ?
  // slope · x : x, each operand read as the IR broadcasts it, as an operator of the document.
  void any_prelu(const Node& n, const PreluAttrs& a) {
    const std::string x = at_point(n, 0, a.broadcast);
    elementwise(n, {"", x + " < 0.0 ? " + at_point(n, 1, a.broadcast) + " * " + x + " : " + x});
  }

  // nn.linear's filter is [n, c]: an IR weight [c, n] is written transposed.
  void node(const Node& n, const LinearAttrs& a) {
    convert::require_stored_params(kFormat, g_, n);
    const ParamEntry& w = stored(n, "weight");
    const int64_t in = shape(n.inputs[0])[1];
    HostTensor t = w.tensor;
    if (a.layout == WeightLayout::InOut)
      for (int64_t u = 0; u < a.units; ++u)
        for (int64_t i = 0; i < in; ++i)
          t.values[static_cast<size_t>(u * in + i)] = w.tensor.values[static_cast<size_t>(i * a.units + u)];
    std::string args =
        value(n.inputs[0]) + ", " + variable(identifier_for(n.name) + "_weight", std::move(t), {a.units, in});
    if (a.has_bias) args += ", " + param(n, "bias", {a.units});
    result(n, call("nn.linear", {}, args));
  }

  void node(const Node& n, const MatMulAttrs& a) {
    std::vector<std::string> attributes;
    if (a.transpose_a) attributes.push_back("transA=true");
    if (a.transpose_b) attributes.push_back("transB=true");
    result(n, call("linalg.matmul", attributes, value(n.inputs[0]) + ", " + value(n.inputs[1])));
  }

  // The definitions' windows are channels first (NCX; the pools over axes [2, d)): a channels-last
  // input is transposed there and back.
  template <class A>
  void windowed(const Node& n, const A& a, const std::string& op, const std::vector<std::string>& attributes,
                const std::string& more_args, const std::vector<int64_t>& zeros_around = {}) {
    const size_t rank = shape(n.inputs[0]).size();
    const bool last = a.layout == Layout::ChannelsLast;
    std::string x = value(n.inputs[0]);
    if (last) x = transposed(n, x, convert::to_channels_first(rank));
    if (!zeros_around.empty()) x = helper(n, "padded", call("layout.pad", {"padding=" + list(zeros_around)}, x));
    const std::string rhs = call(op, attributes, x + more_args);
    if (!last) return result(n, rhs);
    result(n, call("layout.transpose", {"perm=" + list(convert::to_channels_last(rank))},
                   helper(n, "channels_first", rhs)));
  }
  // The padding placed explicitly, [before..., after...] per spatial axis (floor mode: a ceil
  // mode's overhang is padding after, convert::explicit_padding).
  template <class A>
  std::vector<int64_t> spatial_padding(const Node& n, const A& a) {
    const std::vector<int64_t>& in = shape(n.inputs[0]);
    const size_t first = window::first_spatial_axis(a.layout), k = a.kernel.size();
    const std::vector<int64_t> spatial(in.begin() + static_cast<long>(first),
                                       in.begin() + static_cast<long>(first + k));
    std::vector<int64_t> before, after;
    for (const auto& [b, e] : convert::explicit_padding(a, spatial)) {
      if (b < 0 || e < 0)
        unexpressible(kFormat, n,
                      "its padding (" + std::to_string(b) + ", " + std::to_string(e) +
                          ") crops the input, which nnref's reader of NNEF 2.0 refuses (nnef2.native.cropping)");
      before.push_back(b), after.push_back(e);
    }
    before.insert(before.end(), after.begin(), after.end());
    return before;
  }
  template <class A>
  static std::vector<std::string> window_attributes(const A& a, const std::vector<int64_t>& padding) {
    const size_t k = a.kernel.size();
    return {"padding=" + list(padding), "stride=" + list(convert::or_ones(a.stride, k)),
            "dilation=" + list(convert::or_ones(a.dilation, k))};
  }

  void node(const Node& n, const ConvAttrs& a) {
    convert::require_stored_params(kFormat, g_, n);
    std::vector<std::string> attributes = window_attributes(a, spatial_padding(n, a));
    attributes.push_back("groups=" + std::to_string(a.groups));
    std::string args = ", " + param(n, "weight", stored(n, "weight").tensor.shape.dims());
    if (a.has_bias) args += ", " + param(n, "bias", {a.out_channels});
    windowed(n, a, "nn.conv", attributes, args);
  }

  // nn.deconv's padding [p..., q...] is the IR's (p, q) of any sign: its offset p and extent
  // (ix − 1)·s + fd − p − q are the IR's; the filter [C, M/G, k...] is the IR's weight.
  void node(const Node& n, const DeconvAttrs& a) {
    convert::require_stored_params(kFormat, g_, n);
    const size_t k = a.kernel.size();
    std::vector<int64_t> padding(2 * k, 0);
    for (size_t i = 0; i < a.padding.size(); ++i) std::tie(padding[i], padding[k + i]) = a.padding[i];
    std::vector<std::string> attributes = window_attributes(a, padding);
    attributes.push_back("groups=" + std::to_string(a.groups));
    std::vector<int64_t> filter{shape(n.inputs[0])[1], a.out_channels / a.groups};
    filter.insert(filter.end(), a.kernel.begin(), a.kernel.end());
    std::string args = value(n.inputs[0]) + ", " + param(n, "weight", filter);
    if (a.has_bias) args += ", " + param(n, "bias", {a.out_channels});
    result(n, call("nn.deconv", attributes, args));
  }

  // The definitions' guarded reads omit what lies outside the input: max_pool's border is the IR's
  // Ignore, avg_pool's ignore_border says which, and sum_pool adds nothing for either. A max pool
  // that reads its border as 0 is layout.pad's zeros, then nn.max_pool without padding.
  void node(const Node& n, const PoolAttrs& a) {
    std::vector<int64_t> padding = spatial_padding(n, a), zeros_around;
    if (a.op == PoolOp::Max && a.border == PoolBorder::Constant) {
      const size_t k = a.kernel.size();
      for (size_t side = 0; side < 2; ++side) {
        zeros_around.insert(zeros_around.end(), {0, 0});
        zeros_around.insert(zeros_around.end(), padding.begin() + static_cast<long>(side * k),
                            padding.begin() + static_cast<long>((side + 1) * k));
      }
      padding.assign(padding.size(), 0);
    }
    std::vector<std::string> attributes = window_attributes(a, padding);
    attributes.insert(attributes.begin(), "size=" + list(a.kernel));
    if (a.op == PoolOp::Avg)
      attributes.push_back(a.border == PoolBorder::Ignore ? "ignore_border=true" : "ignore_border=false");
    const char* op = a.op == PoolOp::Max ? "nn.max_pool" : a.op == PoolOp::Avg ? "nn.avg_pool" : "nn.sum_pool";
    windowed(n, a, op, attributes, "", zeros_around);
  }

  void node(const Node& n, const BatchNormAttrs& a) {
    convert::require_stored_params(kFormat, g_, n);
    const std::vector<int64_t>& in = shape(n.inputs[0]);
    const int64_t axis = convert::tensor_axis(a.channel_axis, in.size());
    const std::vector<int64_t> c{in[static_cast<size_t>(axis)]};
    std::string args = value(n.inputs[0]);
    for (const char* role : {"mean", "variance", "offset", "scale"}) args += ", " + param(n, role, c);
    result(n, call("nn.batch_norm",
                   {"epsilon=" + real(n, a.epsilon, "epsilon"), "channel_axis=" + std::to_string(axis)}, args));
  }

  void node(const Node& n, const SoftmaxAttrs& a) {
    const std::string axes = "axes=" + list(convert::tensor_axes(a.axes, shape(n.inputs[0]).size(), a.batch_axes));
    if (a.log) return log_softmax(n, axes);
    result(n, call("nn.softmax", {axes}, value(n.inputs[0])));
  }
  // No standard operator computes log_softmax; its formula (spec/ops/softmax.hpp) is (x − m) − log Σ
  // exp(x − m), m the maximum over the axes, which these operators compute in the same order.
  void log_softmax(const Node& n, const std::string& axes) {
    const std::string x = value(n.inputs[0]), m = helper(n, "max", call("math.max_reduce", {axes}, x));
    const std::string centered = helper(n, "centered", call("math.sub", {}, x + ", " + m));
    const std::string e = helper(n, "exp", call("math.exp", {}, centered));
    const std::string total = helper(n, "sum", call("math.sum_reduce", {axes}, e));
    result(n, call("math.sub", {}, centered + ", " + helper(n, "log", call("math.log", {}, total))));
  }

  void node(const Node& n, const ReduceAttrs& a) {
    const std::vector<int64_t> axes = convert::tensor_axes(a.axes, shape(n.inputs[0]).size());
    if (a.kind == ElemKind::Integer) return integer_reduce(n, a, axes);
    std::vector<std::string> attributes{"axes=" + list(axes)};
    if (!a.keep_dims) attributes.push_back("squeeze=true");
    result(n, call("math." + op_name(a), attributes, value(n.inputs[0])));
  }

  // The reader reduces ints through the operators' @lower bodies, whose `+=` and `*=` wrap int64 as
  // the IR's sum and product do: an operator of the document accumulates over the reduced axes (the
  // sum and product from 0 and 1), and a narrower type takes the int64 result wrapped to it (the
  // same, modulo 2^bits), an update of each element by itself.
  void integer_reduce(const Node& n, const ReduceAttrs& a, const std::vector<int64_t>& axes) {
    static const std::map<ReduceOp, std::pair<const char*, const char*>> ops = {{ReduceOp::Sum, {"+=", "0"}},
                                                                                {ReduceOp::Prod, {"*=", "1"}},
                                                                                {ReduceOp::Min, {"<=", ""}},
                                                                                {ReduceOp::Max, {">=", ""}}};
    const auto op = ops.find(a.op);
    if (op == ops.end())
      unexpressible(kFormat, n,
                    "its tensors are integer, and no standard operator computes " + op_name(a) + " of ints");
    const std::vector<int64_t>& in = shape(n.inputs[0]);
    std::vector<std::string> read, target, input_loops;  // x0[j0, …], y's indices, j0 < e0, …
    for (size_t k = 0; k < in.size(); ++k) {
      const std::string j = "j" + std::to_string(k);
      read.push_back(j);
      input_loops.push_back(j + " < " + std::to_string(in[k]));
      if (std::find(axes.begin(), axes.end(), static_cast<int64_t>(k)) == axes.end())
        target.push_back(j);
      else if (a.keep_dims)
        target.push_back("0");
    }
    const std::string y = "y[" + indices(out_shape(n).size()) + "]";
    std::vector<std::string> lowerings;
    if (*op->second.second) lowerings.push_back(y + " = " + op->second.second + loops(out_shape(n)));
    lowerings.push_back("y[" + join(target) + "] " + op->second.first + " x0[" + join(read) + "]" +
                        (input_loops.empty() ? "" : ", " + join(input_loops)));
    if (*op->second.second && bits_of(a.type.width) < 64)
      lowerings.push_back(y + " := " + wrapped_to(a.type, y) + loops(out_shape(n)));
    result(n, define(n, lowerings) + "(" + value(n.inputs[0]) + ")");
  }

  // The views are layout.reshape to the output's extents, those that follow a size written as its
  // attribute; flatten from axis 1 is layout.flatten, which computes them from the input's.
  void node(const Node& n, const ReshapeAttrs&) { reshape(n); }
  void node(const Node& n, const FlattenAttrs& a) {
    if (a.axis == 1 && shape(n.inputs[0]).size() >= 2)
      return result(n, call("layout.flatten", {"axis=1"}, value(n.inputs[0])));
    reshape(n);
  }
  void reshape(const Node& n) {
    result(n, view(value(n.inputs[0]), shape(n.inputs[0]).empty(), extents({n.id, 0}), out_shape(n).size()));
  }
  // x viewed at `extents` (of rank `rank`): layout.reshape, whose @assert wants its axis (0) below
  // the input's rank; so a scalar is unsqueezed to that rank instead (every extent of it is 1).
  std::string view(const std::string& x, bool scalar, const std::string& extents, size_t rank) {
    if (!scalar) return call("layout.reshape", {"shape=" + extents}, x);
    if (rank == 0) return call("math.iden", {}, x);
    return call("layout.unsqueeze", {"axes=" + list(convert::iota(0, static_cast<int64_t>(rank)))}, x);
  }
  void node(const Node& n, const TransposeAttrs& a) {
    result(n, call("layout.transpose", {"perm=" + list(a.perm)}, value(n.inputs[0])));
  }
  void node(const Node& n, const SqueezeAttrs& a) {
    result(n, call("layout.squeeze", {"axes=" + list(a.axes)}, value(n.inputs[0])));
  }
  void node(const Node& n, const UnsqueezeAttrs& a) {
    result(n, call("layout.unsqueeze", {"axes=" + list(a.axes)}, value(n.inputs[0])));
  }
  void node(const Node& n, const ConcatAttrs& a) {
    std::vector<std::string> xs;
    for (ValueRef r : n.inputs) xs.push_back(value(r));
    const int64_t axis = convert::tensor_axis(a.axis, shape(n.inputs[0]).size(), a.batch_axes);
    result(n, call("layout.concat", {"axis=" + std::to_string(axis)}, "[" + join(xs) + "]"));
  }

  // layout.pad and layout.slice run from their @lower bodies when read back (a contract op): both
  // move elements only, so the values are the same. Their numbers are the IR rule's at the written
  // sizes (spec/ops/pad.hpp, slice.hpp), computed from extents or not.
  std::vector<Dims<CDim>> input_dims(const Node& n) const {
    std::vector<Dims<CDim>> out;
    for (ValueRef r : n.inputs) out.emplace_back(shape(r).begin(), shape(r).end());
    return out;
  }
  void node(const Node& n, const PadAttrs& a) {
    static const std::map<PadBorder, const char*> methods = {{PadBorder::Constant, "'CONSTANT'"},
                                                             {PadBorder::Reflect, "'REFLECT'"},
                                                             {PadBorder::Replicate, "'REPLICATE'"},
                                                             {PadBorder::ReflectEven, "'SYMMETRIC'"}};
    ConcreteSink sink;
    const auto widths = pad_widths(a, input_dims(n), sink);
    std::vector<int64_t> before, after;
    for (const auto& [b, e] : widths.value_or(std::vector<std::pair<SizeValue<CDim>, SizeValue<CDim>>>{})) {
      if (b.value.v < 0 || e.value.v < 0)
        unexpressible(kFormat, n, "its padding crops, and layout.pad's @assert requires padding >= 0");
      before.push_back(b.value.v), after.push_back(e.value.v);
    }
    before.insert(before.end(), after.begin(), after.end());
    std::string args = value(n.inputs[0]);
    // The constant, when not 0 (T(), the definition's default), is a rank-0 variable of the tensor's kind.
    if (a.border == PadBorder::Constant && a.value.value != 0.0)
      args += ", " + declare_variable(fresh(identifier_for(n.name) + "_value"),
                                      HostTensor{DType::F64, Shape::make({}).value(), {a.value.value}}, {}, a.kind);
    result(n, call("layout.pad", {"padding=" + list(before), "method=" + std::string(methods.at(a.border))}, args));
  }
  // Each axis from its first index and count as the IR's rule gives them: end is begin + count ·
  // stride, which the definition's clamp of end to [−1, extent] keeps at that count.
  void node(const Node& n, const SliceAttrs& a) {
    const std::vector<Dims<CDim>> dims = input_dims(n);
    ConcreteSink sink;
    const auto bounds = slice_bounds(a, dims, sink).value_or(std::vector<SizeValue<CDim>>{});
    const std::vector<int64_t> axes = convert::tensor_axes(a.axes, dims[0].size());
    const std::vector<int64_t> stride = convert::or_ones(a.stride, axes.size());
    std::vector<int64_t> begin, end;
    for (size_t k = 0; k < axes.size() && bounds.size() == 2 * axes.size(); ++k) {
      const CDim extent = dims[0][static_cast<size_t>(axes[k])];
      const auto [first, count] = slice_range(a, k, bounds[k], bounds[axes.size() + k], extent);
      begin.push_back(first.v);
      end.push_back(std::clamp<int64_t>(first.v + count.v * stride[k], -1, extent.v));
    }
    // layout.slice's extent (end − begin) \ stride is a ceiling division, which the reader's size
    // terms take by divisors of at least 1 (docs/nnef2.md, Sizes): with a negative stride `check`
    // would refuse it, so the slice is an operator of the document, y[…, i, …] = x[…, begin + i · stride, …].
    if (std::any_of(stride.begin(), stride.end(), [](int64_t s) { return s < 0; })) {
      std::vector<std::string> index;
      for (size_t k = 0; k < dims[0].size(); ++k) index.push_back("i" + std::to_string(k));
      for (size_t k = 0; k < axes.size() && k < begin.size(); ++k)
        index[static_cast<size_t>(axes[k])] = std::to_string(begin[k]) + " + i" + std::to_string(axes[k]) + " * (" +
                                              std::to_string(stride[k]) + ")";
      return elementwise(n, {"", "x0[" + join(index) + "]"});
    }
    result(n, call("layout.slice",
                   {"axes=" + list(axes), "begin=" + list(begin), "end=" + list(end), "stride=" + list(stride)},
                   value(n.inputs[0])));
  }

  // split is layout.split into the parts' extents, its results unpacked: `[a, b] = layout.split{…}(x);`.
  void node(const Node& n, const SplitAttrs& a) {
    const int64_t axis = convert::tensor_axis(a.axis, shape(n.inputs[0]).size());
    std::vector<int64_t> sizes;
    for (size_t k = 0; k < names_[static_cast<size_t>(n.id)].size(); ++k)
      sizes.push_back(shape({n.id, static_cast<int>(k)})[static_cast<size_t>(axis)]);
    line("[" + join(names_[static_cast<size_t>(n.id)]) + "]",
         call("layout.split", {"axis=" + std::to_string(axis), "sizes=" + list(sizes)}, value(n.inputs[0])));
  }
  // broadcast_to: the input viewed at the output's rank (aligned as the IR aligns it), then
  // layout.broadcast to the output's extents, which repeats the extents 1 (read back from its
  // @lower body).
  void node(const Node& n, const BroadcastToAttrs& a) {
    const std::vector<int64_t>& in = shape(n.inputs[0]);
    const std::vector<int64_t>& out = out_shape(n);
    std::string x = value(n.inputs[0]);
    if (in.size() != out.size()) {
      std::vector<int64_t> aligned = in;
      aligned.insert(a.broadcast == Broadcast::NnefLeft ? aligned.end() : aligned.begin(), out.size() - in.size(), 1);
      x = helper(n, "aligned", view(x, in.empty(), list(aligned), aligned.size()));
    }
    result(n, call("layout.broadcast", {"shape=" + extents({n.id, 0})}, x));
  }

  // A cast within a kind (ONNX's float to double) copies; bools to and from ints and reals
  // are 1 and 0 (nonzero is true), ints to reals their values: layout.cast. A real to an int: the
  // IR's cast floors, and the draft does not say how cast<int> rounds (nnref's int() truncates), so
  // an operator of the document floors first.
  void node(const Node& n, const CastAttrs& a) {
    if (a.from == a.to) return result(n, call("math.iden", {}, value(n.inputs[0])));
    if (a.from == ElemKind::Real && a.to == ElemKind::Integer)
      return elementwise(n, {"", "int(floor(x0[" + indices(out_shape(n).size()) + "]))"});
    result(n, call("layout.cast<" + std::string(type_name(a.to)) + ">", {}, value(n.inputs[0])));
  }

  // math.cumsum adds onto 0.0 item by item, as the IR's cumsum accumulates (reals only).
  void node(const Node& n, const CumsumAttrs& a) {
    require_real(n, a.kind);
    const int64_t axis = convert::tensor_axis(a.axis, shape(n.inputs[0]).size());
    std::vector<std::string> attributes{"axis=" + std::to_string(axis)};
    if (a.exclusive) attributes.push_back("exclusive=true");
    if (a.reverse) attributes.push_back("reverse=true");
    result(n, call("math.cumsum", attributes, value(n.inputs[0])));
  }

  // No standard operator computes layer_norm as the IR does (spec/ops/layer_norm.hpp): μ and σ² are
  // mean_reduce's sums over the count, a = scale / sqrt(σ² + ε) (1 / … without affine), and y the dot
  // product offset + x·a + μ·(−a) accumulated from offset (0 without affine), which these operators
  // compute in the same order. scale and offset are viewed at the input's rank, their extents on the axes.
  void node(const Node& n, const LayerNormAttrs& a) {
    const std::vector<int64_t>& in = shape(n.inputs[0]);
    const std::vector<int64_t> axes = convert::tensor_axes(a.axes, in.size());
    std::vector<int64_t> params(in.size(), 1), param_extents;
    for (int64_t k : axes) param_extents.push_back(params[static_cast<size_t>(k)] = in[static_cast<size_t>(k)]);
    const auto scalar = [&](const std::string& what, double v) {
      return variable(identifier_for(n.name) + "_" + what, HostTensor{DType::F64, Shape::make({}).value(), {v}}, {});
    };
    const auto stored_view = [&](const std::string& role) {
      return helper(n, role + "_view",
                    call("layout.reshape", {"shape=" + list(params)}, param(n, role, param_extents)));
    };
    if (a.affine) convert::require_stored_params(kFormat, g_, n);
    const std::string x = value(n.inputs[0]), reduce_axes = "axes=" + list(axes);
    const std::string mean = helper(n, "mean", call("math.mean_reduce", {reduce_axes}, x));
    const std::string centered = helper(n, "centered", call("math.sub", {}, x + ", " + mean));
    const std::string square = helper(n, "square", call("math.sqr", {}, centered));
    const std::string variance = helper(n, "variance", call("math.mean_reduce", {reduce_axes}, square));
    const std::string shifted =
        helper(n, "shifted", call("math.add", {}, variance + ", " + scalar("epsilon", a.epsilon.value)));
    const std::string den = helper(n, "den", call("math.sqrt", {}, shifted));
    const std::string factor = helper(n, "factor", a.affine ? call("math.div", {}, stored_view("scale") + ", " + den)
                                                            : call("math.rcp", {}, den));
    const std::string offset = a.affine ? stored_view("offset") : scalar("zero", 0.0);
    const std::string scaled = helper(n, "scaled", call("math.mul", {}, x + ", " + factor));
    const std::string first = helper(n, "first", call("math.add", {}, offset + ", " + scaled));
    const std::string minus = helper(n, "minus", call("math.neg", {}, factor));
    result(n, call("math.add", {}, first + ", " + helper(n, "second", call("math.mul", {}, mean + ", " + minus))));
  }

  // ---- the ops of int and bool tensors ----

  void node(const Node& n, const CompareAttrs& a) {
    result(n, broadcast(compare_operator(a.op), value(n.inputs[0]), shape(n.inputs[0]).size(), value(n.inputs[1]),
                        shape(n.inputs[1]).size(), a.broadcast));
  }
  void node(const Node& n, const LogicalAttrs& a) {
    if (a.op == LogicalOp::Not) return result(n, call("math.not", {}, value(n.inputs[0])));
    result(n, broadcast(a.op == LogicalOp::And ? "math.and" : "math.or", value(n.inputs[0]), shape(n.inputs[0]).size(),
                        value(n.inputs[1]), shape(n.inputs[1]).size(), a.broadcast));
  }
  void node(const Node& n, const IntegerBinaryAttrs& a) {
    if (a.op == IntegerOp::Div || a.op == IntegerOp::Fmod) return truncated(n, a);
    // A sum, difference or product that can pass a narrower type is wrapped to it, as the IR wraps it.
    static const std::map<IntegerOp, const char*> wrapping = {
        {IntegerOp::Add, " + "}, {IntegerOp::Sub, " - "}, {IntegerOp::Mul, " * "}};
    if (a.type != IntegerType{} && wrapping.count(a.op))
      return elementwise(n, {"", wrapped_to(a.type, at_point(n, 0, a.broadcast) + wrapping.at(a.op) +
                                                        at_point(n, 1, a.broadcast))});
    result(n, broadcast(integer_operator(a.op), value(n.inputs[0]), shape(n.inputs[0]).size(), value(n.inputs[1]),
                        shape(n.inputs[1]).size(), a.broadcast));
  }
  // The IR's int division truncates and its fmod takes the dividend's sign, where §2.4's / and %
  // floor: on |x| and |y| the two agree, so x / y is sign(x)·sign(y)·(|x| / |y|) and fmod(x, y)
  // sign(x)·(|x| % |y|) (a zero divisor is an unknown integer either way), wrapped to the IR's type.
  void truncated(const Node& n, const IntegerBinaryAttrs& a) {
    const std::string x = at_point(n, 0, a.broadcast), y = at_point(n, 1, a.broadcast);
    const std::string magnitude = "(abs(" + x + ") " + (a.op == IntegerOp::Div ? "/" : "%") + " abs(" + y + "))";
    const std::string sign = a.op == IntegerOp::Div ? "sign(" + x + ") * sign(" + y + ")" : "sign(" + x + ")";
    elementwise(n, {"", wrapped_to(a.type, sign + " * " + magnitude)});
  }
  // math.select aligns its three operands by cond_align, lhs_align and rhs_align: NNEF's left
  // alignment puts each shorter one at axis 0.
  void node(const Node& n, const SelectAttrs& a) {
    const size_t rank = out_shape(n).size();
    std::vector<std::string> attributes;
    std::string args;
    for (size_t k = 0; k < 3; ++k) {
      const size_t r = shape(n.inputs[k]).size();
      if (a.broadcast == Broadcast::NnefLeft && r != rank)
        attributes.push_back(std::string(k == 0 ? "cond_align" : k == 1 ? "lhs_align" : "rhs_align") + "=0");
      args += (k == 0 ? "" : ", ") + value(n.inputs[k]);
    }
    result(n, call("math.select", attributes, args));
  }
  void node(const Node& n, const GatherAttrs& a) {
    const int64_t axis = convert::tensor_axis(a.axis, shape(n.inputs[0]).size());
    result(n, call("layout.gather", {"axis=" + std::to_string(axis)}, value(n.inputs[0]) + ", " + value(n.inputs[1])));
  }
  // math.argmax and argmin over one axis, the reduced axis kept (squeeze = false), ties to the first index.
  void node(const Node& n, const ArgReduceAttrs& a) {
    if (a.axes.size() != 1) return several_axes(n, a);
    const int64_t axis = convert::tensor_axis(a.axes[0], shape(n.inputs[0]).size());
    if (a.last) return last_extremum(n, a, static_cast<size_t>(axis));
    result(n, call(a.op == ArgReduceOp::Max ? "math.argmax" : "math.argmin", {"axis=" + std::to_string(axis)},
                   value(n.inputs[0])));
  }
  // Over several axes the IR's index is the row-major position within the group: the reduced axes
  // moved last (layout.transpose) and made one (layout.reshape), math.argmax over it, viewed back.
  void several_axes(const Node& n, const ArgReduceAttrs& a) {
    if (a.last)
      unexpressible(kFormat, n,
                    "ties go to the last index over several axes " + list(a.axes) +
                        ": the operator of the document for the last index reads one axis");
    const std::vector<int64_t>& in = shape(n.inputs[0]);
    std::vector<int64_t> axes = convert::tensor_axes(a.axes, in.size()), perm, flat;
    std::sort(axes.begin(), axes.end());
    for (int64_t k = 0; k < static_cast<int64_t>(in.size()); ++k)
      if (!std::binary_search(axes.begin(), axes.end(), k)) perm.push_back(k), flat.push_back(in[static_cast<size_t>(k)]);
    int64_t group = 1;
    for (int64_t k : axes) perm.push_back(k), group *= in[static_cast<size_t>(k)];
    const int64_t axis = static_cast<int64_t>(flat.size());
    flat.push_back(group);
    const std::string moved = helper(n, "moved", call("layout.transpose", {"perm=" + list(perm)}, value(n.inputs[0])));
    const std::string grouped = helper(n, "grouped", call("layout.reshape", {"shape=" + list(flat)}, moved));
    const std::string index = helper(n, "index", call(a.op == ArgReduceOp::Max ? "math.argmax" : "math.argmin",
                                                      {"axis=" + std::to_string(axis)}, grouped));
    result(n, call("layout.reshape", {"shape=" + list(out_shape(n))}, index));
  }
  // Ties to the last index (ONNX's select_last_index): math.argmax's @lower with the update taken at
  // an equal value too, and at a NaN unless the index held is a NaN's: the IR's mirrored reading, the
  // last extremum or the last NaN.
  void last_extremum(const Node& n, const ArgReduceAttrs& a, size_t axis) {
    const std::vector<int64_t>& y = out_shape(n);  // the axis kept, of extent 1
    const std::string target = "y[" + indices(y.size()) + "]";
    std::vector<std::string> at, held;
    for (size_t k = 0; k < y.size(); ++k) {
      at.push_back(k == axis ? "k" : "i" + std::to_string(k));
      held.push_back(k == axis ? target : "i" + std::to_string(k));
    }
    const std::string xk = "x0[" + join(at) + "]", xh = "x0[" + join(held) + "]";
    const std::string beyond = a.op == ArgReduceOp::Max ? " >= " : " <= ";
    const std::string update = target + " := k" + loops(y) + ", k < " + std::to_string(shape(n.inputs[0])[axis]) +
                               " | " + xk + " != " + xk + " || (" + xh + " == " + xh + " && " + xk + beyond + xh + ")";
    result(n, define(n, {target + " = 0" + loops(y), update}) + "(" + value(n.inputs[0]) + ")");
  }

  void node(const Node& n, const LogicalReduceAttrs& a) {
    const std::vector<int64_t> axes = convert::tensor_axes(a.axes, shape(n.inputs[0]).size());
    result(n, call(a.op == LogicalReduceOp::All ? "math.all_reduce" : "math.any_reduce", {"axes=" + list(axes)},
                   value(n.inputs[0])));
  }

  // range, y[i] = start + i·delta: reals as an operator of the document computing T(start) + T(i)·T(delta)
  // in the scalar, as the IR does; ints as the whole numbers the reader computes per point, from the
  // start the IR's rule gives at the written sizes (also where it reads extents).
  void node(const Node& n, const RangeAttrs& a) {
    if (out_shape(n)[0] == 0) unexpressible(kFormat, n, "its output is empty, and a graph's extents are at least 1");
    std::string value;
    if (a.kind == ElemKind::Integer) {
      std::vector<Shape> operands;
      for (ValueRef r : n.inputs) operands.push_back(Shape::make(shape(r)).value());
      value = "(" + std::to_string(integer_range_start(a, operands)) + ") + i0 * (" + std::to_string(a.idelta) + ")";
    } else {
      value = "(" + real(n, a.start, "start") + ") + real(i0) * (" + real(n, a.delta, "delta") + ")";
    }
    elementwise(n, {"", value});
  }

  void node(const Node& n, const ContractAttrs&) {
    unexpressible(kFormat, n,
                  "a contraction program (an operator's @lower body as run) "
                  "has no operator of its own");
  }
  // Every other op: the standard operators that compute it run from @lower bodies that the reader
  // does not compose yet, or there is none (deconv, layer norm, the roi ops).
  template <class A>
  void node(const Node& n, const A& a) {
    unexpressible(kFormat, n,
                  "nnref writes no standard operator for " + op_name(a) + " yet (docs/nnef2.md, Writing NNEF 2.0)");
  }

  // The output's declaration, and `output = value;` where the value has another name.
  // The value an output declares: an int or bool output the reader read through a cast to reals
  // (Model::output_dtypes) is that int or bool tensor again, and the cast, used by nothing else, is
  // not written.
  ValueRef typed(const GraphOutput& o) {
    const auto dtype = m_.output_dtypes.find(o.name);
    const Node& n = g_.nodes[static_cast<size_t>(o.value.node)];
    const auto* cast = std::get_if<CastAttrs>(&n.op);
    if (dtype == m_.output_dtypes.end() || !cast || cast->to != ElemKind::Real ||
        cast->from != (dtype->second == DType::Bool ? ElemKind::Logical : ElemKind::Integer))
      return o.value;
    const auto reads = [&](const ValueRef& v) { return v.node == n.id; };
    for (const Node& other : g_.nodes)
      if (std::any_of(other.inputs.begin(), other.inputs.end(), reads)) return o.value;
    if (std::count_if(g_.outputs.begin(), g_.outputs.end(), [&](const GraphOutput& x) { return reads(x.value); }) > 1)
      return o.value;
    unwritten_.insert(n.id);
    return n.inputs[0];
  }

  void output(const GraphOutput& o) {
    const std::string id = identifier_for(o.name);
    if (value(o.value) != id) line(id, value(o.value));
    declared_outputs_ << "        " << id << ": " << type_name(kind(o.value)) << extents(o.value) << ";\n";
  }

  const Model& m_;
  const Graph& g_;
  const GraphInfo& info_;
  const std::map<std::string, int64_t> sizes_;                  // size name → its value (an int graph attribute)
  const std::vector<std::pair<std::string, GraphInfo>> moved_;  // per size attribute: the shapes, it one larger
  std::map<std::pair<int64_t, int>, std::string> output_names_;
  std::set<std::string> used_, imports_;
  std::vector<std::vector<std::string>> names_;  // per node, per output: its identifier
  std::ostringstream inputs_, declared_outputs_, variables_, compose_, operators_;
  std::vector<VariableFile> files_;
  std::vector<GraphOutput> outputs_;  // the graph's, int and bool ones read through a cast taken before it
  std::set<int64_t> unwritten_;       // those casts
};

}  // namespace

std::vector<Diagnostic> write_nnef2(const Model& model, const std::string& out_dir, const WriteOptions& options) {
  return convert::emit<Emitter>(model, options, kFormat, [&](const Emitter& e) -> std::vector<Diagnostic> {
    if (auto d = convert::make_folder(out_dir)) return {*d};
    const fs::path dir(out_dir);
    const std::string graph = identifier_for(convert::model_name(model.path));
    if (auto d = convert::write_file(dir / "main.sknd", e.document(graph))) return {*d};
    // The reader's scoped name: main.<graph>.<variable> (research/skriptnd.md §5).
    for (const VariableFile& f : e.files())
      if (auto d = convert::write_file(dir / ("main." + graph + "." + f.name + ".dat"), f.bytes))
        return {*d};
    return {};
  });
}

}  // namespace nnref
