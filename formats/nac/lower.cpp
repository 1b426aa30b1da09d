#include "formats/nac/lower.hpp"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <nlohmann/json.hpp>

#include "formats/nac/ir_fields.hpp"
#include "semantics/wellformed.hpp"

namespace nnref::nac {

namespace {

[[noreturn]] void fail(const Instruction& ins, size_t index, std::string code, const std::string& message) {
  throw FormatError{std::move(code),
                    "instruction " + std::to_string(index) + " (" + ins.name + "): " + message + " at byte " +
                        std::to_string(ins.offset),
                    ins.offset};
}

template <class E> constexpr int enum_max();
template <> constexpr int enum_max<Broadcast>() { return 2; }
template <> constexpr int enum_max<Layout>() { return 1; }
template <> constexpr int enum_max<PadMode>() { return 4; }
template <> constexpr int enum_max<PoolBorder>() { return 1; }
template <> constexpr int enum_max<RoiOp>() { return 2; }
template <> constexpr int enum_max<RoiMethod>() { return 2; }
template <> constexpr int enum_max<PadBorder>() { return 3; }
template <> constexpr int enum_max<WeightLayout>() { return 1; }
template <> constexpr int enum_max<ElemKind>() { return 2; }
template <> constexpr int enum_max<IntegerWidth>() { return 3; }

std::string node_name(size_t index) { return "v" + std::to_string(index); }

// The integer a double holds exactly (none for NaN, infinities, fractions and |v| ≥ 2^63).
std::optional<int64_t> exact_integer(double v) {
  if (!(std::fabs(v) < 0x1p63) || v != std::trunc(v)) return std::nullopt;
  return static_cast<int64_t>(v);
}

// What an instruction's result is, for the instructions that read it.
struct Val {
  enum class Kind { None, Tensor, Param, Lifted } kind = Kind::None;
  ValueRef ref;      // Tensor: the node output
  int outputs = 1;   // Tensor: how many outputs the node has (getitem picks one)
  uint16_t id = 0;   // Param: the parameter id; Lifted: the constant id
};

class Lowering;

// The arguments of one regular instruction (§8.3), read in order by fields() or by position.
class ArgReader {
 public:
  ArgReader(Lowering& l, size_t index, Node& node) : l_(l), index_(index), node_(node) {}
  const Instruction& ins() const;
  size_t count() const { return ins().args.size(); }
  size_t next() const { return next_; }
  size_t index() const { return index_; }

  // The sequential interface of ir_fields.hpp.
  void inputs() {
    while (next_ < count() && ins().args[next_].code == 'T') node_.inputs.push_back(tensor(next_++));
  }
  void integer(int64_t& v) { v = integer_at(take()); }
  void size(size_t& v) {
    const int64_t i = integer_at(take());
    if (i < 0) fail(ins(), index_, "nac.arg.value", "argument " + std::to_string(next_ - 1) + " is negative");
    v = static_cast<size_t>(i);
  }
  void ints(std::vector<int64_t>& v) { v = ints_at(take()); }
  void pairs(std::vector<std::pair<int64_t, int64_t>>& v) {
    const std::vector<int64_t> flat = ints_at(take());
    if (flat.size() % 2 != 0) fail(ins(), index_, "nac.arg.value", "a list of (before, after) pairs has odd length");
    v.clear();
    for (size_t k = 0; k < flat.size(); k += 2) v.emplace_back(flat[k], flat[k + 1]);
  }
  void real(Real& v) { v = real_at(take()); }
  void boolean(bool& v) { v = boolean_at(take()); }
  template <class E>
  void choice(E& e) {
    const int64_t v = integer_at(take());
    if (v < 0 || v > enum_max<E>())
      fail(ins(), index_, "nac.arg.value",
           "argument " + std::to_string(next_ - 1) + " is " + std::to_string(v) + "; it is one of 0-" +
               std::to_string(enum_max<E>()));
    e = static_cast<E>(v);
  }
  void param(const std::string& role, char) { param_at(take(), role); }
  void not_an_operation();

  // Positional access, for the ATen and nac.* adapters.
  ValueRef tensor(size_t k);
  int64_t integer_at(size_t k);
  std::vector<int64_t> ints_at(size_t k);
  Real real_at(size_t k);
  bool boolean_at(size_t k);
  bool is_null(size_t k);
  void param_at(size_t k, const std::string& role);
  std::vector<int64_t> param_shape(size_t k);
  void expect(size_t lo, size_t hi) {
    if (count() < lo || count() > hi)
      fail(ins(), index_, "nac.arg.count",
           "it has " + std::to_string(count()) + " arguments; it takes " +
               (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)));
  }
  void done() {
    if (next_ != count())
      fail(ins(), index_, "nac.arg.count",
           "it has " + std::to_string(count()) + " arguments; it takes " + std::to_string(next_));
  }
  [[noreturn]] void bad(size_t k, const std::string& why) {
    fail(ins(), index_, "nac.arg.type", "argument " + std::to_string(k) + " ('" + ins().args[k].code + "') " + why);
  }

 private:
  size_t take() {
    if (next_ >= count())
      fail(ins(), index_, "nac.arg.count", "it has " + std::to_string(count()) + " arguments; more are needed");
    return next_++;
  }
  // The constant an argument holds: from C, or from an earlier result the file states statically.
  Constant constant(size_t k);

