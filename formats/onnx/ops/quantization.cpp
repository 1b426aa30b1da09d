// The quantization ops: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger,
// ConvInteger, QLinearMatMul, QLinearConv, each a composition of IR ops (docs/onnx.md,
// "Compositions"). Their integer parts are integer arithmetic (integer_binary, the integer
// sum_reduce), exact in every scalar; their real parts (x / scale, the requantisation) reals as
// any other op's.
//
// A quantized result (QuantizeLinear's y, the QLinear ops' y, DynamicQuantizeLinear's y and zero
// point) is held as a real whose value is an integer, with its ONNX type (uint8, int8): the
// quotient x / scale a runtime computes in float32 may round to either side of a tie k + ½, so
// its envelope holds both neighbours, and a real keeps them both (conform accepts either answer),
// where an IR integer would be undetermined. A quantized op reading such a value casts it to an
// integer (the IR cast, exact where the value is decided).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"

namespace nnref::onnx_format {

namespace {

constexpr int32_t kUint8 = onnx::TensorProto::UINT8;
constexpr int32_t kInt8 = onnx::TensorProto::INT8;
constexpr int32_t kInt32 = onnx::TensorProto::INT32;
const IntegerType kInt32Type{IntegerWidth::Bits32, true};

// The largest number of products an integer product (MatMulInteger, ConvInteger) materialises:
// the composition's product tensor holds one int64 per multiply-add (2^26 of them: 512 MiB).
constexpr int64_t kMaxProducts = int64_t{1} << 26;

std::string type_name(int32_t t) {
  return onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(t));
}

// The ONNX type of a quantized value: its zero point's (input k), uint8 when that is absent.
// uint8 and int8 only: float8 (opset 19) and the 4- and 16-bit types (opset 21) are refused.
int32_t quantized_type(Ctx& c, size_t k) {
  const int32_t t = c.has_input(k) ? c.type(k) : kUint8;
  if (t != kUint8 && t != kInt8)
    c.refuse("onnx.type-unsupported", "a quantized type " + type_name(t) + ": nnref reads uint8 and int8");
  return t;
}

std::pair<double, double> bounds_of(int32_t t) { return t == kInt8 ? std::pair{-128.0, 127.0} : std::pair{0.0, 255.0}; }

// Input k, a uint8 or int8 tensor (or `wide`, int32: a bias), as an IR integer; a quantized value
// held as a real (above) cast to one.
ValueRef integer_input(Ctx& c, size_t k, int32_t wide = kUint8) {
  const int32_t t = c.type(k);
  if (t != kUint8 && t != kInt8 && t != wide)
    c.refuse("onnx.type-unsupported", "input " + std::to_string(k) + " is " + type_name(t) + ", and the op takes " +
                                          (wide == kInt32 ? "int32" : "uint8 or int8"));
  if (c.kind(k) == ElemKind::Integer) return c.operand(k, ElemKind::Integer);
  return c.emit("integer" + std::to_string(k), CastAttrs{ElemKind::Real, ElemKind::Integer}, {c.data(k)});
}

// Input k as a real: a float, or an integer read as the real it is.
ValueRef real_input(Ctx& c, size_t k) {
  if (c.kind(k) == ElemKind::Real) return c.data(k);
  return c.emit("real" + std::to_string(k), CastAttrs{c.kind(k), ElemKind::Real}, {c.operand(k, c.kind(k))});
}

// A per-axis parameter v (input k: a scale, a zero point, a bias, 1-D of n elements) reshaped to
// [n, 1, ..., 1] with `trailing` ones, so that NumPy broadcasting applies it along the axis that
// many axes before the last; a 0-D parameter, or one of rank above 1, as it is.
ValueRef along_axis(Ctx& c, const std::string& suffix, ValueRef v, size_t k, ElemKind kind, size_t trailing) {
  if (c.rank(k) != 1 || trailing == 0) return v;
  std::vector<int64_t> axes;
  for (size_t i = 1; i <= trailing; ++i) axes.push_back(static_cast<int64_t>(i));
  return c.emit(suffix, UnsqueezeAttrs{axes, kind}, {v});
}

// The number of axes after the quantization's axis in input 0: where the scale (input k) is 1-D of
// more than one element, per `axis` (opset 13 on); else per tensor, and 0 (the axis is not used).
size_t axes_after(Ctx& c, size_t k) {
  const int64_t a = c.opset() >= 13 ? c.attr_int("axis", 1) : 1;
  const std::optional<std::vector<int64_t>> s = c.known_shape(k);
  if (c.rank(k) != 1 || (s && (*s)[0] == 1)) return 0;
  if (c.opset() < 13)
    c.refuse("onnx.input-shape", "the scale must be a scalar before opset 13 (per-axis scales came in 13)");
  const int64_t r = static_cast<int64_t>(c.rank(0));
  const int64_t axis = a < 0 ? a + r : a;
  if (axis < 0 || axis >= r)
    c.refuse("onnx.attribute-value", "axis " + std::to_string(a) + " is outside the input's axes");
  return static_cast<size_t>(r - axis - 1);
}

// Opset 21's block quantization and output type; opset 19's saturate (float8 only, which is refused).
void refuse_later_attributes(Ctx& c) {
  if (c.opset() >= 19) c.attr_int("saturate", 1);
  if (c.attr_int("block_size", 0) != 0)
    c.refuse("onnx.attribute-unsupported", "block_size (blocked quantization) is not supported");
  if (c.has_attr("output_dtype") && c.attr_int("output_dtype", 0) != 0)
    c.refuse("onnx.attribute-unsupported", "output_dtype is not supported (the zero point's type gives the result's)");
}

// saturate(round(v) + zp) into the type's range, v real, zp a real or integer value (or none):
// round_even(v) (ONNX rounds halves to even), plus zp, clipped by max and min. The sum of two
// integers is an integer; round_even of it is exactly it, and gives back an exact integer in an
// enclosure the addition widened (so that a later cast to an integer is decided).
ValueRef requantized(Ctx& c, ValueRef v, std::optional<ValueRef> zp, int32_t type) {
  ValueRef y = c.emit("rounded", UnaryAttrs{UnaryOp::RoundEven}, {v});
  if (zp) {
    const ValueRef shifted = binary(c, "shifted", BinaryOp::Add, y, *zp);
    y = c.emit("integer", UnaryAttrs{UnaryOp::RoundEven}, {shifted});
  }
  const auto [lo, hi] = bounds_of(type);
  const ValueRef low = binary(c, "low", BinaryOp::Max, y, c.literal("lowest", scalar_tensor(lo)));
  return binary(c, "", BinaryOp::Min, low, c.literal("highest", scalar_tensor(hi)));
}

// Input k's zero point as a real broadcast along the axis `trailing` axes before the last, or none.
std::optional<ValueRef> real_zero_point(Ctx& c, size_t k, size_t trailing) {
  if (!c.has_input(k)) return std::nullopt;
  return along_axis(c, "zero-point", real_input(c, k), k, ElemKind::Real, trailing);
}

// ---- QuantizeLinear, DequantizeLinear ----

// QuantizeLinear: y = saturate(round(x / y_scale) + y_zero_point), round halves to even, the
// scale and zero point per tensor or per `axis`. x a float (or an int32, read as the real it is).
void quantize_linear(Ctx& c) {
  refuse_later_attributes(c);
  const int32_t type = quantized_type(c, 2);
  const size_t trailing = axes_after(c, 1);
  const ValueRef scale = along_axis(c, "scale", c.data(1), 1, ElemKind::Real, trailing);
  const ValueRef q = binary(c, "quotient", BinaryOp::Div, real_input(c, 0), scale);
  c.set_output(0, requantized(c, q, real_zero_point(c, 2, trailing), type), ElemKind::Real, type);
}

// x − zero point as a real: integer_binary sub of integers (exact), cast to a real; of a
// quantized value held as a real, their real difference rounded (an integer: round_even is exact).
ValueRef centred(Ctx& c, size_t x, size_t zp, size_t trailing) {
  if (!c.has_input(zp)) return real_input(c, x);
  if (c.kind(x) == ElemKind::Integer && c.kind(zp) == ElemKind::Integer) {
    const ValueRef z = along_axis(c, "zero-point", c.operand(zp, ElemKind::Integer), zp, ElemKind::Integer, trailing);
    const ValueRef d = c.emit("centred", IntegerBinaryAttrs{IntegerOp::Sub}, {c.operand(x, ElemKind::Integer), z});
    return c.emit("centred-real", CastAttrs{ElemKind::Integer, ElemKind::Real}, {d});
  }
  const ValueRef d = binary(c, "difference", BinaryOp::Sub, real_input(c, x), *real_zero_point(c, zp, trailing));
  return c.emit("centred", UnaryAttrs{UnaryOp::RoundEven}, {d});
}

// DequantizeLinear: y = (x − x_zero_point)·x_scale, per tensor or per `axis`; x uint8, int8, or
// int32 (whose zero point ONNX requires to be 0 or absent).
void dequantize_linear(Ctx& c) {
  refuse_later_attributes(c);
  if (c.type(0) != kInt32) quantized_type(c, 0);
  if (c.has_input(2) && c.type(2) != c.type(0))
    c.refuse("onnx.input-type", "x_zero_point must have x's type (" + type_name(c.type(0)) + ")");
  const size_t trailing = axes_after(c, 1);
  const ValueRef scale = along_axis(c, "scale", c.data(1), 1, ElemKind::Real, trailing);
  c.set_output(0, binary(c, "", BinaryOp::Mul, centred(c, 0, 2, trailing), scale));
}

// ---- DynamicQuantizeLinear ----

// DynamicQuantizeLinear (uint8): y_scale = (max(0, max x) − min(0, min x)) / 255,
// y_zero_point = round(saturate(0 − min(0, min x) / y_scale)), y = saturate(round(x / y_scale) +
// y_zero_point), rounding halves to even; the reductions over every axis.
void dynamic_quantize_linear(Ctx& c) {
  const ValueRef x = c.data(0);
  std::vector<int64_t> all(c.rank(0));
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int64_t>(i);
  const auto extreme = [&](const std::string& suffix, ReduceOp op) {
    return all.empty() ? x : c.emit(suffix, ReduceAttrs{op, all, false}, {x});
  };
  const ValueRef zero = c.literal("zero", scalar_tensor(0.0));
  const ValueRef hi = binary(c, "upper", BinaryOp::Max, extreme("max", ReduceOp::Max), zero);
  const ValueRef lo = binary(c, "lower", BinaryOp::Min, extreme("min", ReduceOp::Min), zero);
  const ValueRef range = binary(c, "range", BinaryOp::Sub, hi, lo);
  const ValueRef scale = binary(c, "scale", BinaryOp::Div, range, c.literal("levels", scalar_tensor(255.0)));
  const ValueRef shift = c.emit("shift", UnaryAttrs{UnaryOp::Neg}, {binary(c, "min-scaled", BinaryOp::Div, lo, scale)});
  const ValueRef clipped =
      binary(c, "zero-point-high", BinaryOp::Min, binary(c, "zero-point-low", BinaryOp::Max, shift, zero),
             c.literal("zero-point-highest", scalar_tensor(255.0)));
  const ValueRef zp = c.emit("zero-point", UnaryAttrs{UnaryOp::RoundEven}, {clipped});
  const ValueRef q = binary(c, "quotient", BinaryOp::Div, x, scale);
  c.set_output(0, requantized(c, q, zp, kUint8), ElemKind::Real, kUint8);
  c.set_output(1, scale);
  c.set_output(2, zp, ElemKind::Real, kUint8);
}

// ---- MatMulInteger, QLinearMatMul ----

void charge_products(Ctx& c, int64_t count) {
  if (count > kMaxProducts)
    c.refuse("onnx.shape-unsupported", "the integer product has " + std::to_string(count) +
                                           " multiply-adds, and nnref's composition holds at most " +
                                           std::to_string(kMaxProducts) + " (one int64 each)");
}

// Σ of the products along `axis` (removed) as ONNX Runtime accumulates them, in int32: the integer
// sum_reduce in int64, exact, which is the int32 sum itself where |Σ| < 2^31 must hold (`terms`
// products of 8-bit values less their zero points, each of magnitude at most 255·255), and is
// else wrapped to int32 by an integer_binary add of 0 in that type (wrap-around is modular, so
// wrapping once at the end equals wrapping each partial sum).
ValueRef accumulated(Ctx& c, ValueRef products, int64_t axis, int64_t terms) {
  const ValueRef sum = c.emit("sum", ReduceAttrs{ReduceOp::Sum, {axis}, false, ElemKind::Integer}, {products});
  if (terms * 255 * 255 < (int64_t{1} << 31)) return sum;
  const ValueRef zero = c.literal("zero", HostTensor{DType::I64, Shape(), {0.0}});
  return c.emit("int32", IntegerBinaryAttrs{IntegerOp::Add, Broadcast::NumpyRight, kInt32Type}, {sum, zero});
}

// Input x minus its zero point zp (if given) in integers; the zero point broadcast along the axis
// `trailing` axes before the last when 1-D.
ValueRef integer_centred(Ctx& c, size_t x, size_t zp, size_t trailing) {
  const ValueRef v = integer_input(c, x);
  if (!c.has_input(zp)) return v;
  const ValueRef z =
      along_axis(c, "zero-point" + std::to_string(zp), integer_input(c, zp), zp, ElemKind::Integer, trailing);
  return c.emit("centred" + std::to_string(x), IntegerBinaryAttrs{IntegerOp::Sub}, {v, z});
}

// The number of multiply-adds of a matmul of shapes sa and sb (1-D ones already made 2-D).
int64_t matmul_products(const std::vector<int64_t>& sa, const std::vector<int64_t>& sb) {
  int64_t count = sa[sa.size() - 2] * sa.back() * sb.back();
  for (size_t i = 0; i + 2 < std::max(sa.size(), sb.size()); ++i) {
    const int64_t da = i + 2 < sa.size() ? sa[sa.size() - 3 - i] : 1;
    const int64_t db = i + 2 < sb.size() ? sb[sb.size() - 3 - i] : 1;
    count *= std::max(da, db);
  }
  return count;
}

// Σ_k (a − a_zp)[.., i, k]·(b − b_zp)[.., k, j] in integers, an int32 result (ONNX Runtime
// accumulates in int32): integer_binary mul of a[.., i, k, 1] and b[.., 1, k, j] under NumPy
// broadcasting, then the integer sum_reduce over k. A 1-D a (b) gains an axis before (after) as
// in MatMul, removed from the result. a's zero point is per tensor or per row (1-D: [M, 1]), b's
// per tensor or per column. (a, azp, b, bzp: input indices.) It reads the ranks only: of fixed
// extents the products are counted at load (at most kMaxProducts); of symbolic ones the run's
// memory budget bounds them (size.budget).
ValueRef integer_matmul(Ctx& c, size_t a, size_t azp, size_t b, size_t bzp) {
  const size_t ra = c.rank(a), rb = c.rank(b);
  if (ra == 0 || rb == 0) c.refuse("onnx.input-shape", "the operands of an integer matmul must have rank 1 or more");
  const bool vector_a = ra == 1, vector_b = rb == 1;
  int64_t terms = kMaxProducts;  // k, where the extents are symbolic: taken to be able to pass int32
  if (c.extents_fixed()) {
    std::vector<int64_t> sa = c.shape(a), sb = c.shape(b);
    terms = sa.back();
    if (vector_a) sa.insert(sa.begin(), 1);
    if (vector_b) sb.push_back(1);
    charge_products(c, matmul_products(sa, sb));
  }
  ValueRef x = integer_centred(c, a, azp, vector_a ? 0 : 1), y = integer_centred(c, b, bzp, 0);
  if (vector_a) x = c.emit("a-matrix", UnsqueezeAttrs{{0}, ElemKind::Integer}, {x});
  if (vector_b) y = c.emit("b-matrix", UnsqueezeAttrs{{1}, ElemKind::Integer}, {y});
  const ValueRef xa = c.emit("a-column", UnsqueezeAttrs{{-1}, ElemKind::Integer}, {x});
  const ValueRef yb = c.emit("b-row", UnsqueezeAttrs{{-3}, ElemKind::Integer}, {y});
  const ValueRef products = c.emit("products", IntegerBinaryAttrs{IntegerOp::Mul}, {xa, yb});
  ValueRef z = accumulated(c, products, -2, terms);
  if (vector_b) z = c.emit("b-vector", SqueezeAttrs{{-1}, ElemKind::Integer}, {z});
  if (vector_a) z = c.emit("a-vector", SqueezeAttrs{{-2}, ElemKind::Integer}, {z});
  return z;
}

// MatMulInteger: Σ_k (a − a_zero_point)(b − b_zero_point), exact, int32.
void matmul_integer(Ctx& c) { c.set_output(0, integer_matmul(c, 0, 2, 1, 3), ElemKind::Integer, kInt32); }

// saturate(round(acc · x_scale·w_scale / y_scale) + y_zero_point) of a QLinear op's integer
// accumulation acc. (The scales are inputs sx, sw, sy, the zero point zy; each `trailing` places
// a 1-D one's axis.)
ValueRef requantized_product(Ctx& c, ValueRef acc, size_t sx, size_t sw, size_t sy, size_t zy, size_t x_trailing,
                             size_t w_trailing, size_t y_trailing) {
  const int32_t type = quantized_type(c, zy);
  const ValueRef scale_x = along_axis(c, "scale-a", c.data(sx), sx, ElemKind::Real, x_trailing);
  const ValueRef scale_w = along_axis(c, "scale-b", c.data(sw), sw, ElemKind::Real, w_trailing);
  const ValueRef scale_y = along_axis(c, "scale-y", c.data(sy), sy, ElemKind::Real, y_trailing);
  const ValueRef multiplier =
      binary(c, "multiplier", BinaryOp::Div, binary(c, "scales", BinaryOp::Mul, scale_x, scale_w), scale_y);
  const ValueRef real = c.emit("accumulated", CastAttrs{ElemKind::Integer, ElemKind::Real}, {acc});
  const ValueRef v = binary(c, "scaled", BinaryOp::Mul, real, multiplier);
  return requantized(c, v, real_zero_point(c, zy, y_trailing), type);
}

// QLinearMatMul: saturate(round(Σ_k (a − a_zp)(b − b_zp) · a_scale·b_scale / y_scale) + y_zp);
// a's and y's parameters per tensor or per row, b's per tensor or per column.
void qlinear_matmul(Ctx& c) {
  const ValueRef acc = integer_matmul(c, 0, 2, 3, 5);
  const size_t row = c.rank(0) >= 2 ? 1 : 0;
  c.set_output(0, requantized_product(c, acc, 1, 4, 6, 7, row, 0, row), ElemKind::Real, quantized_type(c, 7));
}

// ---- ConvInteger, QLinearConv ----

// The model's extents must be fixed for the integer convolutions (their slices and size are read at load).
void require_fixed_convolution(Ctx& c) {
  require_fixed_extents(c, "nnref reads its windows and counts its products when the model is read");
}

struct ConvGeometry {
  std::vector<int64_t> x, w;  // shapes: [N, C, S...], [M, C / group, K...]
  int64_t group = 1;
  std::vector<int64_t> stride, dilation, out;
  std::vector<std::pair<int64_t, int64_t>> pads;
};

// The padding auto_pad asks for along one axis: SAME_UPPER and SAME_LOWER give ⌈s / stride⌉
// outputs, the odd element of the padding after (UPPER) or before (LOWER).
std::pair<int64_t, int64_t> same_padding(const std::string& mode, int64_t s, int64_t k, int64_t stride, int64_t d) {
  const int64_t out = (s + stride - 1) / stride;
  const int64_t total = std::max<int64_t>(0, (out - 1) * stride + (k - 1) * d + 1 - s);
  return mode == "SAME_UPPER" ? std::pair{total / 2, total - total / 2} : std::pair{total - total / 2, total / 2};
}

// The convolution's attributes and shapes (x input 0, w input wk).
ConvGeometry conv_geometry(Ctx& c, size_t wk) {
  require_fixed_convolution(c);
  ConvGeometry g{c.shape(0), c.shape(wk), c.attr_int("group", 1), {}, {}, {}, {}};
  if (g.w.size() < 3 || g.x.size() != g.w.size())
    c.refuse("onnx.input-shape", "x and w must have the same rank, at least 3");
  const size_t spatial = g.w.size() - 2;
  if (g.group < 1 || g.w[0] % g.group != 0 || g.x[1] != g.w[1] * g.group)
    c.refuse("onnx.input-shape",
             "group must divide w's output channels, and x's channels must be group times "
             "w's second extent");
  const std::vector<int64_t> kernel = c.attr_ints("kernel_shape");
  if (!kernel.empty() && kernel != std::vector<int64_t>(g.w.begin() + 2, g.w.end()))
    c.refuse("onnx.attribute-value", "kernel_shape differs from w's spatial extents");
  g.stride = c.attr_ints("strides");
  g.dilation = c.attr_ints("dilations");
  if (g.stride.empty()) g.stride.assign(spatial, 1);
  if (g.dilation.empty()) g.dilation.assign(spatial, 1);
  if (g.stride.size() != spatial || g.dilation.size() != spatial)
    c.refuse("onnx.attribute-value", "strides and dilations need one entry per spatial axis");
  const std::string mode = c.attr_string("auto_pad", "NOTSET");
  if (mode != "NOTSET" && mode != "VALID" && mode != "SAME_UPPER" && mode != "SAME_LOWER")
    c.refuse("onnx.attribute-value", "auto_pad '" + mode + "' is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER");
  if (mode == "NOTSET")
    g.pads = pads_of(c, spatial);
  else
    c.attr_ints("pads");
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t s = g.x[i + 2], k = g.w[i + 2];
    if (g.stride[i] < 1 || g.dilation[i] < 1)
      c.refuse("onnx.attribute-value", "strides and dilations must be at least 1");
    if (mode == "SAME_UPPER" || mode == "SAME_LOWER")
      g.pads.push_back(same_padding(mode, s, k, g.stride[i], g.dilation[i]));
    else if (g.pads.size() < spatial)
      g.pads.emplace_back(0, 0);
    const int64_t span = (k - 1) * g.dilation[i] + 1, padded = s + g.pads[i].first + g.pads[i].second;
    if (padded < span) c.refuse("onnx.input-shape", "the kernel is wider than the padded input");
    g.out.push_back((padded - span) / g.stride[i] + 1);
  }
  return g;
}

