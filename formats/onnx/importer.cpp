#include "formats/onnx/importer.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <type_traits>

#include "formats/onnx/decided.hpp"
#include "formats/onnx/ops.hpp"
#include "formats/onnx/tensor_proto.hpp"
#include "semantics/memory.hpp"
#include "semantics/node_rule.hpp"
#include "semantics/op.hpp"
#include "semantics/size_code.hpp"
#include "spec/rules/valid_shapes.hpp"
#include "spec/size_program.hpp"

namespace nnref::onnx_format {

namespace {

std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

std::string type_name(int32_t t) {
  return onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(t));
}

ElemKind dtype_kind(DType t) {
  if (dtype_is_float(t)) return ElemKind::Real;
  return t == DType::Bool ? ElemKind::Logical : ElemKind::Integer;
}

int32_t dtype_type(DType t) {
  switch (t) {
    case DType::I8: return onnx::TensorProto::INT8;
    case DType::I16: return onnx::TensorProto::INT16;
    case DType::I32: return onnx::TensorProto::INT32;
    case DType::I64: return onnx::TensorProto::INT64;
    case DType::U8: return onnx::TensorProto::UINT8;
    case DType::U16: return onnx::TensorProto::UINT16;
    case DType::U32: return onnx::TensorProto::UINT32;
    case DType::U64: return onnx::TensorProto::UINT64;
    case DType::Bool: return onnx::TensorProto::BOOL;
    default: return 0;
  }
}

const char* kind_article(ElemKind k) { return k == ElemKind::Integer ? "an integer" : k == ElemKind::Logical ? "a logical" : "a real"; }

// The element type an empty value of a kind holds when no ONNX type says more.
DType default_dtype(ElemKind kind) {
  switch (kind) {
    case ElemKind::Integer: return DType::I64;
    case ElemKind::Logical: return DType::Bool;
    case ElemKind::Real: break;
  }
  return DType::F32;
}

}  // namespace

std::optional<ElemKind> kind_of_type(int32_t t) {
  switch (t) {
    case onnx::TensorProto::FLOAT:
    case onnx::TensorProto::DOUBLE:
    case onnx::TensorProto::FLOAT16:
    case onnx::TensorProto::BFLOAT16: return ElemKind::Real;
    case onnx::TensorProto::INT8:
    case onnx::TensorProto::INT16:
    case onnx::TensorProto::INT32:
    case onnx::TensorProto::INT64:
    case onnx::TensorProto::UINT8:
    case onnx::TensorProto::UINT16:
    case onnx::TensorProto::UINT32: return ElemKind::Integer;
    case onnx::TensorProto::BOOL: return ElemKind::Logical;
    default: return std::nullopt;
  }
}

// ---- NodeCtx ----

NodeCtx::NodeCtx(Importer& im, const onnx::NodeProto& n, std::string name, int64_t opset, SourceLoc loc)
    : im_(im), n_(n), name_(std::move(name)), opset_(opset), loc_(std::move(loc)) {}

void NodeCtx::refuse(const std::string& code, const std::string& message) const {
  const std::string version = opset_ > 0 ? "opset " + std::to_string(opset_) : "domain '" + n_.domain() + "'";
  Diagnostic d = make_error(code, n_.op_type() + " node " + in_quotes(name_) + " (" + version + "): " + message, loc_);
  d.node = name_;
  throw Refusal{std::move(d)};
}

const onnx::AttributeProto* NodeCtx::attr(const std::string& a) {
  for (const auto& at : n_.attribute())
    if (at.name() == a) {
      read_attrs_.insert(a);
      return &at;
    }
  return nullptr;
}

bool NodeCtx::has_attr(const std::string& a) { return attr(a) != nullptr; }

std::vector<std::string> NodeCtx::subgraph(const std::string& a) {
  const onnx::AttributeProto* g = attr(a);
  if (g == nullptr || !g->has_g()) refuse("onnx.attribute-type", a + " must be a graph");
  const std::vector<std::string> outputs = im_.add_subgraph(g->g(), static_cast<size_t>(loc_.line - 1));
  for (const auto& o : outputs)
    if (!im_.values_.count(o))
      refuse("onnx.value-undefined", a + "'s output '" + o + "' is not defined (a node of it is refused above, or none "
                                         "computes it)");
  return outputs;
}

void NodeCtx::add_node(const onnx::NodeProto& n) {
  im_.add_node(n, static_cast<size_t>(loc_.line - 1), *im_.opsets_);
  for (const auto& o : n.output())
    if (!o.empty() && !im_.values_.count(o)) refuse("onnx.value-undefined", "its part " + n.name() + " is refused above");
}

std::optional<std::vector<int64_t>> NodeCtx::known_shape_of(const std::string& value) {
  const Value& v = im_.values_.at(value);
  if (v.constant) return v.constant->tensor.shape.dims();
  if (v.sizes) return v.sizes->shape.dims();
  const std::optional<KnownShape> s = im_.shape_of(*v.ref);
  if (!s || !s->exact) return std::nullopt;
  return s->dims;
}

const ExactTensor* NodeCtx::exact_value(const std::string& value) const {
  auto it = im_.values_.find(value);
  return it == im_.values_.end() ? nullptr : it->second.constant.get();
}

int64_t NodeCtx::attr_int(const std::string& a, int64_t def) {
  const auto* at = attr(a);
  if (!at) return def;
  if (at->type() != onnx::AttributeProto::INT) refuse("onnx.attribute-type", "attribute " + a + " must be an int");
  return at->i();
}

// Attributes are float32; so are the defaults the handlers pass (1e-5f), read as doubles exactly.
double NodeCtx::attr_float(const std::string& a, double def) {
  const auto* at = attr(a);
  if (!at) return def;
  if (at->type() != onnx::AttributeProto::FLOAT) refuse("onnx.attribute-type", "attribute " + a + " must be a float");
  return static_cast<double>(at->f());
}

std::string NodeCtx::attr_string(const std::string& a, const std::string& def) {
  const auto* at = attr(a);
  if (!at) return def;
  if (at->type() != onnx::AttributeProto::STRING) refuse("onnx.attribute-type", "attribute " + a + " must be a string");
  return at->s();
}

std::vector<int64_t> NodeCtx::attr_ints(const std::string& a) {
  const auto* at = attr(a);
  if (!at) return {};
  if (at->type() != onnx::AttributeProto::INTS) refuse("onnx.attribute-type", "attribute " + a + " must be ints");
  return {at->ints().begin(), at->ints().end()};
}

bool NodeCtx::has_input(size_t k) const { return k < input_count() && !n_.input(static_cast<int>(k)).empty(); }

const ExactTensor* NodeCtx::exact(size_t k) const {
  if (!has_input(k)) return nullptr;
  const Value& v = im_.values_.at(n_.input(static_cast<int>(k)));
  return v.constant.get();
}

bool NodeCtx::is_empty(size_t k) const {
  const ExactTensor* t = exact(k);
  return t != nullptr && t->tensor.shape.count() == 0;
}

DType NodeCtx::element_dtype(size_t k) const {
  if (const ExactTensor* t = exact(k)) return t->tensor.dtype;
  if (const std::optional<DType> d = dtype_of(type(k)); d && type(k) != 0) return *d;
  return default_dtype(kind(k));
}

