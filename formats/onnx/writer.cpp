// Each IR op as the ONNX op that formats/onnx/ops/ reads back into it. ONNX's forms are
// narrower in places (channels first, NumPy broadcasting, one softmax axis): the writer adds the
// data movement that keeps the formula (transposes around a channels-last conv, pool or
// batch_normalization; unsqueezes before a left-aligned operand), and refuses the rest.
//
// Opset 17: the newest the reader knows (ONNX 1.12), and the first with LayerNormalization.
#include "formats/onnx/writer.hpp"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "formats/onnx/integral.hpp"
#include "formats/write_support.hpp"
#include "semantics/op.hpp"
#include "semantics/size_names.hpp"

namespace nnref {

namespace {

using convert::iota;
using convert::unexpressible;

constexpr std::string_view kFormat = "ONNX";
constexpr int64_t kOpset = 17;
// Raw tensor data is little-endian (onnx.proto); the writer copies the machine's bytes.
static_assert(std::endian::native == std::endian::little);

// The ONNX element type of the graph: double when a model of precision float64, or a parameter
// with a value float32 does not hold (float64 weights, NNL's standardize constants), so that every
// parameter is written exactly; float otherwise (a float64 255 of normalize_0_1 is a float32 too),
// which every runtime implements (ONNX Runtime has no double Conv on the CPU).
int32_t element_type(const Model& m) {
  if (m.precision == "float64") return onnx::TensorProto::DOUBLE;
  for (const auto& [key, e] : m.payload.entries())
    if (e.tensor.dtype != DType::F32 && e.tensor.dtype != DType::F16)
      for (double v : e.tensor.values)
        if (!std::isnan(v) && static_cast<double>(static_cast<float>(v)) != v) return onnx::TensorProto::DOUBLE;
  return onnx::TensorProto::FLOAT;
}

std::vector<int64_t> flat_pads(const std::vector<std::pair<int64_t, int64_t>>& p) {
  std::vector<int64_t> v;
  for (const auto& x : p) v.push_back(x.first);
  for (const auto& x : p) v.push_back(x.second);
  return v;
}

class Emitter {
 public:
  Emitter(const Model& m, const convert::Prepared& p, onnx::GraphProto& gp)
      : m_(m), g_(p.graph), info_(p.info), open_(p.open_sizes), gp_(gp), elem_(element_type(m)) {
    for (const GraphOutput& o : g_.outputs) {
      used_.insert(o.name);
      const auto& op = g_.nodes[static_cast<size_t>(o.value.node)].op;
      const bool source = std::holds_alternative<InputAttrs>(op) || std::holds_alternative<ConstAttrs>(op);
      if (!source && !output_names_.count({o.value.node, o.value.output}))
        output_names_[{o.value.node, o.value.output}] = o.name;
    }
  }

  std::vector<Diagnostic> run() {
    names_.resize(g_.nodes.size());
    for (const Node& n : g_.nodes) {
      const size_t outs = info_.nodes[static_cast<size_t>(n.id)].outputs.size();
      // A constant's name is its initializer's, which node() chooses.
      if (std::holds_alternative<ConstAttrs>(n.op)) names_[static_cast<size_t>(n.id)].emplace_back();
      for (size_t k = names_[static_cast<size_t>(n.id)].size(); k < outs; ++k) {
        const auto it = output_names_.find({n.id, static_cast<int>(k)});
        names_[static_cast<size_t>(n.id)].push_back(
            it != output_names_.end() ? it->second : fresh(k == 0 ? n.name : n.name + ":" + std::to_string(k)));
      }
      std::visit([&](const auto& a) { node(n, a); }, n.op);
    }
    const std::optional<GraphInfo> moved = shapes_with_open_sizes_moved();
    std::set<std::string> written;
    for (const GraphOutput& o : g_.outputs) {
      if (!written.insert(o.name).second) continue;
      if (value(o.value) != o.name) {
        onnx::NodeProto* id = gp_.add_node();
        id->set_op_type("Identity");
        id->set_name(fresh_node(o.name + "/output"));
        id->add_input(value(o.value));
        id->add_output(o.name);
      }
      // An extent that changes with an open size is written without a value.
      std::vector<int64_t> varying;
      const std::vector<int64_t>& dims = shape(o.value);
      for (size_t k = 0; k < dims.size(); ++k)
        if (!open_.empty() && (!moved || moved->nodes[static_cast<size_t>(o.value.node)]
                                                 .outputs[static_cast<size_t>(o.value.output)][k] != dims[k]))
          varying.push_back(static_cast<int64_t>(k));
      declare(gp_.add_output(), o.name, dims, varying, {}, kind_of_value(o.value));
    }
    return std::move(warnings_);
  }

 private:
  // ---- names ----

  std::string fresh(const std::string& base) {
    std::string name = base;
    for (int k = 2; !used_.insert(name).second; ++k) name = base + "#" + std::to_string(k);
    return name;
  }
  std::string fresh_node(const std::string& base) {
    std::string name = base;
    for (int k = 2; !node_names_.insert(name).second; ++k) name = base + "#" + std::to_string(k);
    return name;
  }
  std::string value(ValueRef r) const { return names_[static_cast<size_t>(r.node)][static_cast<size_t>(r.output)]; }
  std::string in(const Node& n, size_t k) const { return value(n.inputs[k]); }
  const std::vector<int64_t>& shape(ValueRef r) const {
    return info_.nodes[static_cast<size_t>(r.node)].outputs[static_cast<size_t>(r.output)].dims();
  }
  const std::vector<int64_t>& in_shape(const Node& n, size_t k = 0) const { return shape(n.inputs[k]); }
  const std::vector<int64_t>& out_shape(const Node& n) const { return info_.nodes[static_cast<size_t>(n.id)].outputs[0].dims(); }

  // ---- nodes, initializers and attributes ----

