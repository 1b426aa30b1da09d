// The ONNX ops whose operands or results are integer or bool tensors: ArgMax and ArgMin, Cast and
// CastLike, the comparisons, the logical ops, Where, BitShift, and Gather with indices computed by
// the graph. An integer is an IR integer (int64; the ONNX types whose every value int64 holds), a
// bool an IR logical. Where a composition is used, the comment says why it is exactly the ONNX
// formula (docs/onnx.md repeats the list).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "formats/onnx/integral.hpp"
#include "formats/onnx/ops/handlers.hpp"
#include "spec/axis_groups.hpp"
#include "spec/integer_arith.hpp"
#include "spec/size_program.hpp"

namespace nnref::onnx_format {

namespace {


std::string type_name(int32_t t) { return onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(t)); }

// An integer or logical operand as a real: the same number (an integer of magnitude at most 2^53,
// as the reader holds them; false 0, true 1).
ValueRef as_real(Ctx& c, size_t k, const std::string& suffix) {
  const ElemKind kind = c.kind(k);
  if (kind == ElemKind::Real) return c.data(k);
  return c.emit(suffix, CastAttrs{kind, ElemKind::Real}, {c.operand(k, kind)});
}

// ---- ArgMax, ArgMin ----

// The first index of the extremum along `axis` (NaN beyond every number, as NumPy), or with
// select_last_index 1 (opset 12 on) the last: IR arg_reduce, which keeps the axis with extent 1;
// keepdims 0 squeezes it away.
void arg_reduce(Ctx& c, ArgReduceOp op) {
  const int64_t axis = c.attr_int("axis", 0);
  const bool keep = c.attr_int("keepdims", 1) != 0;
  const bool last = c.opset() >= 12 && c.attr_int("select_last_index", 0) != 0;
  const ArgReduceAttrs a{op, {axis}, last};
  const ValueRef x = c.data(0);
  if (keep) {
    c.set_output(0, c.emit("", a, {x}), ElemKind::Integer, onnx::TensorProto::INT64);
    return;
  }
  const ValueRef kept = c.emit("kept", a, {x});
  c.set_output(0, c.emit("", SqueezeAttrs{{axis}, ElemKind::Integer}, {kept}), ElemKind::Integer, onnx::TensorProto::INT64);
}

// ---- Cast, CastLike ----

// The range of an integer type, [lo, hi].
std::pair<double, double> type_bounds(int32_t t) {
  switch (t) {
    case onnx::TensorProto::INT8: return {-128.0, 127.0};
    case onnx::TensorProto::INT16: return {-32768.0, 32767.0};
    case onnx::TensorProto::INT32: return {-2147483648.0, 2147483647.0};
    case onnx::TensorProto::UINT8: return {0.0, 255.0};
    case onnx::TensorProto::UINT16: return {0.0, 65535.0};
    case onnx::TensorProto::UINT32: return {0.0, 4294967295.0};
    default: return {-0x1p63, 0x1p63};  // INT64
  }
}

// Truncation toward zero, as ONNX casts a float to an integer (C's conversion; NumPy's astype):
// ceil below 0, floor elsewhere, then the IR cast, whose floor of an integer is itself. A value
// that is an integer already (Floor, Ceil or Round computed it): the cast alone.
ValueRef truncated(Ctx& c, ValueRef x, bool is_integral) {
  if (is_integral) return c.emit("", CastAttrs{ElemKind::Real, ElemKind::Integer}, {x});
  const ValueRef negative =
      c.emit("negative", CompareAttrs{CompareOp::Lt, Broadcast::NumpyRight},
             {x, c.literal("zero", HostTensor{DType::F64, Shape(), {0.0}})});
  const ValueRef up = c.emit("ceil", UnaryAttrs{UnaryOp::Ceil}, {x});
  const ValueRef down = c.emit("floor", UnaryAttrs{UnaryOp::Floor}, {x});
  const ValueRef t = c.emit("truncated", SelectAttrs{Broadcast::NumpyRight}, {negative, up, down});
  return c.emit("", CastAttrs{ElemKind::Real, ElemKind::Integer}, {t});
}

// Cast to the ONNX type `to`: between float32 and float64 the real itself (nnref's reals are the
// run's precision); to float16 and bfloat16 the real rounded to that format (IR round_f16,
// round_bf16: to nearest, ties to even). A float to an integer truncates (a value beyond the type
// is undefined in ONNX); an integer to a narrower integer type, which would wrap, is refused; to and
// from bool: x ≠ 0 and 0, 1.
void cast_to(Ctx& c, int32_t to) {
  if (c.opset() >= 19) c.attr_int("saturate", 1);  // for float8 targets only, which nnref refuses
  const std::optional<ElemKind> target = kind_of_type(to);
  if (!target)
    c.refuse("onnx.attribute-unsupported",
             "a cast to " + type_name(to) + " is not supported (nnref holds float, integer and bool values)");
  if (to == onnx::TensorProto::FLOAT16 || to == onnx::TensorProto::BFLOAT16) {
    const UnaryOp round = to == onnx::TensorProto::FLOAT16 ? UnaryOp::RoundF16 : UnaryOp::RoundBF16;
    const ValueRef x = c.kind(0) == ElemKind::Real ? c.operand(0, ElemKind::Real)
                                                   : c.emit("real", CastAttrs{c.kind(0), ElemKind::Real}, {c.operand(0, c.kind(0))});
    return c.set_output(0, c.emit("", UnaryAttrs{round}, {x}), ElemKind::Real, 0);
  }
  const ElemKind from = c.kind(0);
  if (from == ElemKind::Integer && *target == ElemKind::Integer) {
    const auto [slo, shi] = type_bounds(c.type(0));
    const auto [tlo, thi] = type_bounds(to);
    if (slo < tlo || shi > thi)
      c.refuse("onnx.attribute-unsupported", "a cast from " + type_name(c.type(0)) + " to " + type_name(to) +
                                                 " wraps values the target does not hold, which nnref does not compute");
  }
  const ValueRef x = c.operand(0, from);
  ValueRef y;
  if (from == ElemKind::Real && *target == ElemKind::Integer) y = truncated(c, x, integral(c.producer(0)));
  else y = c.emit("", CastAttrs{from, *target}, {x});
  c.set_output(0, y, *target, *target == ElemKind::Real ? 0 : to);
}

void cast(Ctx& c) {
  const auto* to = c.attr("to");
  if (!to || to->type() != onnx::AttributeProto::INT) c.refuse("onnx.attribute-value", "the int attribute to is required");
  if (c.opset() < 6) c.refuse("onnx.attribute-unsupported", "Cast before opset 6 (to as a string) is not supported");
  cast_to(c, static_cast<int32_t>(to->i()));
}

// CastLike: a Cast to the type of input 1. A real graph value's float type is not kept: float32
// and float64 targets are the real itself, float16 and bfloat16 (a graph input's declared type)
// round to their format.
void cast_like(Ctx& c) {
  if (!c.has_input(1)) c.refuse("onnx.input-missing", "input 1 (target_type) is required");
  const int32_t t = c.type(1);
  cast_to(c, t != 0 ? t : static_cast<int32_t>(onnx::TensorProto::DOUBLE));
}

// ---- comparisons and logic ----

// Opset 1-6 binary ops carry legacy broadcast attributes; nnref reads the NumPy rule only.
void numpy_broadcast_only(Ctx& c) {
  if (c.opset() < 7 && (c.attr_int("broadcast", 0) != 0 || c.has_attr("axis")))
    c.refuse("onnx.attribute-unsupported", "the legacy broadcast attribute (before opset 7) is not supported");
}

// The positions each operand's element is read from, output element by output element, under
// NumPy broadcasting (the operands' shapes combined by `op`'s rule).
template <class A>
std::pair<Shape, std::vector<std::vector<size_t>>> broadcast_positions(Ctx& c, const A& op,
                                                                       const std::vector<Shape>& shapes) {
  auto checked = Checked<A>::check(op, shapes);
  if (!checked) c.refuse(checked.error().code, checked.error().message);
  const Shape s = checked.value().outputs()[0];
  std::vector<Tensor<int64_t>> at;
  for (const Shape& x : shapes) {
    at.emplace_back(x);
    std::iota(at.back().data().begin(), at.back().data().end(), int64_t{0});
  }
  std::vector<std::vector<size_t>> out(static_cast<size_t>(s.count()));
  auto put = [&](int64_t i, auto... k) { out[static_cast<size_t>(i)] = {static_cast<size_t>(k)...}; };
  if (shapes.size() == 2) broadcast_map(s, Broadcast::NumpyRight, put, at[0], at[1]);
  else broadcast_map(s, Broadcast::NumpyRight, put, at[0], at[1], at[2]);
  return {s, std::move(out)};
}

bool is_number(const std::vector<int64_t>& term) { return term.size() == 2 && term[0] == size_code::kConstant; }

// Equal of terms (a value computed from symbolic extents, and terms or a constant) where every
// element is decided when the model is read: two numbers compare as numbers, and an extent (at
// least 1: nnref holds no empty tensors) differs from every number below 1 (PyTorch's
// x.expand(n, -1) compares its sizes with −1). The result is a bool constant; false when an
// element is not decided (the comparison is then computed at run time).
bool equal_terms(Ctx& c) {
  if (c.sizes(0) == nullptr && c.sizes(1) == nullptr) return false;
  const SizesPtr a = c.terms(0), b = c.terms(1);
  if (!a || !b) return false;
  auto decided = [](const std::vector<int64_t>& u, const std::vector<int64_t>& v) -> std::optional<bool> {
    if (is_number(u) && is_number(v)) return u[1] == v[1];
    const bool extent_u = u.size() == 3 && u[0] == size_code::kExtent, extent_v = v.size() == 3 && v[0] == size_code::kExtent;
    if ((extent_u && is_number(v) && v[1] < 1) || (extent_v && is_number(u) && u[1] < 1)) return false;
    return std::nullopt;
  };
  const auto [s, at] = broadcast_positions(c, BinaryAttrs{BinaryOp::Add, Broadcast::NumpyRight}, {a->shape, b->shape});
  std::vector<double> values;
  for (const auto& k : at) {
    const std::optional<bool> e = decided(a->elements[k[0]], b->elements[k[1]]);
    if (!e) return false;
    values.push_back(*e ? 1.0 : 0.0);
  }
  c.set_output_constant(0, exact_of(HostTensor{DType::Bool, s, std::move(values)}));
  return true;
}

// x ∘ y under NumPy broadcasting; integer and bool operands compare as the reals they are.
template <CompareOp Op>
void compare(Ctx& c) {
  numpy_broadcast_only(c);
  if constexpr (Op == CompareOp::Eq)
    if (equal_terms(c)) return;
  const ValueRef a = as_real(c, 0, "a-real"), b = as_real(c, 1, "b-real");
  c.set_output(0, c.emit("", CompareAttrs{Op, Broadcast::NumpyRight}, {a, b}), ElemKind::Logical,
               onnx::TensorProto::BOOL);
}

void logical_not(Ctx& c) {
  c.set_output(0, c.emit("", LogicalAttrs{LogicalOp::Not}, {c.operand(0, ElemKind::Logical)}), ElemKind::Logical,
               onnx::TensorProto::BOOL);
}

template <LogicalOp Op>
void logical(Ctx& c) {
  numpy_broadcast_only(c);
  const ValueRef y = c.emit("", LogicalAttrs{Op, Broadcast::NumpyRight},
                            {c.operand(0, ElemKind::Logical), c.operand(1, ElemKind::Logical)});
  c.set_output(0, y, ElemKind::Logical, onnx::TensorProto::BOOL);
}

// Xor: (a ∨ b) ∧ ¬(a ∧ b), true where exactly one is (its truth table), under NumPy broadcasting.
void logical_xor(Ctx& c) {
  numpy_broadcast_only(c);
  const ValueRef a = c.operand(0, ElemKind::Logical), b = c.operand(1, ElemKind::Logical);
  const ValueRef either = c.emit("or", LogicalAttrs{LogicalOp::Or, Broadcast::NumpyRight}, {a, b});
  const ValueRef both = c.emit("and", LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight}, {a, b});
  const ValueRef not_both = c.emit("not-and", LogicalAttrs{LogicalOp::Not}, {both});
  c.set_output(0, c.emit("", LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight}, {either, not_both}), ElemKind::Logical,
               onnx::TensorProto::BOOL);
}