// Σ over c, k of (x − x_zp)[n, c, o·stride + k·dilation]·(w − w_zp)[m, c, k] in integers, c over
// the channels of m's group, an int32 result: the centred x padded with 0 (ONNX pads the centred
// input: the padding adds nothing), for each kernel offset k the strided slice of it that offset
// reads, stacked into [N, G, 1, C/G·K, O...] (channel major, as w's layout [M, C/G, K...]
// flattens), integer_binary mul with w as [1, G, M/G, C/G·K, 1...], the integer sum_reduce over
// C/G·K, and [N, G, M/G, O...] read as [N, M, O...] (output channel m in group m / (M/G), as ONNX
// orders them). x's zero point is per tensor (or per channel), w's per tensor or per output
// channel. Its size is the multiply-add count. (suffix: the last node's.)
ValueRef integer_conv(Ctx& c, const std::string& suffix, const ConvGeometry& g, size_t xzp, size_t wk, size_t wzp) {
  const size_t spatial = g.out.size();
  const int64_t n = g.x[0], channels = g.x[1], m = g.w[0];
  int64_t taps = 1, outputs = 1;
  for (size_t i = 0; i < spatial; ++i) taps *= g.w[i + 2], outputs *= g.out[i];
  charge_products(c, n * m * (channels / g.group) * taps * outputs);
  ValueRef x = integer_centred(c, 0, xzp, spatial);
  std::vector<std::pair<int64_t, int64_t>> padding{{0, 0}, {0, 0}};
  padding.insert(padding.end(), g.pads.begin(), g.pads.end());
  if (padding != std::vector<std::pair<int64_t, int64_t>>(spatial + 2, {0, 0})) {
    PadAttrs p;
    p.padding = padding;
    p.kind = ElemKind::Integer;
    x = c.emit("padded", p, {x});
  }
  std::vector<ValueRef> stacked;
  std::vector<int64_t> offset(spatial, 0), axes;
  for (size_t i = 0; i < spatial; ++i) axes.push_back(static_cast<int64_t>(i + 2));
  for (int64_t t = 0; t < taps; ++t) {
    SliceAttrs s{axes, {}, {}, g.stride, ElemKind::Integer};
    for (size_t i = 0; i < spatial; ++i) {
      s.begin.push_back(offset[i] * g.dilation[i]);
      s.end.push_back(offset[i] * g.dilation[i] + (g.out[i] - 1) * g.stride[i] + 1);
    }
    const std::string tap = "tap" + std::to_string(t);
    stacked.push_back(c.emit(tap + "-axis", UnsqueezeAttrs{{2}, ElemKind::Integer}, {c.emit(tap, s, {x})}));
    for (size_t i = spatial; i-- > 0;) {  // the next kernel offset, row-major
      if (++offset[i] < g.w[i + 2]) break;
      offset[i] = 0;
    }
  }
  ValueRef windows =
      stacked.size() == 1 ? stacked[0] : c.emit("windows", ConcatAttrs{2, 0, ElemKind::Integer}, stacked);
  const int64_t groups = g.group, per_group = channels / groups * taps;
  std::vector<int64_t> wdims{n, groups, 1, per_group}, kdims{1, groups, m / groups, per_group}, ydims{n, m};
  wdims.insert(wdims.end(), g.out.begin(), g.out.end());
  kdims.insert(kdims.end(), spatial, 1);
  ydims.insert(ydims.end(), g.out.begin(), g.out.end());
  windows = c.emit("windows-flat", ReshapeAttrs{wdims, ElemKind::Integer}, {windows});
  const ValueRef w =
      c.emit("kernel", ReshapeAttrs{kdims, ElemKind::Integer}, {integer_centred(c, wk, wzp, spatial + 1)});
  const ValueRef products = c.emit("products", IntegerBinaryAttrs{IntegerOp::Mul}, {windows, w});
  const ValueRef sums = accumulated(c, products, 3, per_group);
  return c.emit(suffix, ReshapeAttrs{ydims, ElemKind::Integer}, {sums});
}

