// Each ONNX op nnref reads, as IR nodes. Where an op is a composition of IR ops, the comment says
// why it is exactly the ONNX formula (docs/onnx.md repeats the list).
#include "formats/onnx/ops.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>

#include "formats/onnx/tensor_proto.hpp"

namespace nnref::onnx_format {

namespace {

using Ctx = NodeCtx;

HostTensor scalar_tensor(double v) { return HostTensor{DType::F64, Shape(), {v}}; }

// Reshape, Squeeze, Unsqueeze, Transpose and Slice of input 0, of whatever element kind it is: the
// IR ops that move elements hold every kind, so an integer or bool tensor stays one (with its
// ONNX type).
template <class A>
void moved(Ctx& c, A attrs) {
  attrs.kind = c.kind(0);
  c.set_output(0, c.emit("", attrs, {c.operand(0, attrs.kind)}), attrs.kind, c.type(0));
}

// An op's data operand followed by the values its computed sizes read (the program's sources).
std::vector<ValueRef> with_sources(ValueRef x, const SizeProgram& p) {
  std::vector<ValueRef> in{x};
  in.insert(in.end(), p.sources.begin(), p.sources.end());
  return in;
}

// ---- elementwise ----

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

ValueRef binary(Ctx& c, const std::string& suffix, BinaryOp op, ValueRef a, ValueRef b) {
  return c.emit(suffix, BinaryAttrs{op, Broadcast::NumpyRight}, {a, b});
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

// Pow of any kinds: a real result, or an integer one of an integer base (typed_ops.cpp).
void power_op(Ctx& c) {
  no_legacy_broadcast(c);
  pow_op(c);
}

// Mod of integers (fmod 0: the divisor's sign; 1: the dividend's). Of reals (fmod 1) it is not read.
void mod(Ctx& c) {
  const bool fmod = c.attr_int("fmod", 0) != 0;
  if (c.kind(0) != ElemKind::Integer)
    c.refuse("onnx.type-unsupported", "Mod of real values is not supported: nnref reads Mod of integers");
  integer_binary(c, fmod ? IntegerOp::Fmod : IntegerOp::Mod);
}

// Max, Min, Sum with any number of inputs: a chain of binary ops under the NumPy rule, exact
// because max, min and real addition are associative and commutative. Sum of equal shapes: add_n.
// Of two or more integer tensors: integer arithmetic (typed_ops.cpp).
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
// order in integer_binary's max and min, exact (typed_ops.cpp).
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

void prelu(Ctx& c) {
  if (c.opset() < 6 && c.has_attr("consumed_inputs"))
    c.refuse("onnx.attribute-unsupported", "consumed_inputs (before opset 6) is not supported");
  c.set_output(0, c.emit("", PreluAttrs{Broadcast::NumpyRight}, {c.data(0), c.data(1)}));
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

// Identity: the same value. Of a constant (PyTorch writes Identity of a weight it shares), the
// constant itself; of an integer or bool value, a reshape keeping every extent.
void copy(Ctx& c) {
  const ElemKind kind = c.kind(0);
  if (c.exact(0) != nullptr || kind == ElemKind::Real)
    return c.set_output(0, c.emit("", UnaryAttrs{UnaryOp::Copy}, {c.operand(0, kind)}), kind, c.type(0));
  moved(c, ReshapeAttrs{std::vector<int64_t>(c.rank(0), 0)});
}

// Dropout at inference: the identity (the ratio and the seed do nothing; a training_mode input
// that is true, or a mask that is read, is refused).
void dropout(Ctx& c) {
  c.attr_float("ratio", 0.5);
  c.attr_int("seed", 0);
  if (c.opset() < 6) c.attr_ints("consumed_inputs");
  // Before opset 7, is_test 0 (the default) means training: dropout applies.
  if (c.opset() < 7 && c.attr_int("is_test", 0) == 0)
    c.refuse("onnx.attribute-unsupported", "is_test 0 (training) is not supported");
  if (c.has_input(2)) {
    const HostTensor& t = c.require_constant(2, "training_mode");
    if (t.values.size() != 1 || t.values[0] != 0)
      c.refuse("onnx.attribute-unsupported", "training_mode true is not supported");
  }
  c.only_outputs(1);
  copy(c);
}

// ---- windows ----

}  // namespace

std::vector<int64_t> weight_shape(NodeCtx& c) {
  if (!c.has_input(1)) c.refuse("onnx.input-missing", "the weight W (input 1) is required");
  return c.shape(1);
}

std::vector<std::pair<int64_t, int64_t>> pads_of(NodeCtx& c, size_t spatial) {
  const std::vector<int64_t> pads = c.attr_ints("pads");
  if (pads.empty()) return {};
  if (pads.size() != 2 * spatial)
    c.refuse("onnx.attribute-value", "pads has " + std::to_string(pads.size()) + " entries, " +
                                         std::to_string(2 * spatial) + " expected");
  std::vector<std::pair<int64_t, int64_t>> out;
  for (size_t i = 0; i < spatial; ++i) out.emplace_back(pads[i], pads[i + spatial]);
  return out;
}

namespace {

PadMode auto_pad(Ctx& c) {
  const std::string mode = c.attr_string("auto_pad", "NOTSET");
  if (mode == "NOTSET") return PadMode::Explicit;
  if (mode == "VALID") return PadMode::Valid;
  if (mode == "SAME_UPPER") return PadMode::SameUpper;
  if (mode == "SAME_LOWER") return PadMode::SameLower;
  c.refuse("onnx.attribute-value", "auto_pad '" + mode + "' is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER");
}

void conv(Ctx& c) {
  const std::vector<int64_t> w = weight_shape(c);
  if (w.size() < 3) c.refuse("onnx.attribute-value", "the weight W must have rank at least 3");
  const size_t spatial = w.size() - 2;
  ConvAttrs a;
  a.out_channels = w[0];
  a.kernel = c.attr_ints("kernel_shape");
  if (a.kernel.empty()) a.kernel.assign(w.begin() + 2, w.end());
  a.stride = c.attr_ints("strides");
  a.dilation = c.attr_ints("dilations");
  a.pad_mode = auto_pad(c);
  if (a.pad_mode == PadMode::Explicit) a.padding = pads_of(c, spatial);
  else c.attr_ints("pads");
  a.groups = c.attr_int("group", 1);
  a.has_bias = c.has_input(2);
  const int64_t id = c.emit_node("", a, {c.data(0)});
  c.param(id, "weight", 1);
  if (a.has_bias) c.param(id, "bias", 2);
  c.set_output(0, {id, 0});
}

void pool(Ctx& c, PoolOp op) {
  const std::vector<int64_t> kernel = c.attr_ints("kernel_shape");
  if (kernel.empty()) c.refuse("onnx.attribute-value", "kernel_shape is required");
  if (c.attr_int("ceil_mode", 0) != 0) c.refuse("onnx.attribute-unsupported", "ceil_mode 1 is not supported");
  PoolAttrs a;
  a.op = op;
  a.kernel = kernel;
  a.stride = c.attr_ints("strides");
  a.dilation = c.attr_ints("dilations");
  a.pad_mode = auto_pad(c);
  if (a.pad_mode == PadMode::Explicit) a.padding = pads_of(c, kernel.size());
  else c.attr_ints("pads");
  // Max pooling ignores the padding (ONNX pads with -inf); average pooling counts it when
  // count_include_pad is 1 (the padding's zeros divide as part of the window).
  if (op == PoolOp::Avg) a.border = c.attr_int("count_include_pad", 0) != 0 ? PoolBorder::Constant : PoolBorder::Ignore;
  else if (c.attr_int("storage_order", 0) != 0) c.refuse("onnx.attribute-unsupported", "storage_order 1 is not supported");
  c.only_outputs(1);
  if (op == PoolOp::Max && c.kind(0) == ElemKind::Integer) return integer_max_pool(c, a);
  c.set_output(0, c.emit("", a, {c.data(0)}));
}
void max_pool(Ctx& c) { pool(c, PoolOp::Max); }
void average_pool(Ctx& c) { pool(c, PoolOp::Avg); }

// GlobalAveragePool / GlobalMaxPool: a mean or max over every spatial axis, extents kept at 1,
// which is their definition.
void global_pool(Ctx& c, ReduceOp op) {
  const size_t r = c.rank(0);
  if (r < 3) c.refuse("onnx.shape-unsupported", "the input must have rank at least 3, [N, C, spatial...]");
  ReduceAttrs a{op, {}, true};
  for (size_t k = 2; k < r; ++k) a.axes.push_back(static_cast<int64_t>(k));
  c.set_output(0, c.emit("", a, {c.data(0)}));
}
void global_average_pool(Ctx& c) { global_pool(c, ReduceOp::Mean); }
void global_max_pool(Ctx& c) { global_pool(c, ReduceOp::Max); }

// ---- normalisations ----

void batch_norm(Ctx& c) {
  if (c.opset() < 6 && c.has_attr("consumed_inputs"))
    c.refuse("onnx.attribute-unsupported", "consumed_inputs (before opset 6) is not supported");
  if (c.opset() < 7 && c.attr_int("is_test", 0) == 0)
    c.refuse("onnx.attribute-unsupported", "is_test 0 (training) is not supported");
  if (c.opset() < 9 && c.attr_int("spatial", 1) != 1)
    c.refuse("onnx.attribute-unsupported", "spatial 0 is not supported");
  c.attr_float("momentum", 0.9);
  if (c.attr_int("training_mode", 0) != 0) c.refuse("onnx.attribute-unsupported", "training_mode 1 is not supported");
  c.only_outputs(1);
  const double eps = c.attr_float("epsilon", double{1e-5f});
  const int64_t id = c.emit_node("", BatchNormAttrs{Real(eps), 1}, {c.data(0)});
  c.param(id, "scale", 1);
  c.param(id, "offset", 2);
  c.param(id, "mean", 3);
  c.param(id, "variance", 4);
  c.set_output(0, {id, 0});
}

// LayerNormalization normalises the axes from `axis` to the last; scale (and B, zeros when
// absent) have their shape. stash_type chooses a float format for the statistics: nnref computes
// them in its own precision. The optional outputs are ONNX's formulas: Mean = Σx/n kept over the
// axes, InvStdDev = 1/sqrt(Σ(x − Mean)²/n + ε).
void layer_norm(Ctx& c) {
  const int64_t r = static_cast<int64_t>(c.rank(0));
  int64_t axis = c.attr_int("axis", -1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r) c.refuse("onnx.attribute-value", "axis is outside the input's axes");
  c.attr_int("stash_type", 1);
  LayerNormAttrs a;
  for (int64_t k = axis; k < r; ++k) a.axes.push_back(k);
  const double eps = c.attr_float("epsilon", double{1e-5f});
  a.epsilon = Real(eps);
  a.affine = true;
  const ValueRef x = c.data(0);
  const int64_t id = c.emit_node("", a, {x});
  c.param(id, "scale", 1);
  if (c.has_input(2)) {
    c.param(id, "offset", 2);
  } else {
    const Shape shape = Shape::make(c.shape(1)).value();  // the scale's, computed or not
    HostTensor zeros{DType::F32, shape, std::vector<double>(static_cast<size_t>(shape.count()), 0.0)};
    c.param_tensor(id, "offset", std::move(zeros), c.name() + "/zero-offset");
  }
  c.set_output(0, {id, 0});
  if (!c.output_read(1) && !c.output_read(2)) return;
  const ValueRef mean = c.emit("mean", ReduceAttrs{ReduceOp::Mean, a.axes, true}, {x});
  c.set_output(1, mean);
  if (!c.output_read(2)) return;
  const ValueRef centred = binary(c, "centred", BinaryOp::Sub, x, mean);
  const ValueRef squares = c.emit("squares", UnaryAttrs{UnaryOp::Sqr}, {centred});
  const ValueRef variance = c.emit("variance", ReduceAttrs{ReduceOp::Mean, a.axes, true}, {squares});
  const ValueRef shifted = binary(c, "variance-epsilon", BinaryOp::Add, variance, c.literal("epsilon", scalar_tensor(eps)));
  c.set_output(2, c.emit("inv-std-dev", UnaryAttrs{UnaryOp::Rsqrt}, {shifted}));
}

// InstanceNormalization: y = scale[c]·(x − μ)/sqrt(σ² + ε) + B[c], μ and σ² over the spatial
// axes of each sample and channel: layer_norm without affine over those axes, then the product
// and the sum with scale and B shaped [C, 1, ...]: the same terms in the same formula.
void instance_norm(Ctx& c) {
  const size_t r = c.rank(0);
  if (r < 3) c.refuse("onnx.shape-unsupported", "the input must have rank at least 3, [N, C, spatial...]");
  if (c.opset() < 6 && c.has_attr("consumed_inputs"))
    c.refuse("onnx.attribute-unsupported", "consumed_inputs (before opset 6) is not supported");
  LayerNormAttrs a;
  for (size_t k = 2; k < r; ++k) a.axes.push_back(static_cast<int64_t>(k));
  a.epsilon = Real(c.attr_float("epsilon", double{1e-5f}));
  const ValueRef norm = c.emit("normalise", a, {c.data(0)});
  auto per_channel = [&](size_t k, const std::string& what) {
    HostTensor t = c.require_constant(k, what);
    std::vector<int64_t> dims{static_cast<int64_t>(t.values.size())};
    dims.resize(r - 1, 1);
    t.shape = Shape::make(dims).value();
    return c.literal(what, std::move(t));
  };
  const ValueRef scaled = binary(c, "scale", BinaryOp::Mul, norm, per_channel(1, "scale"));
  c.set_output(0, binary(c, "", BinaryOp::Add, scaled, per_channel(2, "B")));
}

// LRN: y = x / (bias + (alpha/size)·Σ x²)^beta, Σ over the channels [c − ⌊(size−1)/2⌋,
// c + ⌈(size−1)/2⌉] (zeros outside): ONNX's formula term by term. The window over channels is a
// sum pool over the input viewed as [N, 1, C, spatial...] (kernel size on C, 1 elsewhere); alpha/size
// is an IR division of the two constants, so it is the exact quotient in every interpretation.
void lrn(Ctx& c) {
  const size_t r = c.rank(0);
  if (r < 3) c.refuse("onnx.shape-unsupported", "the input must have rank at least 3, [N, C, spatial...]");
  const int64_t size = c.attr_int("size", 0);
  if (size < 1) c.refuse("onnx.attribute-value", "size is required and must be at least 1");
  const double alpha = c.attr_float("alpha", double{0.0001f}), beta = c.attr_float("beta", double{0.75f});
  const double bias = c.attr_float("bias", 1.0);
  const ValueRef x = c.data(0);
  const ValueRef squares = c.emit("squares", UnaryAttrs{UnaryOp::Sqr}, {x});
  const ValueRef view = c.emit("channels-spatial", UnsqueezeAttrs{{1}}, {squares});
  PoolAttrs window;
  window.op = PoolOp::Sum;
  window.kernel.assign(r - 1, 1);
  window.kernel[0] = size;
  window.padding.assign(r - 1, {0, 0});
  window.padding[0] = {(size - 1) / 2, size / 2};  // ⌊(size−1)/2⌋ before, ⌈(size−1)/2⌉ after
  window.border = PoolBorder::Constant;
  const ValueRef sums = c.emit("window-sums", SqueezeAttrs{{1}}, {c.emit("window", window, {view})});
  const ValueRef coefficient = binary(c, "alpha-over-size", BinaryOp::Div, c.literal("alpha", scalar_tensor(alpha)),
                                      c.literal("size", scalar_tensor(static_cast<double>(size))));
  const ValueRef scaled = binary(c, "scaled", BinaryOp::Mul, coefficient, sums);
  const ValueRef base = binary(c, "base", BinaryOp::Add, c.literal("bias", scalar_tensor(bias)), scaled);
  const ValueRef denominator = binary(c, "denominator", BinaryOp::Pow, base, c.literal("beta", scalar_tensor(beta)));
  c.set_output(0, binary(c, "", BinaryOp::Div, x, denominator));
}

// Softmax and LogSoftmax (log_softmax, a formula of its own: spec/ops/softmax.hpp). Before opset 13
// they normalise the input coerced to 2-D at `axis`: over the axes from axis
// to the last, as one group. From 13 on, over `axis` alone.
void softmax(Ctx& c, bool log) {
  const int64_t r = static_cast<int64_t>(c.rank(0));
  int64_t axis = c.attr_int("axis", c.opset() < 13 ? 1 : -1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r) c.refuse("onnx.attribute-value", "axis is outside the input's axes");
  SoftmaxAttrs a;
  a.log = log;
  if (c.opset() < 13)
    for (int64_t k = axis; k < r; ++k) a.axes.push_back(k);
  else
    a.axes = {axis};
  c.set_output(0, c.emit("", a, {c.data(0)}));
}
void softmax(Ctx& c) { softmax(c, false); }
void log_softmax(Ctx& c) { softmax(c, true); }

// ---- products ----

// Gemm: alpha·A'·B' + beta·C. A linear node when B is a constant and A is not transposed (with C
// as its bias when alpha = beta = 1 and C holds one value per unit); a matmul otherwise; then the
// product by alpha and the sum with beta·C where they are not 1, as ONNX writes it.
void gemm(Ctx& c) {
  const double alpha = c.attr_float("alpha", 1.0), beta = c.attr_float("beta", 1.0);
  const bool ta = c.attr_int("transA", 0) != 0, tb = c.attr_int("transB", 0) != 0;
  if (c.opset() < 7 && c.attr_int("broadcast", c.opset() < 6 ? 0 : 1) == 0 && c.has_input(2))
    c.refuse("onnx.attribute-unsupported", "broadcast 0 (before opset 7) is not supported");
  const HostTensor* b = c.constant(1);
  const HostTensor* cc = c.constant(2);
  const ValueRef a = c.data(0);
  ValueRef y;
  bool bias_done = false;
  if (b && !ta && b->shape.rank() == 2) {
    const int64_t units = b->shape.dims()[tb ? 0 : 1];
    const bool bias = alpha == 1.0 && beta == 1.0 && cc && static_cast<int64_t>(cc->values.size()) == units &&
                      (cc->shape.rank() == 1 || (cc->shape.rank() == 2 && cc->shape.dims()[0] == 1));
    const int64_t id = c.emit_node(bias || !c.has_input(2) ? "" : "product",
                                   LinearAttrs{units, tb ? WeightLayout::OutIn : WeightLayout::InOut, bias}, {a});
    c.param(id, "weight", 1);
    if (bias) {
      HostTensor t = *cc;
      t.shape = Shape::make({units}).value();
      c.param_tensor(id, "bias", std::move(t), c.proto().input(2));
      bias_done = true;
    }
    y = {id, 0};
  } else {
    y = c.emit(c.has_input(2) || alpha != 1.0 ? "product" : "", MatMulAttrs{ta, tb}, {a, c.data(1)});
  }
  if (alpha != 1.0)
    y = binary(c, c.has_input(2) && !bias_done ? "alpha" : "", BinaryOp::Mul, y, c.literal("alpha", scalar_tensor(alpha)));
  if (c.has_input(2) && !bias_done) {
    ValueRef term = c.data(2);
    if (beta != 1.0) term = binary(c, "beta", BinaryOp::Mul, term, c.literal("beta-value", scalar_tensor(beta)));
    y = binary(c, "", BinaryOp::Add, y, term);
  }
  c.set_output(0, y);
}

// MatMul with NumPy's rules: a 1-D operand gains an axis of 1 that the result loses again
// (unsqueeze, matmul, squeeze: the same sums); of two ranks, the lower gains leading axes of 1
// (NumPy's alignment of batch axes); then one IR matmul, whose batch axes broadcast as NumPy's do
// (an extent 1 repeats), a rule the checker proves for symbolic extents too.
void matmul(Ctx& c) {
  const bool a1 = c.rank(0) == 1, b1 = c.rank(1) == 1;
  const size_t ra = a1 ? 2 : c.rank(0), rb = b1 ? 2 : c.rank(1);
  ValueRef a = c.data(0), b = c.data(1);
  if (a1) a = c.emit("a-row", UnsqueezeAttrs{{0}}, {a});
  if (b1) b = c.emit("b-column", UnsqueezeAttrs{{1}}, {b});
  const auto leading = [](size_t count) {
    std::vector<int64_t> axes(count);
    std::iota(axes.begin(), axes.end(), int64_t{0});
    return UnsqueezeAttrs{axes};
  };
  if (ra < rb) a = c.emit("a-batch", leading(rb - ra), {a});
  if (rb < ra) b = c.emit("b-batch", leading(ra - rb), {b});
  const bool squeezed = a1 || b1;
  ValueRef y = c.emit(squeezed ? "product" : "", MatMulAttrs{}, {a, b});
  if (b1) y = c.emit(a1 ? "column" : "", SqueezeAttrs{{-1}}, {y});
  if (a1) y = c.emit("", SqueezeAttrs{{-2 + (b1 ? 1 : 0)}}, {y});
  c.set_output(0, y);
}

// ---- reductions ----

// The Reduce family: a reduce, with an elementwise op before (L1: |x|, L2 and SumSquare: x²,
// LogSumExp: eˣ) or after (L2: sqrt, LogSum and LogSumExp: log), as ONNX defines each:
// ReduceL2 = sqrt(Σ x²), ReduceLogSumExp = log(Σ eˣ), ...
struct ReduceSpec {
  ReduceOp op;
  std::optional<UnaryOp> before, after;
};

void reduce(Ctx& c, const ReduceSpec& spec) {
  std::vector<int64_t> axes;
  // Axes as an input: ReduceSum's from opset 13, every Reduce's from 18.
  const bool plain = !spec.before && !spec.after;
  const bool axes_input = (spec.op == ReduceOp::Sum && plain && c.opset() >= 13) || c.opset() >= 18;
  if (axes_input) {
    if (c.has_input(1)) axes = c.int_list(1, "axes");
  } else {
    axes = c.attr_ints("axes");
  }
  const bool keep = c.attr_int("keepdims", 1) != 0;
  if (axes.empty()) {
    if (axes_input && c.attr_int("noop_with_empty_axes", 0) != 0) {
      if (!plain)
        c.refuse("onnx.attribute-unsupported", "noop_with_empty_axes 1 with no axes is not supported for " +
                                                   c.proto().op_type());
      copy(c);
      return;
    }
    for (size_t k = 0; k < c.rank(0); ++k) axes.push_back(static_cast<int64_t>(k));
  } else if (axes_input) {
    c.attr_int("noop_with_empty_axes", 0);
  }
  if (plain && c.kind(0) == ElemKind::Integer) return integer_reduce(c, spec.op, axes, keep);
  ValueRef x = c.data(0);
  if (spec.before) x = c.emit("terms", UnaryAttrs{*spec.before}, {x});
  ValueRef y = c.emit(spec.after ? "reduce" : "", ReduceAttrs{spec.op, axes, keep}, {x});
  if (spec.after) y = c.emit("", UnaryAttrs{*spec.after}, {y});
  c.set_output(0, y);
}
void reduce_sum(Ctx& c) { reduce(c, {ReduceOp::Sum, {}, {}}); }
void reduce_mean(Ctx& c) { reduce(c, {ReduceOp::Mean, {}, {}}); }
void reduce_max(Ctx& c) { reduce(c, {ReduceOp::Max, {}, {}}); }
void reduce_min(Ctx& c) { reduce(c, {ReduceOp::Min, {}, {}}); }
void reduce_prod(Ctx& c) { reduce(c, {ReduceOp::Prod, {}, {}}); }
void reduce_l1(Ctx& c) { reduce(c, {ReduceOp::Sum, UnaryOp::Abs, {}}); }
void reduce_l2(Ctx& c) { reduce(c, {ReduceOp::Sum, UnaryOp::Sqr, UnaryOp::Sqrt}); }
void reduce_sum_square(Ctx& c) { reduce(c, {ReduceOp::Sum, UnaryOp::Sqr, {}}); }
void reduce_log_sum(Ctx& c) { reduce(c, {ReduceOp::Sum, {}, UnaryOp::Log}); }
void reduce_log_sum_exp(Ctx& c) { reduce(c, {ReduceOp::Sum, UnaryOp::Exp, UnaryOp::Log}); }

// ---- data movement ----

// Reshape to a shape computed from symbolic extents (Shape, Gather, Concat): IR reshape's
// computed dims, with the values whose extents they read as its further operands.
void reshape_computed(Ctx& c, const SizeTerms& shape) {
  if (shape.shape.rank() != 1) c.refuse("onnx.input-type", "the shape must be a 1-D integer tensor");
  const bool allow_zero = c.attr_int("allowzero", 0) != 0;
  for (const auto& e : shape.elements)
    if (allow_zero && e == std::vector<int64_t>{size_code::kConstant, 0})
      c.refuse("onnx.attribute-unsupported", "allowzero 1 with a 0 in the shape (an empty tensor) is not supported");
  const ElemKind kind = c.kind(0);
  SizeProgram p = c.program(shape);
  const std::vector<ValueRef> in = with_sources(c.operand(0, kind), p);
  c.set_output(0, c.emit("", ReshapeAttrs{{}, kind, std::move(p.code), std::move(p.kinds)}, in), kind, c.type(0));
}

void reshape(Ctx& c) {
  if (c.opset() >= 5 && c.sizes(1) != nullptr) return reshape_computed(c, *c.sizes(1));
  if (c.opset() >= 5)
    if (const SizesPtr t = c.data_terms(1)) {
      // allowzero 1: a 0 is an empty extent, not the input's. Each entry e is then written e + 0,
      // which the reshape reads as a computed extent (at least 1) rather than as a number (0:
      // the input's extent, −1: inferred): a 0 or a −1 is refused at run time, never misread.
      if (c.attr_int("allowzero", 0) == 0) return reshape_computed(c, *t);
      SizeTerms s = *t;
      for (auto& e : s.elements) e.insert(e.end(), {size_code::kConstant, 0, size_code::kAdd});
      return reshape_computed(c, s);
    }
  std::vector<int64_t> dims = c.opset() < 5 ? c.attr_ints("shape") : c.int_list(1, "shape");
  if (c.opset() < 5 && c.has_attr("consumed_inputs"))
    c.refuse("onnx.attribute-unsupported", "consumed_inputs (before opset 5) is not supported");
  if (c.attr_int("allowzero", 0) != 0 && std::find(dims.begin(), dims.end(), 0) != dims.end())
    c.refuse("onnx.attribute-unsupported", "allowzero 1 with a 0 in the shape (an empty tensor) is not supported");
  moved(c, ReshapeAttrs{dims});
}

// Flatten to [d0·…·d(axis−1), d(axis)·…]: IR flatten keeps the leading axes, so axis 1 is one
// node; axis 0 is a reshape to [1, -1]; another axis moves the trailing product first
// (flatten, transpose), collapses the leading axes behind it (flatten at 1) and moves it back:
// data movement only, for any extents.
void flatten(Ctx& c) {
  const int64_t r = static_cast<int64_t>(c.rank(0));
  int64_t axis = c.attr_int("axis", 1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis > r) c.refuse("onnx.attribute-value", "axis is outside 0 .. rank");
  const ValueRef x = c.data(0);
  if (axis == 1) {
    c.set_output(0, c.emit("", FlattenAttrs{1}, {x}));
  } else if (axis == 0) {
    c.set_output(0, c.emit("", ReshapeAttrs{{1, -1}}, {x}));
  } else {
    ValueRef y = c.emit("trailing", FlattenAttrs{axis}, {x});
    std::vector<int64_t> perm{axis};
    for (int64_t k = 0; k < axis; ++k) perm.push_back(k);
    y = c.emit("trailing-first", TransposeAttrs{perm}, {y});
    y = c.emit("leading", FlattenAttrs{1}, {y});
    c.set_output(0, c.emit("", TransposeAttrs{{1, 0}}, {y}));
  }
}

void transpose(Ctx& c) {
  std::vector<int64_t> perm = c.attr_ints("perm");
  if (perm.empty())
    for (int64_t k = static_cast<int64_t>(c.rank(0)) - 1; k >= 0; --k) perm.push_back(k);
  moved(c, TransposeAttrs{perm});
}

void concat(Ctx& c) {
  const int64_t axis = c.attr_int("axis", 1);
  if (c.opset() >= 4 && !c.has_attr("axis")) c.refuse("onnx.attribute-value", "axis is required");
  const ElemKind kind = c.kind(0);  // every input's (onnx.type-unsupported otherwise)
  std::vector<ValueRef> in;
  for (size_t k = 0; k < c.input_count(); ++k) in.push_back(c.operand(k, kind));
  c.set_output(0, c.emit("", ConcatAttrs{axis, 0, kind}, in), kind, c.type(0));
}

// Split into parts of the given sizes: IR split's ratios are the sizes, which it splits the axis
// into exactly when the extent is their sum; with fixed extents that is checked here.
void split(Ctx& c) {
  const int64_t axis = c.attr_int("axis", 0);
  std::vector<int64_t> sizes = c.opset() < 13 ? c.attr_ints("split") : std::vector<int64_t>{};
  if (c.opset() >= 13 && c.has_input(1)) sizes = c.int_list(1, "split");
  if (c.opset() < 2 && c.has_input(1)) c.refuse("onnx.input-unsupported", "the split input (opset 1) is not supported");
  const size_t n = static_cast<size_t>(c.proto().output_size());
  if (c.opset() >= 18 && c.has_attr("num_outputs")) {
    if (c.attr_int("num_outputs", 0) != static_cast<int64_t>(n))
      c.refuse("onnx.attribute-value", "num_outputs is not the node's " + std::to_string(n) + " outputs");
    if (!sizes.empty()) c.refuse("onnx.attribute-value", "num_outputs and split are both given");
    // Parts of ⌈X/n⌉, the last smaller: with fixed extents, sizes; else equal parts (the IR
    // split's rule then asks that n divide the extent).
    if (c.extents_fixed()) {
      const std::vector<int64_t> s = c.shape(0);
      const int64_t r = static_cast<int64_t>(s.size()), k = axis < 0 ? axis + r : axis;
      if (k < 0 || k >= r) c.refuse("onnx.attribute-value", "axis " + std::to_string(axis) + " is outside the input");
      const int64_t x = s[static_cast<size_t>(k)], chunk = (x + static_cast<int64_t>(n) - 1) / static_cast<int64_t>(n);
      sizes.assign(n, chunk);
      sizes.back() = x - chunk * static_cast<int64_t>(n - 1);
    }
  }
  if (sizes.empty()) sizes.assign(n, 1);
  for (int64_t part : sizes)
    if (part == 0) c.refuse("onnx.shape-unsupported", "a part of size 0 is an empty tensor, which nnref does not hold");
  if (sizes.size() != n)
    c.refuse("onnx.attribute-value", std::to_string(sizes.size()) + " split sizes for " + std::to_string(n) + " outputs");
  for (int64_t part : sizes)
    if (part < 0) c.refuse("onnx.attribute-value", "a negative split size " + std::to_string(part));
  if (c.extents_fixed()) {
    const std::vector<int64_t> s = c.shape(0);
    const int64_t r = static_cast<int64_t>(s.size());
    const int64_t k = axis < 0 ? axis + r : axis;
    const bool given = c.opset() < 13 ? c.has_attr("split") : c.has_input(1);
    if (k >= 0 && k < r && given &&
        std::accumulate(sizes.begin(), sizes.end(), int64_t{0}) != s[static_cast<size_t>(k)])
      c.refuse("onnx.split-sizes", "the split sizes do not add up to the axis extent " +
                                       std::to_string(s[static_cast<size_t>(k)]));
  }
  const ElemKind kind = c.kind(0);
  const int64_t id = c.emit_node("", SplitAttrs{axis, sizes, kind}, {c.operand(0, kind)});
  for (size_t k = 0; k < n; ++k) c.set_output(k, {id, static_cast<int>(k)}, kind, c.type(0));
}

// Slice with step 1: ONNX clamps starts and ends as IR slice does, except that an end of 0 is
// empty in ONNX and "to the extent" in the IR: such a slice (an empty tensor) is refused.
// Slice whose starts or ends are computed from symbolic extents: IR slice's computed bounds (every
// start, then every end), with the values whose extents they read as its further operands.
void slice_computed(Ctx& c) {
  const SizesPtr starts = c.terms(1), ends = c.terms(2);
  if (!starts || !ends || starts->shape.rank() != 1 || ends->shape.rank() != 1)
    c.refuse("onnx.input-type", "starts and ends must be 1-D integer tensors");
  std::vector<int64_t> axes, steps;
  if (c.has_input(3)) axes = c.int_list(3, "axes");
  if (c.has_input(4)) steps = c.int_list(4, "steps");
  for (int64_t s : steps)
    if (s != 1) c.refuse("onnx.attribute-unsupported", "a step other than 1 is not supported");
  if (axes.empty())
    for (size_t k = 0; k < starts->elements.size(); ++k) axes.push_back(static_cast<int64_t>(k));
  SizeTerms bounds{Shape::make({static_cast<int64_t>(starts->elements.size() + ends->elements.size())}).value(),
                   starts->elements};
  constexpr int64_t kFar = int64_t{1} << 62;  // beyond every extent: clamps as INT64_MAX does
  for (auto e : ends->elements) {
    if (e.size() == 2 && e[0] == size_code::kConstant) e[1] = std::clamp(e[1], -kFar, kFar);
    bounds.elements.push_back(std::move(e));
  }
  const ElemKind kind = c.kind(0);
  SizeProgram p = c.program(bounds);
  const std::vector<ValueRef> in = with_sources(c.operand(0, kind), p);
  c.set_output(0, c.emit("", SliceAttrs{axes, {}, {}, {}, kind, std::move(p.code), std::move(p.kinds)}, in), kind,
               c.type(0));
}

void slice(Ctx& c) {
  std::vector<int64_t> starts, ends, axes, steps;
  if (c.opset() >= 10 && (c.sizes(1) != nullptr || c.sizes(2) != nullptr)) return slice_computed(c);
  if (c.opset() < 10) {
    starts = c.attr_ints("starts"), ends = c.attr_ints("ends"), axes = c.attr_ints("axes");
  } else {
    starts = c.int_list(1, "starts"), ends = c.int_list(2, "ends");
    if (c.has_input(3)) axes = c.int_list(3, "axes");
    if (c.has_input(4)) steps = c.int_list(4, "steps");
  }
  for (int64_t s : steps)
    if (s != 1) c.refuse("onnx.attribute-unsupported", "a step other than 1 is not supported");
  if (axes.empty())
    for (size_t k = 0; k < starts.size(); ++k) axes.push_back(static_cast<int64_t>(k));
  constexpr int64_t kFar = int64_t{1} << 62;  // beyond every extent: clamps as INT64_MAX does
  for (auto* v : {&starts, &ends})
    for (int64_t& x : *v) x = std::clamp(x, -kFar, kFar);
  for (int64_t e : ends)
    if (e == 0) c.refuse("onnx.shape-unsupported", "an end of 0 gives an empty tensor, which nnref does not hold");
  if (c.extents_fixed() && starts.size() == axes.size() && ends.size() == axes.size()) {
    const std::vector<int64_t> s = c.shape(0);
    const auto r = static_cast<int64_t>(s.size());
    for (size_t k = 0; k < axes.size(); ++k) {
      const int64_t axis = axes[k] < 0 ? axes[k] + r : axes[k];
      if (axis < 0 || axis >= r) continue;  // the IR rule reports it
      const int64_t x = s[static_cast<size_t>(axis)];
      auto index = [x](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + x : v, 0, x); };
      if (index(ends[k]) <= index(starts[k]))
        c.refuse("onnx.shape-unsupported", "the slice of axis " + std::to_string(axes[k]) +
                                               " is empty, and nnref does not hold empty tensors");
    }
  }
  moved(c, SliceAttrs{axes, starts, ends, {}});
}

void squeeze(Ctx& c) {
  std::vector<int64_t> axes = c.opset() < 13 ? c.attr_ints("axes") : std::vector<int64_t>{};
  if (c.opset() >= 13 && c.has_input(1)) axes = c.int_list(1, "axes");
  if (axes.empty()) {
    if (!c.extents_fixed())
      c.refuse("onnx.shape-unsupported", "Squeeze without axes needs fixed extents, and the model has symbolic ones");
    const std::vector<int64_t> s = c.shape(0);
    for (size_t k = 0; k < s.size(); ++k)
      if (s[k] == 1) axes.push_back(static_cast<int64_t>(k));
  }
  moved(c, SqueezeAttrs{axes});
}

void unsqueeze(Ctx& c) {
  std::vector<int64_t> axes = c.opset() < 13 ? c.attr_ints("axes") : c.int_list(1, "axes");
  moved(c, UnsqueezeAttrs{axes});
}

// Pad's mode as the IR's border.
PadBorder pad_border(Ctx& c) {
  const std::string mode = c.attr_string("mode", "constant");
  if (mode == "constant") return PadBorder::Constant;
  if (mode == "reflect") return PadBorder::Reflect;
  if (mode == "edge") return PadBorder::Replicate;
  c.refuse("onnx.attribute-unsupported", "mode '" + mode + "' is not supported");
}

// Pad's pads (every begin, then every end, for `axes` or every axis) as terms of every axis's
// begin then end, 0 on the axes not listed.
SizeTerms pads_per_axis(Ctx& c, const SizeTerms& pads, const std::vector<int64_t>& axes, size_t r) {
  if (pads.shape.rank() != 1 || pads.elements.size() != 2 * axes.size())
    c.refuse("onnx.attribute-value", "pads has " + std::to_string(pads.elements.size()) + " entries, " +
                                         std::to_string(2 * axes.size()) + " expected");
  SizeTerms out{Shape::make({static_cast<int64_t>(2 * r)}).value(),
                std::vector<std::vector<int64_t>>(2 * r, std::vector<int64_t>{size_code::kConstant, 0})};
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t k = axes[i] < 0 ? axes[i] + static_cast<int64_t>(r) : axes[i];
    if (k < 0 || k >= static_cast<int64_t>(r))
      c.refuse("onnx.attribute-value", "axis " + std::to_string(axes[i]) + " is outside the input's axes");
    out.elements[static_cast<size_t>(k)] = pads.elements[i];
    out.elements[static_cast<size_t>(k) + r] = pads.elements[i + axes.size()];
  }
  return out;
}

// Pad: the IR pad, its padding the pads' numbers, or computed from symbolic extents (the IR pad's
// computed padding).
void pad(Ctx& c) {
  SizeTerms pads;
  double value = 0;
  if (c.opset() < 11) {
    const std::vector<int64_t> v = c.attr_ints(c.opset() < 2 ? "paddings" : "pads");
    pads.shape = Shape::make({static_cast<int64_t>(v.size())}).value();
    for (int64_t p : v) pads.elements.push_back({size_code::kConstant, p});
    value = c.attr_float("value", 0.0);
  } else {
    if (const SizesPtr t = c.data_terms(1)) {
      pads = *t;
    } else {
      if (c.sizes(1) == nullptr) c.int_list(1, "pads");  // a constant 1-D integer tensor, else refused
      pads = *c.terms(1);
    }
    if (c.has_input(2)) {
      const HostTensor& v = c.require_constant(2, "constant_value");
      if (v.values.size() != 1) c.refuse("onnx.input-type", "constant_value must hold one value");
      value = v.values[0];
    }
  }
  PadAttrs a;
  a.border = pad_border(c);
  a.value = Real(value);
  const size_t r = c.rank(0);
  // From opset 18 the pads may be for the listed axes only; the others are not padded.
  std::vector<int64_t> axes;
  if (c.opset() >= 18 && c.has_input(3)) axes = c.int_list(3, "axes");
  else
    for (size_t i = 0; i < r; ++i) axes.push_back(static_cast<int64_t>(i));
  const SizeTerms widths = pads_per_axis(c, pads, axes, r);
  a.kind = c.kind(0);  // pad moves elements of any kind; the value is then one of that kind
  const ValueRef x = c.operand(0, a.kind);
  std::vector<int64_t> numbers;
  for (const auto& e : widths.elements)
    if (e.size() == 2 && e[0] == size_code::kConstant) numbers.push_back(e[1]);
  if (numbers.size() == widths.elements.size()) {
    for (size_t k = 0; k < r; ++k) a.padding.emplace_back(numbers[k], numbers[k + r]);
    return c.set_output(0, c.emit("", a, {x}), a.kind, c.type(0));
  }
  SizeProgram p = c.program(widths);
  a.computed = PadComputed{std::move(p.code), std::move(p.kinds)};
  c.set_output(0, c.emit("", a, with_sources(x, p)), a.kind, c.type(0));
}

// Expand where the model's extents are symbolic, to a shape of constants or of terms (computed
// from extents): the output's extents as terms, ONNX's two-way broadcast of the input's and the
// shape's (an entry 1, and an axis the shape lacks, keep the input's extent; any other entry is
// the target, which the input's extent must be or be 1), read as IR broadcast_to's computed dims.
void expand_computed(Ctx& c, const SizeTerms& shape) {
  if (shape.shape.rank() != 1) c.refuse("onnx.input-type", "the shape must be a 1-D integer tensor");
  const size_t r = c.rank(0), m = shape.elements.size(), n = std::max(r, m);
  const SizeTerms x = c.extents_of(0, 0, static_cast<int64_t>(r));
  const std::vector<int64_t> one{size_code::kConstant, 1};
  SizeTerms out{Shape::make({static_cast<int64_t>(n)}).value(), {}};
  for (size_t i = 0; i < n; ++i) {
    const std::vector<int64_t>& t = i + m >= n ? shape.elements[i + m - n] : one;
    if (reads_elements(t) && i + r >= n) {
      // An entry computed from data may be 1 at run time: t + (x − 1)·(1 − min(|t − 1|, 1)) is
      // x where t is 1 and t elsewhere, ONNX's two-way broadcast (x must then be t or 1).
      const std::vector<int64_t>& e = x.elements[i + r - n];
      std::vector<int64_t> v = t;
      v.insert(v.end(), e.begin(), e.end());
      v.insert(v.end(), {size_code::kConstant, 1, size_code::kSub, size_code::kConstant, 1});
      v.insert(v.end(), t.begin(), t.end());
      v.insert(v.end(), {size_code::kConstant, 1, size_code::kSub, size_code::kConstant, 1});
      v.insert(v.end(), t.begin(), t.end());
      v.insert(v.end(), {size_code::kSub, size_code::kMax, size_code::kConstant, 1, size_code::kMin, size_code::kSub,
                         size_code::kMul, size_code::kAdd});
      out.elements.push_back(std::move(v));
      continue;
    }
    out.elements.push_back(t != one ? t : i + r >= n ? x.elements[i + r - n] : one);
  }
  SizeProgram p = c.program(out);
  const std::vector<ValueRef> in = with_sources(c.data(0), p);
  c.set_output(0, c.emit("", BroadcastToAttrs{{}, Broadcast::NumpyRight, std::move(p.code), std::move(p.kinds)}, in));
}

// Expand: the NumPy broadcast of the input with the given shape, a broadcast_to to that shape
// (both read at import where the model's extents are fixed).
void expand(Ctx& c) {
  if (!c.extents_fixed())
    if (const SizesPtr t = c.terms(1)) return expand_computed(c, *t);
  if (const SizesPtr t = c.data_terms(1)) return expand_computed(c, *t);
  const std::vector<int64_t> shape = c.int_list(1, "shape");
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported", "Expand's shape must be a constant or computed from extents where the "
                                       "model's extents are symbolic");
  const std::vector<int64_t> s = c.shape(0);
  const size_t r = std::max(s.size(), shape.size());
  std::vector<int64_t> out(r);
  for (size_t i = 0; i < r; ++i) {
    const int64_t x = i + s.size() >= r ? s[i + s.size() - r] : 1;
    const int64_t y = i + shape.size() >= r ? shape[i + shape.size() - r] : 1;
    if (x != y && x != 1 && y != 1) c.refuse("onnx.shape-unsupported", "the input does not broadcast to the shape");
    out[i] = x == 1 ? y : x;
  }
  c.set_output(0, c.emit("", BroadcastToAttrs{out, Broadcast::NumpyRight}, {c.data(0)}));
}

// Tile by repeats computed from symbolic extents (real data): x [d0, d1, ...] unsqueezed to
// [1, d0, 1, d1, ...], broadcast to [r0, d0, r1, d1, ...] and reshaped to [r0·d0, r1·d1, ...]
// (computed dims): row-major, position a·dk + j of axis k reads x's j, which is Tile's formula.
void tile_computed(Ctx& c, const SizeTerms& repeats) {
  const size_t r = c.rank(0);
  if (repeats.shape.rank() != 1 || repeats.elements.size() != r)
    c.refuse("onnx.attribute-value", "repeats must be a 1-D tensor of one entry per axis of the input (rank " +
                                         std::to_string(r) + ")");
  const SizeTerms x = c.extents_of(0, 0, static_cast<int64_t>(r));
  SizeTerms wide{Shape::make({static_cast<int64_t>(2 * r)}).value(), {}}, tiled{Shape::make({static_cast<int64_t>(r)}).value(), {}};
  std::vector<int64_t> spread;
  for (size_t k = 0; k < r; ++k) {
    const std::vector<int64_t>& t = repeats.elements[k];
    if (t.size() == 2 && t[0] == size_code::kConstant && t[1] < 1)
      c.refuse("onnx.shape-unsupported", "a repeat below 1 gives an empty tensor");
    wide.elements.insert(wide.elements.end(), {t, x.elements[k]});
    std::vector<int64_t> product = t;
    product.insert(product.end(), x.elements[k].begin(), x.elements[k].end());
    product.push_back(size_code::kMul);
    tiled.elements.push_back(std::move(product));
    spread.push_back(static_cast<int64_t>(2 * k));
  }
  ValueRef y = c.emit("spread", UnsqueezeAttrs{spread}, {c.data(0)});
  SizeProgram pw = c.program(wide), pt = c.program(tiled);
  y = c.emit("copies", BroadcastToAttrs{{}, Broadcast::NumpyRight, pw.code, pw.kinds}, with_sources(y, pw));
  c.set_output(0, c.emit("", ReshapeAttrs{{}, ElemKind::Real, pt.code, pt.kinds}, with_sources(y, pt)));
}

// Tile: each axis with r repeats is the concat of r copies along it: data movement only.
void tile(Ctx& c) {
  if (c.sizes(1) != nullptr) return tile_computed(c, *c.sizes(1));
  if (const SizesPtr t = c.data_terms(1)) return tile_computed(c, *t);
  const std::vector<int64_t> repeats = c.int_list(1, "repeats");
  if (repeats.size() != c.rank(0))
    c.refuse("onnx.attribute-value", "repeats has " + std::to_string(repeats.size()) + " entries for an input of rank " +
                                         std::to_string(c.rank(0)));
  const ElemKind kind = c.kind(0);
  ValueRef y = c.operand(0, kind);
  size_t last = repeats.size();
  for (size_t k = 0; k < repeats.size(); ++k) {
    if (repeats[k] < 1) c.refuse("onnx.shape-unsupported", "a repeat below 1 gives an empty tensor");
    if (repeats[k] > 1) last = k;
  }
  if (last == repeats.size())  // no repeats: a copy, for any kind a reshape keeping every extent
    y = c.emit("", ReshapeAttrs{std::vector<int64_t>(repeats.size(), 0), kind}, {y});
  for (size_t k = 0; k < repeats.size(); ++k) {
    if (repeats[k] == 1) continue;
    y = c.emit(k == last ? "" : "axis" + std::to_string(k), ConcatAttrs{static_cast<int64_t>(k), 0, kind},
               std::vector<ValueRef>(static_cast<size_t>(repeats[k]), y));
  }
  c.set_output(0, y, kind, c.type(0));
}

// Gather with constant indices of rank 0 or 1: each index i is the slice [i, i + 1) of the axis
// (for i = -1, [-1, 0): IR slice reads an end of 0 as the extent), the scalar index's axis
// squeezed away, several indices concatenated in their order: data movement only. Computed
// indices, and constant ones of higher rank (which the ONNX writer writes for an IR gather of a
// constant), are IR gather's (gather_computed).
void gather(Ctx& c) {
  const int64_t axis = c.attr_int("axis", 0);
  const ExactTensor* constant = c.exact(1);
  if (c.has_input(1) &&
      (!constant || (constant->tensor.shape.rank() > 1 && !dtype_is_float(constant->tensor.dtype))))
    return gather_computed(c, axis);
  const HostTensor& idx = c.require_constant(1, "indices");
  if (dtype_is_float(idx.dtype)) c.refuse("onnx.input-unsupported", "only integer indices are supported");
  const std::vector<int64_t>& indices = constant->ints;
  if (indices.empty()) c.refuse("onnx.shape-unsupported", "no indices give an empty tensor");
  const ElemKind kind = c.kind(0);
  const ValueRef x = c.operand(0, kind);
  std::vector<ValueRef> parts;
  for (size_t k = 0; k < indices.size(); ++k) {
    // ±2^62 and beyond are outside every extent; the slice's own rule refuses them.
    const int64_t i = std::clamp(indices[k], -(int64_t{1} << 62), int64_t{1} << 62);
    const bool one = indices.size() == 1;
    parts.push_back(c.emit(one && idx.shape.rank() == 1 ? "" : "index" + std::to_string(k),
                           SliceAttrs{{axis}, {i}, {i + 1}, {}, kind}, {x}));
  }
  if (idx.shape.rank() == 0) c.set_output(0, c.emit("", SqueezeAttrs{{axis}, kind}, {parts[0]}), kind, c.type(0));
  else if (parts.size() == 1) c.set_output(0, parts[0], kind, c.type(0));
  else c.set_output(0, c.emit("", ConcatAttrs{axis, 0, kind}, parts), kind, c.type(0));
}

// ---- constants ----

void constant(Ctx& c) {
  ExactTensor t;
  if (const auto* a = c.attr("value")) {
    Result<ExactTensor> r = read_exact_tensor(a->t(), TensorSource{c.name() + ".value", "", INT64_MAX});
    if (!r) c.refuse(r.error().code, r.error().message);
    t = std::move(r).value();
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
  if (!kind_of_type(type) || type == onnx::TensorProto::FLOAT16)
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
// size being made. A shape computed from symbolic extents or from data (kElement terms, an entry 0
// then an empty extent refused at run time) is broadcast_to's computed dims, of the value's kind.
void constant_of_shape(Ctx& c) {
  const ExactTensor value = fill_value(c);
  SizesPtr t = c.exact(0) ? nullptr : c.data_terms(0);
  if (!t && !c.exact(0)) t = c.terms(0);
  if (!t) {
    const std::vector<int64_t> dims = c.int_list(0, "shape");
    for (int64_t d : dims) no_empty_extent(c, d);
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

const std::map<std::string, OpHandler>& handlers() {
  static const std::map<std::string, OpHandler> all = {
      {"Abs", unary_op<UnaryOp::Abs>},
      {"Acos", unary_op<UnaryOp::Acos>},
      {"Acosh", unary_op<UnaryOp::Acosh>},
      {"Add", binary_op<BinaryOp::Add>},
      {"And", and_op},
      {"ArgMax", arg_max},
      {"ArgMin", arg_min},
      {"Asin", unary_op<UnaryOp::Asin>},
      {"Asinh", unary_op<UnaryOp::Asinh>},
      {"Atan", unary_op<UnaryOp::Atan>},
      {"Atanh", unary_op<UnaryOp::Atanh>},
      {"AveragePool", average_pool},
      {"BatchNormalization", batch_norm},
      {"Cast", cast_op},
      {"CastLike", cast_like_op},
      {"Ceil", unary_op<UnaryOp::Ceil>},
      {"Clip", clip},
      {"Concat", concat},
      {"Constant", constant},
      {"ConstantOfShape", constant_of_shape},
      {"Conv", conv},
      {"ConvTranspose", conv_transpose},
      {"Cos", unary_op<UnaryOp::Cos>},
      {"Cosh", unary_op<UnaryOp::Cosh>},
      {"CumSum", cumsum_op},
      {"Div", binary_op<BinaryOp::Div>},
      {"Dropout", dropout},
      {"Elu", elu},
      {"Equal", equal_op},
      {"Erf", unary_op<UnaryOp::Erf>},
      {"Exp", unary_op<UnaryOp::Exp>},
      {"Expand", expand},
      {"Flatten", flatten},
      {"Floor", unary_op<UnaryOp::Floor>},
      {"Gather", gather},
      {"Gemm", gemm},
      {"GlobalAveragePool", global_average_pool},
      {"GlobalMaxPool", global_max_pool},
      {"Greater", greater_op},
      {"GreaterOrEqual", greater_or_equal_op},
      {"HardSigmoid", hard_sigmoid},
      {"HardSwish", hard_swish},
      {"Identity", copy},
      {"InstanceNormalization", instance_norm},
      {"LayerNormalization", layer_norm},
      {"LeakyRelu", leaky_relu},
      {"LRN", lrn},
      {"Less", less_op},
      {"LessOrEqual", less_or_equal_op},
      {"Log", unary_op<UnaryOp::Log>},
      {"LogSoftmax", log_softmax},
      {"MatMul", matmul},
      {"Max", max_op},
      {"MaxPool", max_pool},
      {"Mean", mean_op},
      {"Min", min_op},
      {"Mod", mod},
      {"Mul", binary_op<BinaryOp::Mul>},
      {"Neg", unary_op<UnaryOp::Neg>},
      {"Not", not_op},
      {"Or", or_op},
      {"Pad", pad},
      {"Pow", power_op},
      {"PRelu", prelu},
      {"Reciprocal", unary_op<UnaryOp::Rcp>},
      {"ReduceL1", reduce_l1},
      {"ReduceL2", reduce_l2},
      {"ReduceLogSum", reduce_log_sum},
      {"ReduceLogSumExp", reduce_log_sum_exp},
      {"ReduceMax", reduce_max},
      {"ReduceMean", reduce_mean},
      {"ReduceMin", reduce_min},
      {"ReduceProd", reduce_prod},
      {"ReduceSum", reduce_sum},
      {"ReduceSumSquare", reduce_sum_square},
      {"Range", range_op},
      {"Relu", unary_op<UnaryOp::Relu>},
      {"Reshape", reshape},
      {"Round", unary_op<UnaryOp::RoundEven>},
      {"Selu", selu},
      {"Shape", shape_op},
      {"Size", size_op},
      {"Sigmoid", unary_op<UnaryOp::Sigmoid>},
      {"Sign", unary_op<UnaryOp::Sign>},
      {"Sin", unary_op<UnaryOp::Sin>},
      {"Sinh", unary_op<UnaryOp::Sinh>},
      {"Slice", slice},
      {"Softmax", softmax},
      {"Softplus", unary_op<UnaryOp::Softplus>},
      {"Softsign", softsign},
      {"Split", split},
      {"Sqrt", unary_op<UnaryOp::Sqrt>},
      {"Squeeze", squeeze},
      {"Sub", binary_op<BinaryOp::Sub>},
      {"Sum", sum_op},
      {"Tan", unary_op<UnaryOp::Tan>},
      {"Tanh", unary_op<UnaryOp::Tanh>},
      {"Tile", tile},
      {"Transpose", transpose},
      {"Unsqueeze", unsqueeze},
      {"Where", where_op},
      {"Xor", xor_op},
  };
  return all;
}

}  // namespace

OpHandler find_op(const std::string& op_type) {
  auto it = handlers().find(op_type);
  return it == handlers().end() ? nullptr : it->second;
}

}  // namespace nnref::onnx_format