// Where of a constant condition between terms or integer constants (torch.onnx's size vectors,
// computed from symbolic extents or not): the terms it picks, element by element under NumPy
// broadcasting; numbers alone are a constant.
bool where_terms(Ctx& c) {
  const ExactTensor* cond = c.exact(0);
  if (!cond) return false;
  const SizesPtr a = c.terms(1), b = c.terms(2);
  if (!a || !b || c.kind(0) != ElemKind::Logical) return false;
  const auto [s, at] =
      broadcast_positions(c, SelectAttrs{Broadcast::NumpyRight}, {cond->tensor.shape, a->shape, b->shape});
  SizeTerms out{s, {}};
  for (const auto& k : at) out.elements.push_back(cond->ints[k[0]] != 0 ? a->elements[k[1]] : b->elements[k[2]]);
  c.set_output_sizes(0, std::move(out));
  return true;
}

// Where(condition, X, Y): X where the condition holds, Y elsewhere, under NumPy broadcasting; X
// and Y of any kind, the same (select chooses elements of its kind).
void where(Ctx& c) {
  if (where_terms(c)) return;
  const ValueRef cond = c.operand(0, ElemKind::Logical);
  const ElemKind kind = c.kind(1);
  const ValueRef chosen = c.emit("", SelectAttrs{Broadcast::NumpyRight, kind}, {cond, c.operand(1, kind), c.operand(2, kind)});
  c.set_output(0, chosen, kind, c.type(1));
}