  // An ONNX node of n: the one that writes n's value (suffix ""), or a helper before it.
  onnx::NodeProto& add(const Node& n, const std::string& suffix, const std::string& op, const std::vector<std::string>& ins,
                       const std::vector<std::string>& outs) {
    onnx::NodeProto* p = gp_.add_node();
    p->set_op_type(op);
    p->set_name(fresh_node(suffix.empty() ? n.name : n.name + "/" + suffix));
    for (const std::string& i : ins) p->add_input(i);
    for (const std::string& o : outs) p->add_output(o);
    return *p;
  }
  onnx::NodeProto& result(const Node& n, const std::string& op, const std::vector<std::string>& ins) {
    return add(n, "", op, ins, {value(ValueRef{n.id, 0})});
  }
  std::string helper(const Node& n, const std::string& suffix, const std::string& op, const std::vector<std::string>& ins) {
    const std::string out = fresh(n.name + "/" + suffix);
    add(n, suffix, op, ins, {out});
    return out;
  }

  // An int64 initializer: 1-D, or with `scalar` 0-D (v holds its one value).
  std::string ints(const Node& n, const std::string& what, const std::vector<int64_t>& v, bool scalar = false) {
    onnx::TensorProto* t = gp_.add_initializer();
    t->set_name(fresh(n.name + "/" + what));
    t->set_data_type(onnx::TensorProto::INT64);
    if (!scalar) t->add_dims(static_cast<int64_t>(v.size()));
    for (int64_t x : v) t->add_int64_data(x);
    return t->name();
  }
  // A scalar (rank 0) of an integer or logical kind: an int64, or a bool (v ≠ 0).
  std::string exact_scalar(const Node& n, const std::string& what, ElemKind kind, int64_t v) {
    onnx::TensorProto* t = gp_.add_initializer();
    t->set_name(fresh(n.name + "/" + what));
    t->set_data_type(type_of(kind));
    if (kind == ElemKind::Integer) t->add_int64_data(v);
    else t->add_int32_data(v != 0 ? 1 : 0);
    return t->name();
  }
  // A tensor in the graph's element type, its bytes raw: every value of a float32 or float16
  // parameter is a float32 (and a double) exactly, so the values read back are the same.
  std::string tensor(const std::string& name, const HostTensor& h, const std::vector<int64_t>& dims) {
    onnx::TensorProto* t = gp_.add_initializer();
    t->set_name(fresh(name));
    t->set_data_type(elem_);
    for (int64_t d : dims) t->add_dims(d);
    std::string raw;
    if (elem_ == onnx::TensorProto::FLOAT) {
      raw.resize(h.values.size() * 4);
      for (size_t k = 0; k < h.values.size(); ++k) {
        const auto f = static_cast<float>(h.values[k]);
        std::memcpy(raw.data() + 4 * k, &f, 4);
      }
    } else {
      raw.resize(h.values.size() * 8);
      std::memcpy(raw.data(), h.values.data(), raw.size());
    }
    t->set_raw_data(raw);
    return t->name();
  }
  // Parameter `role` of n as an input: the payload's tensor as an initializer of extents `dims`
  // (its own when empty), or the value the graph computes it as (Node::param_values).
  std::string param(const Node& n, const std::string& role, const std::vector<int64_t>& dims = {}) {
    if (const ValueRef* v = n.param_value(role)) {
      const std::vector<int64_t>& computed = info_.nodes[static_cast<size_t>(v->node)].outputs[static_cast<size_t>(v->output)].dims();
      if (!dims.empty() && computed != dims)
        unexpressible(kFormat, n, "its parameter '" + role + "' is computed with shape " + Shape::make(computed).value().str() +
                                      ", and ONNX reads it here as " + Shape::make(dims).value().str());
      return value(*v);
    }
    const ParamEntry* e = m_.payload.find(n.name, role);
    if (!e) unexpressible(kFormat, n, "its parameter '" + role + "' has no value (the model was loaded without weights)");
    return tensor(n.name + "/" + role, e->tensor, dims.empty() ? e->tensor.shape.dims() : dims);
  }
  std::string filled(const Node& n, const std::string& what, double v, const std::vector<int64_t>& dims) {
    const int64_t count = checked_element_count(dims);
    return tensor(n.name + "/" + what, HostTensor{DType::F64, Shape(), std::vector<double>(static_cast<size_t>(count), v)}, dims);
  }

  static void attr(onnx::NodeProto& p, const std::string& name, int64_t v) {
    auto* a = p.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }
  static void attr(onnx::NodeProto& p, const std::string& name, const std::vector<int64_t>& v) {
    auto* a = p.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
  }
  static void attr(onnx::NodeProto& p, const std::string& name, const std::string& v) {
    auto* a = p.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
  }
  // ONNX float attributes are float32: a value float32 does not hold is rounded, with a warning.
  void attr(onnx::NodeProto& p, const Node& n, const std::string& name, const Real& r) {
    const auto f = static_cast<float>(r.value);
    if (static_cast<double>(f) != r.value) {
      Diagnostic w = make_warning("convert.float-attribute",
                                  "node '" + n.name + "' (" + op_name(n.op) + "): " + name + " " +
                                      (r.decimal.empty() ? std::to_string(r.value) : r.decimal) +
                                      " is written as the float32 nearest to it (ONNX attributes are float32): a "
                                      "float32 run of the converted model reads the same float, a float64 run reads that "
                                      "float instead of the model's value",
                                  n.loc);
      w.node = n.name;
      warnings_.push_back(std::move(w));
    }
    auto* a = p.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(f);
  }

  // The ONNX element type of a value of this kind: the graph's float type, int64 or bool.
  int32_t type_of(ElemKind k) const {
    return k == ElemKind::Real ? elem_ : k == ElemKind::Integer ? onnx::TensorProto::INT64 : onnx::TensorProto::BOOL;
  }
  ElemKind kind_of_value(ValueRef r) const { return op_signature(g_.nodes[static_cast<size_t>(r.node)].op).result; }

