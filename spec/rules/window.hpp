// Window geometry, shared by conv and the pools: the layout of channels and spatial axes, the
// padding modes, the output extent of each spatial axis and its obligations, and the concrete
// geometry a kernel walks: each output position's window as lists of input and kernel offsets.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "spec/obligation.hpp"
#include "spec/shape.hpp"

namespace nnref {

// ChannelsFirst: [N, C, spatial...] (NCHW, NNEF). ChannelsLast: [N, spatial..., C] (NHWC, NNL).
enum class Layout { ChannelsFirst, ChannelsLast };
// Explicit: `padding` as given. Valid: no padding. SameUpper/SameLower: per spatial axis total
// padding max((⌈in/stride⌉ − 1)·stride + (k−1)·dilation + 1 − in, 0), the odd one after (Upper,
// TensorFlow SAME, ONNX SAME_UPPER) or before (Lower); output extent ⌈in/stride⌉.
// ExplicitCeil: `padding` as given, the output extent rounded up (ONNX and PyTorch ceil_mode):
// min(⌈(padded − window)/s⌉ + 1, ⌈(in + pad_before)/s⌉), so the last window may overhang the
// padded input but starts inside the input or its padding before (PyTorch's pooling_output_shape;
// ONNX's "windows that start in the right padded region are ignored"). The overhang is read as
// padding: no element is there.
enum class PadMode { Explicit, Valid, SameUpper, SameLower, ExplicitCeil };

namespace window {

inline constexpr ObligationSpec kWindowAttributeLength{
    ObligationKind::Attribute, "attr.window.attribute-length",
    "The window attributes of a conv or pool have one entry per spatial axis: kernel has at least one entry, and "
    "stride, dilation and (explicit) padding are each empty or as long as kernel.",
    "len(kernel) >= 1 && (len(L) == 0 || len(L) == len(kernel)), for L = stride, dilation, padding",
    "An IR conv with kernel [3, 3] and stride [1, 1, 1]: error[attr.window.attribute-length] (NNL always gives two "
    "entries)."};
inline constexpr ObligationSpec kWindowInputRank{
    ObligationKind::Shape, "shape.window.input-rank",
    "The input of a conv or pool has rank len(kernel) + 2: the batch axis, the channel axis and one axis per kernel "
    "entry.",
    "rank(x) == len(kernel) + 2",
    "`layer input = Input(shape: [28, 28, 1]); layer flat = Flatten(); layer l = MaxPool2D(kernel: 5);`: the layer "
    "reads the rank-2 [1, 784]: error[shape.window.input-rank] (constant: decided without Z3)."};
inline constexpr ObligationSpec kWindowKernel{
    ObligationKind::Attribute, "attr.window.kernel-nonpositive", "Every kernel extent of a conv or pool is at least 1.",
    "k >= 1, for every spatial axis", "An IR max_pool with kernel [0, 3]: error[attr.window.kernel-nonpositive]."};
inline constexpr ObligationSpec kWindowStride{
    ObligationKind::Attribute, "attr.window.stride-nonpositive", "Every stride of a conv or pool is at least 1.",
    "s >= 1, for every spatial axis", "An IR conv with stride [0, 1]: error[attr.window.stride-nonpositive]."};
inline constexpr ObligationSpec kWindowDilation{
    ObligationKind::Attribute, "attr.window.dilation-nonpositive", "Every dilation of a conv or pool is at least 1.",
    "d >= 1, for every spatial axis", "An IR conv with dilation [1, -1]: error[attr.window.dilation-nonpositive]."};
inline constexpr ObligationSpec kWindowPadding{
    ObligationKind::Attribute, "attr.window.padding-negative",
    "Every explicit padding of a conv or pool is at least 0.",
    "pad_before >= 0 && pad_after >= 0, for every spatial axis",
    "An IR avg_pool with padding [(0, 0), (-1, 0)]: error[attr.window.padding-negative]."};
inline constexpr ObligationSpec kWindowExtentOverflow{
    ObligationKind::Size, "size.window.extent-overflow",
    "The padded extent of every spatial axis of the input of a conv or pool fits a 64-bit index.",
    "H + pad_before + pad_after < 9223372036854775807, for every spatial axis (same padding: "
    "H + max((ceil(H/sH) - 1) * sH + (kH - 1) * dH + 1 - H, 0) < 9223372036854775807)",
    "An IR conv with padding (4611686018427387904, 4611686018427387904) on the height axis: the padded height "
    "saturates at 2^63 - 1: error[size.window.extent-overflow]."};
inline constexpr ObligationSpec kWindowExceedsInput{
    ObligationKind::Shape, "shape.window.exceeds-input",
    "On every spatial axis the window of a conv or pool, (k - 1) * d + 1, fits the padded input, so every output "
    "extent, (padded - window) / s + 1, is at least 1.",
    "H + pad_before + pad_after >= (kH - 1) * dH + 1, for every spatial axis (valid padding: both pads 0; same "
    "padding: the padded extent is H + max((ceil(H/sH) - 1) * sH + (kH - 1) * dH + 1 - H, 0), ceil(H/sH) being "
    "(H + sH - 1) / sH, and the obligation always holds)",
    "`layer input = Input(shape: [32, 32, 3]); layer l = Conv2D(filters: 8, kernel: 5);` (valid padding) checked with "
    "`nnref check m.nnl --dim input.0=1..100`: error[shape.window.exceeds-input], counterexample: input.0 = 1 (the "
    "window of height 5 needs input.0 >= 5)."};


// The modes whose padding is the `padding` attribute.
inline bool is_explicit(PadMode m) { return m == PadMode::Explicit || m == PadMode::ExplicitCeil; }

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
  if (is_explicit(attrs.pad_mode) && !attrs.padding.empty()) std::tie(a.before, a.after) = attrs.padding[i];
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

// The lengths of a window's attribute lists (kernel at least one entry; stride, dilation and, when
// the padding is explicit, padding empty or one entry per kernel entry) and the input's rank,
// len(kernel) + 2. False when they leave no meaningful window.
template <class Dim>
bool require_lengths(const std::string& op, size_t sr, size_t stride, size_t dilation, bool explicit_padding,
                     size_t padding, const Dims<Dim>& in, ObligationSink<Dim>& sink) {
  bool ok = true;
  const auto length = [&](size_t n, bool may_be_empty, const char* name) {
    const bool holds = (n == sr && sr >= 1) || (may_be_empty && n == 0);
    sink.require(holds, kWindowAttributeLength,
                 op + " " + name + " has " + std::to_string(n) + " entries for " + std::to_string(sr) +
                     " spatial axes (kernel size)" + (sr == 0 ? "; at least one spatial axis is needed" : ""));
    ok = ok && holds;
  };
  length(sr, false, "kernel");
  length(stride, true, "stride");
  length(dilation, true, "dilation");
  if (explicit_padding) length(padding, true, "padding");
  const bool rank_ok = in.size() == sr + 2;
  sink.require(rank_ok, kWindowInputRank,
               op + " with " + std::to_string(sr) + " spatial axes needs an input of rank " + std::to_string(sr + 2) +
                   ", got " + dims_str(in));
  return ok && rank_ok;
}

// Spatial axis i's kernel, stride and dilation are at least 1.
template <class Dim>
bool require_positive(const std::string& op, size_t i, size_t sr, const Axis& a, ObligationSink<Dim>& sink) {
  bool ok = true;
  const std::string where = " of " + axis_name(i, sr) + " axis";
  const auto positive = [&](int64_t v, const ObligationSpec& what, const char* name) {
    sink.require(v >= 1, what, op + " " + name + where + " is " + std::to_string(v) + ", must be at least 1");
    ok = ok && v >= 1;
  };
  positive(a.k, kWindowKernel, "kernel");
  positive(a.s, kWindowStride, "stride");
  positive(a.d, kWindowDilation, "dilation");
  return ok;
}

// The output extent of one spatial axis of input extent x, padded extent p (p ≥ window).
template <class Dim>
Dim output_extent(const Dim& x, const Dim& p, const Axis& a, PadMode m) {
  // Same padding: ⌊(x + total − extent)/s⌋ + 1 is exactly ⌈x/s⌉ (total is chosen for that), and
  // the closed form keeps symbolic extents readable.
  if (is_same(m)) return ceil_div(x, Dim(a.s));
  if (m != PadMode::ExplicitCeil) return floor_div(p - extent(a), Dim(a.s)) + int64_t{1};
  // The windows that start in the padding after are dropped: a window o starts inside the input or
  // its padding before iff o·s < x + pad_before, i.e. o < ⌈(x + pad_before)/s⌉.
  const Dim up = ceil_div(p - extent(a), Dim(a.s)) + int64_t{1};
  const Dim starts = ceil_div(x + a.before, Dim(a.s));
  return dim_select(up <= starts, up, starts);
}

// The window attributes of a conv or pool, the input rank, and per spatial axis that the window
// fits the padded input. Returns the output's spatial extents (⌊(padded − window)/s⌋ + 1; the
// rounded-up extent of ExplicitCeil: output_extent), or nullopt when an attribute makes them
// meaningless.
template <class A, class Dim>
std::optional<Dims<Dim>> spatial_rule(const std::string& op, const A& attrs, const Dims<Dim>& in,
                                      ObligationSink<Dim>& sink) {
  const size_t sr = attrs.kernel.size();
  if (!require_lengths(op, sr, attrs.stride.size(), attrs.dilation.size(), is_explicit(attrs.pad_mode),
                       attrs.padding.size(), in, sink))
    return std::nullopt;

  bool ok = true;
  for (size_t i = 0; i < sr; ++i) {
    const Axis a = axis(attrs, i);
    ok = require_positive(op, i, sr, a, sink) && ok;
    const bool pads = a.before >= 0 && a.after >= 0;
    sink.require(pads, kWindowPadding,
                 op + " padding (" + std::to_string(a.before) + ", " + std::to_string(a.after) + ") of " +
                     axis_name(i, sr) + " axis is negative");
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
    sink.require(p < Dim(std::numeric_limits<int64_t>::max()), kWindowExtentOverflow,
                 op + " padded input " + axis_name(i, sr) + " (" + dim_str(x) + " + " + pads +
                     ") does not fit a 64-bit index");
    sink.require(p >= Dim(extent(a)), kWindowExceedsInput,
                 op + " window of " + axis_name(i, sr) + " " + std::to_string(extent(a)) +
                     " does not fit the padded input " + axis_name(i, sr) + " " + dim_str(p) + " (" + dim_str(x) +
                     " + " + pads + ")");
    out.push_back(output_extent(x, p, a, attrs.pad_mode));
  }
  return out;
}

// Concrete geometry for a kernel: per spatial axis the attributes, input extent, padding before,
// the input's stride and the kernel's row-major stride.
struct Plan {
  std::vector<Axis> axes;
  std::vector<int64_t> in, pad_before;
  std::vector<int64_t> in_strides;      // the input's stride along each spatial axis
  std::vector<int64_t> kernel_strides;  // row-major strides of [k1..kr] (saturating)
  size_t channel = 1, first_spatial = 2;
  int64_t volume = 1;  // Π k, saturating
};

template <class A>
Plan plan(const A& attrs, const Shape& input) {
  Plan p;
  p.channel = channel_axis(attrs.layout, input.rank());
  p.first_spatial = first_spatial_axis(attrs.layout);
  const std::vector<int64_t> strides = input.strides();
  CDim volume = 1;
  for (size_t i = 0; i < attrs.kernel.size(); ++i) {
    p.axes.push_back(axis(attrs, i));
    p.in.push_back(input[p.first_spatial + i]);
    p.pad_before.push_back(pad_before(p.in.back(), p.axes.back(), attrs.pad_mode));
    p.in_strides.push_back(strides[p.first_spatial + i]);
    volume = volume * attrs.kernel[i];
  }
  CDim stride = 1;
  p.kernel_strides.resize(attrs.kernel.size());
  for (size_t i = attrs.kernel.size(); i-- > 0;) {
    p.kernel_strides[i] = stride.v;
    stride = stride * attrs.kernel[i];
  }
  p.volume = volume.v;
  return p;
}

// The in-bounds part of the window at one output position o, as two offset lists over its
// positions t, row-major over the kernel offsets j, positions in the padding left out:
//   input[t]  = Σ_i (o_i·s_i + j_i·d_i − pad_before_i)·in_strides_i, the position's offset in the
//               input from element (n, c, 0, …, 0);
//   kernel[t] = Σ_i j_i·kernel_strides_i, the offset of j in a row-major [k1..kr] (saturating:
//               exact whenever Π k fits an int64, as it does for a conv's weight).
struct Offsets {
  std::vector<int64_t> input, kernel;
  int64_t size() const { return static_cast<int64_t>(input.size()); }
};

namespace detail {

// Appends the window's positions on axes i.. to w, the axes before i contributing `input` and
// `kernel`. On axis i the kernel offsets j ∈ [first, last) are those whose input position
// start + j·d lies in [0, in_i), start = o_i·s_i − pad_before_i.
inline void append_window(const Plan& p, const std::vector<int64_t>& o, size_t i, int64_t input, CDim kernel,
                          Offsets& w) {
  if (i == p.axes.size()) {
    w.input.push_back(input);
    w.kernel.push_back(kernel.v);
    return;
  }
  const Axis& a = p.axes[i];
  const CDim start = CDim(o[i]) * a.s - p.pad_before[i];
  const int64_t first = dim_max(ceil_div(CDim(0) - start, a.d), 0).v;
  const int64_t end = (floor_div(CDim(p.in[i]) - 1 - start, a.d) + 1).v;
  const int64_t last = end < a.k ? end : a.k;
  for (int64_t j = first; j < last; ++j)
    append_window(p, o, i + 1, input + (start + CDim(j) * a.d).v * p.in_strides[i],
                  kernel + CDim(j) * p.kernel_strides[i], w);
}

}  // namespace detail

// The window at output position o, written into w (whose storage is reused).
inline void offsets_at(const Plan& p, const std::vector<int64_t>& o, Offsets& w) {
  w.input.clear();
  w.kernel.clear();
  detail::append_window(p, o, 0, 0, CDim(0), w);
}

// Calls f(o, offset) for every output position o, row-major over the spatial extents of `out`,
// with offset = Σ_i o_i·(stride of out's spatial axis i): its offset in the output from element
// (n, c, 0, …, 0).
template <class F>
void for_each_position(const Plan& p, const Shape& out, F&& f) {
  const size_t r = p.axes.size();
  const std::vector<int64_t> strides = out.strides();
  std::vector<int64_t> o(r, 0);
  int64_t positions = 1;
  for (size_t i = 0; i < r; ++i) positions *= out[p.first_spatial + i];
  for (int64_t q = 0; q < positions; ++q) {
    int64_t offset = 0;
    for (size_t i = 0; i < r; ++i) offset += o[i] * strides[p.first_spatial + i];
    f(static_cast<const std::vector<int64_t>&>(o), offset);
    for (size_t i = r; i-- > 0;) {
      if (++o[i] < out[p.first_spatial + i]) break;
      o[i] = 0;
    }
  }
}

}  // namespace window

}  // namespace nnref