// ---- Pow ----

// Pow(X, Y), its result of X's type: x^y in reals, an integer exponent read as the real it is (an
// IR cast). Of an integer base, ONNX Runtime's static_cast<T>(std::pow(x, y)) (std::pow of
// integers computes in double): the real power truncated toward zero, an integer of X's type. With
// an integer exponent too, the power is an integer or, for |x| ≥ 2 and y < 0, of magnitude at most
// 1/2, so rounding half to even gives the same integer as truncation, and an enclosure of an
// integer power decides it (truncation at an integer it cannot).
void power(Ctx& c) {
  const ElemKind base = c.kind(0);
  const ValueRef z = c.emit(base == ElemKind::Integer ? "power" : "", BinaryAttrs{BinaryOp::Pow, Broadcast::NumpyRight},
                            {as_real(c, 0, "base"), as_real(c, 1, "exponent")});
  if (base != ElemKind::Integer) return c.set_output(0, z);
  if (c.kind(1) != ElemKind::Integer) return c.set_output(0, truncated(c, z, false), ElemKind::Integer, c.type(0));
  const ValueRef rounded = c.emit("rounded", UnaryAttrs{UnaryOp::RoundEven}, {z});
  c.set_output(0, c.emit("", CastAttrs{ElemKind::Real, ElemKind::Integer}, {rounded}), ElemKind::Integer, c.type(0));
}

