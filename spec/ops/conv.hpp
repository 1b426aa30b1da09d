// Convolution over any number of spatial axes, with groups, dilation, asymmetric padding and an
// explicit layout.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/ops/layout_ops.hpp"  // layout_detail: arity and index helpers

namespace nnref {

// ChannelsFirst: [N, C, spatial...] (NCHW, NNEF). ChannelsLast: [N, spatial..., C] (NHWC, NNL).
enum class Layout { ChannelsFirst, ChannelsLast };
// Explicit: `padding` as given. Valid: no padding. SameUpper/SameLower: per spatial axis total
// padding max((⌈in/stride⌉ − 1)·stride + (k−1)·dilation + 1 − in, 0), the odd one after (Upper,
// TensorFlow SAME, ONNX SAME_UPPER) or before (Lower); output extent ⌈in/stride⌉.
enum class PadMode { Explicit, Valid, SameUpper, SameLower };

// Input [N, C, s...] or [N, s..., C]; weight [out_channels, C/groups, k...] whatever the layout;
// bias [out_channels] if has_bias. Output extent per spatial axis:
// ⌊(in + pad_before + pad_after − ((k−1)·dilation + 1)) / stride⌋ + 1.
struct ConvAttrs {
  int64_t out_channels = 0;
  std::vector<int64_t> kernel;    // spatial extents; kernel.size() is the spatial rank (≥ 1)
  std::vector<int64_t> stride;    // empty: all 1
  std::vector<int64_t> dilation;  // empty: all 1
  std::vector<std::pair<int64_t, int64_t>> padding;  // Explicit: (before, after) per axis; empty: 0
  PadMode pad_mode = PadMode::Explicit;
  int64_t groups = 1;
  Layout layout = Layout::ChannelsFirst;
  bool has_bias = true;
};


// ---- Window geometry, shared by conv and the pools (spec/ops/pool.hpp) ----
namespace window {

// One spatial axis's attributes with the defaults filled in.
struct Axis {
  int64_t k = 1, s = 1, d = 1;     // kernel, stride, dilation
  int64_t before = 0, after = 0;  // explicit padding (0 for Valid and Same modes)
};

// The window's extent (k−1)·d + 1, in saturating attribute arithmetic.
inline int64_t extent(const Axis& a) { return ((CDim(a.k) - 1) * a.d + 1).v; }

template <class A>
Axis axis(const A& attrs, size_t i) {
  Axis a;
  a.k = attrs.kernel[i];
  if (!attrs.stride.empty()) a.s = attrs.stride[i];
  if (!attrs.dilation.empty()) a.d = attrs.dilation[i];
  if (attrs.pad_mode == PadMode::Explicit && !attrs.padding.empty()) std::tie(a.before, a.after) = attrs.padding[i];
  return a;
}

inline bool is_same(PadMode m) { return m == PadMode::SameUpper || m == PadMode::SameLower; }

// SameUpper/SameLower: total padding max((⌈in/s⌉ − 1)·s + (k−1)·d + 1 − in, 0).
template <class Dim>
Dim same_total(const Dim& in, const Axis& a) {
  return dim_max((ceil_div(in, Dim(a.s)) - int64_t{1}) * a.s + extent(a) - in, Dim(int64_t{0}));
}

// The input extent with its padding on both sides.
template <class Dim>
Dim padded(const Dim& in, const Axis& a, PadMode m) {
  return is_same(m) ? in + same_total(in, a) : in + (CDim(a.before) + a.after).v;
}

// The padding before the first element: SameUpper puts the odd unit of the total after, SameLower
// before.
inline int64_t pad_before(int64_t in, const Axis& a, PadMode m) {
  if (m == PadMode::SameUpper) return floor_div(same_total(CDim(in), a), 2).v;
  if (m == PadMode::SameLower) return ceil_div(same_total(CDim(in), a), 2).v;
  return a.before;
}

inline size_t channel_axis(Layout l, size_t rank) { return l == Layout::ChannelsFirst ? 1 : rank - 1; }
inline size_t first_spatial_axis(Layout l) { return l == Layout::ChannelsFirst ? 2 : 1; }

// [N, C, s...] or [N, s..., C].
template <class Dim>
Dims<Dim> with_channels(Layout l, const Dim& n, const Dim& c, const Dims<Dim>& spatial) {
  Dims<Dim> out{n};
  if (l == Layout::ChannelsFirst) out.push_back(c);
  out.insert(out.end(), spatial.begin(), spatial.end());
  if (l == Layout::ChannelsLast) out.push_back(c);
  return out;
}

inline std::string axis_name(size_t i, size_t spatial_rank) {
  static const char* const names[] = {"depth", "height", "width"};
  return spatial_rank <= 3 ? names[3 - spatial_rank + i] : "spatial axis " + std::to_string(i);
}

// The window attributes of a conv or pool (`family` names its codes: shape.<family>.*), the input
// rank, and per spatial axis that the window fits the padded input. Returns the output's spatial
// extents ⌊(padded − window)/s⌋ + 1, or nullopt when an attribute makes them meaningless.
template <class A, class Dim, class S>
std::optional<Dims<Dim>> spatial_rule(const std::string& family, const A& attrs, const Dims<Dim>& in, S& sink) {
  const std::string op = op_name(attrs);
  const auto code = [&](const char* what) { return "shape." + family + "." + what; };
  const size_t sr = attrs.kernel.size();
  bool ok = true;
  const auto length = [&](size_t n, bool may_be_empty, const char* name) {
    const bool holds = (n == sr && sr >= 1) || (may_be_empty && n == 0);
    sink.require(holds, code("attribute-length"),
                 op + " " + name + " has " + std::to_string(n) + " entries for " + std::to_string(sr) +
                     " spatial axes (kernel size)" + (sr == 0 ? "; at least one spatial axis is needed" : ""));
    ok = ok && holds;
  };
  length(sr, false, "kernel");
  length(attrs.stride.size(), true, "stride");
  length(attrs.dilation.size(), true, "dilation");
  if (attrs.pad_mode == PadMode::Explicit) length(attrs.padding.size(), true, "padding");
  const bool rank_ok = in.size() == sr + 2;
  sink.require(rank_ok, code("input-rank"),
               op + " with " + std::to_string(sr) + " spatial axes needs an input of rank " + std::to_string(sr + 2) +
                   ", got " + dims_str(in));
  if (!ok || !rank_ok) return std::nullopt;

  for (size_t i = 0; i < sr; ++i) {
    const Axis a = axis(attrs, i);
    const std::string where = " of " + axis_name(i, sr) + " axis";
    const auto positive = [&](int64_t v, const char* what, const char* name) {
      sink.require(v >= 1, code(what), op + " " + name + where + " is " + std::to_string(v) + ", must be at least 1");
      ok = ok && v >= 1;
    };
    positive(a.k, "kernel-nonpositive", "kernel");
    positive(a.s, "stride-nonpositive", "stride");
    positive(a.d, "dilation-nonpositive", "dilation");
    const bool pads = a.before >= 0 && a.after >= 0;
    sink.require(pads, code("padding-negative"),
                 op + " padding (" + std::to_string(a.before) + ", " + std::to_string(a.after) + ")" + where +
                     " is negative");
    ok = ok && pads;
  }
  if (!ok) return std::nullopt;

  Dims<Dim> out;
  const size_t s0 = first_spatial_axis(attrs.layout);
  for (size_t i = 0; i < sr; ++i) {
    const Axis a = axis(attrs, i);
    const Dim x = in[s0 + i];
    const Dim p = padded(x, a, attrs.pad_mode);
    const std::string pads = is_same(attrs.pad_mode)
                                 ? dim_str(same_total(x, a)) + " (same padding)"
                                 : std::to_string(a.before) + " + " + std::to_string(a.after);
    sink.require(p < Dim(std::numeric_limits<int64_t>::max()), code("extent-overflow"),
                 op + " padded input " + axis_name(i, sr) + " (" + dim_str(x) + " + " + pads +
                     ") does not fit a 64-bit index");
    sink.require(p >= Dim(extent(a)), code("window-exceeds-input"),
                 op + " window of " + axis_name(i, sr) + " " + std::to_string(extent(a)) +
                     " does not fit the padded input " + axis_name(i, sr) + " " + dim_str(p) + " (" + dim_str(x) +
                     " + " + pads + ")");
    // Same padding: ⌊(x + total − extent)/s⌋ + 1 is exactly ⌈x/s⌉ (total is chosen for that), and
    // the closed form keeps symbolic extents readable.
    out.push_back(is_same(attrs.pad_mode) ? ceil_div(x, Dim(a.s)) : floor_div(p - extent(a), Dim(a.s)) + int64_t{1});
  }
  return out;
}

// Concrete geometry for a kernel: per spatial axis the attributes, input extent and padding before.
struct Plan {
  std::vector<Axis> axes;
  std::vector<int64_t> in, pad_before;
  size_t channel = 1, first_spatial = 2;
  int64_t volume = 1;  // Π k, saturating
};

template <class A>
Plan plan(const A& attrs, const Shape& input) {
  Plan p;
  p.channel = channel_axis(attrs.layout, input.rank());
  p.first_spatial = first_spatial_axis(attrs.layout);
  CDim volume = 1;
  for (size_t i = 0; i < attrs.kernel.size(); ++i) {
    p.axes.push_back(axis(attrs, i));
    p.in.push_back(input[p.first_spatial + i]);
    p.pad_before.push_back(pad_before(p.in.back(), p.axes.back(), attrs.pad_mode));
    volume = volume * attrs.kernel[i];
  }
  p.volume = volume.v;
  return p;
}

// The in-bounds part of the window at output position o: on axis i, the kernel offsets
// j ∈ [lo_i, lo_i + count_i) whose input position start_i + j·d_i lies in [0, in_i), where
// start_i = o_i·s_i − pad_before_i. Padded positions are left out.
struct Box {
  std::vector<int64_t> start, lo, count, d;
  int64_t size = 1;  // Π count

