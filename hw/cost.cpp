#include "hw/cost.hpp"

#include <optional>
#include <string>

#include "spec/axis_groups.hpp"
#include "spec/index.hpp"
#include "spec/rules/window.hpp"

namespace nnref::hw {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0); }

int64_t elements(const Shape& s) { return s.count(); }

OpCost vector(int64_t cycles) { return {Unit::Vector, cycles, 0}; }
OpCost sfu(int64_t cycles) { return {Unit::Sfu, cycles, 0}; }

// The special function a unary op needs, a key of sfu_latency (none: the vector unit computes it):
// its own name, but for those computed through another function.
std::optional<std::string> special_function(const UnaryAttrs& a) {
  switch (a.op) {
    case UnaryOp::Copy: case UnaryOp::Neg: case UnaryOp::Abs: case UnaryOp::Sign: case UnaryOp::Floor:
    case UnaryOp::Ceil: case UnaryOp::Round: case UnaryOp::RoundEven: case UnaryOp::RoundF16: case UnaryOp::RoundBF16:
    case UnaryOp::Sqr: case UnaryOp::Relu: case UnaryOp::LeakyRelu:
      return std::nullopt;
    case UnaryOp::Rcp: case UnaryOp::Rsqr: return "reciprocal";
    case UnaryOp::Elu: return "exp";
    case UnaryOp::Log2: return "log";
    default: return op_name(a);  // exp, log, sqrt, rsqrt, tanh, sigmoid, softplus, sin, ..., atanh
  }
}

// Element-wise maps and data movement: one vector step per ⌈n / lanes⌉ results.
template <class A>
OpCost per_output(const Checked<A>& op, const Config& c) {
  return vector(vector_steps(elements(op.outputs()[0]), c));
}

}  // namespace

const char* unit_name(Unit u) {
  switch (u) {
    case Unit::None: return "none";
    case Unit::Mac: return "mac";
    case Unit::Vector: return "vector";
    case Unit::Sfu: return "sfu";
    case Unit::Dram: return "dram";
  }
  return "?";
}

int64_t vector_steps(int64_t n, const Config& c) { return ceil_div(n, c.vector_lanes) * c.vector_cycles; }

int64_t sfu_cycles(const std::string& fn, int64_t n, const Config& c) {
  return c.sfu_latency.at(fn) + ceil_div(n, c.vector_lanes);
}

OpCost mac_cost(int64_t batches, int64_t m, int64_t n, int64_t k, const Config& c) {
  const int64_t tiles = ceil_div(m, c.mac_rows) * ceil_div(n, c.mac_cols);
  return {Unit::Mac, batches * tiles * (k + c.mac_rows + c.mac_cols - 2), batches * m * n * k};
}