std::optional<int64_t> NodeCtx::decided(size_t k, const std::string& what) {
  if (!has_input(k)) return std::nullopt;
  const Value& v = im_.values_.at(n_.input(static_cast<int>(k)));
  if (!im_.enclose_ || !v.ref || v.constant || v.sizes || !im_.from_constants(*v.ref)) return std::nullopt;
  // Qualified: argument-dependent lookup would instantiate Result<ConstantEnclosures> through the
  // function pointer's type, and ConstantEnclosures is incomplete here (the reader links no oracle).
  im_.fill_payload();  // the enclosure reads the parameters there
  Result<int64_t> r = onnx_format::decided_at_load(im_.m_.graph, im_.m_.payload, *v.ref, im_.enclose_, im_.budget_left_);
  if (!r) refuse(r.error().code, what + " (" + in_quotes(n_.input(static_cast<int>(k))) + "): " + r.error().message);
  return *r;
}

const SizeTerms* NodeCtx::sizes(size_t k) const {
  if (!has_input(k)) return nullptr;
  return im_.values_.at(n_.input(static_cast<int>(k))).sizes.get();
}

SizeTerms NodeCtx::extents_of(size_t k, int64_t start, int64_t end) {
  SizeTerms t{Shape::make({end - start}).value(), {}};
  if (exact(k) != nullptr || sizes(k) != nullptr) {  // a constant's shape is fixed: numbers
    const std::vector<int64_t> s = shape(k);
    for (int64_t a = start; a < end; ++a) t.elements.push_back({size_code::kConstant, s[static_cast<size_t>(a)]});
    return t;
  }
  const ValueRef x = operand(k, kind(k));
  im_.leaves_.push_back(x);
  const auto leaf = static_cast<int64_t>(im_.leaves_.size() - 1);
  for (int64_t a = start; a < end; ++a) t.elements.push_back({size_code::kExtent, leaf, a});
  return t;
}

bool NodeCtx::is_extent_of(const std::vector<int64_t>& term, size_t k, int64_t axis) {
  if (term.size() != 3 || term[0] != size_code::kExtent || term[2] != axis || exact(k) != nullptr ||
      sizes(k) != nullptr)
    return false;
  return im_.leaves_[static_cast<size_t>(term[1])] == operand(k, kind(k));
}

std::optional<int64_t> NodeCtx::term_at_defaults(const std::vector<int64_t>& term) const {
  const SizeProgram p = im_.program(SizeTerms{Shape::make({1}).value(), {term}});
  std::vector<Dims<CDim>> operands;
  for (const ValueRef& r : p.sources) {
    const std::optional<KnownShape> s = im_.shape_of(r);
    if (!s || !s->exact) return std::nullopt;
    operands.emplace_back(s->dims.begin(), s->dims.end());
  }
  ConcreteSink sink;
  const auto values = run_size_program<CDim>(p.code, operands, sink, name_);
  if (!values || values->size() != 1 || !sink.ok()) return std::nullopt;
  return values->front().value.v;
}

SizeProgram NodeCtx::program(const SizeTerms& t) const { return im_.program(t); }

SizesPtr NodeCtx::data_terms(size_t k) {
  if (!has_input(k) || kind(k) != ElemKind::Integer || exact(k) != nullptr || sizes(k) != nullptr) return nullptr;
  const std::vector<int64_t> s = shape(k);
  Result<Shape> shape = Shape::make(s);
  if (!shape) refuse(shape.error().code, shape.error().message);
  constexpr int64_t kMaxEntries = 1024;  // sizes, not data
  if (shape.value().count() > kMaxEntries)
    refuse("onnx.shape-unsupported", "input " + in_quotes(n_.input(static_cast<int>(k))) + " holds " +
                                         std::to_string(shape.value().count()) + " sizes, more than " +
                                         std::to_string(kMaxEntries));
  return element_terms(operand(k, ElemKind::Integer), shape.value());
}

SizesPtr NodeCtx::element_terms(const ValueRef& x, const Shape& shape) {
  if (SizesPtr t = im_.handle_sizes(x)) return t;
  im_.leaves_.push_back(x);
  const auto leaf = static_cast<int64_t>(im_.leaves_.size() - 1);
  SizeTerms t{shape, {}};
  for (int64_t i = 0; i < shape.count(); ++i) t.elements.push_back({size_code::kElement, leaf, i});
  return std::make_shared<const SizeTerms>(std::move(t));
}

SizesPtr NodeCtx::terms(size_t k) {
  if (!has_input(k) || kind(k) != ElemKind::Integer) return nullptr;
  return im_.handle_sizes(operand(k, ElemKind::Integer));
}

const HostTensor* NodeCtx::constant(size_t k) const {
  const ExactTensor* t = exact(k);
  return t ? &t->tensor : nullptr;
}

const HostTensor& NodeCtx::require_constant(size_t k, const std::string& what) {
  if (!has_input(k)) refuse("onnx.input-missing", what + " (input " + std::to_string(k) + ") is required");
  const HostTensor* t = constant(k);
  if (!t && sizes(k))
    refuse("onnx.shape-unsupported", what + " (input " + std::to_string(k) + ", " +
                                         in_quotes(n_.input(static_cast<int>(k))) +
                                         ") is computed from symbolic extents, which nnref reads as sizes where an "
                                         "op takes a shape (docs/onnx.md, \"Shapes are values\") only");
  if (!t) {
    const Value& v = im_.values_.at(n_.input(static_cast<int>(k)));
    refuse("onnx.input-not-constant", what + " (input " + std::to_string(k) + ", " +
                                          in_quotes(n_.input(static_cast<int>(k))) +
                                          ") must be an initializer or a constant: nnref reads it when it loads the "
                                          "model" + (v.ref ? im_.want_inputs_of(*v.ref) : ""));
  }
  return *t;
}

std::vector<int64_t> NodeCtx::int_list(size_t k, const std::string& what) {
  const HostTensor& t = require_constant(k, what);
  if (dtype_is_float(t.dtype) || t.shape.rank() > 1) refuse("onnx.input-type", what + " must be a 1-D integer tensor");
  return exact(k)->ints;
}

ValueRef NodeCtx::data(size_t k) { return operand(k, ElemKind::Real); }

ElemKind NodeCtx::kind(size_t k) const {
  return has_input(k) ? kind_of(n_.input(static_cast<int>(k))) : ElemKind::Real;
}

ElemKind NodeCtx::kind_of(const std::string& value) const {
  const Value& v = im_.values_.at(value);
  if (v.sizes) return ElemKind::Integer;
  return v.constant ? dtype_kind(v.constant->tensor.dtype) : v.kind;
}

void NodeCtx::bind_when_given(size_t k) {
  if (const OpAttrs* op = producer(k); op && std::holds_alternative<InputAttrs>(*op))
    im_.want_inputs_of(*im_.values_.at(n_.input(static_cast<int>(k))).ref);
}

const OpAttrs* NodeCtx::producer(size_t k) const {
  if (!has_input(k)) return nullptr;
  const Value& v = im_.values_.at(n_.input(static_cast<int>(k)));
  return !v.ref || v.constant ? nullptr : &im_.m_.graph.nodes[static_cast<size_t>(v.ref->node)].op;
}