  void declare(onnx::ValueInfoProto* v, const std::string& name, const std::vector<int64_t>& dims,
               const std::vector<int64_t>& varying, const std::map<size_t, std::string>& params, ElemKind kind) const {
    v->set_name(name);
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(type_of(kind));
    auto* s = tt->mutable_shape();
    for (size_t k = 0; k < dims.size(); ++k) {
      auto* d = s->add_dim();
      if (const auto p = params.find(k); p != params.end()) d->set_dim_param(p->second);
      else if (std::find(varying.begin(), varying.end(), static_cast<int64_t>(k)) == varying.end()) d->set_dim_value(dims[k]);
    }
  }

  // The shapes again with every open size one larger; nullopt when they cannot be inferred.
  std::optional<GraphInfo> shapes_with_open_sizes_moved() const {
    if (open_.empty()) return std::nullopt;
    Graph moved = g_;
    std::vector<std::pair<std::string, int64_t>> dims;
    for (const SizeName& s : open_)
      if (std::none_of(dims.begin(), dims.end(), [&](const auto& d) { return d.first == s.name; }))
        dims.emplace_back(s.name, std::get<InputAttrs>(g_.nodes[static_cast<size_t>(s.node)].op).dims[s.axis] + 1);
    if (!set_input_extents(moved, open_, dims)) return std::nullopt;
    Result<GraphInfo> info = infer_shapes(moved);
    if (!info) return std::nullopt;
    return std::move(info).value();
  }

  // Operand k of n as NumPy's right-aligned broadcasting reads it: under NNEF's left alignment a
  // shorter operand first gains trailing axes of extent 1 (Unsqueeze: data movement only).
  std::string aligned(const Node& n, size_t k, Broadcast b) {
    const size_t rank = out_shape(n).size(), r = in_shape(n, k).size();
    if (b != Broadcast::NnefLeft || r == rank) return in(n, k);
    return helper(n, "operand" + std::to_string(k), "Unsqueeze",
                  {in(n, k), ints(n, "operand" + std::to_string(k) + "-axes", iota(static_cast<int64_t>(r), static_cast<int64_t>(rank)))});
  }
  std::string transposed(const Node& n, const std::string& x, const std::vector<int64_t>& perm, const std::string& what) {
    const std::string out = fresh(n.name + "/" + what);
    attr(add(n, what, "Transpose", {x}, {out}), "perm", perm);
    return out;
  }

  // ---- one function per op ----

  // An integer input is int64, a logical one bool.
  void node(const Node& n, const InputAttrs& a) {
    std::map<size_t, std::string> open;
    for (const SizeName& s : open_)
      if (s.node == n.id) open[s.axis] = s.name;
    declare(gp_.add_input(), value({n.id, 0}), a.dims, {}, open, a.kind);
  }

  void node(const Node& n, const ConstAttrs& a) {
    const ParamEntry* e = m_.payload.find(n.name, "value");
    if (!e) unexpressible(kFormat, n, "its value is not loaded");
    if (a.kind == ElemKind::Real) return void(names_[static_cast<size_t>(n.id)][0] = tensor(n.name, e->tensor, a.dims));
    // Integer and logical values, as the const op reads them: rounded to integers, true where nonzero.
    onnx::TensorProto* t = gp_.add_initializer();
    t->set_name(fresh(n.name));
    t->set_data_type(type_of(a.kind));
    for (int64_t d : a.dims) t->add_dims(d);
    for (double v : e->tensor.values) {
      if (a.kind == ElemKind::Integer) t->add_int64_data(std::llround(v));
      else t->add_int32_data(v != 0.0 ? 1 : 0);
    }
    names_[static_cast<size_t>(n.id)][0] = t->name();
  }

  void node(const Node& n, const UnaryAttrs& a) {
    static const std::map<UnaryOp, const char*> ops = {
        {UnaryOp::Copy, "Identity"}, {UnaryOp::Neg, "Neg"},     {UnaryOp::Rcp, "Reciprocal"}, {UnaryOp::Exp, "Exp"},
        {UnaryOp::Log, "Log"},       {UnaryOp::Sin, "Sin"},     {UnaryOp::Cos, "Cos"},        {UnaryOp::Tan, "Tan"},
        {UnaryOp::Sinh, "Sinh"},     {UnaryOp::Cosh, "Cosh"},   {UnaryOp::Tanh, "Tanh"},      {UnaryOp::Asin, "Asin"},
        {UnaryOp::Acos, "Acos"},     {UnaryOp::Atan, "Atan"},   {UnaryOp::Asinh, "Asinh"},    {UnaryOp::Acosh, "Acosh"},
        {UnaryOp::Atanh, "Atanh"},   {UnaryOp::Abs, "Abs"},     {UnaryOp::Sign, "Sign"},      {UnaryOp::Floor, "Floor"},
        {UnaryOp::Ceil, "Ceil"},     {UnaryOp::Sqrt, "Sqrt"},   {UnaryOp::Relu, "Relu"},      {UnaryOp::Sigmoid, "Sigmoid"},
        {UnaryOp::Softplus, "Softplus"}, {UnaryOp::Elu, "Elu"}, {UnaryOp::LeakyRelu, "LeakyRelu"},
        {UnaryOp::Erf, "Erf"},       {UnaryOp::RoundEven, "Round"}};
    // round_f16, round_bf16: a Cast to the narrow type and back to float32, which rounds as they do.
    if (a.op == UnaryOp::RoundF16 || a.op == UnaryOp::RoundBF16) {
      const int64_t narrow = a.op == UnaryOp::RoundF16 ? onnx::TensorProto::FLOAT16 : onnx::TensorProto::BFLOAT16;
      const std::string rounded = fresh(n.name + "/narrow");
      attr(add(n, "narrow", "Cast", {in(n, 0)}, {rounded}), "to", narrow);
      attr(result(n, "Cast", {rounded}), "to", int64_t{onnx::TensorProto::FLOAT});
      return;
    }
    const auto it = ops.find(a.op);
    if (it == ops.end())
      unexpressible(kFormat, n, "ONNX has no op with its formula (round is floor(x + 0.5), ONNX's Round rounds half to "
                                "even; sqr, rsqr, rsqrt and log2 have no single ONNX op)");
    onnx::NodeProto& p = result(n, it->second, {in(n, 0)});
    if (a.op == UnaryOp::Elu || a.op == UnaryOp::LeakyRelu) attr(p, n, "alpha", a.alpha);
  }

