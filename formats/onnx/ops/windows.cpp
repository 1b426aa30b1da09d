// The ONNX ops over sliding windows: Conv, MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool
// (ConvTranspose: conv_transpose.cpp).
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"

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

}  // namespace

void add_window_ops(OpTable& table) {
  add_ops(table, {
      {"AveragePool", average_pool},
      {"Conv", conv},
      {"ConvTranspose", conv_transpose},
      {"GlobalAveragePool", global_average_pool},
      {"GlobalMaxPool", global_max_pool},
      {"MaxPool", max_pool},
  });
}

}  // namespace nnref::onnx_format