// ---- integer arithmetic ----

// a ∘ b as a term: a number where both are (ONNX's arithmetic, spec/integer_arith.hpp), else a
// size program. A divisor that is a number must be at least 1 there.
std::vector<int64_t> term_of(Ctx& c, IntegerOp op, const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  using namespace size_code;
  const bool ca = a.size() == 2 && a[0] == kConstant, cb = b.size() == 2 && b[0] == kConstant;
  if (ca && cb) {
    const std::optional<int64_t> v = integer_value(op, a[1], b[1]);
    if (!v) c.refuse("onnx.integer-division-by-zero", "a divisor is 0, for which ONNX defines no result");
    return {kConstant, *v};
  }
  const bool divides = op == IntegerOp::Div || op == IntegerOp::Mod || op == IntegerOp::Fmod;
  if (divides && cb && b[1] < 1)
    c.refuse("onnx.shape-unsupported", "a size computed from extents is divided by " + std::to_string(b[1]) +
                                           ": nnref reads divisors of at least 1 there");
  static const std::map<IntegerOp, int64_t> token = {{IntegerOp::Add, kAdd}, {IntegerOp::Sub, kSub},
                                                     {IntegerOp::Mul, kMul}, {IntegerOp::Div, kDiv},
                                                     {IntegerOp::Mod, kMod}, {IntegerOp::Fmod, kFmod},
                                                     {IntegerOp::Min, kMin}, {IntegerOp::Max, kMax}};
  std::vector<int64_t> out = a;
  out.insert(out.end(), b.begin(), b.end());
  out.push_back(token.at(op));
  return out;
}

// Integer arithmetic where an operand is computed from symbolic extents: terms, element by
// element under NumPy broadcasting.
void term_arithmetic(Ctx& c, IntegerOp op, const SizesPtr& a, const SizesPtr& b) {
  const auto [s, at] = broadcast_positions(c, BinaryAttrs{BinaryOp::Add, Broadcast::NumpyRight}, {a->shape, b->shape});
  SizeTerms out{s, {}};
  for (const auto& k : at) out.elements.push_back(term_of(c, op, a->elements[k[0]], b->elements[k[1]]));
  c.set_output_sizes(0, std::move(out));
}

// The IR integer type of an ONNX integer type: its width and signedness, to which integer
// arithmetic wraps its results as ONNX Runtime's C++ arithmetic on the type does. INT64 is the
// default: the reader holds no other integer type (uint64 is refused where it is read).
IntegerType ir_integer_type(int32_t t) {
  switch (t) {
    case onnx::TensorProto::INT8: return {IntegerWidth::Bits8, true};
    case onnx::TensorProto::INT16: return {IntegerWidth::Bits16, true};
    case onnx::TensorProto::INT32: return {IntegerWidth::Bits32, true};
    case onnx::TensorProto::UINT8: return {IntegerWidth::Bits8, false};
    case onnx::TensorProto::UINT16: return {IntegerWidth::Bits16, false};
    case onnx::TensorProto::UINT32: return {IntegerWidth::Bits32, false};
    default: return {};
  }
}