  void node(const Node& n, const BinaryAttrs& a) {
    static const std::map<BinaryOp, const char*> ops = {{BinaryOp::Add, "Add"}, {BinaryOp::Sub, "Sub"}, {BinaryOp::Mul, "Mul"},
                                                        {BinaryOp::Div, "Div"}, {BinaryOp::Pow, "Pow"}, {BinaryOp::Min, "Min"},
                                                        {BinaryOp::Max, "Max"}, {BinaryOp::Fmod, "Mod"}};
    onnx::NodeProto& p = result(n, ops.at(a.op), {aligned(n, 0, a.broadcast), aligned(n, 1, a.broadcast)});
    if (a.op == BinaryOp::Fmod) attr(p, "fmod", int64_t{1});
  }
  // On int64 tensors ONNX's Add, Sub, Mul wrap, its Div truncates, Mod takes the divisor's sign
  // (fmod 0) or the dividend's (fmod 1): integer_binary's formulas (spec/integer_arith.hpp). A zero
  // divisor has no value in either. A result of a narrower type (every integer is written int64) is
  // then wrapped to it in int64: unsigned, z mod 2^bits; signed, (z + 2^(bits−1)) mod 2^bits −
  // 2^(bits−1); Mod with fmod 0, whose result takes the positive divisor's sign, and exact because
  // 2^bits divides the 2^64 that int64's + wraps at.
  void node(const Node& n, const IntegerBinaryAttrs& a) {
    static const std::map<IntegerOp, const char*> ops = {
        {IntegerOp::Add, "Add"}, {IntegerOp::Sub, "Sub"}, {IntegerOp::Mul, "Mul"}, {IntegerOp::Div, "Div"},
        {IntegerOp::Mod, "Mod"}, {IntegerOp::Fmod, "Mod"}, {IntegerOp::Min, "Min"}, {IntegerOp::Max, "Max"}};
    const std::vector<std::string> ins{aligned(n, 0, a.broadcast), aligned(n, 1, a.broadcast)};
    const bool narrow = bits_of(a.type.width) < 64;
    const std::string z = narrow ? fresh(n.name + "/int64") : value(ValueRef{n.id, 0});
    onnx::NodeProto& p = add(n, narrow ? "int64" : "", ops.at(a.op), ins, {z});
    if (a.op == IntegerOp::Fmod) attr(p, "fmod", int64_t{1});
    if (narrow) wrap_to(n, z, a.type);
  }
  void wrap_to(const Node& n, const std::string& z, IntegerType t) {
    const int64_t modulus = int64_t{1} << bits_of(t.width);
    const std::string m = exact_scalar(n, "modulus", ElemKind::Integer, modulus);
    if (!t.is_signed) return void(result(n, "Mod", {z, m}));
    const std::string half = exact_scalar(n, "half", ElemKind::Integer, modulus / 2);
    result(n, "Sub", {helper(n, "wrapped", "Mod", {helper(n, "shifted", "Add", {z, half}), m}), half});
  }
  // add_n is Σ x_i: ONNX's Sum (of one tensor, Identity). The reader reads a Sum of several as
  // additions left to right, the order in which add_n's oracle sums.
  void node(const Node& n, const AddNAttrs&) {
    std::vector<std::string> ins;
    for (size_t k = 0; k < n.inputs.size(); ++k) ins.push_back(in(n, k));
    result(n, n.inputs.size() == 1 ? "Identity" : "Sum", ins);
  }
  // clamp(x, a, b) is max(min(x, b), a): ONNX's Clip takes scalar bounds only, Min and Max any.
  void node(const Node& n, const ClampAttrs& a) {
    const std::string upper = helper(n, "upper", "Min", {aligned(n, 0, a.broadcast), aligned(n, 2, a.broadcast)});
    result(n, "Max", {upper, aligned(n, 1, a.broadcast)});
  }
  void node(const Node& n, const PreluAttrs& a) { result(n, "PRelu", {aligned(n, 0, a.broadcast), aligned(n, 1, a.broadcast)}); }
  void node(const Node& n, const SelectAttrs& a) {
    result(n, "Where", {aligned(n, 0, a.broadcast), aligned(n, 1, a.broadcast), aligned(n, 2, a.broadcast)});
  }
  void node(const Node& n, const BroadcastToAttrs& a) {
    if (!a.computed.empty()) unexpressible(kFormat, n, "its dims are computed from extents, which the writer does not write yet");
    const size_t r = in_shape(n).size();
    std::string x = in(n, 0);
    if (a.broadcast == Broadcast::NnefLeft && r < a.dims.size())
      x = helper(n, "aligned", "Unsqueeze", {x, ints(n, "aligned-axes", iota(static_cast<int64_t>(r), static_cast<int64_t>(a.dims.size())))});
    result(n, "Expand", {x, ints(n, "shape", a.dims)});
  }

  void node(const Node& n, const LinearAttrs& a) {
    std::vector<std::string> ins{in(n, 0), param(n, "weight")};
    if (a.has_bias) ins.push_back(param(n, "bias", {a.units}));
    onnx::NodeProto& p = result(n, "Gemm", ins);
    if (a.layout == WeightLayout::OutIn) attr(p, "transB", int64_t{1});
  }

