// The ONNX normalisations: BatchNormalization, LayerNormalization, InstanceNormalization, LRN,
// MeanVarianceNormalization, Softmax, LogSoftmax and Hardmax.
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"

namespace nnref::onnx_format {

namespace {

// scale or B of a normalisation, [C], as a constant shaped [C, 1, ...] to broadcast against x of
// rank r ([N, C, spatial...]).
ValueRef per_channel(Ctx& c, size_t k, const std::string& what, size_t r) {
  HostTensor t = c.require_constant(k, what);
  std::vector<int64_t> dims{static_cast<int64_t>(t.values.size())};
  dims.resize(r - 1, 1);
  t.shape = Shape::make(dims).value();
  return c.literal(what, std::move(t));
}

// BatchNormalization with training_mode 1 (opset 14 on): the batch's own statistics, ONNX's
// formula. μ = the mean of x over every axis but the channel's, σ² = the mean of (x − μ)² (the
// population variance), y = scale·(x − μ)/sqrt(σ² + ε) + B: layer_norm without affine over those
// axes, then the product and the sum, as InstanceNormalization. The running statistics, when read:
// input_mean·momentum + μ·(1 − momentum), likewise the variance; 1 − momentum an IR subtraction of
// constants, exact in every interpretation.
void batch_norm_training(Ctx& c, double eps, double momentum) {
  const size_t r = c.rank(0);
  if (r < 2) c.refuse("onnx.shape-unsupported", "the input must have rank at least 2, [N, C, ...]");
  LayerNormAttrs a;
  for (size_t k = 0; k < r; ++k)
    if (k != 1) a.axes.push_back(static_cast<int64_t>(k));
  a.epsilon = Real(eps);
  const ValueRef x = c.data(0);
  const ValueRef norm = c.emit("normalise", a, {x});
  const ValueRef scaled = binary(c, "scale", BinaryOp::Mul, norm, per_channel(c, 1, "scale", r));
  c.set_output(0, binary(c, "", BinaryOp::Add, scaled, per_channel(c, 2, "B", r)));
  if (!c.output_read(1) && !c.output_read(2)) return;
  const ValueRef m = c.literal("momentum", scalar_tensor(momentum));
  const ValueRef rest = binary(c, "one-minus-momentum", BinaryOp::Sub, c.literal("one", scalar_tensor(1.0)), m);
  auto running = [&](size_t k, ValueRef batch, const std::string& name) {
    const ValueRef kept = binary(c, name + "-kept", BinaryOp::Mul, c.data(k), m);
    return binary(c, name, BinaryOp::Add, kept, binary(c, name + "-batch", BinaryOp::Mul, batch, rest));
  };
  const ValueRef mean = c.emit("batch-mean", ReduceAttrs{ReduceOp::Mean, a.axes, true}, {x});
  c.set_output(1, running(3, c.emit("batch-mean-per-channel", ReduceAttrs{ReduceOp::Mean, a.axes, false}, {x}),
                          "running-mean"));
  if (!c.output_read(2)) return;
  const ValueRef squares = c.emit("squares", UnaryAttrs{UnaryOp::Sqr}, {binary(c, "centred", BinaryOp::Sub, x, mean)});
  c.set_output(2, running(4, c.emit("batch-variance", ReduceAttrs{ReduceOp::Mean, a.axes, false}, {squares}),
                          "running-variance"));
}

void batch_norm(Ctx& c) {
  if (c.opset() < 6 && c.has_attr("consumed_inputs"))
    c.refuse("onnx.attribute-unsupported", "consumed_inputs (before opset 6) is not supported");
  if (c.opset() < 7 && c.attr_int("is_test", 0) == 0)
    c.refuse("onnx.attribute-unsupported", "is_test 0 (training) is not supported");
  if (c.opset() < 9 && c.attr_int("spatial", 1) != 1)
    c.refuse("onnx.attribute-unsupported", "spatial 0 is not supported");
  const double momentum = c.attr_float("momentum", double{0.9f});
  const double eps = c.attr_float("epsilon", double{1e-5f});
  if (c.attr_int("training_mode", 0) != 0) return batch_norm_training(c, eps, momentum);
  c.only_outputs(1);
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
  const ValueRef scaled = binary(c, "scale", BinaryOp::Mul, norm, per_channel(c, 1, "scale", r));
  c.set_output(0, binary(c, "", BinaryOp::Add, scaled, per_channel(c, 2, "B", r)));
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

// Hardmax: 1 at the first maximum along the axis, 0 elsewhere (ONNX's definition; before opset 13
// over x coerced to 2-D [d0·…·d(axis−1), d(axis)·…], reshaped there and back). ArgMax keeping the
// axis, compared with the positions 0..d−1 laid along it; the truth value cast to a real.
void hardmax(Ctx& c) {
  const auto r = static_cast<int64_t>(c.rank(0));
  int64_t axis = c.attr_int("axis", c.opset() < 13 ? 1 : -1);
  if (axis < -r || axis >= r) c.refuse("onnx.attribute-value", "axis is outside the input's axes");
  if (axis < 0) axis += r;
  const SizeTerms extents = c.extents_of(0, 0, r);
  ValueRef x = c.data(0);
  int64_t along = axis, rank = r;
  std::vector<int64_t> n = extents.elements[static_cast<size_t>(axis)];
  if (c.opset() < 13) {  // [outer, inner]: the products of the extents before and from the axis
    const auto product = [&](int64_t from, int64_t to) {
      std::vector<int64_t> t{size_code::kConstant, 1};
      for (int64_t a = from; a < to; ++a) {
        const auto& e = extents.elements[static_cast<size_t>(a)];
        t.insert(t.end(), e.begin(), e.end());
        t.push_back(size_code::kMul);
      }
      return t;
    };
    n = product(axis, r);
    x = reshaped(c, "coerced", x, ElemKind::Real, size_terms({product(0, axis), n}));
    along = 1, rank = 2;
  }
  const ValueRef first = c.emit("argmax", ArgReduceAttrs{ArgReduceOp::Max, {along}, false}, {x});
  std::vector<int64_t> laid{-1};  // the positions along the axis, broadcast over the axes after it
  laid.resize(static_cast<size_t>(rank - along), 1);
  const ValueRef positions = c.emit("positions", ReshapeAttrs{laid, ElemKind::Integer}, {integer_range(c, "position-range", {size_code::kConstant, 0}, n)});
  const auto real = [&](const std::string& suffix, ValueRef v) { return c.emit(suffix, CastAttrs{ElemKind::Integer, ElemKind::Real}, {v}); };
  const ValueRef is_first = c.emit("is-first", CompareAttrs{CompareOp::Eq, Broadcast::NumpyRight},
                                   {real("positions-real", positions), real("argmax-real", first)});
  ValueRef y = c.emit(c.opset() < 13 ? "one-hot" : "", CastAttrs{ElemKind::Logical, ElemKind::Real}, {is_first});
  if (c.opset() < 13) y = reshaped(c, "", y, ElemKind::Real, extents);
  c.set_output(0, y);
}

// MeanVarianceNormalization: (X − E[X]) / (sqrt(E[X²] − E[X]²) + ε) over `axes` ([0, 2, 3] by
// default), ε the float32 nearest 1e-9: its ONNX function body, op by op (Pow with exponent 2 as
// written, whose envelope allows a runtime's pow).
void mean_variance_normalization(Ctx& c) {
  std::vector<int64_t> axes = c.attr_ints("axes");
  if (!c.has_attr("axes")) axes = {0, 2, 3};
  const ValueRef x = c.data(0);
  const ValueRef two = c.literal("exponent", scalar_tensor(2.0));
  const ValueRef mean = c.emit("mean", ReduceAttrs{ReduceOp::Mean, axes, true}, {x});
  const ValueRef mean_squared = binary(c, "mean-squared", BinaryOp::Pow, mean, two);
  const ValueRef squares_mean = c.emit("squares-mean", ReduceAttrs{ReduceOp::Mean, axes, true},
                                       {binary(c, "squares", BinaryOp::Pow, x, two)});
  const ValueRef deviation = c.emit("deviation", UnaryAttrs{UnaryOp::Sqrt},
                                    {binary(c, "variance", BinaryOp::Sub, squares_mean, mean_squared)});
  const ValueRef denominator = binary(c, "denominator", BinaryOp::Add, deviation, c.literal("epsilon", scalar_tensor(double{1e-9f})));
  c.set_output(0, binary(c, "", BinaryOp::Div, binary(c, "centred", BinaryOp::Sub, x, mean), denominator));
}

}  // namespace

void add_normalization_ops(OpTable& table) {
  add_ops(table, {
      {"Hardmax", hardmax},
      {"MeanVarianceNormalization", mean_variance_normalization},
      {"BatchNormalization", batch_norm},
      {"InstanceNormalization", instance_norm},
      {"LayerNormalization", layer_norm},
      {"LRN", lrn},
      {"LogSoftmax", log_softmax},
      {"Softmax", softmax},
  });
}

}  // namespace nnref::onnx_format