// The ONNX type of the operands of integer arithmetic: those whose type is known, INT64 where none is.
int32_t operand_type(Ctx& c) {
  int32_t t = onnx::TensorProto::INT64;
  for (size_t k = 0; k < c.input_count(); ++k)
    if (c.type(k) != 0) t = c.type(k);
  return t;
}

// a ∘ b of integer values the graph computes at run time: IR integer_binary under NumPy
// broadcasting, its result wrapped to the operands' type.
ValueRef computed(Ctx& c, const std::string& suffix, IntegerOp op, IntegerType type, ValueRef a, ValueRef b) {
  return c.emit(suffix, IntegerBinaryAttrs{op, Broadcast::NumpyRight, type}, {a, b});
}

// f(a, b) element by element of two integer constants under NumPy broadcasting, evaluated when the
// model is read; f refuses an element it gives no value for.
template <class F>
ExactTensor constant_map(Ctx& c, const ExactTensor& a, const ExactTensor& b, F f) {
  auto shape = Checked<BinaryAttrs>::check(BinaryAttrs{BinaryOp::Add, Broadcast::NumpyRight},
                                           {a.tensor.shape, b.tensor.shape});
  if (!shape) c.refuse(shape.error().code, shape.error().message);
  const Shape& s = shape.value().outputs()[0];
  Tensor<int64_t> x(a.tensor.shape), y(b.tensor.shape);
  std::copy(a.ints.begin(), a.ints.end(), x.data().begin());
  std::copy(b.ints.begin(), b.ints.end(), y.data().begin());
  std::vector<int64_t> z(static_cast<size_t>(s.count()));
  broadcast_map(
      s, Broadcast::NumpyRight, [&](int64_t i, int64_t u, int64_t v) { z[static_cast<size_t>(i)] = f(u, v); }, x, y);
  return integer_tensor(s, std::move(z));
}

// Integer Add, Sub, Mul, Div, Mod, Min, Max (spec/integer_arith.hpp: wrap-around, truncating
// division, Mod's sign; the result wrapped to the operands' type) under NumPy broadcasting: of constants, evaluated when the model is read;
// of terms (an operand computed from symbolic extents, the other a term or a constant), a size
// program; of values the graph computes at run time, the IR op integer_binary.
void integer_arithmetic(Ctx& c, IntegerOp op) {
  for (size_t k = 0; k < 2; ++k)
    if (c.kind(k) != ElemKind::Integer)
      c.refuse("onnx.type-unsupported", "input " + std::to_string(k) + " is not an integer tensor, and input " +
                                            std::to_string(1 - k) + " is: ONNX computes on operands of one type");
  const ExactTensor *a = c.exact(0), *b = c.exact(1);
  if (a == nullptr || b == nullptr) {
    const SizesPtr ta = c.terms(0), tb = c.terms(1);
    if (ta && tb) return term_arithmetic(c, op, ta, tb);
    const int32_t type = operand_type(c);
    const ValueRef z =
        computed(c, "", op, ir_integer_type(type), c.operand(0, ElemKind::Integer), c.operand(1, ElemKind::Integer));
    return c.set_output(0, z, ElemKind::Integer, type);
  }
  const IntegerType type = ir_integer_type(operand_type(c));
  // uint64 operands are below 2^63: a result that wraps to 2^63 or more (negative as an int64) is
  // not held.
  const bool uint64 = operand_type(c) == onnx::TensorProto::UINT64;
  const auto value = [&](int64_t u, int64_t v) {
    const std::optional<int64_t> r = integer_value(op, u, v);
    if (!r) c.refuse("onnx.integer-division-by-zero", "a divisor is 0, for which ONNX defines no result");
    if (uint64 && *r < 0)
      c.refuse("onnx.integer-range", "a uint64 result is " + std::to_string(static_cast<uint64_t>(*r)) +
                                         " (modulo 2^64), 2^63 or more, which nnref does not hold");
    return wrapped(type, *r);
  };
  c.set_output_constant(0, constant_map(c, *a, *b, value));
}