  // MatMul has no transposes: Gemm has them for rank 2; otherwise a Transpose of the last two axes.
  void node(const Node& n, const MatMulAttrs& a) {
    const size_t r = in_shape(n).size();
    if (!a.transpose_a && !a.transpose_b) return void(result(n, "MatMul", {in(n, 0), in(n, 1)}));
    if (r == 2) {
      onnx::NodeProto& p = result(n, "Gemm", {in(n, 0), in(n, 1)});
      if (a.transpose_a) attr(p, "transA", int64_t{1});
      if (a.transpose_b) attr(p, "transB", int64_t{1});
      return;
    }
    std::vector<int64_t> swap = iota(0, static_cast<int64_t>(r));
    std::swap(swap[r - 2], swap[r - 1]);
    const std::string x = a.transpose_a ? transposed(n, in(n, 0), swap, "a-transposed") : in(n, 0);
    const std::string y = a.transpose_b ? transposed(n, in(n, 1), swap, "b-transposed") : in(n, 1);
    result(n, "MatMul", {x, y});
  }

  // ONNX's windows are channels first: a channels-last input is transposed there and back.
  // The window's padding at the node's input extents, per spatial axis.
  template <class A>
  std::vector<std::pair<int64_t, int64_t>> explicit_pads(const Node& n, const A& a) const {
    const std::vector<int64_t>& x = in_shape(n);
    const auto first = x.begin() + static_cast<ptrdiff_t>(window::first_spatial_axis(a.layout));
    return convert::explicit_padding(a, std::vector<int64_t>(first, first + static_cast<ptrdiff_t>(a.kernel.size())));
  }

  // ExplicitCeil is written as ceil_mode 1 when `ceil_mode` (the pools that ignore their padding:
  // ONNX's rounded-up extent is the IR's), else as the explicit padding it means at these extents.
  template <class A>
  onnx::NodeProto& windowed(const Node& n, const A& a, const std::string& op, std::vector<std::string> ins,
                            bool ceil_mode = false) {
    const size_t r = in_shape(n).size();
    const bool last = a.layout == Layout::ChannelsLast;
    if (last) ins[0] = transposed(n, ins[0], convert::to_channels_first(r), "channels-first");
    const std::string out = last ? fresh(n.name + "/" + op) : value({n.id, 0});
    onnx::NodeProto& p = add(n, last ? op : "", op, ins, {out});
    attr(p, "kernel_shape", a.kernel);
    attr(p, "strides", convert::or_ones(a.stride, a.kernel.size()));
    static const std::map<PadMode, const char*> modes = {
        {PadMode::Valid, "VALID"}, {PadMode::SameUpper, "SAME_UPPER"}, {PadMode::SameLower, "SAME_LOWER"}};
    if (a.pad_mode == PadMode::ExplicitCeil && !ceil_mode) {
      attr(p, "pads", flat_pads(explicit_pads(n, a)));
    } else if (window::is_explicit(a.pad_mode)) {
      std::vector<std::pair<int64_t, int64_t>> pads = a.padding;
      if (pads.empty()) pads.assign(a.kernel.size(), {0, 0});
      attr(p, "pads", flat_pads(pads));
      if (a.pad_mode == PadMode::ExplicitCeil) attr(p, "ceil_mode", int64_t{1});
    } else {
      attr(p, "auto_pad", std::string(modes.at(a.pad_mode)));
    }
    if (last) attr(add(n, "", "Transpose", {out}, {value({n.id, 0})}), "perm", convert::to_channels_last(r));
    return p;
  }

  void node(const Node& n, const ConvAttrs& a) {
    std::vector<std::string> ins{in(n, 0), param(n, "weight")};
    if (a.has_bias) ins.push_back(param(n, "bias", {a.out_channels}));
    onnx::NodeProto& p = windowed(n, a, "Conv", ins);
    attr(p, "dilations", convert::or_ones(a.dilation, a.kernel.size()));
    attr(p, "group", a.groups);
  }

