// The ONNX ops whose operands or results are integer or bool tensors: ArgMax and ArgMin, Cast and
// CastLike, the comparisons, the logical ops, Where, and Gather with indices computed by the
// graph. An integer is an IR integer (int64; the ONNX types whose every value int64 holds), a
// bool an IR logical. Where a composition is used, the comment says why it is exactly the ONNX
// formula (docs/onnx.md repeats the list).
#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "formats/onnx/integral.hpp"
#include "formats/onnx/ops.hpp"
#include "spec/integer_arith.hpp"

namespace nnref::onnx_format {

namespace {

using Ctx = NodeCtx;

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
std::pair<double, double> integer_range(int32_t t) {
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
// that Floor, Ceil or Round computed is an integer already: the cast alone.
ValueRef truncated(Ctx& c, ValueRef x) {
  if (integral(c.producer(0))) return c.emit("", CastAttrs{ElemKind::Real, ElemKind::Integer}, {x});
  const ValueRef negative =
      c.emit("negative", CompareAttrs{CompareOp::Lt, Broadcast::NumpyRight},
             {x, c.literal("zero", HostTensor{DType::F64, Shape(), {0.0}})});
  const ValueRef up = c.emit("ceil", UnaryAttrs{UnaryOp::Ceil}, {x});
  const ValueRef down = c.emit("floor", UnaryAttrs{UnaryOp::Floor}, {x});
  const ValueRef t = c.emit("truncated", SelectAttrs{Broadcast::NumpyRight}, {negative, up, down});
  return c.emit("", CastAttrs{ElemKind::Real, ElemKind::Integer}, {t});
}

// Cast to the ONNX type `to`: between the float types the real itself (nnref's reals are the run's
// precision); float16 and bfloat16 targets are refused, their rounding being coarser than a
// float32 run. A float to an integer truncates (a value beyond the type is undefined in ONNX); an
// integer to a narrower integer type, which would wrap, is refused; to and from bool: x ≠ 0 and 0, 1.
void cast_to(Ctx& c, int32_t to) {
  if (c.opset() >= 19) c.attr_int("saturate", 1);  // for float8 targets only, which nnref refuses
  const std::optional<ElemKind> target = kind_of_type(to);
  if (!target || to == onnx::TensorProto::FLOAT16)
    c.refuse("onnx.attribute-unsupported", "a cast to " + type_name(to) +
                                               " is not supported (nnref holds float, integer and bool values; a "
                                               "float16 result rounds more coarsely than a float32 run)");
  const ElemKind from = c.kind(0);
  if (from == ElemKind::Integer && *target == ElemKind::Integer) {
    const auto [slo, shi] = integer_range(c.type(0));
    const auto [tlo, thi] = integer_range(to);
    if (slo < tlo || shi > thi)
      c.refuse("onnx.attribute-unsupported", "a cast from " + type_name(c.type(0)) + " to " + type_name(to) +
                                                 " wraps values the target does not hold, which nnref does not compute");
  }
  const ValueRef x = c.operand(0, from);
  ValueRef y;
  if (from == ElemKind::Real && *target == ElemKind::Integer) y = truncated(c, x);
  else y = c.emit("", CastAttrs{from, *target}, {x});
  c.set_output(0, y, *target, *target == ElemKind::Real ? 0 : to);
}

void cast(Ctx& c) {
  const auto* to = c.attr("to");
  if (!to || to->type() != onnx::AttributeProto::INT) c.refuse("onnx.attribute-value", "the int attribute to is required");
  if (c.opset() < 6) c.refuse("onnx.attribute-unsupported", "Cast before opset 6 (to as a string) is not supported");
  cast_to(c, static_cast<int32_t>(to->i()));
}

// CastLike: a Cast to the type of input 1. A real graph value's float type is not kept; every
// float target is the real itself, float16 aside (refused when input 1 says so).
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

// x ∘ y under NumPy broadcasting; integer and bool operands compare as the reals they are.
template <CompareOp Op>
void compare(Ctx& c) {
  numpy_broadcast_only(c);
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

// Where(condition, X, Y): X where the condition holds, Y elsewhere, under NumPy broadcasting.
void where(Ctx& c) {
  const ValueRef cond = c.operand(0, ElemKind::Logical);
  c.set_output(0, c.emit("", SelectAttrs{Broadcast::NumpyRight}, {cond, c.data(1), c.data(2)}));
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
  auto shape = Checked<BinaryAttrs>::check(BinaryAttrs{BinaryOp::Add, Broadcast::NumpyRight}, {a->shape, b->shape});
  if (!shape) c.refuse(shape.error().code, shape.error().message);
  const Shape& s = shape.value().outputs()[0];
  Tensor<int64_t> x(a->shape), y(b->shape);
  std::iota(x.data().begin(), x.data().end(), int64_t{0});
  std::iota(y.data().begin(), y.data().end(), int64_t{0});
  SizeTerms out{s, std::vector<std::vector<int64_t>>(static_cast<size_t>(s.count()))};
  broadcast_map(
      s, Broadcast::NumpyRight,
      [&](int64_t i, int64_t u, int64_t v) {
        out.elements[static_cast<size_t>(i)] =
            term_of(c, op, a->elements[static_cast<size_t>(u)], b->elements[static_cast<size_t>(v)]);
      },
      x, y);
  c.set_output_sizes(0, std::move(out));
}

// a ∘ b of integer values the graph computes at run time: IR integer_binary under NumPy broadcasting.
ValueRef computed(Ctx& c, const std::string& suffix, IntegerOp op, ValueRef a, ValueRef b) {
  return c.emit(suffix, IntegerBinaryAttrs{op, Broadcast::NumpyRight}, {a, b});
}

// The ONNX type of the operands of run-time integer arithmetic (those whose type is known; INT64
// where none is), refused where ONNX's result can differ from integer_binary's: + − × wrap at the
// type's width and nnref's at 64 bits, and a signed type's minimum divided by −1 overflows it. Div
// of unsigned types, Mod, Min and Max never leave the type's range.
int32_t run_time_type(Ctx& c, IntegerOp op) {
  int32_t t = onnx::TensorProto::INT64;
  for (size_t k = 0; k < c.input_count(); ++k)
    if (c.type(k) != 0) t = c.type(k);
  const bool wraps = op == IntegerOp::Add || op == IntegerOp::Sub || op == IntegerOp::Mul ||
                     (op == IntegerOp::Div && integer_range(t).first < 0);
  if (t != onnx::TensorProto::INT64 && wraps)
    c.refuse("onnx.type-unsupported", "integer arithmetic on " + type_name(t) +
                                          " values the graph computes wraps at that type's width, and nnref computes "
                                          "in int64 (it reads this op on int64 values)");
  return t;
}

// Integer Add, Sub, Mul, Div, Mod, Min, Max (spec/integer_arith.hpp: wrap-around, truncating
// division, Mod's sign) under NumPy broadcasting: of constants, evaluated when the model is read;
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
    const int32_t type = run_time_type(c, op);
    const ValueRef z = computed(c, "", op, c.operand(0, ElemKind::Integer), c.operand(1, ElemKind::Integer));
    return c.set_output(0, z, ElemKind::Integer, type);
  }
  auto shape = Checked<BinaryAttrs>::check(BinaryAttrs{BinaryOp::Add, Broadcast::NumpyRight},
                                           {a->tensor.shape, b->tensor.shape});
  if (!shape) c.refuse(shape.error().code, shape.error().message);
  const Shape& s = shape.value().outputs()[0];
  Tensor<int64_t> x(a->tensor.shape), y(b->tensor.shape);
  std::copy(a->ints.begin(), a->ints.end(), x.data().begin());
  std::copy(b->ints.begin(), b->ints.end(), y.data().begin());
  std::vector<int64_t> z(static_cast<size_t>(s.count()));
  bool undefined = false;
  broadcast_map(
      s, Broadcast::NumpyRight,
      [&](int64_t i, int64_t u, int64_t v) {
        const std::optional<int64_t> r = integer_value(op, u, v);
        undefined = undefined || !r;
        z[static_cast<size_t>(i)] = r.value_or(0);
      },
      x, y);
  if (undefined) c.refuse("onnx.integer-division-by-zero", "a divisor is 0, for which ONNX defines no result");
  c.set_output_constant(0, integer_tensor(s, std::move(z)));
}

// Integer Neg and Abs (wrapping: -INT64_MIN is INT64_MIN, as two's complement): of a constant,
// evaluated when the model is read; of terms, 0 − x and max(x, 0 − x) as size programs; of a value
// the graph computes, the same two formulas as integer_binary nodes.
void integer_sign(Ctx& c, bool abs) {
  const ExactTensor* a = c.exact(0);
  if (a == nullptr) {
    const SizesPtr t = c.terms(0);
    if (!t) {
      const int32_t type = run_time_type(c, IntegerOp::Sub);
      const ValueRef x = c.operand(0, ElemKind::Integer);
      const ValueRef zero = c.literal("zero", HostTensor{DType::I64, Shape(), {0.0}});
      const ValueRef negated = computed(c, abs ? "negated" : "", IntegerOp::Sub, zero, x);
      return c.set_output(0, abs ? computed(c, "", IntegerOp::Max, x, negated) : negated, ElemKind::Integer, type);
    }
    SizeTerms out{t->shape, {}};
    const std::vector<int64_t> zero{size_code::kConstant, 0};
    for (const auto& e : t->elements) {
      std::vector<int64_t> negated = term_of(c, IntegerOp::Sub, zero, e);
      out.elements.push_back(abs ? term_of(c, IntegerOp::Max, e, negated) : negated);
    }
    return c.set_output_sizes(0, std::move(out));
  }
  std::vector<int64_t> z;
  for (int64_t v : a->ints) z.push_back(abs && v >= 0 ? v : *integer_value(IntegerOp::Sub, 0, v));
  c.set_output_constant(0, integer_tensor(a->tensor.shape, std::move(z)));
}

// ---- CumSum ----

// CumSum (opsets 11, 14): IR cumsum along the axis input (a constant 0-D or 1-D tensor of one
// integer), exclusive and reverse as given, of reals or integers. ONNX sums int64 modulo 2^64, as
// cumsum does; a narrower integer type wraps at its own width, which cumsum does not compute: data
// of such a type that the graph computes is refused, and a constant is folded (exactly, in int64)
// only where no partial sum can leave the type's range, each lying between the sum of the negative
// elements and the sum of the positive ones.
void cumsum(Ctx& c) {
  const std::vector<int64_t> axis = c.int_list(1, "axis");
  if (axis.size() != 1) c.refuse("onnx.input-type", "axis must hold one integer (a 0-D tensor, or 1-D of one element)");
  const CumsumAttrs a{axis[0], c.attr_int("exclusive", 0) != 0, c.attr_int("reverse", 0) != 0, c.kind(0)};
  if (a.kind == ElemKind::Logical) c.refuse("onnx.type-unsupported", "CumSum of bool values is not defined: it adds numbers");
  const int32_t t = c.type(0) != 0 ? c.type(0) : static_cast<int32_t>(onnx::TensorProto::INT64);
  if (a.kind == ElemKind::Integer && t != onnx::TensorProto::INT64) {
    const ExactTensor* x = c.exact(0);
    if (x == nullptr)
      c.refuse("onnx.type-unsupported", "CumSum of " + type_name(t) +
                                            " values the graph computes wraps at that type's width, and nnref computes "
                                            "in int64 (it reads CumSum of int64 values)");
    double below = 0, above = 0;
    for (int64_t v : x->ints) (v < 0 ? below : above) += static_cast<double>(v);
    const auto [lo, hi] = integer_range(t);
    if (below < lo || above > hi)
      c.refuse("onnx.type-unsupported", "CumSum of this " + type_name(t) +
                                            " constant may leave the type's range, where ONNX wraps at its width and "
                                            "nnref computes in int64");
  }
  c.set_output(0, c.emit("", a, {c.operand(0, a.kind)}), a.kind, a.kind == ElemKind::Integer ? t : 0);
}

}  // namespace

void integer_binary(NodeCtx& c, IntegerOp op) { integer_arithmetic(c, op); }
void cumsum_op(NodeCtx& c) { cumsum(c); }

// Sum, Min, Max of three or more integer tensors: integer_binary left to right under NumPy
// broadcasting (exact: + wraps modulo 2^64, which is associative and commutative, as min and max are).
void integer_chain(NodeCtx& c, IntegerOp op) {
  const size_t n = c.input_count();
  const int32_t type = run_time_type(c, op);
  ValueRef acc = c.operand(0, ElemKind::Integer);
  for (size_t k = 1; k < n; ++k)
    acc = computed(c, k + 1 == n ? "" : std::to_string(k), op, acc, c.operand(k, ElemKind::Integer));
  c.set_output(0, acc, ElemKind::Integer, type);
}
void integer_negation(NodeCtx& c, bool abs) { integer_sign(c, abs); }

void arg_max(NodeCtx& c) { arg_reduce(c, ArgReduceOp::Max); }
void arg_min(NodeCtx& c) { arg_reduce(c, ArgReduceOp::Min); }
void cast_op(NodeCtx& c) { cast(c); }
void cast_like_op(NodeCtx& c) { cast_like(c); }
void equal_op(NodeCtx& c) { compare<CompareOp::Eq>(c); }
void less_op(NodeCtx& c) { compare<CompareOp::Lt>(c); }
void greater_op(NodeCtx& c) { compare<CompareOp::Gt>(c); }
void less_or_equal_op(NodeCtx& c) { compare<CompareOp::Le>(c); }
void greater_or_equal_op(NodeCtx& c) { compare<CompareOp::Ge>(c); }
void not_op(NodeCtx& c) { logical_not(c); }
void and_op(NodeCtx& c) { logical<LogicalOp::And>(c); }
void or_op(NodeCtx& c) { logical<LogicalOp::Or>(c); }
void xor_op(NodeCtx& c) { logical_xor(c); }
void where_op(NodeCtx& c) { where(c); }

// Gather with indices the graph computes (an integer input): IR gather, after ONNX's negative
// indices, which count from the axis's end, are moved into [0, s): j + s where j < 0, j
// elsewhere, computed in reals (integers of magnitude at most 2^53, exact) and read back as
// integers. The extent s is read at load time, so the model's extents must be fixed.
void gather_computed(NodeCtx& c, int64_t axis) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported", "Gather with computed indices needs fixed extents (a negative index counts "
                                       "from the axis's end), and the model's inputs have symbolic ones");
  const std::vector<int64_t> s = c.shape(0);
  const int64_t r = static_cast<int64_t>(s.size());
  const int64_t k = axis < 0 ? axis + r : axis;
  if (k < 0 || k >= r) c.refuse("onnx.attribute-value", "axis " + std::to_string(axis) + " is outside the input's axes");
  const ValueRef x = c.data(0);
  const ValueRef j = c.emit("index-real", CastAttrs{ElemKind::Integer, ElemKind::Real}, {c.operand(1, ElemKind::Integer)});
  const ValueRef negative = c.emit("index-negative", CompareAttrs{CompareOp::Lt, Broadcast::NumpyRight},
                                   {j, c.literal("zero", HostTensor{DType::F64, Shape(), {0.0}})});
  const ValueRef shifted =
      c.emit("index-shifted", BinaryAttrs{BinaryOp::Add, Broadcast::NumpyRight},
             {j, c.literal("extent", HostTensor{DType::F64, Shape(), {static_cast<double>(s[static_cast<size_t>(k)])}})});
  const ValueRef picked = c.emit("index-picked", SelectAttrs{Broadcast::NumpyRight}, {negative, shifted, j});
  const ValueRef index = c.emit("index", CastAttrs{ElemKind::Real, ElemKind::Integer}, {picked});
  c.set_output(0, c.emit("", GatherAttrs{axis}, {x, index}));
}

}  // namespace nnref::onnx_format