// Integer Neg and Abs (wrapping at the type's width as two's complement: −INT64_MIN is INT64_MIN,
// −(−128) in int8 is −128): of a constant,
// evaluated when the model is read; of terms, 0 − x and max(x, 0 − x) as size programs; of a value
// the graph computes, the same two formulas as integer_binary nodes.
void integer_sign(Ctx& c, bool abs) {
  const ExactTensor* a = c.exact(0);
  if (a == nullptr) {
    const SizesPtr t = c.terms(0);
    if (!t) {
      const int32_t type = operand_type(c);
      const IntegerType ir = ir_integer_type(type);
      const ValueRef x = c.operand(0, ElemKind::Integer);
      const ValueRef zero = c.literal("zero", HostTensor{DType::I64, Shape(), {0.0}});
      const ValueRef negated = computed(c, abs ? "negated" : "", IntegerOp::Sub, ir, zero, x);
      return c.set_output(0, abs ? computed(c, "", IntegerOp::Max, ir, x, negated) : negated, ElemKind::Integer, type);
    }
    SizeTerms out{t->shape, {}};
    const std::vector<int64_t> zero{size_code::kConstant, 0};
    for (const auto& e : t->elements) {
      std::vector<int64_t> negated = term_of(c, IntegerOp::Sub, zero, e);
      out.elements.push_back(abs ? term_of(c, IntegerOp::Max, e, negated) : negated);
    }
    return c.set_output_sizes(0, std::move(out));
  }
  const IntegerType type = ir_integer_type(operand_type(c));
  std::vector<int64_t> z;
  for (int64_t v : a->ints) z.push_back(abs && v >= 0 ? v : wrapped(type, *integer_value(IntegerOp::Sub, 0, v)));
  c.set_output_constant(0, integer_tensor(a->tensor.shape, std::move(z)));
}

// ---- CumSum ----

// CumSum (opsets 11, 14): IR cumsum along the axis input (a constant 0-D or 1-D tensor of one
// integer), exclusive and reverse as given, of reals or integers. ONNX Runtime sums an integer type
// in that type, wrapping at its width: cumsum's sums in int64 wrapped to it (IntegerType).
void cumsum(Ctx& c) {
  const std::vector<int64_t> axis = c.int_list(1, "axis");
  if (axis.size() != 1) c.refuse("onnx.input-type", "axis must hold one integer (a 0-D tensor, or 1-D of one element)");
  CumsumAttrs a{axis[0], c.attr_int("exclusive", 0) != 0, c.attr_int("reverse", 0) != 0, c.kind(0)};
  if (a.kind == ElemKind::Logical) c.refuse("onnx.type-unsupported", "CumSum of bool values is not defined: it adds numbers");
  const int32_t t = c.type(0) != 0 ? c.type(0) : static_cast<int32_t>(onnx::TensorProto::INT64);
  if (a.kind == ElemKind::Integer) a.type = ir_integer_type(t);
  c.set_output(0, c.emit("", a, {c.operand(0, a.kind)}), a.kind, a.kind == ElemKind::Integer ? t : 0);
}

// BitShift of uint64 values, which nnref holds as constants only (read exactly below 2^63; a graph
// input is bound at load): evaluated when the model is read, as NumPy's and ONNX Runtime's uint64
// << and >> compute it: a left shift wraps modulo 2^64, a shift by 64 or more gives 0. A result
// of 2^63 or more is not held: refused by name (onnx.integer-range), never a wrapped value.
void uint64_bit_shift(Ctx& c, bool left) {
  const ExactTensor *x = c.exact(0), *s = c.exact(1);
  if (x == nullptr || s == nullptr)
    c.refuse("onnx.type-unsupported", "BitShift of uint64 values the graph computes: nnref holds uint64 values as "
                                      "constants only");
  ExactTensor z = constant_map(c, *x, *s, [&](int64_t u, int64_t k) {
    if (k >= 64) return int64_t{0};
    const uint64_t r = left ? static_cast<uint64_t>(u) << k : static_cast<uint64_t>(u) >> k;
    if (r > static_cast<uint64_t>(INT64_MAX))
      c.refuse("onnx.integer-range", std::to_string(u) + " << " + std::to_string(k) + " is " + std::to_string(r) +
                                         " (modulo 2^64), a uint64 of 2^63 or more, which nnref does not hold");
    return static_cast<int64_t>(r);
  });
  z.tensor.dtype = DType::U64;
  c.set_output_constant(0, std::move(z));
}