// ConvInteger: Σ (x − x_zero_point)(w − w_zero_point) over each window, exact, int32.
void conv_integer(Ctx& c) {
  const ConvGeometry g = conv_geometry(c, 1);
  c.set_output(0, integer_conv(c, "", g, 2, 1, 3), ElemKind::Integer, kInt32);
}

// QLinearConv: saturate(round((Σ (x − x_zp)(w − w_zp) + B) · x_scale·w_scale / y_scale) + y_zp),
// B the int32 bias per output channel (added to the accumulation, as ONNX Runtime does); w's
// scale and zero point per tensor or per output channel, x's and y's per tensor.
void qlinear_conv(Ctx& c) {
  const ConvGeometry g = conv_geometry(c, 3);
  const size_t spatial = g.out.size();
  ValueRef acc = integer_conv(c, "accumulation", g, 2, 3, 5);
  if (c.has_input(8)) {
    const ValueRef bias = along_axis(c, "bias", integer_input(c, 8, kInt32), 8, ElemKind::Integer, spatial);
    acc = c.emit("biased", IntegerBinaryAttrs{IntegerOp::Add, Broadcast::NumpyRight, kInt32Type}, {acc, bias});
  }
  c.set_output(0, requantized_product(c, acc, 1, 4, 6, 7, 0, spatial, 0), ElemKind::Real, quantized_type(c, 7));
}

}  // namespace

void add_quantization_ops(OpTable& table) {
  add_ops(table, {
                     {"ConvInteger", conv_integer},
                     {"DequantizeLinear", dequantize_linear},
                     {"DynamicQuantizeLinear", dynamic_quantize_linear},
                     {"MatMulInteger", matmul_integer},
                     {"QLinearConv", qlinear_conv},
                     {"QLinearMatMul", qlinear_matmul},
                     {"QuantizeLinear", quantize_linear},
                 });
}

}  // namespace nnref::onnx_format