int32_t NodeCtx::type(size_t k) const {
  if (!has_input(k)) return 0;
  const Value& v = im_.values_.at(n_.input(static_cast<int>(k)));
  if (v.sizes) return onnx::TensorProto::INT64;
  return v.constant ? dtype_type(v.constant->tensor.dtype) : v.type;
}

ValueRef NodeCtx::operand(size_t k, ElemKind want) {
  if (!has_input(k)) refuse("onnx.input-missing", "input " + std::to_string(k) + " is required");
  return operand_of(n_.input(static_cast<int>(k)), want);
}

ValueRef NodeCtx::operand_of(const std::string& value, ElemKind want) {
  Value& v = im_.values_.at(value);
  if (kind_of(value) != want) {
    const std::string what =
        v.constant ? std::string(dtype_name(v.constant->tensor.dtype)) : elem_kind_name(kind_of(value));
    refuse("onnx.type-unsupported", "input " + in_quotes(v.source) + " is a " + what + " tensor, and nnref reads " +
                                        kind_article(want) + " one here (docs/onnx.md: integer and bool tensors are "
                                        "data only where an op's IR form takes them)");
  }
  if (v.constant) return im_.handle(v.constant, want, &v, v.source);
  if (v.sizes) return im_.handle(v.sizes, &v, v.source);
  return *v.ref;
}

std::vector<int64_t> NodeCtx::shape(size_t k) {
  if (!has_input(k)) refuse("onnx.input-missing", "input " + std::to_string(k) + " is required");
  const Value& v = im_.values_.at(n_.input(static_cast<int>(k)));
  if (v.constant) return v.constant->tensor.shape.dims();
  if (v.sizes) return v.sizes->shape.dims();
  const std::optional<KnownShape> s = im_.shape_of(*v.ref);
  if (!s || !s->exact)
    refuse("onnx.shape-unknown", "the shape of input " + in_quotes(v.source) +
                                     " is needed to translate this node, and the rules give none at the default "
                                     "extents (see nnref check)");
  return s->dims;
}

std::optional<std::vector<int64_t>> NodeCtx::known_shape(size_t k) {
  if (!has_input(k)) return std::nullopt;
  const Value& v = im_.values_.at(n_.input(static_cast<int>(k)));
  if (v.constant || v.sizes) return shape(k);
  const std::optional<KnownShape> s = im_.shape_of(*v.ref);
  if (!s || !s->exact) return std::nullopt;
  return s->dims;
}

size_t NodeCtx::rank(size_t k) {
  if (!has_input(k)) refuse("onnx.input-missing", "input " + std::to_string(k) + " is required");
  const Value& v = im_.values_.at(n_.input(static_cast<int>(k)));
  if (v.constant) return v.constant->tensor.shape.rank();
  if (v.sizes) return v.sizes->shape.rank();
  const std::optional<KnownShape> s = im_.shape_of(*v.ref);
  if (!s)
    refuse("onnx.shape-unknown", "the rank of input " + in_quotes(v.source) +
                                     " is needed to translate this node, and the rules give none (see nnref check)");
  return s->dims.size();
}

bool NodeCtx::extents_fixed() const {
  asked_unfixed_ = asked_unfixed_ || !im_.extents_fixed_;
  return im_.extents_fixed_;
}

int64_t NodeCtx::fixed_extent(size_t k, int64_t axis, const std::string& what) {
  if (extents_fixed() || exact(k) != nullptr || sizes(k) != nullptr) return shape(k)[static_cast<size_t>(axis)];
  return fixed_size(extents_of(k, axis, axis + 1), what);
}

int64_t NodeCtx::fixed_size(const SizeTerms& t, const std::string& what) {
  const std::vector<int64_t>& term = t.elements.at(0);
  if (term.size() == 2 && term[0] == size_code::kConstant) return term[1];
  if (term.size() != 3 || term[0] != size_code::kExtent)
    refuse("onnx.shape-unsupported", what +
                                         " is computed from symbolic extents, and nnref needs it as a number when "
                                         "it reads the model");
  const ValueRef x = im_.leaves_.at(static_cast<size_t>(term[1]));
  const auto axis = static_cast<size_t>(term[2]);
  const std::optional<KnownShape> s = im_.shape_of(x);
  if (!s || axis >= s->dims.size()) refuse("onnx.shape-unsupported", what + " is not known when the model is read");
  // Where the default extents break a rule before it, every size is needed.
  const std::vector<std::string> names = s->exact ? im_.names_changing(x, axis) : im_.size_names();
  if (!s->exact && names.empty()) refuse("onnx.shape-unsupported", what + " is not known when the model is read");
  if (!names.empty()) {
    im_.need_sizes(names);
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    refuse("onnx.size-needed-at-load",
           what + " depends on the size " + list +
               ", which the file leaves open, and nnref needs it as a number when "
               "it reads the model: run and conform read the model at the sizes their inputs give, check --dim " +
               names.front() +
               "=A..B proves it for each value of the range (docs/architecture.md, \"Sizes fixed at load\")");
  }
  // The probes found no size the extent depends on; the reshape of [n] elements to that extent (its
  // result read by nothing) makes it an obligation that they are n for every size (count-mismatch).
  const int64_t n = s->dims[axis];
  charge(n);
  HostTensor zeros{DType::F64, Shape::make({n}).value(), std::vector<double>(static_cast<size_t>(n), 0.0)};
  SizeProgram p = program(t);
  std::vector<ValueRef> in{literal("fixed-extent", std::move(zeros))};
  in.insert(in.end(), p.sources.begin(), p.sources.end());
  emit_node("fixed-extent-holds", ReshapeAttrs{{}, ElemKind::Real, std::move(p.code), std::move(p.kinds)}, in);
  return n;
}

int64_t NodeCtx::emit_node(const std::string& suffix, OpAttrs op, std::vector<ValueRef> inputs) {
  return im_.add_ir_node(suffix.empty() ? name_ : name_ + "/" + suffix, std::move(op), std::move(inputs), loc_);
}

ValueRef NodeCtx::emit(const std::string& suffix, OpAttrs op, std::vector<ValueRef> inputs) {
  const std::string name = suffix.empty() ? name_ : name_ + "/" + suffix;
  if (std::optional<ValueRef> empty = empty_result(op, inputs, name)) return *empty;
  if (std::optional<ExactTensor> t = im_.fold(op, inputs)) {
    const ElemKind kind = dtype_kind(t->tensor.dtype);
    return im_.handle(std::make_shared<const ExactTensor>(std::move(*t)), kind, nullptr, name);
  }
  if (std::optional<SizeTerms> t = im_.fold_sizes(op, inputs))
    return im_.handle(std::make_shared<const SizeTerms>(std::move(*t)), nullptr, name);
  return {emit_node(suffix, std::move(op), std::move(inputs)), 0};
}