  // ConvTranspose's output is s·(x − 1) + output_padding + fd − pads_begin − pads_end: the IR's
  // padding (p, q) is pads (p, q), or (p, 0) with output_padding −q when q is negative.
  void node(const Node& n, const DeconvAttrs& a) {
    std::vector<std::pair<int64_t, int64_t>> pads = a.padding;
    if (pads.empty()) pads.assign(a.kernel.size(), {0, 0});
    std::vector<int64_t> output_padding;
    for (auto& [b, e] : pads) {
      if (b < 0) unexpressible(kFormat, n, "a negative padding before: ONNX's pads are non-negative");
      output_padding.push_back(e < 0 ? -e : 0);
      e = std::max<int64_t>(e, 0);
    }
    std::vector<std::string> ins{in(n, 0), param(n, "weight")};
    if (a.has_bias) ins.push_back(param(n, "bias", {a.out_channels}));
    onnx::NodeProto& p = result(n, "ConvTranspose", ins);
    attr(p, "kernel_shape", a.kernel);
    attr(p, "strides", convert::or_ones(a.stride, a.kernel.size()));
    attr(p, "dilations", convert::or_ones(a.dilation, a.kernel.size()));
    attr(p, "pads", flat_pads(pads));
    attr(p, "output_padding", output_padding);
    attr(p, "group", a.groups);
  }
  // ne is ¬(x = y): Equal, then Not.
  void node(const Node& n, const CompareAttrs& a) {
    static const std::map<CompareOp, const char*> ops = {{CompareOp::Lt, "Less"},         {CompareOp::Gt, "Greater"},
                                                         {CompareOp::Le, "LessOrEqual"},  {CompareOp::Ge, "GreaterOrEqual"},
                                                         {CompareOp::Eq, "Equal"}};
    const std::vector<std::string> ins{aligned(n, 0, a.broadcast), aligned(n, 1, a.broadcast)};
    if (a.op != CompareOp::Ne) return void(result(n, ops.at(a.op), ins));
    result(n, "Not", {helper(n, "equal", "Equal", ins)});
  }
  void node(const Node& n, const LogicalAttrs& a) {
    if (a.op == LogicalOp::Not) return void(result(n, "Not", {in(n, 0)}));
    result(n, a.op == LogicalOp::And ? "And" : "Or", {aligned(n, 0, a.broadcast), aligned(n, 1, a.broadcast)});
  }
  // ArgMax and ArgMin take one axis and keep it (keepdims 1), as arg_reduce does; ties to the last
  // index are select_last_index 1.
  void node(const Node& n, const ArgReduceAttrs& a) {
    if (a.axes.size() != 1) unexpressible(kFormat, n, "an arg reduction over several axes: ONNX's ArgMax and ArgMin take one");
    onnx::NodeProto& p = result(n, a.op == ArgReduceOp::Max ? "ArgMax" : "ArgMin", {in(n, 0)});
    attr(p, "axis", convert::tensor_axis(a.axes[0], in_shape(n).size()));
    attr(p, "keepdims", int64_t{1});
    if (a.last) attr(p, "select_last_index", int64_t{1});
  }
  // MaxPool's Indices count over the whole input tensor (and ignore padding), not within the window.
  void node(const Node& n, const ArgmaxPoolAttrs&) {
    unexpressible(kFormat, n, "ONNX has no argmax_pool: MaxPool's Indices are positions in the whole input, not within the window");
  }
  void node(const Node& n, const SampleAttrs& a) {
    unexpressible(kFormat, n, "ONNX has no " + op_name(a) + " (values read or summed at positions within a window an index names)");
  }
  void node(const Node& n, const LogicalReduceAttrs&) {
    unexpressible(kFormat, n, "ONNX has no reduction of bool tensors (all, any)");
  }
  // Unreachable: convert::prepare spells interpolate out (formats/interpolate_expansion.hpp).
  void node(const Node& n, const InterpolateAttrs&) { unexpressible(kFormat, n, "interpolate is written as its composition"); }
  // ONNX's Gather reads a negative index from the axis's end, and an index outside [-s, s) is an
  // error; the IR reads NaN outside [0, s). Indices in [0, s) give the same values.
  void node(const Node& n, const GatherAttrs& a) {
    attr(result(n, "Gather", {in(n, 0), in(n, 1)}), "axis", convert::tensor_axis(a.axis, in_shape(n).size()));
  }
  // ONNX's MaxRoiPool bins a region as Caffe does (⌊i·r/p⌋ to ⌈(i + 1)·r/p⌉, clipped to the image),
  // and its RoiAlign averages or maxes sample points itself: neither is §4.6's formula.
  void node(const Node& n, const RoiAttrs&) {
    unexpressible(kFormat, n, "ONNX has no region-of-interest op with NNEF's formula (MaxRoiPool bins regions "
                              "otherwise, RoiAlign samples and pools in one op)");
  }
  // ONNX's Cast truncates a float to an integer; the IR's cast floors: Floor first, whose integer
  // the truncation keeps (unless the operand is an integer already: onnx_format::integral).
  void node(const Node& n, const CastAttrs& a) {
    std::string x = in(n, 0);
    if (a.from == ElemKind::Real && a.to == ElemKind::Integer &&
        !onnx_format::integral(&g_.nodes[static_cast<size_t>(n.inputs[0].node)].op))
      x = helper(n, "floor", "Floor", {x});
    attr(result(n, "Cast", {x}), "to", int64_t{type_of(a.to)});
  }

  bool padded(const Node& n, const PoolAttrs& a) const {
    if (a.pad_mode == PadMode::Valid) return false;
    if (window::is_same(a.pad_mode)) return true;
    const auto pads = explicit_pads(n, a);
    return std::any_of(pads.begin(), pads.end(), [](const auto& p) { return p.first != 0 || p.second != 0; });
  }

  // MaxPool reads its padding as -inf (the border 'ignore'); AveragePool counts it or not.
  void node(const Node& n, const PoolAttrs& a) {
    const std::vector<int64_t> dilation = convert::or_ones(a.dilation, a.kernel.size());
    const bool dilated = std::any_of(dilation.begin(), dilation.end(), [](int64_t d) { return d != 1; });
    if (a.op == PoolOp::Sum) unexpressible(kFormat, n, "a sum pool: ONNX has no pool that sums (LpPool sums |x|^p)");
    if (a.op == PoolOp::Max && a.border == PoolBorder::Constant && padded(n, a))
      unexpressible(kFormat, n, "a max pool whose padding reads 0 (border 'constant'): ONNX's MaxPool ignores padding");
    if (a.op == PoolOp::Avg && dilated) unexpressible(kFormat, n, "an average pool with dilation: opset 17's AveragePool has none");
    // ONNX's count_include_pad divides by the window clipped to the padded input, the IR's Constant
    // by the whole window: its overhang is written as explicit padding.
    onnx::NodeProto& p = windowed(n, a, a.op == PoolOp::Max ? "MaxPool" : "AveragePool", {in(n, 0)},
                                  a.border == PoolBorder::Ignore);
    if (a.op == PoolOp::Max) attr(p, "dilations", dilation);
    else attr(p, "count_include_pad", int64_t{a.border == PoolBorder::Constant ? 1 : 0});
  }

  // BatchNormalization normalises axis 1: another channel axis is moved there and back.
  void node(const Node& n, const BatchNormAttrs& a) {
    const std::vector<int64_t>& x = in_shape(n);
    const int64_t axis = convert::tensor_axis(a.channel_axis, x.size());
    const int64_t c = x[static_cast<size_t>(axis)];
    const std::vector<int64_t> perm = convert::axis_to_1(x.size(), axis);
    const bool moved = axis != 1;
    std::vector<std::string> ins{moved ? transposed(n, in(n, 0), perm, "channels-first") : in(n, 0)};
    for (const char* role : {"scale", "offset", "mean", "variance"}) ins.push_back(param(n, role, {c}));
    const std::string out = moved ? fresh(n.name + "/normalized") : value({n.id, 0});
    attr(add(n, moved ? "normalized" : "", "BatchNormalization", ins, {out}), n, "epsilon", a.epsilon);
    if (!moved) return;
    attr(add(n, "", "Transpose", {out}, {value({n.id, 0})}), "perm", convert::inverse(perm));
  }