  Lowering& l_;
  size_t index_;
  Node& node_;
  size_t next_ = 0;
};

class Lowering {
 public:
  Lowering(const Program& p, const WeightStore& w, const std::string& path, const LoadOptions& o)
      : p_(p), w_(w), budget_(o.max_memory) {
    m_.path = path;
    m_.format = "nac";
    m_.weights_path = w.source() == "DATA" ? path : w.source();
    m_.weights_loaded = w.available() && o.weights != WeightsPolicy::Skip;
    read_manifest();
    match_given(o.input_shapes);
  }

  Model run() {
    for (size_t i = 0; i < p_.ops.size(); ++i) {
      const Instruction& ins = p_.ops[i];
      if (ins.a == kOpInput) vals_.push_back(input(ins, i));
      else if (ins.a == kOpOutput) outputs(ins, i);
      else vals_.push_back(regular(ins, i));
      if (vals_.size() < i + 1) vals_.emplace_back();
    }
    m_.size_names = batched_size_names(m_.graph);
    return std::move(m_);
  }

  const Program& program() const { return p_; }
  const Val& val(size_t i) const { return vals_[i]; }
  bool reading_weights() const { return m_.weights_loaded; }

  // A Const node holding a value, named after the instruction that needs it.
  ValueRef constant_node(const std::string& name, std::vector<int64_t> dims, const HostTensor* value,
                         const std::string& source, const std::string& key, ElemKind kind = ElemKind::Real) {
    const int64_t id = m_.graph.add(name, ConstAttrs{dims, kind}, {}, loc());
    if (value) m_.payload.set(name, "value", ParamEntry{*value, source});
    m_.param_keys[{name, "value"}] = key;
    return {id, 0};
  }

  // Parameter `id` read for (node, role): into the payload when weights are read.
  // An integer or logical constant's values are held as float64, as every front-end holds them.
  void bind(const Instruction& ins, size_t index, uint16_t id, const std::string& node, const std::string& role,
            ElemKind kind = ElemKind::Real) {
    m_.param_keys[{node, role}] = p_.param_names.at(id);
    if (!reading_weights()) return;
    auto t = w_.read(id, budget_);
    if (auto* e = std::get_if<FormatError>(&t)) fail(ins, index, e->code, e->message);
    HostTensor& value = std::get<HostTensor>(t);
    if (kind != ElemKind::Real) value.dtype = DType::F64;
    m_.payload.set(node, role, ParamEntry{std::move(value), w_.source() + ":" + p_.param_names.at(id)});
  }

  std::optional<std::vector<int64_t>> param_shape(uint16_t id) const { return w_.shape(id); }

  // The value `source` names, as a tensor: a Const node for a parameter or a lifted constant.
  ValueRef tensor_of(const Instruction& ins, size_t index, size_t source) {
    const Val& v = vals_[source];
    switch (v.kind) {
      case Val::Kind::Tensor:
        if (v.outputs != 1)
          fail(ins, index, "nac.arg.type", "it reads instruction " + std::to_string(source) + ", which has " +
                                               std::to_string(v.outputs) + " results; getitem picks one");
        return v.ref;
      case Val::Kind::Param: {
        auto it = param_nodes_.find(v.id);
        if (it != param_nodes_.end()) return it->second;
        const auto shape = w_.shape(v.id);
        if (!shape && reading_weights()) {  // the weights hold no such tensor: say so
          auto t = w_.read(v.id, budget_);
          if (auto* e = std::get_if<FormatError>(&t)) fail(ins, index, e->code, e->message);
        }
        if (!shape)
          fail(ins, index, "nac.weights.shape-unknown",
               "it reads parameter '" + p_.param_names.at(v.id) + "' as a tensor, whose shape is unknown without its weights");
        const std::string name = node_name(source);
        // A parameter stored as int64 or bool is an integer or logical tensor (the writer stores
        // integer and logical constants so).
        const auto dtype = w_.dtype(v.id);
        const ElemKind kind = dtype == DataType::I64 ? ElemKind::Integer : dtype == DataType::Bool ? ElemKind::Logical : ElemKind::Real;
        const ValueRef ref = constant_node(name, *shape, nullptr, "", p_.param_names.at(v.id), kind);
        bind(ins, index, v.id, name, "value", kind);
        return param_nodes_[v.id] = ref;
      }
      case Val::Kind::Lifted: return constant_tensor(ins, index, p_.constants.at(v.id), node_name(source));
      case Val::Kind::None: break;
    }
    fail(ins, index, "nac.arg.type", "it reads instruction " + std::to_string(source) + ", which has no tensor result");
  }

