// The ONNX ops over sliding windows: Conv, MaxPool (and its Indices), MaxUnpool, AveragePool,
// GlobalAveragePool, GlobalMaxPool (ConvTranspose: conv_transpose.cpp).
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"
#include "formats/onnx/tensor_proto.hpp"
#include "spec/rules/window.hpp"

namespace nnref::onnx_format {

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

constexpr int32_t kInt64 = 7;  // ONNX's TensorProto.INT64

// MaxPool's Indices (output 1): of each window's maximum, its flat index into x (ONNX's
// definition, batch and channel included): (n·C + c)·Π spatial + Σ_i pos_i·stride_i, strides row-major
// over the spatial axes (storage_order 0) or column-major (1: the first spatial axis varies
// fastest). IR argmax_pool gives j, the maximum's row-major index in the window (the first of
// ties, as ONNX's reference scans), then pos_i = o_i·s_i − pad_before_i + j_i·d_i with
// j_i = ⌊j / Π k_(i+1..)⌋ mod k_i. Integer arithmetic, exact in every scalar; fixed extents.
ValueRef max_pool_indices(Ctx& c, const PoolAttrs& a, bool column_major) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             "MaxPool's Indices need fixed extents (its flat indices are computed at load time), and the model's "
             "inputs have symbolic ones");
  const std::vector<int64_t> x = c.shape(0);
  const std::optional<std::vector<int64_t>> y = c.known_shape_of(c.proto().output(0));
  if (!y) c.refuse("onnx.shape-unknown", "the shape of MaxPool's output is not known");
  const size_t spatial = a.kernel.size();
  ArgmaxPoolAttrs w{a.kernel, a.stride, a.dilation, a.padding, a.pad_mode, PoolBorder::Ignore};
  const ValueRef j = c.emit("window-index", w, {c.data(0)});
  const auto integer = [&](const std::string& n, int64_t v) { return c.literal(n, integer_tensor(Shape(), {v})); };
  const auto integer_op = [&](const std::string& n, IntegerOp op, ValueRef l, ValueRef r) {
    return c.emit(n, IntegerBinaryAttrs{op, Broadcast::NumpyRight, {}}, {l, r});
  };
  int64_t plane = 1;
  for (size_t i = 0; i < spatial; ++i) plane *= x[2 + i];
  std::vector<int64_t> base(static_cast<size_t>(x[0] * x[1]));
  for (size_t k = 0; k < base.size(); ++k) base[k] = static_cast<int64_t>(k) * plane;
  std::vector<int64_t> base_shape(x.size(), 1);
  base_shape[0] = x[0], base_shape[1] = x[1];
  ValueRef flat = c.literal("base", integer_tensor(Shape::make(base_shape).value(), std::move(base)));
  int64_t kernel_stride = 1;
  for (size_t i = spatial; i-- > 0;) {
    const std::string n = "axis" + std::to_string(i);
    const window::Axis axis = window::axis(a, i);
    const int64_t before = window::pad_before(x[2 + i], axis, a.pad_mode);
    std::vector<int64_t> origin(static_cast<size_t>((*y)[2 + i]));
    for (size_t o = 0; o < origin.size(); ++o) origin[o] = static_cast<int64_t>(o) * axis.s - before;
    std::vector<int64_t> origin_shape(x.size(), 1);
    origin_shape[2 + i] = (*y)[2 + i];
    const ValueRef offset =
        integer_op(n + "-offset", IntegerOp::Mod,
                   integer_op(n + "-window", IntegerOp::Div, j, integer(n + "-kernel-stride", kernel_stride)),
                   integer(n + "-kernel", axis.k));
    const ValueRef pos =
        integer_op(n + "-position", IntegerOp::Add,
                   c.literal(n + "-origin", integer_tensor(Shape::make(origin_shape).value(), std::move(origin))),
                   integer_op(n + "-dilated", IntegerOp::Mul, offset, integer(n + "-dilation", axis.d)));
    int64_t stride = 1;  // of spatial axis i in x's storage order
    for (size_t k = 0; k < spatial; ++k)
      if (column_major ? k < i : k > i) stride *= x[2 + k];
    flat = integer_op(n + "-flat", IntegerOp::Add, flat,
                      integer_op(n + "-term", IntegerOp::Mul, pos, integer(n + "-stride", stride)));
    kernel_stride *= axis.k;
  }
  return flat;
}

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
  PoolAttrs a;
  a.op = op;
  a.kernel = kernel;
  a.stride = c.attr_ints("strides");
  a.dilation = c.attr_ints("dilations");
  a.pad_mode = auto_pad(c);
  if (a.pad_mode == PadMode::Explicit) a.padding = pads_of(c, kernel.size());
  else c.attr_ints("pads");
  const bool ceil_mode = c.attr_int("ceil_mode", 0) != 0;
  if (ceil_mode && a.pad_mode != PadMode::Explicit)
    c.refuse("onnx.attribute-unsupported", "ceil_mode 1 with auto_pad other than NOTSET is not supported");
  // ceil_mode: the rounded-up extent whose last window starts inside the input or its padding
  // before (spec/rules/window.hpp, PyTorch's rule); the overhang is ignored as the padding is.
  if (ceil_mode) a.pad_mode = PadMode::ExplicitCeil;
  // Max pooling ignores the padding (ONNX pads with -inf); average pooling counts it when
  // count_include_pad is 1 (the padding's zeros divide as part of the window).
  if (op == PoolOp::Avg) a.border = c.attr_int("count_include_pad", 0) != 0 ? PoolBorder::Constant : PoolBorder::Ignore;
  // count_include_pad divides an overhanging window by its part inside the padded input (PyTorch),
  // the IR's Constant border by the whole window.
  if (ceil_mode && a.border == PoolBorder::Constant)
    c.refuse("onnx.attribute-unsupported", "ceil_mode 1 with count_include_pad 1 is not supported");
  const bool column_major = op == PoolOp::Max && c.attr_int("storage_order", 0) != 0;
  c.only_outputs(op == PoolOp::Max ? 2 : 1);
  if (op == PoolOp::Max && c.kind(0) == ElemKind::Integer) {
    if (c.output_read(1)) c.refuse("onnx.type-unsupported", "MaxPool's Indices of integer data are not supported");
    return integer_max_pool(c, a);
  }
  c.set_output(0, c.emit("", a, {c.data(0)}));
  if (op == PoolOp::Max && c.output_read(1))
    c.set_output(1, max_pool_indices(c, a, column_major), ElemKind::Integer, kInt64);
}
void max_pool(Ctx& c) { pool(c, PoolOp::Max); }