  Box(const Plan& p, const std::vector<int64_t>& o) {
    for (size_t i = 0; i < p.axes.size(); ++i) {
      const Axis& a = p.axes[i];
      const CDim st = CDim(o[i]) * a.s - p.pad_before[i];
      const CDim first = dim_max(ceil_div(CDim(0) - st, a.d), 0);
      const CDim end = floor_div(CDim(p.in[i]) - 1 - st, a.d) + 1;
      const int64_t last = end.v < a.k ? end.v : a.k;
      start.push_back(st.v);
      lo.push_back(first.v);
      count.push_back(last > first.v ? last - first.v : 0);
      d.push_back(a.d);
      size *= count.back();
    }
  }
  // The kernel offsets j of the t-th in-bounds position, row-major over the box.
  void kernel_index(int64_t t, std::vector<int64_t>& j) const {
    j.resize(count.size());
    for (size_t i = count.size(); i-- > 0;) {
      j[i] = lo[i] + t % count[i];
      t /= count[i];
    }
  }
  int64_t input_pos(size_t i, int64_t j) const { return start[i] + j * d[i]; }
};

// Σ_i input_pos(i, j_i) · strides[first + i]: the input offset of a window position.
inline int64_t input_offset(const Box& b, const std::vector<int64_t>& j, const std::vector<int64_t>& strides,
                            size_t first) {
  int64_t f = 0;
  for (size_t i = 0; i < j.size(); ++i) f += b.input_pos(i, j[i]) * strides[first + i];
  return f;
}

}  // namespace window

inline std::string op_name(const ConvAttrs&) { return "conv"; }
inline Arity arity(const ConvAttrs&) { return {1, 1}; }

template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const ConvAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!layout_detail::arity_holds(a, inputs.size(), sink)) return std::nullopt;
  const Dims<Dim>& x = inputs[0];
  const auto spatial = window::spatial_rule("conv", a, x, sink);
  sink.require(a.groups >= 1, "shape.conv.groups-nonpositive",
               "conv groups is " + std::to_string(a.groups) + ", must be at least 1");
  sink.require(a.out_channels >= 1, "shape.conv.out-channels-nonpositive",
               "conv out_channels is " + std::to_string(a.out_channels) + ", must be at least 1");
  if (!spatial || a.groups < 1 || a.out_channels < 1) return std::nullopt;
  sink.require(a.out_channels % a.groups == 0, "shape.conv.out-channels-indivisible",
               "conv out_channels " + std::to_string(a.out_channels) + " is not a multiple of groups " +
                   std::to_string(a.groups));
  const Dim c = x[window::channel_axis(a.layout, x.size())];
  const Dim per_group = floor_div(c, Dim(a.groups));
  sink.require(per_group * a.groups == c, "shape.conv.channels-indivisible",
               "conv input has " + dim_str(c) + " channels, not a multiple of groups " + std::to_string(a.groups));
  const Dim oc = Dim(a.out_channels);
  ShapeOut<Dim> r;
  r.outputs.push_back(window::with_channels(a.layout, x[0], oc, *spatial));
  Dims<Dim> weight{oc, per_group};
  for (int64_t k : a.kernel) weight.push_back(Dim(k));
  r.params.push_back({"weight", weight, true});
  if (a.has_bias) r.params.push_back({"bias", Dims<Dim>{oc}, true});
  return r;
}

