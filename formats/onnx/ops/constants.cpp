// The ONNX ops that make values: Constant, ConstantOfShape, Range, Shape and Size.
#include <algorithm>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"
#include "formats/onnx/tensor_proto.hpp"

namespace nnref::onnx_format {

namespace {

void constant(Ctx& c) {
  ExactTensor t;
  if (const auto* a = c.attr("value")) {
    Result<ExactTensor> r = read_exact_tensor(a->t(), TensorSource{c.name() + ".value", "", c.budget_left()});
    if (!r) c.refuse(r.error().code, r.error().message);
    t = std::move(r).value();
    c.charge(static_cast<int64_t>(t.tensor.values.size() + t.ints.size()));  // 8 bytes each
  } else if (const auto* f = c.attr("value_float")) {
    t.tensor = HostTensor{DType::F32, Shape(), {static_cast<double>(f->f())}};
  } else if (const auto* fs = c.attr("value_floats")) {
    t.tensor =
        HostTensor{DType::F32, Shape::make({fs->floats_size()}).value(), {fs->floats().begin(), fs->floats().end()}};
  } else if (const auto* i = c.attr("value_int")) {
    t = integer_tensor(Shape(), {i->i()});
  } else if (const auto* is = c.attr("value_ints")) {
    t = integer_tensor(Shape::make({is->ints_size()}).value(), {is->ints().begin(), is->ints().end()});
  } else {
    c.refuse("onnx.attribute-unsupported", "only value, value_float(s) and value_int(s) are supported");
  }
  c.set_output_constant(0, std::move(t));
}

// ConstantOfShape's `value`: one element of any numeric or bool type (default float 0), as a scalar.
ExactTensor fill_value(Ctx& c) {
  const auto* a = c.attr("value");
  if (!a) return exact_of(HostTensor{DType::F32, Shape(), {0.0}});
  if (a->type() != onnx::AttributeProto::TENSOR) c.refuse("onnx.attribute-type", "attribute value must be a tensor");
  const int32_t type = a->t().data_type();
  if (!kind_of_type(type) || type == onnx::TensorProto::FLOAT16 || type == onnx::TensorProto::BFLOAT16)
    c.refuse("onnx.type-unsupported",
             "a value of type " + onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(type)) +
                 " is not supported (nnref fills float32, float64, integer and bool values)");
  Result<ExactTensor> r = read_exact_tensor(a->t(), TensorSource{c.name() + ".value", "", INT64_MAX});
  if (!r) c.refuse(r.error().code, r.error().message);
  ExactTensor v = std::move(r).value();
  if (v.tensor.values.size() != 1) c.refuse("onnx.attribute-value", "value must hold one element");
  v.tensor.shape = Shape();
  return v;
}

void no_empty_extent(Ctx& c, int64_t d) {
  if (d < 1) c.refuse("onnx.shape-unsupported", "an extent " + std::to_string(d) + " gives no elements (nnref holds no empty tensors)");
}

// `value` in every element of shape s, as a constant.
ExactTensor filled(const ExactTensor& value, const Shape& s) {
  const auto n = static_cast<size_t>(s.count());
  ExactTensor t{HostTensor{value.tensor.dtype, s, std::vector<double>(n, value.tensor.values[0])}, {}};
  if (!value.ints.empty()) t.ints.assign(n, value.ints[0]);
  return t;
}

// ConstantOfShape: `value` in every element of a tensor of the given shape. Of a constant shape, an
// integer or bool value is a constant (shape arithmetic reads it: PyTorch's ones_like of a size
// vector); a real one is the scalar broadcast to the shape (IR broadcast_to), no constant of that
// size being made; a constant shape with an extent 0 gives an empty value (docs/onnx.md, "Empty
// values"). A shape computed from symbolic extents or from data (kElement terms, an entry 0
// then an empty extent refused at run time) is broadcast_to's computed dims, of the value's kind.
void constant_of_shape(Ctx& c) {
  const ExactTensor value = fill_value(c);
  c.bind_when_given(0);  // a shape given as an input: known at load where given (an empty one among others)
  SizesPtr t = c.exact(0) ? nullptr : c.data_terms(0);
  if (!t && !c.exact(0)) t = c.terms(0);
  if (!t) {
    const std::vector<int64_t> dims = c.int_list(0, "shape");
    for (int64_t d : dims)
      if (d < 0) c.refuse("onnx.attribute-value", "a negative extent " + std::to_string(d));
    if (std::find(dims.begin(), dims.end(), 0) != dims.end())  // an empty value
      return c.set_output_constant(0, ExactTensor{HostTensor{value.tensor.dtype, Shape::make(dims).value(), {}}, {}});
    if (dtype_is_float(value.tensor.dtype))
      return c.set_output(0, {c.emit_node("", BroadcastToAttrs{dims}, {c.literal("value", value.tensor)}), 0});
    Result<Shape> s = Shape::make(dims);
    if (!s) c.refuse(s.error().code, s.error().message);
    c.charge(s.value().count());
    return c.set_output_constant(0, filled(value, s.value()));
  }
  if (t->shape.rank() != 1) c.refuse("onnx.input-type", "the shape must be a 1-D integer tensor");
  for (const auto& e : t->elements)
    if (e.size() == 2 && e[0] == size_code::kConstant) no_empty_extent(c, e[1]);
  // Any kind: broadcast_to moves integers and truth values as it moves reals.
  const ElemKind kind = dtype_is_float(value.tensor.dtype) ? ElemKind::Real : value.tensor.dtype == DType::Bool ? ElemKind::Logical : ElemKind::Integer;
  SizeProgram p = c.program(*t);
  const std::vector<ValueRef> in = with_sources(c.literal("value", value), p);
  const BroadcastToAttrs a{{}, Broadcast::NumpyRight, std::move(p.code), std::move(p.kinds), kind};
  const auto* attr = c.attr("value");
  c.set_output(0, {c.emit_node("", a, in), 0}, kind, attr && kind != ElemKind::Real ? attr->t().data_type() : 0);
}

// Range (opset 11): y[i] = start + i·delta, n = max(⌈(limit − start)/delta⌉, 0) elements (IR range,
// whose rule requires delta ≠ 0 and n ≥ 1). Of floats, start, limit and delta must be constants
// (a real range, never folded: it is computed in the run's precision). Of integers, delta a
// constant, start and limit constants (the range folds to a constant) or terms computed from
// symbolic extents (PyTorch's torch.arange(x.size(1))): their program, so that the length is a size
// `check` proves for every size. An operand the graph computes at run time from its data gives a
// length known only when it runs: refused, naming it.
void range_op(Ctx& c) {
  for (size_t k = 0; k < 3; ++k)
    if (!c.has_input(k)) c.refuse("onnx.input-missing", "Range takes start, limit and delta (input " + std::to_string(k) + " is missing)");
  const ElemKind kind = c.kind(0);
  if (kind == ElemKind::Logical || c.kind(1) != kind || c.kind(2) != kind)
    c.refuse("onnx.type-unsupported", "Range's start, limit and delta must be numbers of one type");
  static const char* const kNames[] = {"start", "limit", "delta"};
  const auto name = [&](size_t k) {
    return std::string(kNames[k]) + " (input " + std::to_string(k) + ", '" + c.proto().input(static_cast<int>(k)) + "')";
  };
  const auto at_run_time = [&](size_t k) {
    c.refuse("onnx.input-not-constant",
             "Range's " + name(k) + " is a real computed at run time from the graph's data: a real range's start, "
             "limit and delta must be initializers or constants (an integer range's may be computed from symbolic "
             "extents or from data; docs/onnx.md, \"Shapes are values\")");
  };
  // Size terms of an integer operand: over extents, or elements of a value computed from data
  // (which the plan reads from the run's inputs).
  const auto scalar_terms = [&](size_t k) -> std::vector<int64_t> {  // a copy: the terms are shared
    SizesPtr t = c.terms(k);
    if (!t) t = c.data_terms(k);
    if (!t) at_run_time(k);
    if (t->elements.size() != 1) c.refuse("onnx.input-type", "Range's " + name(k) + " must be a scalar");
    return t->elements[0];
  };
  if (kind == ElemKind::Real) {
    RangeAttrs a;
    Real* fields[] = {&a.start, &a.limit, &a.delta};
    for (size_t k = 0; k < 3; ++k) {
      const HostTensor* t = c.constant(k);
      if (!t) at_run_time(k);
      if (t->values.size() != 1) c.refuse("onnx.input-type", "Range's " + name(k) + " must be a scalar");
      *fields[k] = Real(t->values[0]);
    }
    return c.set_output(0, c.emit("", a, {}));
  }
  if (!c.terms(2) && c.data_terms(2))
    c.refuse("onnx.input-not-constant", "Range's " + name(2) + " is computed at run time from the graph's data: "
                                        "nnref reads a constant delta only (the length's division needs its sign)");
  const std::vector<int64_t> start = scalar_terms(0), limit = scalar_terms(1), delta = scalar_terms(2);
  if (delta.size() != 2 || delta[0] != size_code::kConstant)
    c.refuse("onnx.shape-unsupported", "Range's " + name(2) + " is computed from symbolic extents; nnref reads a "
                                       "constant delta only (the length's division needs its sign)");
  RangeAttrs a;
  a.kind = ElemKind::Integer;
  a.idelta = delta[1];
  std::vector<ValueRef> in;
  const auto constant = [](const std::vector<int64_t>& e) { return e.size() == 2 && e[0] == size_code::kConstant; };
  if (constant(start) && constant(limit)) {
    a.istart = start[1], a.ilimit = limit[1];
  } else {
    SizeProgram p = c.program(SizeTerms{Shape::make({2}).value(), {start, limit}});
    a.computed = std::move(p.code), a.sources = std::move(p.kinds), in = std::move(p.sources);
  }
  c.set_output(0, c.emit("", a, std::move(in)), ElemKind::Integer, c.type(0));
}

// Whether input 0's shape holds for every run: the model's extents are fixed, or it is a constant
// (or a value computed from extents, whose shape is fixed).
bool shape_fixed(Ctx& c) { return c.extents_fixed() || c.exact(0) != nullptr || c.sizes(0) != nullptr; }

// Shape (start and end clamped as ONNX does) and Size: constants where the shape is fixed, else
// terms over the input's extents (size values: docs/onnx.md, "Shapes are values").
void shape_op(Ctx& c) {
  const auto r = static_cast<int64_t>(c.rank(0));
  int64_t start = c.attr_int("start", 0), end = c.attr_int("end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = std::clamp<int64_t>(start, 0, r), end = std::clamp<int64_t>(std::max(start, end), 0, r);
  if (!shape_fixed(c)) {
    if (start == end) c.refuse("onnx.shape-unsupported", "the shape from start to end is empty, which nnref does not hold");
    return c.set_output_sizes(0, c.extents_of(0, start, end));
  }
  const std::vector<int64_t> s = c.shape(0);
  std::vector<int64_t> extents(s.begin() + start, s.begin() + end);
  c.set_output_constant(0, integer_tensor(Shape::make({end - start}).value(), std::move(extents)));
}

void size_op(Ctx& c) {
  if (shape_fixed(c)) return c.set_output_constant(0, integer_tensor(Shape(), {Shape::make(c.shape(0)).value().count()}));
  SizeTerms extents = c.extents_of(0, 0, static_cast<int64_t>(c.rank(0)));
  std::vector<int64_t> product = extents.elements[0];
  for (size_t k = 1; k < extents.elements.size(); ++k) {
    product.insert(product.end(), extents.elements[k].begin(), extents.elements[k].end());
    product.push_back(size_code::kMul);
  }
  c.set_output_sizes(0, SizeTerms{Shape(), {product}});
}

}  // namespace

void add_constant_ops(OpTable& table) {
  add_ops(table, {
      {"Constant", constant},
      {"ConstantOfShape", constant_of_shape},
      {"Range", range_op},
      {"Shape", shape_op},
      {"Size", size_op},
  });
}

}  // namespace nnref::onnx_format
