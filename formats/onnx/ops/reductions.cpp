// The ONNX Reduce family over reals (integers: typed.cpp).
#include <optional>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"

namespace nnref::onnx_format {

namespace {

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

}  // namespace

void add_reduction_ops(OpTable& table) {
  add_ops(table, {
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
  });
}

}  // namespace nnref::onnx_format