// MaxUnpool: u = 0 of the inferred shape, per spatial axis (in − 1)·stride + kernel − pad_begin −
// pad_end, with u.flat[I[i]] = X[i] (I holds flat indices into the whole of u, as MaxPool's
// Indices give them); with output_shape (input 2, read at load), u padded with zeros after to it
// (ONNX's reference and backend test: the indices address the inferred shape, not output_shape).
// The scatter (scatter.cpp) of X into a 0-D zero at the rows I, reduction none: duplicate indices
// (overlapping windows that share a maximum) write their common value, differing values NaN; an
// index outside [0, Π inferred) makes every element NaN.
void max_unpool(Ctx& c) {
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             "MaxUnpool needs fixed extents (its output's size is read at load time), and the model's inputs have "
             "symbolic ones");
  const std::vector<int64_t> kernel = c.attr_ints("kernel_shape");
  if (kernel.empty()) c.refuse("onnx.attribute-value", "kernel_shape is required");
  const std::vector<int64_t> x = c.shape(0);
  if (x.size() != kernel.size() + 2) c.refuse("onnx.input-shape", "X must be [N, C] and one axis per kernel axis");
  if (c.shape(1) != x) c.refuse("onnx.input-shape", "I must have X's shape");
  const std::vector<int64_t> strides = c.attr_ints("strides");
  const auto pads = pads_of(c, kernel.size());
  std::vector<int64_t> out = x;
  for (size_t i = 0; i < kernel.size(); ++i)
    out[2 + i] = (x[2 + i] - 1) * (strides.empty() ? 1 : strides[i]) + kernel[i] -
                 (pads.empty() ? 0 : pads[i].first + pads[i].second);
  std::vector<std::pair<int64_t, int64_t>> after(x.size(), {0, 0});  // up to output_shape
  if (c.has_input(2)) {
    const std::vector<int64_t> given = c.int_list(2, "output_shape");
    if (given.size() != x.size() || given[0] != x[0] || given[1] != x[1])
      c.refuse("onnx.input-type", "output_shape must have X's rank and keep its N and C");
    for (size_t a = 2; a < x.size(); ++a) {
      if (given[a] < out[a])
        c.refuse("onnx.input-type", "output_shape is smaller than the unpooled shape on axis " + std::to_string(a));
      after[a].second = given[a] - out[a];
    }
  }
  int64_t P = 1, K = 1;
  for (size_t a = 0; a < x.size(); ++a) P *= out[a], K *= x[a];
  const ValueRef index = c.emit("index-flat", ReshapeAttrs{{K}, ElemKind::Integer}, {c.operand(1, ElemKind::Integer)});
  const ValueRef real = c.emit("index-real", CastAttrs{ElemKind::Integer, ElemKind::Real}, {index});
  const auto compare = [&](const std::string& n, CompareOp op, int64_t v) {
    return c.emit(n, CompareAttrs{op, Broadcast::NumpyRight},
                  {real, c.literal(n + "-bound", scalar_tensor(static_cast<double>(v)))});
  };
  const ValueRef inside = c.emit("index-inside", LogicalAttrs{LogicalOp::And, Broadcast::NumpyRight},
                                 {compare("index-above", CompareOp::Ge, 0), compare("index-below", CompareOp::Lt, P)});
  const ValueRef rows = c.emit("rows", SelectAttrs{Broadcast::NumpyRight, ElemKind::Integer},
                               {inside, index, c.literal("outside", integer_tensor(Shape(), {-1}))});
  const ValueRef updates = c.emit("updates", ReshapeAttrs{{K}}, {c.data(0)});
  const ValueRef y =
      scattered(c, c.literal("zero", scalar_tensor(0.0)), updates, rows, P, K, {}, ScatterReduction::None);
  const ValueRef unpooled = c.emit("shaped", ReshapeAttrs{out}, {y});
  c.set_output(0, c.has_input(2) ? c.emit("padded", PadAttrs{after}, {unpooled}) : unpooled);
}
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

}  // namespace

void add_window_ops(OpTable& table) {
  add_ops(table, {
      {"AveragePool", average_pool},
      {"Conv", conv},
      {"ConvTranspose", conv_transpose},
      {"GlobalAveragePool", global_average_pool},
      {"GlobalMaxPool", global_max_pool},
      {"MaxPool", max_pool},
      {"MaxUnpool", max_unpool},
  });
}

}  // namespace nnref::onnx_format