// y[n, m, o] = Σ_{c < C/G} Σ_{j in window} x[n, g·C/G + c, o·s + j·d − pad_before] · w[m, c, j] + b[m],
// g = ⌊m / (M/G)⌋ the group of output channel m; positions in the padding read 0 and are left out.
template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<ConvAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>& params) {
  const ConvAttrs& a = op.attrs();
  const Tensor<T>& x = *inputs[0];
  const Tensor<T>& w = *params[0];
  const Tensor<T>* bias = a.has_bias ? params[1] : nullptr;
  const window::Plan plan = window::plan(a, op.inputs()[0]);
  const auto xs = op.inputs()[0].strides();
  const auto ws = op.params()[0].shape.strides();
  const int64_t per_group = op.params()[0].shape[1];
  const int64_t out_per_group = a.out_channels / a.groups;
  const Shape& out = op.outputs()[0];
  Tensor<T> y(out);
  std::vector<int64_t> idx, o, j;
  for (int64_t f = 0; f < y.size(); ++f) {
    layout_detail::unflatten(f, out.dims(), idx);
    o.assign(idx.begin() + static_cast<int64_t>(plan.first_spatial),
             idx.begin() + static_cast<int64_t>(plan.first_spatial + plan.axes.size()));
    const int64_t n = idx[0], m = idx[plan.channel];
    const int64_t c0 = (m / out_per_group) * per_group;
    const window::Box box(plan, o);
    const T acc = sum_of<T>(per_group * box.size, [&](int64_t t) {
      const int64_t c = t / box.size;
      box.kernel_index(t % box.size, j);
      int64_t wf = m * ws[0] + c * ws[1];
      for (size_t i = 0; i < j.size(); ++i) wf += j[i] * ws[2 + i];
      const int64_t xf = n * xs[0] + (c0 + c) * xs[plan.channel] + window::input_offset(box, j, xs, plan.first_spatial);
      return x[xf] * w[wf];
    });
    y[f] = bias ? acc + (*bias)[m] : acc;
  }
  return {y};
}

}  // namespace nnref
