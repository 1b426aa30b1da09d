// The element-wise ONNX ops: the unary functions, the binary ones under NumPy broadcasting, the
// variadic Max, Min, Sum, Mean, Clip, PRelu, the compositions HardSigmoid, HardSwish, Selu,
// Softsign, Celu, Shrink, ThresholdedRelu, IsNaN, IsInf, and Identity and Dropout (inference: a copy).
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"

namespace nnref::onnx_format {

namespace {

void unary(Ctx& c, UnaryOp op, Real alpha = 0.0) {
  c.set_output(0, c.emit("", UnaryAttrs{op, alpha}, {c.data(0)}));
}

template <UnaryOp Op>
void unary_op(Ctx& c) {
  if constexpr (Op == UnaryOp::Neg || Op == UnaryOp::Abs)
    if (c.kind(0) == ElemKind::Integer) return integer_negation(c, Op == UnaryOp::Abs);
  unary(c, Op);
}

void leaky_relu(Ctx& c) { unary(c, UnaryOp::LeakyRelu, c.attr_float("alpha", double{0.01f})); }
void elu(Ctx& c) { unary(c, UnaryOp::Elu, c.attr_float("alpha", 1.0)); }

// Opset 1-5 binary ops carry legacy broadcast attributes; nnref reads the NumPy rule only.
void no_legacy_broadcast(Ctx& c) {
  if (c.opset() < 7 && (c.attr_int("broadcast", 0) != 0 || c.has_attr("axis")))
    c.refuse("onnx.attribute-unsupported", "the legacy broadcast attribute (before opset 7) is not supported");
  if (c.opset() < 6 && c.has_attr("consumed_inputs"))
    c.refuse("onnx.attribute-unsupported", "consumed_inputs (before opset 6) is not supported");
}

constexpr std::optional<IntegerOp> integer_op(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return IntegerOp::Add;
    case BinaryOp::Sub: return IntegerOp::Sub;
    case BinaryOp::Mul: return IntegerOp::Mul;
    case BinaryOp::Div: return IntegerOp::Div;
    case BinaryOp::Min: return IntegerOp::Min;
    case BinaryOp::Max: return IntegerOp::Max;
    default: return std::nullopt;
  }
}

template <BinaryOp Op>
void binary_op(Ctx& c) {
  no_legacy_broadcast(c);
  if (integer_op(Op) && c.kind(0) == ElemKind::Integer) return integer_binary(c, *integer_op(Op));
  c.set_output(0, binary(c, "", Op, c.data(0), c.data(1)));
}

// Pow of any kinds: a real result, or an integer one of an integer base (typed.cpp).
void power_op(Ctx& c) {
  no_legacy_broadcast(c);
  pow_op(c);
}

// Mod of integers (fmod 0: the divisor's sign; 1: the dividend's). Of reals the spec requires
// fmod 1: C's fmod, the IR's binary fmod.
void mod(Ctx& c) {
  const bool fmod = c.attr_int("fmod", 0) != 0;
  if (c.kind(0) == ElemKind::Integer) return integer_binary(c, fmod ? IntegerOp::Fmod : IntegerOp::Mod);
  if (!fmod)
    c.refuse("onnx.attribute-value", "Mod of real values requires fmod = 1 (the ONNX specification; fmod 0 is "
                                     "defined for integers only)");
  c.set_output(0, binary(c, "", BinaryOp::Fmod, c.data(0), c.data(1)));
}

// Max, Min, Sum with any number of inputs: a chain of binary ops under the NumPy rule, exact
// because max, min and real addition are associative and commutative. Sum of equal shapes: add_n.
// Of two or more integer tensors: integer arithmetic (typed.cpp).
void variadic(Ctx& c, BinaryOp op) {
  if (c.opset() < 6 && c.has_attr("consumed_inputs"))
    c.refuse("onnx.attribute-unsupported", "consumed_inputs (before opset 6) is not supported");
  const size_t n = c.input_count();
  if (n == 0) c.refuse("onnx.input-missing", "at least one input is required");
  if (n >= 2 && c.kind(0) == ElemKind::Integer)  // integers: integer_binary (Sum, Min, Max of integers)
    return n == 2 ? integer_binary(c, *integer_op(op)) : integer_chain(c, *integer_op(op));
  std::vector<ValueRef> in;
  for (size_t k = 0; k < n; ++k) in.push_back(c.data(k));
  ValueRef acc = in[0];
  if (n == 1) {
    acc = c.emit("", UnaryAttrs{UnaryOp::Copy}, {in[0]});
  } else if (op == BinaryOp::Add && c.opset() < 8) {
    acc = c.emit("", AddNAttrs{}, in);  // before opset 8 Sum's inputs have one shape
  } else {
    for (size_t k = 1; k < n; ++k) acc = binary(c, k + 1 == n ? "" : std::to_string(k), op, acc, in[k]);
  }
  c.set_output(0, acc);
}
void max_op(Ctx& c) { variadic(c, BinaryOp::Max); }
void min_op(Ctx& c) { variadic(c, BinaryOp::Min); }
void sum_op(Ctx& c) { variadic(c, BinaryOp::Add); }

// Mean: the sum divided by the count, (x_1 + ... + x_n)/n, which is ONNX's formula.
void mean_op(Ctx& c) {
  const size_t n = c.input_count();
  if (n == 0) c.refuse("onnx.input-missing", "at least one input is required");
  ValueRef acc = c.data(0);
  for (size_t k = 1; k < n; ++k) acc = binary(c, "sum" + std::to_string(k), BinaryOp::Add, acc, c.data(k));
  c.set_output(0, binary(c, "", BinaryOp::Div, acc, c.literal("count", scalar_tensor(static_cast<double>(n)))));
}

// Clip: min(max(x, lo), hi), numpy.clip's order (ONNX's reference). clamp computes
// max(min(x, hi), lo), which differs only where lo > hi: clamp serves when both bounds are
// constants with lo <= hi, the two binary ops otherwise. Of integers (opset 11 on), the same
// order in integer_binary's max and min, exact (typed.cpp).
void clip(Ctx& c) {
  if (c.opset() >= 11 && c.kind(0) == ElemKind::Integer)  // integer_binary Max then Min; no bound: x itself
    return c.has_input(1) || c.has_input(2) ? integer_clip(c) : moved(c, ReshapeAttrs{std::vector<int64_t>(c.rank(0), 0)});
  std::optional<ValueRef> lo, hi;
  const HostTensor *lo_c = nullptr, *hi_c = nullptr;
  HostTensor lo_t, hi_t;
  if (c.opset() < 11) {
    if (c.opset() < 6 && c.has_attr("consumed_inputs"))
      c.refuse("onnx.attribute-unsupported", "consumed_inputs (before opset 6) is not supported");
    if (c.has_attr("min")) lo_t = scalar_tensor(c.attr_float("min", 0)), lo_c = &lo_t;
    if (c.has_attr("max")) hi_t = scalar_tensor(c.attr_float("max", 0)), hi_c = &hi_t;
  } else {
    if (c.has_input(1)) lo_c = c.constant(1);
    if (c.has_input(2)) hi_c = c.constant(2);
    if (c.has_input(1) && !lo_c) lo = c.data(1);
    if (c.has_input(2) && !hi_c) hi = c.data(2);
  }
  const ValueRef x = c.data(0);
  if (lo_c) lo = c.literal("min", *lo_c);
  if (hi_c) hi = c.literal("max", *hi_c);
  const bool ordered = lo_c && hi_c && lo_c->values.size() == 1 && hi_c->values.size() == 1 &&
                       lo_c->values[0] <= hi_c->values[0];
  if (ordered) {
    c.set_output(0, c.emit("", ClampAttrs{Broadcast::NumpyRight}, {x, *lo, *hi}));
    return;
  }
  ValueRef y = x;
  if (lo) y = binary(c, hi ? "max" : "", BinaryOp::Max, y, *lo);
  if (hi) y = binary(c, "", BinaryOp::Min, y, *hi);
  if (!lo && !hi) y = c.emit("", UnaryAttrs{UnaryOp::Copy}, {x});
  c.set_output(0, y);
}

// PRelu: x where x ≥ 0, slope·x below. Before opset 7 a 1-D slope of more than one value holds one
// per channel (axis 1), as the PyTorch exports of that time write it: it is laid along axis 1
// ([C, 1, ..., 1]) for NumPy's broadcasting, which opset 7 uses from then on.
void prelu(Ctx& c) {
  if (c.opset() < 6 && c.has_attr("consumed_inputs"))
    c.refuse("onnx.attribute-unsupported", "consumed_inputs (before opset 6) is not supported");
  ValueRef slope = c.data(1);
  const size_t r = c.rank(0);
  const std::optional<std::vector<int64_t>> s = c.known_shape(1);
  if (c.opset() < 7 && r > 2 && s && s->size() == 1 && (*s)[0] != 1) {
    std::vector<int64_t> laid(r - 1, 1);
    laid[0] = -1;
    slope = c.emit("slope-per-channel", ReshapeAttrs{laid}, {slope});
  }
  c.set_output(0, c.emit("", PreluAttrs{Broadcast::NumpyRight}, {c.data(0), slope}));
}

// max(0, min(1, alpha·x + beta)), as ONNX states HardSigmoid, in four IR ops (the last named `last`).
ValueRef hard_sigmoid_of(Ctx& c, ValueRef x, double alpha, double beta, const std::string& last) {
  ValueRef y = binary(c, "scale", BinaryOp::Mul, x, c.literal("alpha", scalar_tensor(alpha)));
  y = binary(c, "shift", BinaryOp::Add, y, c.literal("beta", scalar_tensor(beta)));
  y = binary(c, "upper", BinaryOp::Min, y, c.literal("one", scalar_tensor(1.0)));
  return binary(c, last, BinaryOp::Max, y, c.literal("zero", scalar_tensor(0.0)));
}

void hard_sigmoid(Ctx& c) {
  const double alpha = c.attr_float("alpha", double{0.2f}), beta = c.attr_float("beta", 0.5);
  c.set_output(0, hard_sigmoid_of(c, c.data(0), alpha, beta, ""));
}

// HardSwish: x · HardSigmoid(x) with alpha 1/6 and beta 0.5 (its ONNX function body; alpha the
// float32 nearest 1/6, as that body's attribute is).
void hard_swish(Ctx& c) {
  const ValueRef x = c.data(0);
  c.set_output(0, binary(c, "", BinaryOp::Mul, x, hard_sigmoid_of(c, x, double{1.0f / 6.0f}, 0.5, "gate")));
}

// Selu: gamma·(alpha·eˣ − alpha) for x ≤ 0, gamma·x above: gamma times elu with that alpha, whose
// x ≤ 0 branch alpha·(eˣ − 1) is the same real number.
void selu(Ctx& c) {
  const double alpha = c.attr_float("alpha", double{1.67326319217681884765625f});
  const double gamma = c.attr_float("gamma", double{1.05070102214813232421875f});
  const ValueRef e = c.emit("elu", UnaryAttrs{UnaryOp::Elu, alpha}, {c.data(0)});
  c.set_output(0, binary(c, "", BinaryOp::Mul, e, c.literal("gamma", scalar_tensor(gamma))));
}

// Softsign: x/(1 + |x|), as written.
void softsign(Ctx& c) {
  const ValueRef x = c.data(0);
  const ValueRef a = c.emit("abs", UnaryAttrs{UnaryOp::Abs}, {x});
  const ValueRef d = binary(c, "denominator", BinaryOp::Add, a, c.literal("one", scalar_tensor(1.0)));
  c.set_output(0, binary(c, "", BinaryOp::Div, x, d));
}

// ThresholdedRelu: x where x > alpha, else 0 (np.where, as ONNX's reference): a comparison and a
// select, so that a NaN, for which x > alpha is false, gives 0 as there.
void thresholded_relu(Ctx& c) {
  const ValueRef x = c.data(0);
  const ValueRef alpha = c.literal("alpha", scalar_tensor(c.attr_float("alpha", 1.0)));
  const ValueRef above = c.emit("above", CompareAttrs{CompareOp::Gt, Broadcast::NumpyRight}, {x, alpha});
  c.set_output(0, c.emit("", SelectAttrs{Broadcast::NumpyRight}, {above, x, c.literal("zero", scalar_tensor(0.0))}));
}

// Shrink: x + bias where x < −lambd, x − bias where x > lambd, else 0, as ONNX states it: two
// comparisons and two selects (a NaN compares false both ways and gives 0, as np.where does).
void shrink(Ctx& c) {
  const double lambd = c.attr_float("lambd", 0.5), bias = c.attr_float("bias", 0.0);
  const ValueRef x = c.data(0);
  const ValueRef below = c.emit("below", CompareAttrs{CompareOp::Lt, Broadcast::NumpyRight},
                                {x, c.literal("minus-lambd", scalar_tensor(-lambd))});
  const ValueRef above = c.emit("above", CompareAttrs{CompareOp::Gt, Broadcast::NumpyRight},
                                {x, c.literal("lambd", scalar_tensor(lambd))});
  const ValueRef b = c.literal("bias", scalar_tensor(bias));
  const ValueRef upper = c.emit("upper", SelectAttrs{Broadcast::NumpyRight},
                                {above, binary(c, "minus-bias", BinaryOp::Sub, x, b), c.literal("zero", scalar_tensor(0.0))});
  c.set_output(0, c.emit("", SelectAttrs{Broadcast::NumpyRight}, {below, binary(c, "plus-bias", BinaryOp::Add, x, b), upper}));
}

// Celu: max(0, x) + min(0, alpha·(exp(x/alpha) − 1)), which is alpha·elu(x/alpha) with elu's
// alpha 1: x above 0, alpha·(exp(x/alpha) − 1) at or below it, the same real number in both forms.
void celu(Ctx& c) {
  const double alpha = c.attr_float("alpha", 1.0);
  if (alpha == 0) c.refuse("onnx.attribute-value", "alpha must not be 0 (Celu divides by it)");
  const ValueRef a = c.literal("alpha", scalar_tensor(alpha));
  const ValueRef scaled = binary(c, "scaled", BinaryOp::Div, c.data(0), a);
  const ValueRef e = c.emit("elu", UnaryAttrs{UnaryOp::Elu, 1.0}, {scaled});
  c.set_output(0, binary(c, "", BinaryOp::Mul, e, a));
}

// IsNaN: x ≠ x, the one value unequal to itself (Equal, then Not). IsInf: x = +∞ (where
// detect_positive), x = −∞ (where detect_negative), or both, as ONNX defines them; neither: false
// everywhere (x < −∞).
void is_nan(Ctx& c) {
  const ValueRef x = c.data(0);
  const ValueRef equal = c.emit("equal", CompareAttrs{CompareOp::Eq, Broadcast::NumpyRight}, {x, x});
  c.set_output(0, c.emit("", LogicalAttrs{LogicalOp::Not, Broadcast::NumpyRight}, {equal}), ElemKind::Logical, onnx::TensorProto::BOOL);
}
void is_inf(Ctx& c) {
  const bool positive = c.attr_int("detect_positive", 1) != 0, negative = c.attr_int("detect_negative", 1) != 0;
  const ValueRef x = c.data(0);
  const double inf = std::numeric_limits<double>::infinity();
  const auto equal = [&](const std::string& suffix, double v) {
    return c.emit(suffix, CompareAttrs{CompareOp::Eq, Broadcast::NumpyRight}, {x, c.literal(suffix + "-value", scalar_tensor(v))});
  };
  ValueRef y = positive && negative ? c.emit("", LogicalAttrs{LogicalOp::Or, Broadcast::NumpyRight},
                                             {equal("positive", inf), equal("negative", -inf)})
               : positive           ? equal("", inf)
               : negative           ? equal("", -inf)
                                    : c.emit("", CompareAttrs{CompareOp::Lt, Broadcast::NumpyRight},
                                             {x, c.literal("none", scalar_tensor(-inf))});  // false everywhere
  c.set_output(0, y, ElemKind::Logical, onnx::TensorProto::BOOL);
}

// Dropout at inference, or in training mode with ratio 0 (PyTorch's export of an attention dropout
// of p = 0, Swin's): the identity, which ONNX's reference gives for both (the seed does nothing);
// its mask, when read, all true, over fixed extents. Training mode with another ratio drops at
// random: refused (out of scope).
void dropout(Ctx& c) {
  const double ratio_attr = c.attr_float("ratio", 0.5);
  c.attr_int("seed", 0);
  if (c.opset() < 6) c.attr_ints("consumed_inputs");
  // Before opset 7, is_test 0 (the default) means training; from opset 12 training_mode says it.
  bool training = c.opset() < 7 && c.attr_int("is_test", 0) == 0;
  if (c.has_input(2)) {
    const HostTensor& t = c.require_constant(2, "training_mode");
    if (t.values.size() != 1) c.refuse("onnx.input-shape", "training_mode must be one bool");
    training = t.values[0] != 0;
  }
  if (training) {
    const HostTensor* r = c.has_input(1) ? &c.require_constant(1, "ratio") : nullptr;
    if (r && r->values.size() != 1) c.refuse("onnx.input-shape", "ratio must be one number");
    if ((r ? r->values[0] : ratio_attr) != 0)
      c.refuse("onnx.attribute-unsupported",
               "training mode with a ratio other than 0 drops elements at random, which is not supported");
  }
  copy(c);
  if (!c.output_read(1)) return;
  if (!c.extents_fixed())
    c.refuse("onnx.output-unsupported", "Dropout's mask over symbolic extents is not supported");
  const HostTensor yes{DType::Bool, Shape(), {1.0}};
  const ValueRef mask = c.emit("mask", BroadcastToAttrs{c.shape(0), Broadcast::NumpyRight, {}, {}, ElemKind::Logical},
                               {c.literal("true", yes)});
  c.set_output(1, mask, ElemKind::Logical, onnx::TensorProto::BOOL);
}

}  // namespace