  // A numeric CNST value as a Const node (0-d for a number, 1-d for a list).
  ValueRef constant_tensor(const Instruction& ins, size_t index, const Constant& c, const std::string& name) {
    HostTensor t;
    t.dtype = DType::F64;
    switch (c.type) {
      case Constant::Type::Int64: t.values = {static_cast<double>(c.i)}; break;
      case Constant::Type::Float64: t.values = {c.f}; break;
      case Constant::Type::Bool: t.values = {c.b ? 1.0 : 0.0}; break;
      case Constant::Type::IntList: t.values.assign(c.ints.begin(), c.ints.end()); break;
      case Constant::Type::FloatList: t.values = c.floats; break;
      default:
        fail(ins, index, "nac.arg.type", std::string("a ") + constant_type_name(c.type) + " constant is not a tensor");
    }
    const bool list = c.type == Constant::Type::IntList || c.type == Constant::Type::FloatList;
    std::vector<int64_t> dims;
    if (list) dims.push_back(static_cast<int64_t>(t.values.size()));
    t.shape = Shape::make(dims).value();
    const std::string unique = name + (m_.graph.find(name) ? "_c" + std::to_string(m_.graph.nodes.size()) : "");
    return constant_node(unique, dims, &t, "CNST", unique);
  }

  std::string_view path() const { return m_.path; }
  SourceLoc loc() const { return SourceLoc{m_.path, 0, 0}; }

 private:
  void read_manifest() {
    for (const Resource& r : p_.resources) {
      if (r.name != kIoManifest) continue;
      nlohmann::json j = nlohmann::json::parse(r.data, nullptr, false);
      if (j.is_discarded() || !j.is_object())
        throw FormatError{"nac.manifest",
                          std::string("the RSRC file ") + kIoManifest + " is not a JSON object at byte " + std::to_string(r.offset),
                          r.offset};
      try {
        if (j.contains("inputs"))
          for (const auto& [name, spec] : j.at("inputs").items())
            shapes_[name] = {spec.at("shape").get<std::vector<int64_t>>(),
                             spec.contains("kind") ? spec.at("kind").get<std::string>() : std::string("real")};
        if (j.contains("outputs")) output_names_ = j.at("outputs").get<std::vector<std::string>>();
      } catch (const nlohmann::json::exception& e) {
        throw FormatError{"nac.manifest",
                          std::string("the RSRC file ") + kIoManifest + " is malformed (" + e.what() + ") at byte " +
                              std::to_string(r.offset),
                          r.offset};
      }
    }
  }

  // The name of user input instruction i: from DATA block 2, else input<i>.
  std::string input_name(size_t i) const {
    auto named = p_.input_names.find(static_cast<uint16_t>(i));
    return named != p_.input_names.end() ? named->second : "input" + std::to_string(i);
  }

  // The arrays given to run the model on, matched to the user inputs as --input matches them (by
  // name, then the unnamed ones in order), for the inputs the manifest gives no shape.
  void match_given(const std::vector<GivenInputShape>& given) {
    std::vector<std::string> names;
    for (size_t i = 0; i < p_.ops.size(); ++i)
      if (p_.ops[i].a == kOpInput && p_.ops[i].b == kInputUser) names.push_back(input_name(i));
    std::map<std::string, const GivenInputShape*> bound;
    for (const GivenInputShape& g : given)
      if (!g.name.empty()) bound.emplace(g.name, &g);
    size_t next = 0;
    for (const GivenInputShape& g : given) {
      if (!g.name.empty()) continue;
      while (next < names.size() && bound.count(names[next])) ++next;
      if (next == names.size()) break;
      bound.emplace(names[next], &g);
    }
    for (const auto& [name, g] : bound)
      if (!shapes_.count(name)) given_[name] = *g;
  }

  Val input(const Instruction& ins, size_t i) {
    if (ins.b == kInputParam) return {Val::Kind::Param, {}, 1, ins.ref_id};
    if (ins.b == kInputLifted) return {Val::Kind::Lifted, {}, 1, ins.ref_id};
    if (ins.b == kInputState)
      fail(ins, i, "nac.op.unsupported", "a state input (<INPUT B=2>) has no counterpart among nnref's ops");
    const std::string name = input_name(i);
    if (m_.graph.find(name)) fail(ins, i, "nac.input.name", "two inputs are named '" + name + "'");
    if (auto g = given_.find(name); g != given_.end())  // the manifest has no shape; the array given does
      return {Val::Kind::Tensor, {m_.graph.add(name, InputAttrs{g->second.dims, g->second.kind}, {}, loc()), 0}, 1, 0};
    auto shape = shapes_.find(name);
    if (shape == shapes_.end())
      fail(ins, i, "nac.input.shape",
           "input '" + name + "' has no shape: v1.6 records none, the RSRC file " + kIoManifest +
               " does not give it, and no array was given for it (run, conform, bench and hw run take it from --input)");
    const std::string& kind = shape->second.second;
    if (kind != "real" && kind != "integer" && kind != "logical")
      fail(ins, i, "nac.manifest", "input '" + name + "' has kind '" + kind + "'; the kinds are real, integer, logical");
    const ElemKind k = kind == "real" ? ElemKind::Real : kind == "integer" ? ElemKind::Integer : ElemKind::Logical;
    return {Val::Kind::Tensor, {m_.graph.add(name, InputAttrs{shape->second.first, k}, {}, loc()), 0}, 1, 0};
  }

  void outputs(const Instruction& ins, size_t i) {
    if (ins.b != 0)
      fail(ins, i, "nac.op.unsupported", "an intermediate output (<OUTPUT B=1>) has no counterpart among nnref's ops");
    for (size_t k = 0; k < ins.sources.size(); ++k) {
      const ValueRef ref = tensor_of(ins, i, static_cast<size_t>(ins.sources[k]));
      std::string name = k < output_names_.size() ? output_names_[k]
                         : ins.sources.size() == 1 ? "output" : "output" + std::to_string(k);
      m_.graph.outputs.push_back({name, ref});
    }
  }