std::optional<ValueRef> NodeCtx::empty_result(const OpAttrs& op, const std::vector<ValueRef>& inputs,
                                              const std::string& name) {
  const auto empty = [&](const ValueRef& r) {
    const ConstantPtr* t = im_.handle_constant(r);
    return t != nullptr && (*t)->tensor.shape.count() == 0;
  };
  if (std::none_of(inputs.begin(), inputs.end(), empty)) return std::nullopt;
  const std::string what = op_name(op) + " of an empty value";
  std::vector<Dims<CDim>> shapes;
  for (const ValueRef& r : inputs) {
    std::optional<KnownShape> s;
    if (const ConstantPtr* t = im_.handle_constant(r)) s = KnownShape{(*t)->tensor.shape.dims()};
    else if (const SizesPtr t = im_.handle_sizes(r)) s = KnownShape{t->shape.dims()};
    else if (extents_fixed()) s = im_.shape_of(r);
    if (!s || !s->exact)
      refuse("onnx.shape-unsupported", what + ": an operand's shape depends on symbolic extents, so nnref cannot "
                                              "tell when the model is read what the result is");
    shapes.emplace_back(s->dims.begin(), s->dims.end());
  }
  ConcreteSink sink;
  const auto out = node_obligations<CDim>(op, {}, shapes, sink);
  for (const Failure& f : sink.failures())
    if (f.obligation != &kEmptyExtent) refuse("onnx.shape-unsupported", what + ": " + f.message);
  if (!out || out->outputs.size() != 1) refuse("onnx.shape-unsupported", what + " is not supported");
  std::vector<int64_t> dims;
  for (const CDim& d : out->outputs[0]) dims.push_back(d.v);
  const Shape shape = Shape::make(dims).value();
  if (shape.count() > 0)
    refuse("onnx.shape-unsupported", what + " gives a result with elements (shape " + shape.str() +
                                         "), which nnref does not compute from an empty tensor");
  const ElemKind kind = op_signature(op).result;
  return im_.handle(std::make_shared<const ExactTensor>(ExactTensor{HostTensor{default_dtype(kind), shape, {}}, {}}),
                    kind, nullptr, name);
}

const std::string& NodeCtx::param_node(int64_t id, const std::string& role, const Shape& shape,
                                       const std::string& key) {
  if (shape.count() == 0)
    refuse("onnx.shape-unsupported", role + " ('" + key + "') is an empty tensor (shape " + shape.str() +
                                         "), which an op's parameter never is in nnref (every extent is at least 1)");
  const std::string& node = im_.m_.graph.nodes[static_cast<size_t>(id)].name;
  im_.m_.param_keys[{node, role}] = key;
  return node;
}

void NodeCtx::param_tensor(int64_t id, const std::string& role, HostTensor t, const std::string& key) {
  charge(t.shape.count());
  const std::string& node = param_node(id, role, t.shape, key);
  im_.m_.payload.set(node, role, ParamEntry{std::move(t), im_.file_ + ":" + key});
}

void NodeCtx::param(int64_t id, const std::string& role, size_t k) {
  if (has_input(k) && !constant(k) && kind(k) == ElemKind::Real) {
    const ValueRef v = data(k);
    if (!im_.from_constants(v))
      refuse("onnx.input-not-constant", role + " (input " + std::to_string(k) + ", " +
                                            in_quotes(n_.input(static_cast<int>(k))) +
                                            ") depends on a graph input: a parameter is an initializer, a constant, "
                                            "or computed from them alone" + im_.want_inputs_of(v));
    Node& node = im_.m_.graph.nodes[static_cast<size_t>(id)];
    node.param_values.push_back({role, v});
    im_.m_.param_keys[{node.name, role}] = n_.input(static_cast<int>(k));
    return;
  }
  const HostTensor& t = require_constant(k, role);
  if (!dtype_is_float(t.dtype)) refuse("onnx.type-unsupported", role + " must be a float tensor");
  const std::string& key = n_.input(static_cast<int>(k));
  im_.defer_param(param_node(id, role, t.shape, key), role, im_.values_.at(key).constant, key);
}

ValueRef NodeCtx::literal(const std::string& suffix, HostTensor t) {
  const ElemKind kind = dtype_kind(t.dtype);
  return im_.handle(std::make_shared<const ExactTensor>(exact_of(std::move(t))), kind, nullptr, name_ + "/" + suffix);
}

ValueRef NodeCtx::literal(const std::string& suffix, ExactTensor t) {
  const ElemKind kind = dtype_kind(t.tensor.dtype);
  return im_.handle(std::make_shared<const ExactTensor>(std::move(t)), kind, nullptr, name_ + "/" + suffix);
}

void NodeCtx::charge(int64_t count) {
  const int64_t bytes = tensor_bytes(CDim(count), sizeof(double)).v;
  if (bytes > im_.budget_left_)
    refuse("size.budget", "a constant of " + std::to_string(count) + " elements exceeds the memory budget left (" +
                              std::to_string(im_.budget_left_) + " bytes)");
  im_.budget_left_ -= bytes;
}

int64_t NodeCtx::budget_left() const { return im_.budget_left_; }

void NodeCtx::set_output(size_t k, ValueRef v, ElemKind kind, int32_t type) {
  if (k >= static_cast<size_t>(n_.output_size()) || n_.output(static_cast<int>(k)).empty()) return;
  const std::string& out = n_.output(static_cast<int>(k));
  if (const ConstantPtr* t = im_.handle_constant(v)) {
    im_.values_[out] = Value{std::nullopt, *t, nullptr, out};
    return;
  }
  if (v.node < 0) {  // a size handle
    im_.values_[out] = Value{std::nullopt, nullptr, im_.handle_sizes(v), out, ElemKind::Integer, type};
    return;
  }
  im_.values_[out] = Value{v, nullptr, nullptr, out, kind, type};
}

void NodeCtx::set_output_constant(size_t k, ExactTensor t) {
  if (k >= static_cast<size_t>(n_.output_size()) || n_.output(static_cast<int>(k)).empty()) return;
  const std::string& out = n_.output(static_cast<int>(k));
  im_.values_[out] = Value{std::nullopt, std::make_shared<const ExactTensor>(std::move(t)), nullptr, out};
}

void NodeCtx::set_output_empty(size_t k, const std::vector<int64_t>& dims, size_t like) {
  set_output_constant(k, ExactTensor{HostTensor{element_dtype(like), Shape::make(dims).value(), {}}, {}});
}

// Terms that are all constants are a constant.
void NodeCtx::set_output_sizes(size_t k, SizeTerms t) {
  std::vector<int64_t> values;
  for (const auto& e : t.elements)
    if (e.size() == 2 && e[0] == size_code::kConstant) values.push_back(e[1]);
  if (values.size() == t.elements.size()) return set_output_constant(k, integer_tensor(t.shape, std::move(values)));
  if (k >= static_cast<size_t>(n_.output_size()) || n_.output(static_cast<int>(k)).empty()) return;
  const std::string& out = n_.output(static_cast<int>(k));
  im_.values_[out] =
      Value{std::nullopt, nullptr, std::make_shared<const SizeTerms>(std::move(t)), out, ElemKind::Integer,
            onnx::TensorProto::INT64};
}

bool NodeCtx::output_read(size_t k) const {
  if (k >= static_cast<size_t>(n_.output_size())) return false;
  const std::string& out = n_.output(static_cast<int>(k));
  return !out.empty() && im_.read_later_.count(out) > 0;
}

void NodeCtx::only_outputs(size_t n) {
  for (size_t k = n; k < static_cast<size_t>(n_.output_size()); ++k) {
    const std::string& out = n_.output(static_cast<int>(k));
    if (output_read(k))
      refuse("onnx.output-unsupported", "output " + std::to_string(k) + " (" + in_quotes(out) + ") is not supported");
  }
}