// BitShift of unsigned integers: x << s = x·2^s wrapped to x's type, x >> s = x / 2^s (x ≥ 0:
// the quotient's floor), as ONNX defines them. 2^s is read from the table 2^0 .. 2^(bits−1) by s (a
// gather of exact reals, cast back); a shift of the type's width or more reads NaN there, which
// the cast leaves undetermined: no value is made up for it.
void bit_shift(Ctx& c) {
  const std::string direction = c.attr_string("direction", "");
  if (direction != "LEFT" && direction != "RIGHT") c.refuse("onnx.attribute-value", "direction must be LEFT or RIGHT");
  const int32_t type = operand_type(c);
  if (type == onnx::TensorProto::UINT64) return uint64_bit_shift(c, direction == "LEFT");
  const int bits = type == onnx::TensorProto::UINT8 ? 8 : type == onnx::TensorProto::UINT16 ? 16 : type == onnx::TensorProto::UINT32 ? 32 : 0;
  if (bits == 0 || c.kind(0) != ElemKind::Integer || c.kind(1) != ElemKind::Integer)
    c.refuse("onnx.type-unsupported", "BitShift of unsigned integers (uint8 to uint64) only");
  std::vector<double> powers(static_cast<size_t>(bits));
  for (int k = 0; k < bits; ++k) powers[static_cast<size_t>(k)] = std::ldexp(1.0, k);
  const ValueRef table = c.literal("powers", HostTensor{DType::F64, Shape::make({bits}).value(), std::move(powers)});
  const ValueRef power = c.emit("power", CastAttrs{ElemKind::Real, ElemKind::Integer},
                                {c.emit("power-real", GatherAttrs{0}, {table, c.operand(1, ElemKind::Integer)})});
  const IntegerOp op = direction == "LEFT" ? IntegerOp::Mul : IntegerOp::Div;
  c.set_output(0, computed(c, "", op, ir_integer_type(type), c.operand(0, ElemKind::Integer), power), ElemKind::Integer, type);
}

void arg_max(Ctx& c) { arg_reduce(c, ArgReduceOp::Max); }
void arg_min(Ctx& c) { arg_reduce(c, ArgReduceOp::Min); }

}  // namespace

void integer_binary(NodeCtx& c, IntegerOp op) { integer_arithmetic(c, op); }

// Clip of integers: min(max(x, lo), hi), as integer_binary Max then Min in x's type (exact: the
// result is one of the operands); a bound left out leaves x as it is.
void integer_clip(NodeCtx& c) {
  const IntegerType type = ir_integer_type(c.type(0));
  const bool hi = c.has_input(2);
  ValueRef y = c.operand(0, ElemKind::Integer);
  if (c.has_input(1)) y = computed(c, hi ? "max" : "", IntegerOp::Max, type, y, c.operand(1, ElemKind::Integer));
  if (hi) y = computed(c, "", IntegerOp::Min, type, y, c.operand(2, ElemKind::Integer));
  c.set_output(0, y, ElemKind::Integer, c.type(0));
}

void pow_op(NodeCtx& c) { power(c); }

// MaxPool of integers of at most 16 bits: the max pool of the same numbers as reals, which every
// precision nnref computes in holds exactly (float32: every integer of magnitude up to 2^24), cast
// back to integers (the IR cast's floor of an integer is itself); the maximum is one of the
// window's elements, so the result is exact. Wider types are refused: float32 does not hold them.
void integer_max_pool(NodeCtx& c, const PoolAttrs& a) {
  const int32_t t = c.type(0);
  if (bits_of(ir_integer_type(t).width) > 16)
    c.refuse("onnx.type-unsupported", "MaxPool of " + type_name(t) +
                                          " values: nnref takes the maximum as reals, and a float32 run holds "
                                          "integers of at most 24 bits exactly (it reads MaxPool of 8- and 16-bit "
                                          "integers)");
  const ValueRef m = c.emit("max", a, {as_real(c, 0, "real")});
  c.set_output(0, c.emit("", CastAttrs{ElemKind::Real, ElemKind::Integer}, {m}), ElemKind::Integer, t);
}

// Sum, Min, Max of three or more integer tensors: integer_binary left to right under NumPy
// broadcasting (exact: + wraps modulo 2^64, which is associative and commutative, as min and max are).
void integer_chain(NodeCtx& c, IntegerOp op) {
  const size_t n = c.input_count();
  const int32_t type = operand_type(c);
  const IntegerType ir = ir_integer_type(type);
  ValueRef acc = c.operand(0, ElemKind::Integer);
  for (size_t k = 1; k < n; ++k)
    acc = computed(c, k + 1 == n ? "" : std::to_string(k), op, ir, acc, c.operand(k, ElemKind::Integer));
  c.set_output(0, acc, ElemKind::Integer, type);
}
void integer_negation(NodeCtx& c, bool abs) { integer_sign(c, abs); }