void add_elementwise_ops(OpTable& table) {
  add_ops(table, {
      {"Abs", unary_op<UnaryOp::Abs>},
      {"Acos", unary_op<UnaryOp::Acos>},
      {"Acosh", unary_op<UnaryOp::Acosh>},
      {"Add", binary_op<BinaryOp::Add>},
      {"Asin", unary_op<UnaryOp::Asin>},
      {"Asinh", unary_op<UnaryOp::Asinh>},
      {"Atan", unary_op<UnaryOp::Atan>},
      {"Atanh", unary_op<UnaryOp::Atanh>},
      {"Ceil", unary_op<UnaryOp::Ceil>},
      {"Celu", celu},
      {"Clip", clip},
      {"Cos", unary_op<UnaryOp::Cos>},
      {"Cosh", unary_op<UnaryOp::Cosh>},
      {"Div", binary_op<BinaryOp::Div>},
      {"Dropout", dropout},
      {"Elu", elu},
      {"Erf", unary_op<UnaryOp::Erf>},
      {"Exp", unary_op<UnaryOp::Exp>},
      {"Floor", unary_op<UnaryOp::Floor>},
      {"Identity", copy},
      {"IsInf", is_inf},
      {"IsNaN", is_nan},
      {"HardSigmoid", hard_sigmoid},
      {"HardSwish", hard_swish},
      {"LeakyRelu", leaky_relu},
      {"Log", unary_op<UnaryOp::Log>},
      {"Max", max_op},
      {"Mean", mean_op},
      {"Min", min_op},
      {"Mod", mod},
      {"Mul", binary_op<BinaryOp::Mul>},
      {"Neg", unary_op<UnaryOp::Neg>},
      {"Pow", power_op},
      {"PRelu", prelu},
      {"Reciprocal", unary_op<UnaryOp::Rcp>},
      {"Relu", unary_op<UnaryOp::Relu>},
      {"Round", unary_op<UnaryOp::RoundEven>},
      {"Selu", selu},
      {"Shrink", shrink},
      {"Sigmoid", unary_op<UnaryOp::Sigmoid>},
      {"Sign", unary_op<UnaryOp::Sign>},
      {"Sin", unary_op<UnaryOp::Sin>},
      {"Sinh", unary_op<UnaryOp::Sinh>},
      {"Softplus", unary_op<UnaryOp::Softplus>},
      {"Softsign", softsign},
      {"Sqrt", unary_op<UnaryOp::Sqrt>},
      {"Sub", binary_op<BinaryOp::Sub>},
      {"Sum", sum_op},
      {"Tan", unary_op<UnaryOp::Tan>},
      {"Tanh", unary_op<UnaryOp::Tanh>},
      {"ThresholdedRelu", thresholded_relu},
  });
}

}  // namespace nnref::onnx_format