namespace {

OpCost cost(const Checked<InputAttrs>&, const Config&) { return {}; }
OpCost cost(const Checked<ConstAttrs>&, const Config&) { return {}; }
// Views: the same bytes read with another shape.
OpCost cost(const Checked<ReshapeAttrs>&, const Config&) { return {}; }
OpCost cost(const Checked<FlattenAttrs>&, const Config&) { return {}; }
OpCost cost(const Checked<SqueezeAttrs>&, const Config&) { return {}; }
OpCost cost(const Checked<UnsqueezeAttrs>&, const Config&) { return {}; }

OpCost cost(const Checked<UnaryAttrs>& op, const Config& c) {
  const int64_t n = elements(op.outputs()[0]);
  if (const auto fn = special_function(op.attrs())) return sfu(sfu_cycles(*fn, n, c));
  return per_output(op, c);
}

OpCost cost(const Checked<BinaryAttrs>& op, const Config& c) {
  const int64_t n = elements(op.outputs()[0]);
  // fmod as a division: the quotient's reciprocal, then the truncation and x − q·y on the vector unit.
  if (op.attrs().op == BinaryOp::Div || op.attrs().op == BinaryOp::Fmod)
    return sfu(sfu_cycles("reciprocal", n, c) + vector_steps(n, c));
  if (op.attrs().op == BinaryOp::Pow) return sfu(sfu_cycles("pow", n, c));
  return per_output(op, c);
}

OpCost cost(const Checked<AddNAttrs>& op, const Config& c) {
  const auto adds = static_cast<int64_t>(op.inputs().size()) - 1;
  return vector(std::max<int64_t>(adds, 1) * vector_steps(elements(op.outputs()[0]), c));
}

OpCost cost(const Checked<BroadcastToAttrs>& op, const Config& c) { return per_output(op, c); }
OpCost cost(const Checked<ClampAttrs>& op, const Config& c) { return per_output(op, c); }
OpCost cost(const Checked<PreluAttrs>& op, const Config& c) { return per_output(op, c); }
OpCost cost(const Checked<SelectAttrs>& op, const Config& c) { return per_output(op, c); }
OpCost cost(const Checked<CompareAttrs>& op, const Config& c) { return per_output(op, c); }
OpCost cost(const Checked<LogicalAttrs>& op, const Config& c) { return per_output(op, c); }
OpCost cost(const Checked<CastAttrs>& op, const Config& c) { return per_output(op, c); }
// Integer arithmetic on the vector unit's integer lanes: one step per output element, division too
// (an integer divide has no special-function unit to go through).
OpCost cost(const Checked<IntegerBinaryAttrs>& op, const Config& c) { return per_output(op, c); }
OpCost cost(const Checked<SizesAttrs>& op, const Config& c) { return per_output(op, c); }
// range: start + i·delta, one vector step per output element.
OpCost cost(const Checked<RangeAttrs>& op, const Config& c) { return per_output(op, c); }
OpCost cost(const Checked<GatherAttrs>& op, const Config& c) { return per_output(op, c); }
// interpolate: per output element one multiply-add per choice of taps (Π_k T_k), on the vector unit.
OpCost cost(const Checked<InterpolateAttrs>& op, const Config& c) {
  int64_t choices = 1;
  for (size_t k = 0; k < op.attrs().axes.size(); ++k) choices *= op.inputs()[1 + 2 * k][1];
  return vector(choices * vector_steps(elements(op.outputs()[0]), c));
}
// roi_resample: 2^M weighted terms per output element. The pools' cells have sizes that depend on
// the rois' values, which a static cost cannot know: one step per output element (a lower bound).
OpCost cost(const Checked<RoiAttrs>& op, const Config& c) {
  if (op.attrs().op != RoiOp::Resample) return per_output(op, c);
  const int64_t corners = int64_t{1} << op.attrs().output_size.size();
  return vector(corners * vector_steps(elements(op.outputs()[0]), c));
}
OpCost cost(const Checked<TransposeAttrs>& op, const Config& c) { return per_output(op, c); }
OpCost cost(const Checked<ConcatAttrs>& op, const Config& c) { return per_output(op, c); }
OpCost cost(const Checked<SliceAttrs>& op, const Config& c) { return per_output(op, c); }
OpCost cost(const Checked<PadAttrs>& op, const Config& c) { return per_output(op, c); }
OpCost cost(const Checked<SplitAttrs>& op, const Config& c) { return vector(vector_steps(elements(op.inputs()[0]), c)); }

OpCost cost(const Checked<LinearAttrs>& op, const Config& c) {
  const Shape& x = op.inputs()[0];
  return mac_cost(1, x[0], op.attrs().units, x[1], c);
}

OpCost cost(const Checked<MatMulAttrs>& op, const Config& c) {
  const Shape &out = op.outputs()[0], &a = op.inputs()[0];
  const size_t r = out.rank();
  const int64_t k = op.attrs().transpose_a ? a[r - 2] : a[r - 1];
  return mac_cost(product(out.dims(), 0, r - 2), out[r - 2], out[r - 1], k, c);
}

// Each group is a product [batch·positions, K]·[K, out/groups] with K = (in/groups)·Πkernel: the
// window's positions in the padding are masked, not skipped, so every tile takes K steps.
OpCost cost(const Checked<ConvAttrs>& op, const Config& c) {
  const ConvAttrs& a = op.attrs();
  const Shape &out = op.outputs()[0], &w = op.params()[0].shape;
  const int64_t positions = out.count() / a.out_channels;  // batch × spatial
  const int64_t k = w.count() / w[0];
  OpCost one = mac_cost(1, positions, a.out_channels / a.groups, k, c);
  return {Unit::Mac, a.groups * one.cycles, a.groups * one.macs};
}

// deconv scatters each input position's C_in/groups channels through the kernel: per group the
// product [batch·input positions, C_in/groups]·[C_in/groups, (C_out/groups)·Πkernel].
OpCost cost(const Checked<DeconvAttrs>& op, const Config& c) {
  const DeconvAttrs& a = op.attrs();
  const Shape &in = op.inputs()[0], &w = op.params()[0].shape;
  const int64_t positions = in.count() / in[1];  // batch × input spatial
  OpCost one = mac_cost(1, positions, w.count() / w[0], in[1] / a.groups, c);
  return {Unit::Mac, a.groups * one.cycles, a.groups * one.macs};
}

OpCost cost(const Checked<PoolAttrs>& op, const Config& c) {
  const int64_t n = elements(op.outputs()[0]);
  const int64_t volume = window::plan(op.attrs(), op.inputs()[0]).volume;
  return vector(vector_steps(n * volume, c) + (op.attrs().op == PoolOp::Avg ? vector_steps(n, c) : 0));
}

// argmax_pool compares every window position of every output, as max_pool; sample reads one
// element per output; desample adds each input element into its output (after zeroing it).
OpCost cost(const Checked<ArgmaxPoolAttrs>& op, const Config& c) {
  return vector(vector_steps(elements(op.outputs()[0]) * window::plan(op.attrs(), op.inputs()[0]).volume, c));
}
OpCost cost(const Checked<SampleAttrs>& op, const Config& c) {
  if (op.attrs().op == SampleOp::Sample) return per_output(op, c);
  return vector(vector_steps(elements(op.inputs()[0]) + elements(op.outputs()[0]), c));
}

OpCost cost(const Checked<BatchNormAttrs>& op, const Config& c) {
  const Shape& x = op.inputs()[0];
  const int64_t channels = op.params()[0].shape.count();
  return sfu(sfu_cycles("sqrt", channels, c) + 2 * vector_steps(x.count(), c));
}

// How many groups the axes split a shape into (the product of the other axes' extents).
int64_t group_count(const Shape& s, const std::vector<size_t>& axes) {
  const std::vector<bool> mask = axis_mask(axes, s.rank());
  int64_t groups = 1;
  for (size_t i = 0; i < s.rank(); ++i) groups *= mask[i] ? 1 : s[i];
  return groups;
}

// A mean pass, a variance pass and a normalizing pass; per group a square root and a reciprocal.
OpCost cost(const Checked<LayerNormAttrs>& op, const Config& c) {
  const Shape& x = op.inputs()[0];
  const int64_t groups = group_count(x, normalized_axes(op.attrs().axes, x.rank()));
  return sfu(3 * vector_steps(x.count(), c) + sfu_cycles("sqrt", groups, c) + sfu_cycles("reciprocal", groups, c));
}

// A max pass, the exponentials, a sum pass and a scaling pass; per group a reciprocal (log_softmax:
// a logarithm, and the last pass subtracts it).
OpCost cost(const Checked<SoftmaxAttrs>& op, const Config& c) {
  const Shape& x = op.inputs()[0];
  const AxisDomain domain(x.dims(), op.attrs().batch_axes);
  const int64_t groups = group_count(x, normalized_axes(op.attrs().axes, domain));
  const int64_t last = op.attrs().log ? sfu_cycles("log", groups, c) : sfu_cycles("reciprocal", groups, c);
  return sfu(3 * vector_steps(x.count(), c) + sfu_cycles("exp", x.count(), c) + last);
}

// cumsum: a running sum along each line, one vector step per output element (each adds one term).
OpCost cost(const Checked<CumsumAttrs>& op, const Config& c) { return per_output(op, c); }
// contract: the terms of a SkriptND @lower body depend on its program; one step per output element (a lower bound).
OpCost cost(const Checked<ContractAttrs>& op, const Config& c) { return per_output(op, c); }

OpCost cost(const Checked<ReduceAttrs>& op, const Config& c) {
  const int64_t n = op.inputs()[0].count(), m = elements(op.outputs()[0]);
  return vector(vector_steps(n, c) + (op.attrs().op == ReduceOp::Mean ? vector_steps(m, c) : 0));
}
// A compare-and-select pass (argmax, argmin) or a logical pass (all, any) over the input.
OpCost cost(const Checked<ArgReduceAttrs>& op, const Config& c) { return vector(vector_steps(op.inputs()[0].count(), c)); }
OpCost cost(const Checked<LogicalReduceAttrs>& op, const Config& c) { return vector(vector_steps(op.inputs()[0].count(), c)); }

}  // namespace

OpCost cost_of(const CheckedOp& op, const Config& c) {
  return std::visit([&](const auto& o) { return cost(o, c); }, op);
}

}  // namespace nnref::hw