void NodeCtx::finish() {
  for (const auto& at : n_.attribute())
    if (!read_attrs_.count(at.name()))
      refuse("onnx.attribute-unsupported", "attribute " + at.name() + " is not supported");
}

// ---- Importer ----

std::string Importer::unique_name(const std::string& base) {
  std::string name = base;
  for (int k = 2; names_.count(name); ++k) name = base + "#" + std::to_string(k);
  names_.insert(name);
  return name;
}

int64_t Importer::add_ir_node(std::string name, OpAttrs op, std::vector<ValueRef> inputs, const SourceLoc& loc) {
  for (ValueRef& r : inputs) r = materialise(r);
  std::vector<std::optional<KnownShape>> in_shapes;
  for (const ValueRef& r : inputs) in_shapes.push_back(shape_of(r));
  std::vector<std::optional<KnownShape>> outs = rule_shapes(op, in_shapes);
  const int64_t id = m_.graph.add(unique_name(name), std::move(op), std::move(inputs), loc);
  shapes_.push_back(std::move(outs));
  return id;
}

std::vector<std::optional<KnownShape>> Importer::rule_shapes(OpAttrs op,
                                                             const std::vector<std::optional<KnownShape>>& shapes) {
  std::vector<Dims<CDim>> in;
  bool known = true, exact = true;
  for (const std::optional<KnownShape>& s : shapes) {
    if (!s) {
      known = false;
      break;
    }
    exact = exact && s->exact;
    in.emplace_back(s->dims.begin(), s->dims.end());
  }
  std::vector<std::optional<KnownShape>> outs;
  // Sizes computed from data (kElement) are known at run time only: the rule reads each as 1 here,
  // which gives the rank (the extents mean nothing).
  OpAttrs& shaped = op;
  if (const auto c = size_code_of(shaped); c && reads_elements(*c->code)) {
    exact = false;
    std::vector<int64_t>& code = *c->code;
    std::vector<int64_t> out;
    for (size_t i = 0; i < code.size(); i += token_width(code[i])) {
      if (code[i] == size_code::kElement) out.insert(out.end(), {size_code::kConstant, 1});
      else out.insert(out.end(), code.begin() + static_cast<std::ptrdiff_t>(i),
                      code.begin() + static_cast<std::ptrdiff_t>(std::min(i + token_width(code[i]), code.size())));
    }
    code = std::move(out);
  }
  if (known) {
    ConcreteSink sink;
    auto r = node_obligations<CDim>(shaped, {}, in, sink);
    if (r)
      for (const auto& d : r->outputs) {
        std::vector<int64_t> v;
        for (const CDim& x : d) v.push_back(x.v);
        outs.push_back(KnownShape{std::move(v), exact && sink.ok()});
      }
  }
  return outs;
}

std::optional<KnownShape> Importer::probe_shape(const ValueRef& r, const std::string& name, int64_t value) const {
  // The nodes are never changed once added: each probe's shapes are kept, and extended to r.
  std::vector<std::vector<std::optional<KnownShape>>>& shapes = probes_[{name, value}];
  for (auto id = static_cast<int64_t>(shapes.size()); id <= r.node; ++id) {
    const Node& node = m_.graph.nodes[static_cast<size_t>(id)];
    OpAttrs op = node.op;
    if (auto* input = std::get_if<InputAttrs>(&op))
      for (const SizeName& s : m_.size_names)
        if (s.node == id && s.name == name) input->dims[s.axis] = value;
    std::vector<std::optional<KnownShape>> in;
    for (const ValueRef& v : node.inputs) {
      const auto& outs = shapes[static_cast<size_t>(v.node)];
      in.push_back(static_cast<size_t>(v.output) < outs.size() ? outs[static_cast<size_t>(v.output)] : std::nullopt);
    }
    shapes.push_back(rule_shapes(op, in));
  }
  const auto& outs = shapes[static_cast<size_t>(r.node)];
  return static_cast<size_t>(r.output) < outs.size() ? outs[static_cast<size_t>(r.output)] : std::nullopt;
}

std::vector<std::string> Importer::names_changing(const ValueRef& r, size_t axis) const {
  const int64_t at_default = shape_of(r)->dims[axis];
  std::vector<std::string> names;
  for (const SizeName& s : m_.size_names) {
    if (std::find(names.begin(), names.end(), s.name) != names.end()) continue;
    for (int64_t probe : {2, 5}) {
      const std::optional<KnownShape> p = probe_shape(r, s.name, probe);
      if (!p || !p->exact || p->dims.size() <= axis || p->dims[axis] != at_default) {
        names.push_back(s.name);
        break;
      }
    }
  }
  return names;
}

std::vector<std::string> Importer::size_names() const {
  std::vector<std::string> names;
  for (const SizeName& s : m_.size_names)
    if (std::find(names.begin(), names.end(), s.name) == names.end()) names.push_back(s.name);
  return names;
}

void Importer::need_sizes(const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (std::find(needed_.begin(), needed_.end(), n) == needed_.end()) needed_.push_back(n);
}

std::string Importer::want_inputs_of(const ValueRef& r) {
  if (r.node < 0) return "";
  std::vector<int64_t> unvisited{r.node};  // the nodes r depends on, depth first
  std::set<int64_t> seen;
  std::string names;
  while (!unvisited.empty()) {
    const Node& n = m_.graph.nodes[static_cast<size_t>(unvisited.back())];
    unvisited.pop_back();
    if (!seen.insert(n.id).second) continue;
    if (auto it = input_nodes_.find(n.id); it != input_nodes_.end()) {
      if (std::find(wanted_.begin(), wanted_.end(), it->second) == wanted_.end()) wanted_.push_back(it->second);
      names += (names.empty() ? "" : ", ") + in_quotes(it->second);
    }
    for (const ValueRef& in : n.inputs) unvisited.push_back(in.node);
  }
  if (names.empty()) return "";
  return " (nnref run and conform bind graph input " + names + " to the value given with --input: docs/onnx.md, "
         "\"Inputs bound at load\")";
}

bool Importer::from_constants(const ValueRef& r) const {
  std::vector<int64_t> unvisited{r.node};  // the nodes r depends on, depth first
  std::set<int64_t> seen;
  while (!unvisited.empty()) {
    const Node& n = m_.graph.nodes[static_cast<size_t>(unvisited.back())];
    unvisited.pop_back();
    if (!seen.insert(n.id).second) continue;
    if (std::holds_alternative<InputAttrs>(n.op)) return false;
    for (const ValueRef& in : n.inputs) unvisited.push_back(in.node);
  }
  return true;
}

std::optional<KnownShape> Importer::shape_of(const ValueRef& r) const {
  if (const ConstantPtr* t = handle_constant(r)) return KnownShape{(*t)->tensor.shape.dims(), true};
  if (r.node < 0) return KnownShape{handles_[static_cast<size_t>(-r.node - 1)].sizes->shape.dims(), true};
  const auto& outs = shapes_[static_cast<size_t>(r.node)];
  const auto k = static_cast<size_t>(r.output);
  return k < outs.size() ? outs[k] : std::nullopt;
}