// Gather with indices the graph computes (an integer input): IR gather, after ONNX's negative
// indices, which count from the axis's end, are moved into [0, s): j + s where j < 0, j
// elsewhere, in integer arithmetic (exact in every scalar, as a runtime's index arithmetic is; in
// reals the envelope would widen an index to two). The extent s is read at load time, so the
// model's extents must be fixed.
void gather_computed(NodeCtx& c, int64_t axis) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported", "Gather with computed indices needs fixed extents (a negative index counts "
                                       "from the axis's end), and the model's inputs have symbolic ones");
  const std::vector<int64_t> s = c.shape(0);
  const int64_t r = static_cast<int64_t>(s.size());
  const int64_t k = axis < 0 ? axis + r : axis;
  if (k < 0 || k >= r) c.refuse("onnx.attribute-value", "axis " + std::to_string(axis) + " is outside the input's axes");
  const ValueRef x = c.data(0);
  const ValueRef j = c.operand(1, ElemKind::Integer);
  c.set_output(0, c.emit("", GatherAttrs{axis}, {x, index_in_range(c, j, s[static_cast<size_t>(k)])}));
}

// Integer reductions (docs/onnx.md, "Integer arithmetic"): Σ and Π wrap modulo 2^bits of the
// data's type, as ONNX Runtime's accumulation in that type leaves them; max and min are exact.
// Over terms (ReduceProd(Shape(x)) = N·C·H·W), each group's terms combined into one program by the
// same operation, so that a Reshape reading it is proved for every size.
void integer_reduce(Ctx& c, ReduceOp op, const std::vector<int64_t>& axes, bool keep) {
  if (op == ReduceOp::Mean)
    c.refuse("onnx.type-unsupported", "ReduceMean of integers is not supported (nnref's mean takes reals)");
  if (const SizeTerms* t = c.sizes(0)) {
    const auto r = static_cast<int64_t>(t->shape.rank());
    std::vector<size_t> picked;
    for (int64_t a : axes) {
      if (a < -r || a >= r) c.refuse("onnx.attribute-value", "axis " + std::to_string(a) + " is outside -rank .. rank - 1");
      picked.push_back(static_cast<size_t>(a < 0 ? a + r : a));
    }
    const AxisSplit split = split_axes(t->shape, picked);
    const std::vector<bool> mask = axis_mask(picked, t->shape.rank());
    std::vector<int64_t> dims;
    for (size_t i = 0; i < t->shape.rank(); ++i)
      if (!mask[i]) dims.push_back(t->shape[i]);
      else if (keep) dims.push_back(1);
    static const std::map<ReduceOp, int64_t> token = {{ReduceOp::Sum, size_code::kAdd}, {ReduceOp::Prod, size_code::kMul},
                                                      {ReduceOp::Max, size_code::kMax}, {ReduceOp::Min, size_code::kMin}};
    SizeTerms out{Shape::make(dims).value(), {}};
    for (int64_t o : split.outer) {
      std::vector<int64_t> e;
      for (size_t k = 0; k < split.inner.size(); ++k) {
        const std::vector<int64_t>& term = t->elements[static_cast<size_t>(o + split.inner[k])];
        e.insert(e.end(), term.begin(), term.end());
        if (k > 0) e.push_back(token.at(op));
      }
      if (e.empty()) e = {size_code::kConstant, op == ReduceOp::Prod ? 1 : 0};  // an empty group (Σ 0, Π 1)
      out.elements.push_back(std::move(e));
    }
    return c.set_output_sizes(0, std::move(out));
  }
  const int32_t type = c.type(0) != 0 ? c.type(0) : onnx::TensorProto::INT64;
  ReduceAttrs a{op, axes, keep, ElemKind::Integer, ir_integer_type(type)};
  c.set_output(0, c.emit("", a, {c.operand(0, ElemKind::Integer)}), ElemKind::Integer, type);
}

void add_typed_ops(OpTable& table) {
  add_ops(table, {
      {"And", logical<LogicalOp::And>},
      {"ArgMax", arg_max},
      {"ArgMin", arg_min},
      {"BitShift", bit_shift},
      {"Cast", cast},
      {"CastLike", cast_like},
      {"CumSum", cumsum},
      {"Equal", compare<CompareOp::Eq>},
      {"Greater", compare<CompareOp::Gt>},
      {"GreaterOrEqual", compare<CompareOp::Ge>},
      {"Less", compare<CompareOp::Lt>},
      {"LessOrEqual", compare<CompareOp::Le>},
      {"Not", logical_not},
      {"Or", logical<LogicalOp::Or>},
      {"Where", where},
      {"Xor", logical_xor},
  });
}

}  // namespace nnref::onnx_format