  // LayerNormalization normalises the axes from `axis` to the last; without affine its scale is
  // ones and its offset zeros, the IR's formula with scale 1 and offset 0.
  void node(const Node& n, const LayerNormAttrs& a) {
    const std::vector<int64_t>& x = in_shape(n);
    std::vector<int64_t> axes = convert::tensor_axes(a.axes, x.size());
    std::sort(axes.begin(), axes.end());
    if (axes != iota(axes.front(), static_cast<int64_t>(x.size())))
      unexpressible(kFormat, n, "its axes are not the trailing ones, and LayerNormalization normalises from an axis to the last");
    const std::vector<int64_t> dims(x.begin() + axes.front(), x.end());
    std::vector<std::string> ins{in(n, 0)};
    ins.push_back(a.affine ? param(n, "scale", dims) : filled(n, "scale", 1.0, dims));
    ins.push_back(a.affine ? param(n, "offset", dims) : filled(n, "offset", 0.0, dims));
    onnx::NodeProto& p = result(n, "LayerNormalization", ins);
    attr(p, "axis", axes.front());
    attr(p, n, "epsilon", a.epsilon);
  }

  void node(const Node& n, const SoftmaxAttrs& a) {
    const std::vector<int64_t> axes = convert::tensor_axes(a.axes, in_shape(n).size(), a.batch_axes);
    if (axes.size() != 1) unexpressible(kFormat, n, "a softmax over several axes: ONNX's Softmax (opset 13 on) takes one");
    attr(result(n, a.log ? "LogSoftmax" : "Softmax", {in(n, 0)}), "axis", axes[0]);
  }

  // ReduceSum takes its axes as an input from opset 13, the others as an attribute until 18.
  void node(const Node& n, const ReduceAttrs& a) {
    static const std::map<ReduceOp, const char*> ops = {
        {ReduceOp::Sum, "ReduceSum"}, {ReduceOp::Mean, "ReduceMean"}, {ReduceOp::Max, "ReduceMax"},
        {ReduceOp::Min, "ReduceMin"}, {ReduceOp::Prod, "ReduceProd"}};
    // Integers are written as int64, whose ReduceSum and ReduceProd wrap at 64 bits only.
    if (a.kind == ElemKind::Integer && a.type.width != IntegerWidth::Bits64 && (a.op == ReduceOp::Sum || a.op == ReduceOp::Prod))
      unexpressible(kFormat, n, op_name(a) + " wraps at " + std::to_string(bits_of(a.type.width)) + " bits, and the writer writes integers as int64");
    const std::vector<int64_t> axes = convert::tensor_axes(a.axes, in_shape(n).size());
    std::vector<std::string> ins{in(n, 0)};
    if (a.op == ReduceOp::Sum) ins.push_back(ints(n, "axes", axes));
    onnx::NodeProto& p = result(n, ops.at(a.op), ins);
    if (a.op != ReduceOp::Sum) attr(p, "axes", axes);
    attr(p, "keepdims", int64_t{a.keep_dims ? 1 : 0});
  }

  // CumSum takes its axis as an input, a 0-D int64 tensor; on int64 data its sums wrap modulo 2^64,
  // as cumsum's do, and a narrower result type is that sum wrapped to it (as integer_binary's).
  void node(const Node& n, const CumsumAttrs& a) {
    const int64_t axis = convert::tensor_axis(a.axis, in_shape(n).size());
    const bool narrow = a.kind == ElemKind::Integer && bits_of(a.type.width) < 64;
    const std::string z = narrow ? fresh(n.name + "/int64") : value(ValueRef{n.id, 0});
    onnx::NodeProto& p = add(n, narrow ? "int64" : "", "CumSum", {in(n, 0), ints(n, "axis", {axis}, true)}, {z});
    if (a.exclusive) attr(p, "exclusive", int64_t{1});
    if (a.reverse) attr(p, "reverse", int64_t{1});
    if (narrow) wrap_to(n, z, a.type);
  }