// A constant becomes a const node of the kind its operand needs (an integer or bool constant as a
// graph output: real, the same numbers).
ValueRef Importer::materialise(Value& v, ElemKind kind) {
  if (v.ref) return *v.ref;
  v.ref = v.sizes ? materialise_sizes(*v.sizes, v.source) : materialise(handle(v.constant, kind, nullptr, v.source));
  return *v.ref;
}

ValueRef Importer::handle(SizesPtr t, Value* origin, std::string name) {
  handles_.push_back(Handle{nullptr, std::move(t), ElemKind::Integer, origin, std::move(name), std::nullopt});
  return ValueRef{-static_cast<int64_t>(handles_.size()), 0};
}

SizesPtr Importer::handle_sizes(const ValueRef& r) const {
  if (r.node >= 0) return nullptr;
  const Handle& h = handles_[static_cast<size_t>(-r.node - 1)];
  if (h.sizes) return h.sizes;
  if (h.kind != ElemKind::Integer) return nullptr;
  SizeTerms t{h.constant->tensor.shape, {}};
  for (int64_t v : h.constant->ints) t.elements.push_back({size_code::kConstant, v});
  return std::make_shared<const SizeTerms>(std::move(t));
}

SizeProgram Importer::program(const SizeTerms& t) const {
  SizeProgram p;
  std::map<int64_t, int64_t> operand;  // leaf → its operand's position
  for (const auto& e : t.elements)
    for (size_t i = 0; i < e.size(); ++i) {
      const int64_t token = e[i];
      p.code.push_back(token);
      if (token == size_code::kConstant) {
        p.code.push_back(e[++i]);
      } else if (token == size_code::kExtent || token == size_code::kElement) {
        const int64_t leaf = e[++i];
        auto [it, added] = operand.emplace(leaf, static_cast<int64_t>(p.sources.size()));
        if (added) {
          const ValueRef& r = leaves_[static_cast<size_t>(leaf)];
          p.sources.push_back(r);
          p.kinds.push_back(op_signature(m_.graph.nodes[static_cast<size_t>(r.node)].op).result);
        }
        p.code.push_back(it->second);
        p.code.push_back(e[++i]);
      }
    }
  return p;
}

// A `sizes` node computing the terms, shaped as they are.
ValueRef Importer::materialise_sizes(const SizeTerms& t, const std::string& name) {
  SizeProgram p = program(t);
  const bool vector = t.shape.rank() == 1;
  const SourceLoc loc{file_, 0, 0};
  const int64_t id = add_ir_node(vector ? name : name + "/sizes", SizesAttrs{p.code, p.kinds}, p.sources, loc);
  if (vector) return {id, 0};
  return {add_ir_node(name, ReshapeAttrs{t.shape.dims(), ElemKind::Integer}, {{id, 0}}, loc), 0};
}

ValueRef Importer::handle(ConstantPtr t, ElemKind kind, Value* origin, std::string name) {
  handles_.push_back(Handle{std::move(t), nullptr, kind, origin, std::move(name), std::nullopt});
  return ValueRef{-static_cast<int64_t>(handles_.size()), 0};
}

const ConstantPtr* Importer::handle_constant(const ValueRef& r) const {
  if (r.node >= 0) return nullptr;
  const ConstantPtr& t = handles_[static_cast<size_t>(-r.node - 1)].constant;
  return t ? &t : nullptr;
}

// A const node of the handle's kind (an integer or bool constant as a graph output: real, the same
// numbers), made once per handle and once per ONNX value.
ValueRef Importer::materialise(const ValueRef& r) {
  if (r.node >= 0) return r;
  Handle& h = handles_[static_cast<size_t>(-r.node - 1)];
  if (h.origin) return materialise(*h.origin, h.kind);
  if (h.node) return *h.node;
  if (h.sizes) {
    h.node = materialise_sizes(*h.sizes, h.name);
    return *h.node;
  }
  const HostTensor& t = h.constant->tensor;
  if (t.shape.count() == 0)
    throw Refusal{make_error("onnx.shape-unsupported",
                             "'" + h.name + "' is an empty tensor (shape " + t.shape.str() +
                                 "): nnref holds one only while the model is read, as an empty value that ops "
                                 "keep empty or Concat leaves out (docs/onnx.md, \"Empty values\"), and this op "
                                 "reads its elements",
                             SourceLoc{file_, 0, 0})};
  // Parameters are floats: an integer or bool constant's values as doubles, which the const op
  // reads back as its kind (fill_payload); an integer beyond 2^53 has no exact double.
  if (!dtype_is_float(t.dtype)) {
    for (double x : t.values)
      if (std::isnan(x))
        throw Refusal{make_error("onnx.tensor-integer-range",
                                 "constant '" + h.name + "' holds an integer beyond 2^53 in magnitude, which nnref "
                                 "reads only where the model is read (shapes, axes, slice bounds), not as data",
                                 SourceLoc{file_, 0, 0})};
  }
  const int64_t id = add_ir_node(h.name, ConstAttrs{t.shape.dims(), h.kind}, {}, SourceLoc{file_, 0, 0});
  const std::string& name = m_.graph.nodes[static_cast<size_t>(id)].name;
  m_.param_keys[{name, "value"}] = h.name;
  defer_param(name, "value", h.constant, h.name);
  h.node = ValueRef{id, 0};
  return *h.node;
}

void Importer::add_input(const onnx::ValueInfoProto& v) {
  const SourceLoc loc{file_, 0, 0};
  if (!v.type().has_tensor_type()) {
    diags_.push_back(make_error("onnx.type-unsupported", "graph input '" + v.name() + "' is not a tensor", loc));
    failed_.insert(v.name());
    return;
  }
  const auto& tt = v.type().tensor_type();
  const std::optional<ElemKind> kind = kind_of_type(tt.elem_type());
  if (!kind) {
    diags_.push_back(make_error("onnx.type-unsupported",
                                "graph input '" + v.name() + "' has element type " + type_name(tt.elem_type()) +
                                    ": nnref's inputs are float, integer (8 to 64 bits, unsigned to 32) or bool tensors" +
                                    (tt.elem_type() == onnx::TensorProto::UINT64
                                         ? " (nnref run and conform bind it to the value given with --input, which "
                                           "nodes that read it at load time take: docs/onnx.md, \"Inputs bound at load\")"
                                         : ""),
                                loc));
    failed_.insert(v.name());
    // uint64 is read exactly as a constant (a shape), not as data: a value given binds it.
    if (tt.elem_type() == onnx::TensorProto::UINT64) wanted_.push_back(v.name());
    return;
  }
  if (!tt.has_shape()) {
    diags_.push_back(make_error("onnx.input-shape", "graph input '" + v.name() + "' declares no shape", loc));
    failed_.insert(v.name());
    return;
  }
  std::vector<int64_t> dims;
  std::vector<std::string> size_names;
  for (int k = 0; k < tt.shape().dim_size(); ++k) {
    const auto& d = tt.shape().dim(k);
    if (d.has_dim_value()) {
      if (d.dim_value() < 0) {
        diags_.push_back(make_error("onnx.input-shape",
                                    "graph input '" + v.name() + "' has extent " + std::to_string(d.dim_value()), loc));
        failed_.insert(v.name());
        return;
      }
      dims.push_back(d.dim_value());
      size_names.emplace_back();
    } else {
      // A symbolic extent: 1 until --dim names it, or the number LoadOptions::fixed_sizes gives it.
      const std::string name =
          d.has_dim_param() && !d.dim_param().empty() ? d.dim_param() : v.name() + "." + std::to_string(k);
      size_axes_.push_back({name, v.name(), static_cast<size_t>(k)});
      if (fixed_ && fixed_->count(name)) {
        const std::pair<std::string, int64_t> size{name, fixed_->at(name)};
        dims.push_back(size.second);
        size_names.emplace_back();
        auto& noted = m_.sizes_fixed_at_load;
        if (std::find(noted.begin(), noted.end(), size) == noted.end()) noted.push_back(size);
        continue;
      }
      dims.push_back(1);
      size_names.push_back(name);
      extents_fixed_ = false;
    }
  }
  if (std::find(dims.begin(), dims.end(), 0) != dims.end()) return add_empty_input(v, dims, size_names);
  const int64_t id = add_ir_node(v.name(), InputAttrs{dims, *kind}, {}, loc);
  input_nodes_[id] = v.name();
  for (size_t k = 0; k < size_names.size(); ++k)
    if (!size_names[k].empty()) m_.size_names.push_back({size_names[k], id, k, true});
  values_[v.name()] = Value{ValueRef{id, 0}, nullptr, nullptr, v.name(), *kind, tt.elem_type()};
}