  Val regular(const Instruction& ins, size_t i);

  const Program& p_;
  const WeightStore& w_;
  int64_t budget_;
  Model m_;
  std::vector<Val> vals_;
  std::map<uint16_t, ValueRef> param_nodes_;
  std::map<std::string, std::pair<std::vector<int64_t>, std::string>> shapes_;
  std::vector<std::string> output_names_;
  std::map<std::string, GivenInputShape> given_;  // user input name → the array given, where the manifest has no shape

  friend class ArgReader;
};

const Instruction& ArgReader::ins() const { return l_.program().ops[index_]; }

void ArgReader::not_an_operation() {
  fail(ins(), index_, "nac.op.unsupported", "input and const are <INPUT> instructions, not operations");
}

ValueRef ArgReader::tensor(size_t k) {
  const Argument& a = ins().args[k];
  if (a.constant)
    return l_.constant_tensor(ins(), index_, l_.program().constants.at(*a.constant),
                              node_name(index_) + "_arg" + std::to_string(k));
  return l_.tensor_of(ins(), index_, static_cast<size_t>(a.source));
}

Constant ArgReader::constant(size_t k) {
  const Argument& a = ins().args[k];
  if (a.constant) return l_.program().constants.at(*a.constant);
  // §3.5.2: a constant-coded argument may come from an earlier result; nnref's attributes are
  // static, so that result must be a value the file states: a lifted constant, or a one-element
  // parameter (docs/nac.md).
  const Val& v = l_.val(static_cast<size_t>(a.source));
  if (v.kind == Val::Kind::Lifted) return l_.program().constants.at(v.id);
  if (v.kind == Val::Kind::Param && l_.reading_weights()) {
    int64_t budget = 64;
    auto t = l_.w_.read(v.id, budget);
    if (auto* e = std::get_if<FormatError>(&t)) fail(ins(), index_, e->code, e->message);
    const HostTensor& h = std::get<HostTensor>(t);
    if (h.values.size() == 1) {
      Constant c;
      c.type = dtype_is_float(h.dtype) ? Constant::Type::Float64 : Constant::Type::Int64;
      c.f = h.values[0];
      c.i = exact_integer(h.values[0]).value_or(0);  // integer tensors hold integers below 2^53
      return c;
    }
  }
  fail(ins(), index_, "nac.arg.dynamic",
       "argument " + std::to_string(k) + " ('" + std::string(1, a.code) + "') comes from instruction " +
           std::to_string(a.source) + ", which is not a scalar the file states; nnref's ops take it as a static attribute");
}

int64_t ArgReader::integer_at(size_t k) {
  const Constant c = constant(k);
  if (c.type == Constant::Type::Int64) return c.i;
  if (c.type == Constant::Type::Bool) return c.b ? 1 : 0;
  if (c.type == Constant::Type::IntList && c.ints.size() == 1) return c.ints[0];
  if (c.type == Constant::Type::Float64 && exact_integer(c.f)) return *exact_integer(c.f);
  bad(k, std::string("is a ") + constant_type_name(c.type) + " constant; an integer is needed");
}

std::vector<int64_t> ArgReader::ints_at(size_t k) {
  const Constant c = constant(k);
  if (c.type == Constant::Type::IntList) return c.ints;
  if (c.type == Constant::Type::Int64) return {c.i};
  bad(k, std::string("is a ") + constant_type_name(c.type) + " constant; a list of integers is needed");
}

Real ArgReader::real_at(size_t k) {
  const Constant c = constant(k);
  if (c.type == Constant::Type::Float64) return Real(c.f);
  if (c.type == Constant::Type::Int64) return Real(static_cast<double>(c.i));
  if (c.type == Constant::Type::String) {  // a decimal as the source model states it
    char* end = nullptr;
    const double v = std::strtod(c.s.c_str(), &end);
    if (!c.s.empty() && end == c.s.c_str() + c.s.size()) return Real(v, c.s);
  }
  bad(k, std::string("is a ") + constant_type_name(c.type) + " constant; a number is needed");
}

bool ArgReader::boolean_at(size_t k) {
  const Constant c = constant(k);
  if (c.type == Constant::Type::Bool) return c.b;
  if (c.type == Constant::Type::Int64 && (c.i == 0 || c.i == 1)) return c.i == 1;
  bad(k, std::string("is a ") + constant_type_name(c.type) + " constant; a bool is needed");
}

bool ArgReader::is_null(size_t k) {
  const Argument& a = ins().args[k];
  return a.constant && l_.program().constants.at(*a.constant).type == Constant::Type::Null;
}

void ArgReader::param_at(size_t k, const std::string& role) {
  const Argument& a = ins().args[k];
  if (a.constant || l_.val(static_cast<size_t>(a.source)).kind != Val::Kind::Param)
    bad(k, "must be a parameter (the result of an <INPUT B=1>): nnref binds '" + role + "' from the weights");
  l_.bind(ins(), index_, l_.val(static_cast<size_t>(a.source)).id, node_.name, role);
}

std::vector<int64_t> ArgReader::param_shape(size_t k) {
  const Argument& a = ins().args[k];
  if (a.constant || l_.val(static_cast<size_t>(a.source)).kind != Val::Kind::Param)
    bad(k, "must be a parameter (the result of an <INPUT B=1>)");
  auto s = l_.param_shape(l_.val(static_cast<size_t>(a.source)).id);
  if (!s) fail(ins(), index_, "nac.weights.shape-unknown", "its attributes come from the shape of argument " +
                                                              std::to_string(k) + ", which is unknown without the weights");
  return *s;
}

// The rank of a value: the shapes of the graph so far, inferred (nac.transpose names two axes of a
// permutation whose length is the rank).
size_t rank_of(const Graph& g, ValueRef v, const Instruction& ins, size_t index) {
  Graph upto = g;
  upto.outputs = {{"rank", v}};
  auto info = infer_shapes(upto);
  if (!info) fail(ins, index, info.error().code, "its input's shape cannot be inferred: " + info.error().message);
  return info->nodes[static_cast<size_t>(v.node)].outputs[static_cast<size_t>(v.output)].rank();
}

// The standard and ATen operations, each as an IR op (docs/nac.md lists them).
using Adapter = std::function<OpAttrs(ArgReader&, Node&, const Graph&)>;

OpAttrs unary(UnaryOp op, ArgReader& r, Node& n) {
  r.expect(1, 1);
  n.inputs.push_back(r.tensor(0));
  return UnaryAttrs{op, 0.0};
}
OpAttrs binary(BinaryOp op, ArgReader& r, Node& n) {
  r.expect(2, 3);  // aten.add.Tensor and aten.sub.Tensor may carry alpha, which must be 1
  if (r.count() == 3 && r.real_at(2).value != 1.0) r.bad(2, "(alpha) is not 1, which nnref's binary ops assume");
  n.inputs = {r.tensor(0), r.tensor(1)};
  return BinaryAttrs{op, Broadcast::NumpyRight};
}
OpAttrs copy(ArgReader& r, Node& n) { return unary(UnaryOp::Copy, r, n); }

OpAttrs reshape(ArgReader& r, Node& n) {
  r.expect(2, 2);
  n.inputs.push_back(r.tensor(0));
  ReshapeAttrs a{r.ints_at(1)};
  for (int64_t d : a.dims)
    if (d == 0) r.bad(1, "has an extent 0, which PyTorch reads as empty and nnref's reshape as 'copy the input extent'");
  return a;
}

OpAttrs reduce(ReduceOp op, ArgReader& r, Node& n) {
  r.expect(1, 3);
  n.inputs.push_back(r.tensor(0));
  ReduceAttrs a;
  a.op = op;
  a.axes = r.count() > 1 ? r.ints_at(1) : std::vector<int64_t>{};
  a.keep_dims = r.count() > 2 && r.boolean_at(2);
  if (a.axes.empty()) r.bad(1, "is empty: reduce over all axes is not one of nnref's reduce attributes");
  return a;
}

OpAttrs pool(PoolOp op, ArgReader& r, Node& n) {
  // max_pool2d(x, kernel, stride, padding, dilation, ceil_mode); avg_pool2d(x, kernel, stride,
  // padding, ceil_mode, count_include_pad, divisor_override)
  r.expect(2, 7);
  n.inputs.push_back(r.tensor(0));
  PoolAttrs a;
  a.op = op;
  a.kernel = r.ints_at(1);
  const size_t s = a.kernel.size();
  a.stride = r.count() > 2 && !r.is_null(2) ? r.ints_at(2) : a.kernel;
  if (a.stride.empty()) a.stride = a.kernel;
  const std::vector<int64_t> pad = r.count() > 3 ? r.ints_at(3) : std::vector<int64_t>{0};
  for (size_t k = 0; k < s; ++k) {
    const int64_t p = pad.size() == 1 ? pad[0] : k < pad.size() ? pad[k] : 0;
    a.padding.emplace_back(p, p);
  }
  const size_t ceil_at = op == PoolOp::Max ? 5 : 4;
  if (op == PoolOp::Max && r.count() > 4) a.dilation = r.ints_at(4);
  if (r.count() > ceil_at && r.boolean_at(ceil_at)) r.bad(ceil_at, "(ceil_mode) is true; nnref's pools floor");
  if (op == PoolOp::Avg) {
    a.border = r.count() > 5 && !r.boolean_at(5) ? PoolBorder::Ignore : PoolBorder::Constant;
    if (r.count() > 6 && !r.is_null(6)) r.bad(6, "(divisor_override) is set; nnref's avg_pool has none");
  }
  for (auto* v : {&a.stride, &a.dilation})
    if (v->size() == 1 && s > 1) v->assign(s, (*v)[0]);
  return a;
}

const std::map<std::string, Adapter>& adapters() {
  static const std::map<std::string, Adapter> table = [] {
    std::map<std::string, Adapter> t;
    auto u = [&](const std::string& name, UnaryOp op) {
      t[name] = [op](ArgReader& r, Node& n, const Graph&) { return unary(op, r, n); };
    };
    u("nac.neg", UnaryOp::Neg);
    for (const char* name : {"nac.pass", "nac.clone", "aten.clone.default", "aten.alias.default", "aten.detach.default",
                             "aten.dropout.default"})
      t[name] = [](ArgReader& r, Node& n, const Graph&) {
        if (r.count() > 1 && r.ins().name == "aten.dropout.default") {  // (x, p, train): eval only
          if (r.count() == 3 && r.boolean_at(2)) r.bad(2, "(train) is true; nnref evaluates inference");
          n.inputs.push_back(r.tensor(0));
          return OpAttrs{UnaryAttrs{UnaryOp::Copy, 0.0}};
        }
        return copy(r, n);
      };
    const std::pair<const char*, UnaryOp> aten_unary[] = {
        {"relu", UnaryOp::Relu},   {"sigmoid", UnaryOp::Sigmoid}, {"tanh", UnaryOp::Tanh},
        {"exp", UnaryOp::Exp},     {"log", UnaryOp::Log},         {"sqrt", UnaryOp::Sqrt},
        {"rsqrt", UnaryOp::Rsqrt}, {"abs", UnaryOp::Abs},         {"neg", UnaryOp::Neg},
        {"sin", UnaryOp::Sin},     {"cos", UnaryOp::Cos},         {"floor", UnaryOp::Floor},
        {"ceil", UnaryOp::Ceil},   {"reciprocal", UnaryOp::Rcp},  {"log2", UnaryOp::Log2},
        {"sign", UnaryOp::Sign},   {"square", UnaryOp::Sqr}};
    for (const auto& [stem, op] : aten_unary) u(std::string("aten.") + stem + ".default", op);
    t["aten.leaky_relu.default"] = [](ArgReader& r, Node& n, const Graph&) {
      r.expect(1, 2);
      n.inputs.push_back(r.tensor(0));
      return OpAttrs{UnaryAttrs{UnaryOp::LeakyRelu, r.count() > 1 ? r.real_at(1) : Real(0.01, "0.01")}};
    };
    t["aten.elu.default"] = [](ArgReader& r, Node& n, const Graph&) {
      r.expect(1, 4);
      n.inputs.push_back(r.tensor(0));
      for (size_t k = 2; k < r.count(); ++k)
        if (r.real_at(k).value != 1.0) r.bad(k, "(scale or input_scale) is not 1, which nnref's elu assumes");
      return OpAttrs{UnaryAttrs{UnaryOp::Elu, r.count() > 1 ? r.real_at(1) : Real(1.0)}};
    };
    auto b = [&](std::initializer_list<const char*> names, BinaryOp op) {
      for (const char* name : names) t[name] = [op](ArgReader& r, Node& n, const Graph&) { return binary(op, r, n); };
    };
    b({"nac.add", "aten.add.Tensor"}, BinaryOp::Add);
    b({"nac.sub", "aten.sub.Tensor"}, BinaryOp::Sub);
    b({"nac.mul", "aten.mul.Tensor"}, BinaryOp::Mul);
    b({"nac.div", "aten.div.Tensor"}, BinaryOp::Div);
    b({"aten.pow.Tensor_Tensor"}, BinaryOp::Pow);
    b({"aten.maximum.default"}, BinaryOp::Max);
    b({"aten.minimum.default"}, BinaryOp::Min);
    t["nac.where"] = t["aten.where.self"] = [](ArgReader& r, Node& n, const Graph&) {
      r.expect(3, 3);
      n.inputs = {r.tensor(0), r.tensor(1), r.tensor(2)};
      return OpAttrs{SelectAttrs{Broadcast::NumpyRight}};
    };
    for (const char* name : {"nac.matmul", "aten.mm.default", "aten.bmm.default", "aten.matmul.default"})
      t[name] = [](ArgReader& r, Node& n, const Graph&) {
        r.expect(2, 2);
        n.inputs = {r.tensor(0), r.tensor(1)};
        return OpAttrs{MatMulAttrs{}};
      };
    for (const char* name : {"nac.view", "aten.view.default", "aten.reshape.default", "aten._unsafe_view.default"})
      t[name] = [](ArgReader& r, Node& n, const Graph&) { return reshape(r, n); };
    t["nac.transpose"] = t["aten.transpose.int"] = [](ArgReader& r, Node& n, const Graph& g) {
      r.expect(3, 3);
      n.inputs.push_back(r.tensor(0));
      const auto rank = static_cast<int64_t>(rank_of(g, n.inputs[0], r.ins(), r.index()));
      TransposeAttrs a;
      for (int64_t k = 0; k < rank; ++k) a.perm.push_back(k);
      int64_t d0 = r.integer_at(1), d1 = r.integer_at(2);
      d0 += d0 < 0 ? rank : 0;
      d1 += d1 < 0 ? rank : 0;
      if (d0 < 0 || d0 >= rank || d1 < 0 || d1 >= rank) r.bad(1, "names an axis outside the input's rank");
      std::swap(a.perm[static_cast<size_t>(d0)], a.perm[static_cast<size_t>(d1)]);
      return OpAttrs{a};
    };
    t["aten.permute.default"] = [](ArgReader& r, Node& n, const Graph&) {
      r.expect(2, 2);
      n.inputs.push_back(r.tensor(0));
      return OpAttrs{TransposeAttrs{r.ints_at(1)}};
    };
    t["aten.linear.default"] = [](ArgReader& r, Node& n, const Graph&) {
      r.expect(2, 3);
      n.inputs.push_back(r.tensor(0));
      const auto w = r.param_shape(1);
      if (w.size() != 2) r.bad(1, "is not a matrix");
      LinearAttrs a{w[0], WeightLayout::OutIn, r.count() == 3 && !r.is_null(2)};
      r.param_at(1, "weight");
      if (a.has_bias) r.param_at(2, "bias");
      return OpAttrs{a};
    };
    t["aten.addmm.default"] = [](ArgReader& r, Node& n, const Graph&) {  // bias + x·W, W [in, out]
      r.expect(3, 5);
      for (size_t k = 3; k < r.count(); ++k)
        if (r.real_at(k).value != 1.0) r.bad(k, "(beta or alpha) is not 1, which nnref's linear assumes");
      n.inputs.push_back(r.tensor(1));
      const auto w = r.param_shape(2);
      if (w.size() != 2) r.bad(2, "is not a matrix");
      r.param_at(2, "weight");
      r.param_at(0, "bias");
      return OpAttrs{LinearAttrs{w[1], WeightLayout::InOut, true}};
    };
    auto conv = [](ArgReader& r, Node& n, size_t dilation_at, size_t groups_at) {
      n.inputs.push_back(r.tensor(0));
      const auto w = r.param_shape(1);
      if (w.size() < 3) r.bad(1, "is not a convolution kernel [out, in/groups, k...]");
      ConvAttrs a;
      a.out_channels = w[0];
      a.kernel.assign(w.begin() + 2, w.end());
      const size_t s = a.kernel.size();
      a.has_bias = r.count() > 2 && !r.is_null(2);
      auto per_axis = [&](size_t k, int64_t fallback) {
        std::vector<int64_t> v = r.count() > k ? r.ints_at(k) : std::vector<int64_t>{fallback};
        if (v.size() == 1) v.assign(s, v[0]);
        return v;
      };
      a.stride = per_axis(3, 1);
      const auto pad = per_axis(4, 0);
      a.dilation = per_axis(dilation_at, 1);
      if (a.stride.size() != s || pad.size() != s || a.dilation.size() != s)
        r.bad(3, "gives stride, padding or dilation for another number of spatial axes than the kernel's");
      for (int64_t p : pad) a.padding.emplace_back(p, p);
      a.groups = r.count() > groups_at ? r.integer_at(groups_at) : 1;
      r.param_at(1, "weight");
      if (a.has_bias) r.param_at(2, "bias");
      return OpAttrs{a};
    };
    // convolution(x, w, b, stride, padding, dilation, transposed, output_padding, groups)
    t["aten.convolution.default"] = [conv](ArgReader& r, Node& n, const Graph&) {
      r.expect(9, 9);
      if (r.boolean_at(6)) r.bad(6, "(transposed) is true; nnref has no transposed convolution");
      return conv(r, n, 5, 8);
    };
    // conv2d(x, w, b, stride, padding, dilation, groups)
    t["aten.conv2d.default"] = [conv](ArgReader& r, Node& n, const Graph&) {
      r.expect(2, 7);
      return conv(r, n, 5, 6);
    };
    for (const char* name : {"aten.max_pool2d.default", "aten.max_pool2d_with_indices.default"})
      t[name] = [](ArgReader& r, Node& n, const Graph&) { return pool(PoolOp::Max, r, n); };
    t["aten.avg_pool2d.default"] = [](ArgReader& r, Node& n, const Graph&) { return pool(PoolOp::Avg, r, n); };
    // (x, weight, bias, running_mean, running_var, momentum, eps)
    t["aten._native_batch_norm_legit_no_training.default"] = [](ArgReader& r, Node& n, const Graph&) {
      r.expect(7, 7);
      n.inputs.push_back(r.tensor(0));
      r.param_at(1, "scale");
      r.param_at(2, "offset");
      r.param_at(3, "mean");
      r.param_at(4, "variance");
      return OpAttrs{BatchNormAttrs{r.real_at(6), 1}};
    };
    // (x, normalized_shape, weight, bias, eps)
    t["aten.layer_norm.default"] = [](ArgReader& r, Node& n, const Graph&) {
      r.expect(2, 5);
      n.inputs.push_back(r.tensor(0));
      LayerNormAttrs a;
      const auto normalized = r.ints_at(1);
      for (size_t k = 0; k < normalized.size(); ++k) a.axes.push_back(-static_cast<int64_t>(normalized.size() - k));
      a.affine = r.count() > 2 && !r.is_null(2);
      if (a.affine) {
        r.param_at(2, "scale");
        if (r.count() < 4 || r.is_null(3)) r.bad(2, "is a weight without a bias; nnref's layer norm has both or neither");
        r.param_at(3, "offset");
      }
      a.epsilon = r.count() > 4 ? r.real_at(4) : Real(1e-5, "1e-5");
      return OpAttrs{a};
    };
    for (const char* name : {"aten.softmax.int", "aten._softmax.default"})
      t[name] = [](ArgReader& r, Node& n, const Graph&) {
        r.expect(2, 3);
        n.inputs.push_back(r.tensor(0));
        return OpAttrs{SoftmaxAttrs{{r.integer_at(1)}, 0}};
      };
    t["aten.cat.default"] = [](ArgReader& r, Node&, const Graph&) {  // (x..., dim)
      r.inputs();
      const size_t k = r.next();
      r.expect(k, k + 1);
      return OpAttrs{ConcatAttrs{k < r.count() ? r.integer_at(k) : 0, 0}};
    };
    t["aten.flatten.using_ints"] = [](ArgReader& r, Node& n, const Graph&) {
      r.expect(1, 3);
      n.inputs.push_back(r.tensor(0));
      const int64_t start = r.count() > 1 ? r.integer_at(1) : 0, end = r.count() > 2 ? r.integer_at(2) : -1;
      if (end != -1 || start < 0) r.bad(1, "flattens other than from a non-negative start to the last axis");
      return OpAttrs{FlattenAttrs{start}};
    };
    t["aten.mean.dim"] = [](ArgReader& r, Node& n, const Graph&) { return reduce(ReduceOp::Mean, r, n); };
    t["aten.sum.dim_IntList"] = [](ArgReader& r, Node& n, const Graph&) { return reduce(ReduceOp::Sum, r, n); };
    t["aten.amax.default"] = [](ArgReader& r, Node& n, const Graph&) { return reduce(ReduceOp::Max, r, n); };
    t["aten.amin.default"] = [](ArgReader& r, Node& n, const Graph&) { return reduce(ReduceOp::Min, r, n); };
    t["aten.unsqueeze.default"] = [](ArgReader& r, Node& n, const Graph&) {
      r.expect(2, 2);
      n.inputs.push_back(r.tensor(0));
      return OpAttrs{UnsqueezeAttrs{r.ints_at(1)}};
    };
    for (const char* name : {"aten.squeeze.dims", "aten.squeeze.dim"})
      t[name] = [](ArgReader& r, Node& n, const Graph&) {
        r.expect(2, 2);
        n.inputs.push_back(r.tensor(0));
        return OpAttrs{SqueezeAttrs{r.ints_at(1)}};
      };
    return t;
  }();
  return table;
}

// nac.zeros / nac.ones / nac.full with a constant shape: a Const node holding the value.
bool is_filled_constant(const std::string& name) {
  return name == "nac.zeros" || name == "nac.ones" || name == "nac.full";
}

Val Lowering::regular(const Instruction& ins, size_t i) {
  const std::string name = node_name(i);
  if (ins.name == "getitem" || ins.name == "operator.getitem" || ins.name == "nac.getitem") {
    Node scratch;
    ArgReader r(*this, i, scratch);
    r.expect(2, 2);
    const Argument& a = ins.args[0];
    if (a.constant || vals_[static_cast<size_t>(a.source)].kind != Val::Kind::Tensor) r.bad(0, "is not an operation's result");
    const Val& v = vals_[static_cast<size_t>(a.source)];
    const int64_t k = r.integer_at(1);
    if (k < 0 || k >= v.outputs)
      r.bad(1, "picks result " + std::to_string(k) + " of an operation with " + std::to_string(v.outputs));
    return {Val::Kind::Tensor, {v.ref.node, static_cast<int>(k)}, 1, 0};
  }
  Node node;
  node.name = name;
  node.loc = loc();
  ArgReader r(*this, i, node);
  OpAttrs op;
  if (ins.name.rfind("nnref.", 0) == 0) {
    auto attrs = op_by_name(ins.name.substr(6));
    if (!attrs) fail(ins, i, "nac.op.unsupported", "'" + ins.name + "' names no op of nnref's");
    op = *attrs;
    std::visit([&](auto& a) { fields(r, a); }, op);
    r.done();
  } else if (is_filled_constant(ins.name)) {
    r.expect(ins.name == "nac.full" ? 2 : 1, ins.name == "nac.full" ? 2 : 1);
    const std::vector<int64_t> dims = r.ints_at(0);
    const double fill = ins.name == "nac.zeros" ? 0.0 : ins.name == "nac.ones" ? 1.0 : r.real_at(1).value;
    const int64_t count = checked_element_count(dims);
    if (count < 0 || count > (int64_t{1} << 24)) r.bad(0, "is not a shape of at most 2^24 elements");
    HostTensor t;
    t.dtype = DType::F64;
    t.shape = Shape::make(dims).value();
    t.values.assign(static_cast<size_t>(count), fill);
    return {Val::Kind::Tensor, constant_node(name, dims, &t, "CNST", name), 1, 0};
  } else {
    auto it = adapters().find(ins.name);
    if (it == adapters().end())
      fail(ins, i, "nac.op.unsupported", "'" + ins.name + "' has no counterpart among nnref's ops");
    op = it->second(r, node, m_.graph);
  }
  const int outputs = std::holds_alternative<SplitAttrs>(op) ? static_cast<int>(std::get<SplitAttrs>(op).ratios.size()) : 1;
  const int64_t id = m_.graph.add(name, std::move(op), std::move(node.inputs), node.loc);
  return {Val::Kind::Tensor, {id, 0}, outputs, 0};
}

}  // namespace

std::variant<Model, FormatError> lower(const Program& p, const WeightStore& weights, const std::string& path,
                                       const LoadOptions& options) {
  try {
    return Lowering(p, weights, path, options).run();
  } catch (const FormatError& e) {
    return e;
  }
}

}  // namespace nnref::nac