  void node(const Node& n, const ReshapeAttrs& a) {
    if (!a.computed.empty()) unexpressible(kFormat, n, "its dims are computed from extents, which the writer does not write yet");
    result(n, "Reshape", {in(n, 0), ints(n, "shape", a.dims)});
  }
  // Range of three scalars: reals in the graph's element type, integers int64. A start and limit
  // computed from extents are not written (as broadcast_to's computed dims).
  void node(const Node& n, const RangeAttrs& a) {
    if (!a.computed.empty()) unexpressible(kFormat, n, "its start and limit are computed from extents, which the writer does not write yet");
    if (a.kind == ElemKind::Integer)
      return void(result(n, "Range", {exact_scalar(n, "start", ElemKind::Integer, a.istart),
                                      exact_scalar(n, "limit", ElemKind::Integer, a.ilimit),
                                      exact_scalar(n, "delta", ElemKind::Integer, a.idelta)}));
    const auto scalar = [&](const char* what, double v) {
      return tensor(n.name + "/" + what, HostTensor{DType::F64, Shape(), {v}}, {});
    };
    result(n, "Range", {scalar("start", a.start.value), scalar("limit", a.limit.value), scalar("delta", a.delta.value)});
  }
  void node(const Node& n, const ContractAttrs&) {
    unexpressible(kFormat, n, "an NNEF 2.0 @lower body run as a contraction program is not written as ONNX");
  }
  void node(const Node& n, const SizesAttrs&) {
    unexpressible(kFormat, n, "sizes computed from extents are not written yet (ONNX's Shape and integer arithmetic)");
  }
  // IR flatten keeps the first `axis` extents: ONNX's Flatten at 1, a Reshape otherwise.
  void node(const Node& n, const FlattenAttrs& a) {
    if (a.axis == 1) return void(attr(result(n, "Flatten", {in(n, 0)}), "axis", int64_t{1}));
    std::vector<int64_t> dims(static_cast<size_t>(a.axis), 0);
    dims.push_back(-1);
    result(n, "Reshape", {in(n, 0), ints(n, "shape", dims)});
  }
  void node(const Node& n, const TransposeAttrs& a) { attr(result(n, "Transpose", {in(n, 0)}), "perm", a.perm); }
  void node(const Node& n, const ConcatAttrs& a) {
    std::vector<std::string> ins;
    for (size_t k = 0; k < n.inputs.size(); ++k) ins.push_back(in(n, k));
    attr(result(n, "Concat", ins), "axis", convert::tensor_axis(a.axis, in_shape(n).size(), a.batch_axes));
  }
  // IR split divides the axis in proportion to its ratios; ONNX's sizes are the parts' extents.
  void node(const Node& n, const SplitAttrs& a) {
    const int64_t axis = convert::tensor_axis(a.axis, in_shape(n).size());
    std::vector<int64_t> sizes;
    for (const Shape& s : info_.nodes[static_cast<size_t>(n.id)].outputs) sizes.push_back(s[static_cast<size_t>(axis)]);
    onnx::NodeProto& p = add(n, "", "Split", {in(n, 0), ints(n, "split", sizes)}, names_[static_cast<size_t>(n.id)]);
    attr(p, "axis", axis);
  }
  // An IR end of 0 reads "to the extent"; ONNX's 0 is an end, so the writer says INT64_MAX.
  void node(const Node& n, const SliceAttrs& a) {
    if (!a.computed.empty()) unexpressible(kFormat, n, "its bounds are computed from extents, which the writer does not write yet");
    // The IR's end 0 means "to the extent" only when every stride is 1 (INT64_MAX in ONNX); with
    // strides, the IR clamps as ONNX does wherever the slice is not empty (spec/ops/slice.hpp).
    const bool unit = std::all_of(a.stride.begin(), a.stride.end(), [](int64_t s) { return s == 1; });
    std::vector<int64_t> ends = a.end;
    for (int64_t& e : ends)
      if (e == 0 && unit) e = INT64_MAX;
    std::vector<std::string> ins{in(n, 0), ints(n, "starts", a.begin), ints(n, "ends", ends),
                                 ints(n, "axes", convert::tensor_axes(a.axes, in_shape(n).size()))};
    if (!unit) ins.push_back(ints(n, "steps", a.stride));
    result(n, "Slice", ins);
  }
  void node(const Node& n, const PadAttrs& a) {
    if (!a.computed.code.empty()) unexpressible(kFormat, n, "its padding is computed from extents, which the writer does not write yet");
    static const std::map<PadBorder, const char*> modes = {
        {PadBorder::Constant, "constant"}, {PadBorder::Reflect, "reflect"}, {PadBorder::Replicate, "edge"}};
    if (!modes.count(a.border)) unexpressible(kFormat, n, "ONNX's Pad has no reflect-even mode");
    std::vector<std::string> ins{in(n, 0), ints(n, "pads", flat_pads(a.padding))};
    if (a.border == PadBorder::Constant && a.kind != ElemKind::Real)  // an integer or a truth value (pad_value_fits)
      ins.push_back(exact_scalar(n, "value", a.kind, static_cast<int64_t>(a.value.value)));
    else if (a.border == PadBorder::Constant) {
      if (elem_ == onnx::TensorProto::FLOAT && static_cast<double>(static_cast<float>(a.value.value)) != a.value.value)
        unexpressible(kFormat, n, "its padding value is no float32, the graph's element type");
      ins.push_back(tensor(n.name + "/value", HostTensor{DType::F64, Shape(), {a.value.value}}, {}));
    }
    attr(result(n, "Pad", ins), "mode", std::string(modes.at(a.border)));
  }
  void node(const Node& n, const SqueezeAttrs& a) {
    result(n, "Squeeze", {in(n, 0), ints(n, "axes", convert::tensor_axes(a.axes, in_shape(n).size()))});
  }
  void node(const Node& n, const UnsqueezeAttrs& a) {
    result(n, "Unsqueeze", {in(n, 0), ints(n, "axes", convert::tensor_axes(a.axes, out_shape(n).size()))});
  }

  const Model& m_;
  const Graph& g_;
  const GraphInfo& info_;
  const std::vector<SizeName>& open_;
  onnx::GraphProto& gp_;
  int32_t elem_;
  std::map<std::pair<int64_t, int>, std::string> output_names_;
  std::set<std::string> used_, node_names_;
  std::vector<std::vector<std::string>> names_;
  std::vector<Diagnostic> warnings_;
};

}  // namespace

std::vector<Diagnostic> write_onnx(const Model& model, const std::string& out, const WriteOptions& options) {
  Result<convert::Prepared> p = convert::prepare(model, options, kFormat, false);
  if (!p) return {std::move(p).error()};
  onnx::ModelProto proto;
  proto.set_ir_version(8);
  proto.set_producer_name("nnref");
  auto* opset = proto.add_opset_import();
  opset->set_domain("");
  opset->set_version(kOpset);
  onnx::GraphProto& g = *proto.mutable_graph();
  g.set_name(std::filesystem::path(model.path).stem().string());
  std::vector<Diagnostic> diags;
  try {
    diags = Emitter(model, *p, g).run();
  } catch (const convert::Unexpressible& u) {
    return {u.d};
  }
  std::ofstream f(out, std::ios::binary | std::ios::trunc);
  if (!f || !proto.SerializeToOstream(&f) || (f.close(), !f))
    diags.push_back(convert::write_failed("'" + out + "'", "the file cannot be written"));
  return diags;
}

}  // namespace nnref