void Importer::add_empty_input(const onnx::ValueInfoProto& v, const std::vector<int64_t>& dims,
                               const std::vector<std::string>& size_names) {
  for (const std::string& name : size_names)
    if (!name.empty()) {
      diags_.push_back(make_error("onnx.shape-unsupported",
                                  "graph input '" + v.name() + "' has an extent 0 and a symbolic extent (" + name +
                                      "): nnref holds an empty tensor only where its shape is known when the model "
                                      "is read",
                                  SourceLoc{file_, 0, 0}));
      failed_.insert(v.name());
      return;
    }
  const DType dtype = dtype_of(v.type().tensor_type().elem_type()).value_or(DType::F32);
  const ExactTensor empty{HostTensor{dtype, Shape::make(dims).value(), {}}, {}};
  values_[v.name()] = Value{std::nullopt, std::make_shared<const ExactTensor>(empty), nullptr, v.name()};
  wanted_.push_back(v.name());  // an array given for it is bound, which checks its type and shape
}

bool Importer::add_bound_input(const onnx::ValueInfoProto& v, const HostTensor& t) {
  const SourceLoc loc{file_, 0, 0};
  auto refuse = [&](const std::string& why) {
    diags_.push_back(make_error("onnx.input-bound-mismatch", "graph input '" + v.name() + "' cannot be bound to the value given "
                                                    "with --input: " + why, loc));
    failed_.insert(v.name());
    return false;
  };
  if (!v.type().has_tensor_type()) return refuse("it is not a tensor");
  const auto& tt = v.type().tensor_type();
  const int32_t declared = tt.elem_type();
  const bool float_declared = declared == onnx::TensorProto::FLOAT || declared == onnx::TensorProto::DOUBLE ||
                              declared == onnx::TensorProto::FLOAT16 || declared == onnx::TensorProto::BFLOAT16;
  // A float input takes float values of any width (the .npy a user writes is often float64);
  // an integer or bool input its own type, whose range the model may rely on (uint64 shapes).
  if (dtype_is_float(t.dtype) ? !float_declared : dtype_type(t.dtype) != declared)
    return refuse("it is declared " + type_name(declared) + ", and the value is " + dtype_name(t.dtype));
  if (tt.has_shape()) {
    const auto& dims = tt.shape().dim();
    bool same = dims.size() == static_cast<int>(t.shape.rank());
    for (int k = 0; same && k < dims.size(); ++k)
      same = !dims[k].has_dim_value() || dims[k].dim_value() == t.shape.dims()[static_cast<size_t>(k)];
    if (!same) {
      std::string shape;
      for (int64_t d : t.shape.dims()) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
      return refuse("its shape is not the declared one (the value's is [" + shape + "])");
    }
  }
  if (!dtype_is_float(t.dtype))
    for (double x : t.values)
      if (!std::isfinite(x) || x != std::trunc(x) || std::abs(x) > 9007199254740992.0)
        return refuse("it holds an integer beyond 2^53 in magnitude, which the value read from the file does not "
                      "keep exactly");
  const int64_t bytes = tensor_bytes(CDim(t.shape.count()), sizeof(double)).v;
  if (bytes > budget_left_) return refuse("its " + std::to_string(t.shape.count()) + " elements exceed the memory budget");
  budget_left_ -= bytes;
  values_[v.name()] = Value{std::nullopt, std::make_shared<const ExactTensor>(exact_of(t)), nullptr, v.name()};
  m_.bound_inputs.push_back(v.name());
  return true;
}

void Importer::add_node(const onnx::NodeProto& n, size_t index, const std::map<std::string, int64_t>& opsets) {
  const std::string base = n.name().empty() ? n.op_type() + "_" + std::to_string(index) : n.name();
  const SourceLoc loc{file_, static_cast<int>(index + 1), 0};
  auto fail_outputs = [&] {
    for (const auto& o : n.output()) failed_.insert(o);
  };
  for (const auto& i : n.input())
    if (!i.empty() && !values_.count(i)) {
      if (failed_.count(i)) {
        fail_outputs();  // its cause is reported already
        return;
      }
      Diagnostic d = make_error("onnx.value-undefined", n.op_type() + " node '" + base + "' reads '" + i +
                                                            "', which no earlier node, input or initializer defines",
                                loc);
      d.node = base;
      diags_.push_back(std::move(d));
      fail_outputs();
      return;
    }
  const std::string domain = n.domain() == "ai.onnx" ? "" : n.domain();
  auto opset = opsets.find(domain);
  NodeCtx ctx(*this, n, base, opset == opsets.end() ? 0 : opset->second, loc);
  try {
    if (opset == opsets.end())
      ctx.refuse("onnx.domain-unsupported", "domain '" + n.domain() + "' is not imported by the model or not supported");
    const OpHandler h = domain.empty() ? find_op(n.op_type()) : nullptr;
    if (!h) ctx.refuse("onnx.op-unsupported", "op " + n.op_type() + " is not supported by nnref (docs/onnx.md)");
    h(ctx);
    ctx.finish();
  } catch (const Refusal& r) {
    Diagnostic d = r.d;
    // A handler's own refusal of a value it reads at load time names the value: the graph inputs
    // it is computed from are wanted too (NodeCtx::require_constant and param say so themselves).
    if (d.code == "onnx.input-not-constant" && d.message.find("--input") == std::string::npos)
      for (const auto& i : n.input()) {
        if (i.empty() || d.message.find(in_quotes(i)) == std::string::npos || !values_.at(i).ref) continue;
        d.message += want_inputs_of(*values_.at(i).ref);
        break;
      }
    // A translation that needs the model's extents fixed: run and conform read it at the sizes their
    // arrays give, check at each value of the --dim ranges (docs/architecture.md, "Sizes fixed at load").
    if (d.code == "onnx.shape-unsupported" && ctx.asked_unfixed_) need_sizes(size_names());
    diags_.push_back(std::move(d));
    fail_outputs();
  }
}

void Importer::declare(const onnx::ValueInfoProto& v) {
  auto it = values_.find(v.name());
  if (it == values_.end() || !it->second.ref || !v.type().has_tensor_type() || !v.type().tensor_type().has_shape())
    return;
  std::vector<int64_t> dims;
  for (const auto& d : v.type().tensor_type().shape().dim()) {
    if (!d.has_dim_value()) return;  // symbolic: nothing concrete to compare
    dims.push_back(d.dim_value());
  }
  Node& node = m_.graph.nodes[static_cast<size_t>(it->second.ref->node)];
  if (std::holds_alternative<InputAttrs>(node.op)) return;
  const auto out = static_cast<size_t>(it->second.ref->output);
  if (node.declared.size() <= out) node.declared.resize(out + 1);
  node.declared[out] = dims;
}

bool Importer::add_initializer(const onnx::TensorProto& init) {
  TensorSource src{file_ + ":" + init.name(), base_dir_, budget_left_};
  Result<ExactTensor> t = read_exact_tensor(init, src);
  if (!t) {
    Diagnostic d = std::move(t).error();
    d.loc = SourceLoc{file_, 0, 0};
    diags_.push_back(std::move(d));
    failed_.insert(init.name());
    return false;
  }
  budget_left_ -= held_bytes(t.value());
  values_[init.name()] = Value{std::nullopt, std::make_shared<const ExactTensor>(std::move(t).value()), nullptr, init.name()};
  return true;
}

void Importer::note_reads(const onnx::GraphProto& g) {
  for (const auto& n : g.node()) {
    for (const auto& i : n.input()) read_later_.insert(i);
    for (const auto& a : n.attribute())
      if (a.has_g()) note_reads(a.g());
  }
  for (const auto& o : g.output()) read_later_.insert(o.name());
}

std::vector<std::string> Importer::add_subgraph(const onnx::GraphProto& g, size_t index) {
  for (const auto& init : g.initializer()) add_initializer(init);
  for (const auto& s : g.sparse_initializer()) {
    diags_.push_back(make_error("onnx.tensor-type-unsupported",
                                "sparse initializer '" + s.values().name() + "' is not supported", SourceLoc{file_, 0, 0}));
    failed_.insert(s.values().name());
  }
  for (const auto& n : g.node()) add_node(n, index, *opsets_);
  std::vector<std::string> outputs;
  for (const auto& o : g.output()) outputs.push_back(o.name());
  return outputs;
}

void Importer::note_source_values(const onnx::GraphProto& g) {
  for (const auto& n : g.node())
    for (const auto& o : n.output()) {
      const auto it = values_.find(o);
      if (it == values_.end()) continue;  // refused
      const Value& v = it->second;
      m_.source_values[o] = v.constant ? std::nullopt : v.ref;
    }
}

void Importer::add_empty_output(const std::string& name, const Shape& shape) {
  m_.empty_outputs.push_back({name, shape});
  Diagnostic d = make_error("onnx.empty-output",
                            "output '" + name + "' is an empty tensor of shape " + shape.str() +
                                ", known when the model is read: run writes it as an empty array, conform checks "
                                "that the answer has this shape, and check has nothing to prove for it",
                            SourceLoc{file_, 0, 0});
  d.severity = Severity::Note;
  diags_.push_back(std::move(d));
}

void Importer::run(onnx::GraphProto& g, const std::map<std::string, int64_t>& opsets, const std::string& base_dir,
                   int64_t max_memory) {
  file_ = m_.path;
  base_dir_ = base_dir;
  opsets_ = &opsets;
  budget_left_ = max_memory - static_cast<int64_t>(g.SpaceUsedLong());  // the parsed graph, held while it is read
  note_reads(g);
  for (auto& init : *g.mutable_initializer()) {
    const bool read = add_initializer(init);
    budget_left_ += release(init);
    if (!read && diags_.back().code == "size.budget") return;  // nothing more fits
  }
  for (const auto& s : g.sparse_initializer()) {
    diags_.push_back(make_error("onnx.tensor-type-unsupported",
                                "sparse initializer '" + s.values().name() + "' is not supported", SourceLoc{file_, 0, 0}));
    failed_.insert(s.values().name());
  }
  for (const auto& in : g.input()) {
    if (values_.count(in.name()) || failed_.count(in.name())) continue;  // an initializer's
    declared_.push_back(in.name());
    if (bound_ && bound_->count(in.name())) add_bound_input(in, bound_->at(in.name()));
    else add_input(in);
  }
  for (int k = 0; k < g.node_size(); ++k) add_node(g.node(k), static_cast<size_t>(k), opsets);
  note_source_values(g);
  for (const auto& o : g.output()) {
    auto it = values_.find(o.name());
    if (it == values_.end()) {
      if (!failed_.count(o.name()))
        diags_.push_back(make_error("onnx.value-undefined", "graph output '" + o.name() + "' is not defined",
                                    SourceLoc{file_, 0, 0}));
      continue;
    }
    Value& v = it->second;
    if (v.constant && v.constant->tensor.shape.count() == 0) {
      add_empty_output(o.name(), v.constant->tensor.shape);
      continue;
    }
    if (v.sizes) materialise(v, ElemKind::Integer);
    // nnref's outputs are reals: an integer or bool output is read through a cast, which gives
    // the same numbers (indices, 0 and 1).
    if (!v.constant && v.kind != ElemKind::Real) {
      const int64_t id = add_ir_node(o.name() + "/real", CastAttrs{v.kind, ElemKind::Real}, {*v.ref}, SourceLoc{file_, 0, 0});
      v = Value{ValueRef{id, 0}, nullptr, nullptr, o.name()};
    }
    try {
      m_.graph.outputs.push_back({o.name(), materialise(v)});
    } catch (const Refusal& r) {
      diags_.push_back(r.d);
    }
  }
  for (const auto& v : g.value_info()) declare(v);
  for (const auto& o : g.output()) declare(o);
  // The importer's own references to the constants go, so that each parameter's values move into
  // the payload instead of being held twice.
  values_.clear();
  handles_.clear();
  fill_payload();
}

void Importer::defer_param(const std::string& node, const std::string& role, ConstantPtr constant,
                           const std::string& key) {
  deferred_.push_back({node, role, std::move(constant), file_ + ":" + key});
}

void Importer::fill_payload() {
  for (DeferredParam& p : deferred_) {
    const int64_t bytes = tensor_bytes(CDim(p.constant->tensor.shape.count()), sizeof(double)).v;
    if (bytes > budget_left_) {
      diags_.push_back(make_error("size.budget",
                                  "parameter '" + p.source + "' of " + std::to_string(bytes) +
                                      " bytes exceeds the memory budget left (" + std::to_string(budget_left_) +
                                      " bytes) as it is copied into the model's parameters",
                                  SourceLoc{file_, 0, 0}));
      break;
    }
    HostTensor t = p.constant->tensor;
    if (!dtype_is_float(t.dtype)) t.dtype = DType::F64;  // a const node's integers, as doubles
    // The copy replaces the constant when nothing else holds it; else both are held from now on.
    if (p.constant.use_count() > 1) budget_left_ -= bytes;
    p.constant.reset();
    m_.payload.set(p.node, p.role, ParamEntry{std::move(t), p.source});
  }
  deferred_.clear();
}

}  // namespace nnref::onnx_format
