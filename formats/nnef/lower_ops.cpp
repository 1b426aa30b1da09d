#include "formats/nnef/lower_ops.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <utility>

#include "formats/nnef/lower_args.hpp"
#include "formats/nnef/lower_border.hpp"
#include "formats/nnef/lower_resample.hpp"
#include "formats/nnef/lower_roi.hpp"

namespace nnref::nnef {

namespace {

using namespace args;
using Results = std::optional<std::vector<Value>>;

Results one(Value v) { return std::vector<Value>{std::move(v)}; }

// A window (size, stride, dilation, padding) that leaves the batch and channel axes alone.
bool leaves_batch_and_channel(const std::vector<int64_t>& size, const std::vector<int64_t>& stride,
                              const std::vector<int64_t>& dilation, const std::vector<std::pair<int64_t, int64_t>>& padding) {
  const auto ones = [](const std::vector<int64_t>& v) { return v.empty() || (v[0] == 1 && v[1] == 1); };
  return size.size() >= 3 && ones(size) && ones(stride) && ones(dilation) &&
         (padding.empty() || (padding[0] == std::pair<int64_t, int64_t>{0, 0} && padding[1] == std::pair<int64_t, int64_t>{0, 0}));
}
std::vector<int64_t> spatial(const std::vector<int64_t>& v) { return v.empty() ? v : std::vector<int64_t>(v.begin() + 2, v.end()); }

// Attributes beyond this magnitude are refused before any arithmetic on them (no overflow).
constexpr int64_t kAttributeBound = int64_t{1} << 31;

// An NNEF window over every axis (§4.3, §4.3.2, §4.3.3, §4.9.3: size, padding, stride and
// dilation with one entry per axis, batch and channel included) as the IR's windowed ops take it.
// A window that leaves batch and channel alone is the IR op's over the spatial axes; any other is
// the IR op over the input viewed as [1, 1, x...] (`whole`: docs/ops/pool.md). The borders
// replicate, reflect and reflect-even are an IR pad of the input with that border, then the op
// reading no padding: NNEF's extended input ĩ. `up` is the up-scaled tensor's shape (the input's,
// but desample's output_shape), from which automatic padding is computed.
struct Window {
  Value x;
  bool whole = false;
  std::vector<int64_t> size, stride, dilation;
  std::vector<std::pair<int64_t, int64_t>> padding;  // empty: automatic (the IR's SameUpper)
  std::string border;

  template <class A>
  void set(A& attrs) const {
    const auto part = [&](const std::vector<int64_t>& v) { return whole ? v : spatial(v); };
    attrs.kernel = part(size);
    attrs.stride = part(stride);
    attrs.dilation = part(dilation);
    attrs.pad_mode = padding.empty() ? PadMode::SameUpper : PadMode::Explicit;
    attrs.padding = whole || padding.empty() ? padding : std::vector<std::pair<int64_t, int64_t>>(padding.begin() + 2, padding.end());
  }
  // A tensor of the op's rank as the IR op reads it, and the IR op's result as NNEF's (of any
  // kind: argmax_pool's result and sample's index are integers).
  Value viewed(Composer& c, const Value& v, const SourceLoc& loc) const {
    return whole ? c.add_node1("unsqueeze", UnsqueezeAttrs{{0, 1}, c.info(v).kind}, {v}, loc) : v;
  }
  Value unviewed(Composer& c, const Value& v, const SourceLoc& loc) const {
    return whole ? c.add_node1("squeeze", SqueezeAttrs{{0, 1}, c.info(v).kind}, {v}, loc) : v;
  }
};

// `borders` lists the borders the op allows (§4.3.2, §4.3.3); the extended ones pad x.
Window window_of(Composer& c, const std::string& name, Args& a, std::vector<int64_t> up,
                 const std::vector<std::string>& borders, const SourceLoc& loc) {
  Window w;
  w.x = a.at("input");
  const size_t rank = up.size();
  w.size = integers(a, "size");
  w.stride = integers(a, "stride");
  w.dilation = integers(a, "dilation");
  w.padding = pairs(a, "padding");
  w.border = text(a, "border");
  if (w.size.size() != rank)
    c.fail("nnef.argument.value", name + ": the window has " + std::to_string(w.size.size()) +
                                    " entries but the input has rank " + std::to_string(rank), loc);
  const auto per_axis = [&](size_t n, const char* what) {
    if (n != 0 && n != rank)
      c.fail("nnef.argument.value", name + ": " + what + " has " + std::to_string(n) + " entries for an input of rank " +
                                      std::to_string(rank) + " (one per axis, or none)", loc);
  };
  per_axis(w.stride.size(), "stride");
  per_axis(w.dilation.size(), "dilation");
  per_axis(w.padding.size(), "padding");
  if (std::find(borders.begin(), borders.end(), w.border) == borders.end()) {
    std::string allowed;
    for (size_t i = 0; i < borders.size(); ++i)
      allowed += (i == 0 ? "'" : i + 1 == borders.size() ? " and '" : ", '") + borders[i] + "'";
    c.fail("nnef.argument.value", name + " with border '" + w.border + "': its borders are " + allowed + " (§4.3)", loc);
  }
  const std::optional<PadBorder> ext = extending_border(w.border);
  if (ext) {
    if (w.padding.empty()) w.padding = automatic_padding(up, w.size, w.stride, w.dilation).value_or(w.padding);
    if (!w.padding.empty()) {
      w.x = extended_input(c, w.x, w.padding, *ext, loc);
      w.padding.assign(rank, {0, 0});
    }
  }
  w.whole = !leaves_batch_and_channel(w.size, w.stride, w.dilation, w.padding);
  return w;
}

const std::vector<std::string> kAllBorders = {"ignore", "constant", "replicate", "reflect", "reflect-even"};

// box, max_pool and avg_pool: every border (max_pool and avg_pool atomic, as AlexNet's 'ignore'
// needs: docs/nnef.md). A negative padding crops the input (argmax_pool, sample and desample, whose
// indices count window positions, keep refusing it).
Results pool(Composer& c, const std::string& name, Args& a, PoolOp op, const SourceLoc& loc) {
  Window w = window_of(c, name, a, c.info(a.at("input")).shape, kAllBorders, loc);
  if (w.padding.size() == c.info(w.x).shape.size()) {  // a negative item crops; the window is then re-judged (batch, channel)
    w.x = cropped_input(c, w.x, w.padding, 0, loc);
    w.whole = !leaves_batch_and_channel(w.size, w.stride, w.dilation, w.padding);
  }
  PoolAttrs p;
  p.op = op;
  p.border = w.border == "ignore" ? PoolBorder::Ignore : PoolBorder::Constant;
  w.set(p);
  return one(w.unviewed(c, c.add_node1(name, p, {w.viewed(c, w.x, loc)}, loc), loc));
}

// argmax_pool (§4.3.3): every border; the index counts row-major over the whole window: over the
// spatial axes alone (batch and channel extents 1) the same number, and with a window on batch or
// channel the IR op's over the [1, 1, x...] view, whose window is NNEF's.
Results argmax_pool(Composer& c, Args& a, const SourceLoc& loc) {
  const Window w = window_of(c, "argmax_pool", a, c.info(a.at("input")).shape, kAllBorders, loc);
  ArgmaxPoolAttrs p;
  p.border = w.border == "ignore" ? PoolBorder::Ignore : PoolBorder::Constant;
  w.set(p);
  return one(w.unviewed(c, c.add_node1("argmax_pool", p, {w.viewed(c, w.x, loc)}, loc), loc));
}

// sample (§4.3.3): every border but 'ignore' (so max_pool_with_index with 'ignore', through its
// body, is refused here: docs/nnef.md). The index is the output's shape.
Results sample(Composer& c, Args& a, const SourceLoc& loc) {
  const Window w = window_of(c, "sample", a, c.info(a.at("input")).shape, {"constant", "replicate", "reflect", "reflect-even"}, loc);
  SampleAttrs p;
  w.set(p);
  const Value y = c.add_node1("sample", p, {w.viewed(c, w.x, loc), w.viewed(c, a.at("index"), loc)}, loc);
  return one(w.unviewed(c, y, loc));
}

// desample (§4.3.3): border 'constant' only. An empty output_shape is the up-scaled extent deconv
// takes (the reference's): x·s under automatic padding, (x − 1)·s + (k − 1)·d + 1 − p − q with
// explicit padding; the IR op then checks that it down-scales to the input's.
Results desample(Composer& c, Args& a, const SourceLoc& loc) {
  const std::vector<int64_t> in = c.info(a.at("input")).shape;
  std::vector<int64_t> up = integers(a, "output_shape");
  if (!up.empty() && up.size() != in.size())
    c.fail("nnef.argument.value", "desample: output_shape has " + std::to_string(up.size()) + " entries for an input of rank " +
                                      std::to_string(in.size()), loc);
  const std::vector<int64_t> size = integers(a, "size"), stride = integers(a, "stride"), dilation = integers(a, "dilation");
  const auto padding = pairs(a, "padding");
  if (up.empty()) {
    const auto at = [](const std::vector<int64_t>& v, size_t i) { return v.empty() || i >= v.size() ? 1 : v[i]; };
    for (size_t i = 0; i < in.size(); ++i) {
      const int64_t s = at(stride, i), k = i < size.size() ? size[i] : 1;
      const int64_t before = i < padding.size() ? padding[i].first : 0, after = i < padding.size() ? padding[i].second : 0;
      if (std::abs(s) > kAttributeBound || std::abs(k) > kAttributeBound || std::abs(at(dilation, i)) > kAttributeBound ||
          std::abs(before) > kAttributeBound || std::abs(after) > kAttributeBound || in[i] > kAttributeBound)
        c.fail("nnef.argument.value", "desample: an extent, size, stride, dilation or padding beyond 2^31 in magnitude", loc);
      up.push_back(padding.empty() ? in[i] * s : (in[i] - 1) * s + (k - 1) * at(dilation, i) + 1 - before - after);
    }
  }
  const Window w = window_of(c, "desample", a, up, {"constant"}, loc);
  SampleAttrs p;
  p.op = SampleOp::Desample;
  w.set(p);
  p.output_shape = w.whole ? std::vector<int64_t>{1, 1} : std::vector<int64_t>{};
  p.output_shape.insert(p.output_shape.end(), up.begin(), up.end());
  const Value y = c.add_node1("desample", p, {w.viewed(c, w.x, loc), w.viewed(c, a.at("index"), loc)}, loc);
  return one(w.unviewed(c, y, loc));
}

// The bias of conv or linear: a parameter [C] when it is data (a variable or a literal), else
// an addition after the op (the NNEF formula, left-aligned as [1, C] is).
bool bias_is_data(Composer& c, const Value& bias) {
  const TensorInfo& t = c.info(bias);
  return !t.label.empty() || t.is_literal;
}
bool zero_literal(Composer& c, const Value& v) {
  const TensorInfo& t = c.info(v);
  return t.is_literal && t.data && t.data->tensor.values.size() == 1 && t.data->tensor.values[0] == 0.0;
}
// Adds conv or linear reading x, its filter f as the parameter "weight" and a data bias as the
// parameter "bias" [channels] (none for a literal 0); a computed bias is added after the op.
template <class A>
Value with_filter_and_bias(Composer& c, const std::string& op, A attrs, const Value& x, const Value& f,
                           const Value& bias, int64_t channels, const SourceLoc& loc) {
  attrs.has_bias = bias_is_data(c, bias) && !zero_literal(c, bias);
  Value y = c.add_node1(op, attrs, {x}, loc);
  c.bind_param(f, "weight", c.info(f).shape);  // looked up again: add_node grows the tensor table
  if (attrs.has_bias) c.bind_param(bias, "bias", {channels});
  if (!bias_is_data(c, bias))
    y = c.add_node1("add", BinaryAttrs{BinaryOp::Add, Broadcast::NnefLeft}, {y, bias}, loc);
  return y;
}

// conv (§4.3.1). The borders replicate, reflect and reflect-even extend the input by the spatial
// padding (automatic padding made explicit from the input's extents) with an IR pad, then the conv
// reads no padding: §4.3's ĩ, as box's. 'ignore' is not among conv's borders (§4.3.1).
Results conv(Composer& c, Args& a, const SourceLoc& loc) {
  Value x = a.at("input");
  const Value &f = a.at("filter"), &bias = a.at("bias");
  const TensorInfo& fi = c.info(f);
  if (fi.label.empty() && !fi.is_literal)
    c.fail("nnef.op-unsupported", "conv with a computed filter: nnref's conv takes its filter as data (a variable)", loc);
  const std::vector<int64_t> in = c.info(x).shape;  // a copy: add_node grows the tensor table
  if (fi.shape.size() != in.size() || in.size() < 3)
    c.fail("nnef.argument.value", "conv: the filter has rank " + std::to_string(fi.shape.size()) + " and the input " +
                                         std::to_string(in.size()) + ": they must be equal and at least 3", loc);
  ConvAttrs p;
  p.out_channels = fi.shape[0];
  p.kernel.assign(fi.shape.begin() + 2, fi.shape.end());
  p.stride = integers(a, "stride");
  p.dilation = integers(a, "dilation");
  auto padding = pairs(a, "padding");
  p.groups = integer(a, "groups");
  if (p.groups == 0) p.groups = in[1];  // §4.3.1: 0 means depth-wise, one group per input channel
  const std::string& border = text(a, "border");
  const std::optional<PadBorder> ext = extending_border(border);
  if (border != "constant" && !ext)
    c.fail("nnef.argument.value", "conv with border '" + border +
                                      "': conv's borders are 'constant', 'replicate', 'reflect' and 'reflect-even' (§4.3.1)", loc);
  const size_t sr = in.size() - 2;
  const auto per_axis = [&](size_t n) { return n == 0 || n == sr; };
  if (ext && per_axis(p.stride.size()) && per_axis(p.dilation.size()) && per_axis(padding.size())) {
    const std::vector<int64_t> spatial_in(in.begin() + 2, in.end());
    if (padding.empty()) padding = automatic_padding(spatial_in, p.kernel, p.stride, p.dilation).value_or(padding);
    if (!padding.empty()) {
      Padding every{{0, 0}, {0, 0}};
      every.insert(every.end(), padding.begin(), padding.end());
      x = extended_input(c, x, every, *ext, loc);
      padding.assign(sr, {0, 0});
    }
  }
  if (padding.size() == sr) x = cropped_input(c, x, padding, 2, loc);
  p.pad_mode = padding.empty() ? PadMode::SameUpper : PadMode::Explicit;
  p.padding = padding;
  return one(with_filter_and_bias(c, "conv", p, x, f, bias, p.out_channels, loc));
}

// deconv (§4.3.1): the IR deconv's padding (p, q) per spatial axis is the spec's, with q adjusted
// so that the output extent X = (x − 1)·s + fd − p − q is output_shape's when it is given, or x·s
// under automatic padding (the reference's choice; p = ⌊t/2⌋, t = max(fd − s, 0), as conv's
// automatic padding of X down to x). output_shape must down-scale to the input's extents.
// deconv's terms read ĩ[k], k = (i + p − j·d)/s, over i ∈ [0, X), j ∈ [0, f): from
// k = −⌊(fd − 1 − p)/s⌋ to x − 1 + ⌊(fd − 1 − q)/s⌋ (with X = (x − 1)·s + fd − p − q). With a
// border that reads the input, x is extended by a = max(⌊(fd − 1 − p)/s⌋, 0) before and
// b = max(⌊(fd − 1 − q)/s⌋, 0) after (an IR pad), and the deconv's padding grows by a·s and b·s: the
// same output extent, every term of §4.3.1's formula now reading ĩ inside the padded input.
Value extended_deconv_input(Composer& c, const Value& x, DeconvAttrs& p, PadBorder border, const SourceLoc& loc) {
  Padding every{{0, 0}, {0, 0}};
  for (size_t i = 0; i < p.kernel.size(); ++i) {
    const int64_t s = p.stride.empty() ? 1 : p.stride[i], d = p.dilation.empty() ? 1 : p.dilation[i];
    const int64_t fd = (p.kernel[i] - 1) * d + 1;
    auto& [before, after] = p.padding[i];
    // C++ division truncates toward 0, which is ⌊·⌋ for the non-negative numerators that count.
    const int64_t a = std::max<int64_t>((fd - 1 - before) / s, 0), b = std::max<int64_t>((fd - 1 - after) / s, 0);
    every.emplace_back(a, b);
    before += a * s;
    after += b * s;
  }
  return extended_input(c, x, every, border, loc);
}

Results deconv(Composer& c, Args& a, const SourceLoc& loc) {
  Value x = a.at("input");
  const Value &f = a.at("filter"), &bias = a.at("bias");
  const TensorInfo& fi = c.info(f);
  if (fi.label.empty() && !fi.is_literal)
    c.fail("nnef.op-unsupported", "deconv with a computed filter: nnref's deconv takes its filter as data (a variable)", loc);
  const std::vector<int64_t> in = c.info(x).shape, filter = fi.shape;  // copies: add_node grows the tensor table
  if (filter.size() != in.size() || in.size() < 3)
    c.fail("nnef.argument.value", "deconv: the filter has rank " + std::to_string(filter.size()) + " and the input " +
                                      std::to_string(in.size()) + ": they must be equal and at least 3", loc);
  const size_t sr = in.size() - 2;
  const std::vector<int64_t> output_shape = integers(a, "output_shape");
  if (!output_shape.empty() && output_shape.size() != in.size())
    c.fail("nnef.argument.value", "deconv: output_shape has " + std::to_string(output_shape.size()) +
                                      " entries for an input of rank " + std::to_string(in.size()), loc);
  DeconvAttrs p;
  p.kernel.assign(filter.begin() + 2, filter.end());
  p.stride = integers(a, "stride");
  p.dilation = integers(a, "dilation");
  const auto padding = pairs(a, "padding");
  p.groups = integer(a, "groups");
  if (p.groups == 0) p.groups = output_shape.empty() ? in[1] : output_shape[1];  // §4.3.1: depth-wise
  if (p.groups < 1 || filter[0] % p.groups != 0)
    c.fail("nnef.argument.value", "deconv: groups " + std::to_string(p.groups) + " must be positive and divide the "
                                      "filter's first extent " + std::to_string(filter[0]), loc);
  p.out_channels = filter[1] * p.groups;
  const std::string& border = text(a, "border");
  const std::optional<PadBorder> ext = extending_border(border);
  if (border != "constant" && !ext)
    c.fail("nnef.argument.value", "deconv with border '" + border +
                                      "': deconv's borders are 'constant', 'replicate', 'reflect' and 'reflect-even' (§4.3.1)", loc);
  // Attributes the rule refuses (lengths, non-positive values) reach it as written; those beyond
  // 2^31 are refused here, so that the arithmetic below cannot overflow.
  const auto shaped = [&](const std::vector<int64_t>& v) { return v.empty() || v.size() == sr; };
  bool in_range = true, positive = true;
  for (const std::vector<int64_t>* v : {&std::as_const(p.kernel), &std::as_const(p.stride), &std::as_const(p.dilation), &output_shape})
    for (int64_t e : *v) in_range = in_range && std::abs(e) <= kAttributeBound;
  for (const std::vector<int64_t>* v : {&p.kernel, &p.stride, &p.dilation})
    for (int64_t e : *v) positive = positive && e >= 1;
  for (const auto& [b, e] : padding) in_range = in_range && std::abs(b) <= kAttributeBound && std::abs(e) <= kAttributeBound;
  if (!in_range)
    c.fail("nnef.argument.value", "deconv: an extent, stride, dilation or padding beyond 2^31 in magnitude", loc);
  if (!shaped(p.stride) || !shaped(p.dilation) || !(padding.empty() || padding.size() == sr) || !positive) {
    p.padding = padding;
    return one(c.add_node1("deconv", p, {x}, loc));  // the rule names the attribute at fault
  }
  if (!output_shape.empty() && (output_shape[0] != in[0] || output_shape[1] != p.out_channels))
    c.fail("nnef.argument.value", "deconv: output_shape must have the input's batch " + std::to_string(in[0]) +
                                      " and the filter's output channels " + std::to_string(p.out_channels) + ", not " +
                                      std::to_string(output_shape[0]) + " and " + std::to_string(output_shape[1]), loc);
  for (size_t i = 0; i < sr; ++i) {
    const int64_t k = p.kernel[i], s = p.stride.empty() ? 1 : p.stride[i], d = p.dilation.empty() ? 1 : p.dilation[i];
    const int64_t fd = (k - 1) * d + 1, xi = in[2 + i];
    const int64_t up = output_shape.empty() ? (padding.empty() ? xi * s : (xi - 1) * s + fd - padding[i].first - padding[i].second)
                                            : output_shape[2 + i];
    int64_t before = 0;
    if (padding.empty()) {
      before = std::max<int64_t>((xi - 1) * s + fd - up, 0) / 2;
      if ((up + s - 1) / s != xi)
        c.fail("nnef.argument.value", "deconv: output_shape extent " + std::to_string(up) + " of spatial axis " +
                                          std::to_string(i) + " down-scales to " + std::to_string((up + s - 1) / s) +
                                          " with automatic padding, not the input's " + std::to_string(xi), loc);
    } else {
      before = padding[i].first;
      const int64_t num = before + up + padding[i].second - fd;
      if (num < 0 || num / s + 1 != xi)
        c.fail("nnef.argument.value", "deconv: output_shape extent " + std::to_string(up) + " of spatial axis " +
                                          std::to_string(i) + " does not down-scale to the input's " + std::to_string(xi) +
                                          " with padding (" + std::to_string(before) + ", " +
                                          std::to_string(padding[i].second) + ")", loc);
    }
    p.padding.emplace_back(before, (xi - 1) * s + fd - before - up);
  }
  if (ext) x = extended_deconv_input(c, x, p, *ext, loc);
  return one(with_filter_and_bias(c, "deconv", p, x, f, bias, p.out_channels, loc));
}

Results linear(Composer& c, Args& a, const SourceLoc& loc) {
  const Value &x = a.at("input"), &f = a.at("filter"), &bias = a.at("bias");
  const TensorInfo& fi = c.info(f);
  if ((fi.label.empty() && !fi.is_literal) || fi.shape.size() != 2 || c.info(x).shape.size() != 2) return std::nullopt;
  LinearAttrs p;
  p.units = fi.shape[0];
  p.layout = WeightLayout::OutIn;
  return one(with_filter_and_bias(c, "linear", p, x, f, bias, p.units, loc));
}

Results batch_norm(Composer& c, Args& a, const SourceLoc& loc) {
  const Value& x = a.at("input");
  const std::vector<int64_t> in = c.info(x).shape;  // a copy: add_node grows the tensor table
  if (in.size() < 2) return std::nullopt;
  for (const char* role : {"mean", "variance", "offset", "scale"})
    if (!bias_is_data(c, a.at(role))) return std::nullopt;  // computed statistics: expanded from the body
  BatchNormAttrs p;
  p.epsilon = scalar(a, "epsilon");
  p.channel_axis = 1;
  Value y = c.add_node1("batch_normalization", p, {x}, loc);
  for (const char* role : {"mean", "variance", "scale", "offset"}) c.bind_param(a.at(role), role, {in[1]});
  return one(y);
}

Results reshape(Composer& c, Args& a, const SourceLoc& loc) {
  const Value& x = a.at("input");
  const std::vector<int64_t>& in = c.info(x).shape;
  const int64_t rank = static_cast<int64_t>(in.size());
  const std::vector<int64_t> shape = integers(a, "shape");
  const int64_t start = integer(a, "axis_start");
  int64_t count = integer(a, "axis_count");
  if (count == -1) count = rank - start;
  if (start < 0 || count < 0 || start + count > rank)
    c.fail("nnef.argument.value", "reshape: axis_start " + std::to_string(start) + " and axis_count " +
                                          std::to_string(integer(a, "axis_count")) + " leave the input's rank " +
                                          std::to_string(rank), loc);
  // IR reshape: 0 copies the input extent at the same position. Before axis_start positions agree;
  // within [axis_start, axis_start + count) NNEF's 0 copies the same position too; after it they agree
  // only when the count of axes is unchanged, otherwise the extents at the declared sizes are used.
  std::vector<int64_t> dims(static_cast<size_t>(start), 0);
  dims.insert(dims.end(), shape.begin(), shape.end());
  const bool aligned = static_cast<int64_t>(shape.size()) == count;
  for (int64_t k = start + count; k < rank; ++k) dims.push_back(aligned ? 0 : in[static_cast<size_t>(k)]);
  return one(c.add_node1("reshape", ReshapeAttrs{dims, c.info(x).kind}, {x}, loc));
}

// copy<?> (§4.2.1): IR unary copy of a real tensor; an integer or logical one is an IR reshape that
// keeps every extent (a view: the same elements, of any kind).
Value copy_of(Composer& c, const Value& x, const SourceLoc& loc) {
  const TensorInfo& t = c.info(x);
  if (t.kind == ElemKind::Real) return c.add_node1("copy", UnaryAttrs{UnaryOp::Copy}, {x}, loc);
  return c.add_node1("copy", ReshapeAttrs{std::vector<int64_t>(t.shape.size(), 0), t.kind}, {x}, loc);
}

Results transpose(Composer& c, Args& a, const SourceLoc& loc) {
  const Value& x = a.at("input");
  std::vector<int64_t> perm = integers(a, "axes");
  for (int64_t k = static_cast<int64_t>(perm.size()); k < static_cast<int64_t>(c.info(x).shape.size()); ++k) perm.push_back(k);
  return one(c.add_node1("transpose", TransposeAttrs{perm, c.info(x).kind}, {x}, loc));
}

Results stack(Composer& c, Args& a, const SourceLoc& loc) {
  const int64_t axis = integer(a, "axis");
  std::vector<Value> parts;
  for (const Value& v : a.at("values").items)
    parts.push_back(c.add_node1("unsqueeze", UnsqueezeAttrs{{axis}, c.info(v).kind}, {v}, loc));
  if (parts.empty()) c.fail("nnef.argument.value", "stack of no tensors", loc);
  return one(c.add_node1("stack", ConcatAttrs{axis, 0, c.info(parts[0]).kind}, parts, loc));
}

Results unstack(Composer& c, Args& a, const SourceLoc& loc) {
  const Value& x = a.at("value");
  const int64_t axis = integer(a, "axis");
  const std::vector<int64_t>& in = c.info(x).shape;
  if (axis < 0 || axis >= static_cast<int64_t>(in.size()))
    c.fail("nnef.argument.value", "unstack: axis " + std::to_string(axis) + " of a rank-" + std::to_string(in.size()) +
                                          " tensor", loc);
  const std::vector<Value> parts =
      c.add_node("unstack", SplitAttrs{axis, std::vector<int64_t>(static_cast<size_t>(in[static_cast<size_t>(axis)]), 1), c.info(x).kind},
                 {x}, loc);
  std::vector<Value> out;
  for (const Value& p : parts) out.push_back(c.add_node1("squeeze", SqueezeAttrs{{axis}, c.info(p).kind}, {p}, loc));
  return one(Value::array(std::move(out)));
}

// tile: each axis with r repeats is r copies of the tensor concatenated along it.
Results tile(Composer& c, Args& a, const SourceLoc& loc) {
  Value x = a.at("input");
  const std::vector<int64_t> repeats = integers(a, "repeats");
  if (repeats.size() != c.info(x).shape.size())
    c.fail("nnef.argument.value", "tile: " + std::to_string(repeats.size()) + " repeats for a rank-" +
                                    std::to_string(c.info(x).shape.size()) + " tensor", loc);
  for (size_t k = 0; k < repeats.size(); ++k) {
    if (repeats[k] < 1 || repeats[k] > 4096)
      c.fail("nnef.argument.value", "tile: repeats " + std::to_string(repeats[k]) + " on axis " + std::to_string(k) +
                                      " (1 to 4096)", loc);
    if (repeats[k] > 1)
      x = c.add_node1("tile", ConcatAttrs{static_cast<int64_t>(k), 0, c.info(x).kind},
                      std::vector<Value>(static_cast<size_t>(repeats[k]), x), loc);
  }
  return one(copy_of(c, x, loc));
}

Results slice(Composer& c, Args& a, const SourceLoc& loc) {
  const Value& x = a.at("input");
  return one(c.add_node1("slice", SliceAttrs{integers(a, "axes"), integers(a, "begin"), integers(a, "end"), integers(a, "stride"),
                                             c.info(x).kind},
                         {x}, loc));
}

Results pad(Composer& c, Args& a, const SourceLoc& loc) {
  const std::string& border = text(a, "border");
  PadAttrs p;
  p.padding = pairs(a, "padding");
  p.value = scalar(a, "value");
  if (border == "constant") p.border = PadBorder::Constant;
  else if (border == "reflect") p.border = PadBorder::Reflect;
  else if (border == "replicate") p.border = PadBorder::Replicate;
  else if (border == "reflect-even") p.border = PadBorder::ReflectEven;
  else c.fail("nnef.argument.value", "pad with border '" + border + "': pad takes 'constant', 'reflect', 'reflect-even' and 'replicate'", loc);
  return one(c.add_node1("pad", p, {a.at("input")}, loc));
}

// box sums its window; normalized, it is the average pool (§4.3.2).
Results box(Composer& c, Args& a, const SourceLoc& loc) {
  return pool(c, "box", a, logical(a, "normalize") ? PoolOp::Avg : PoolOp::Sum, loc);
}

}  // namespace

const std::map<std::string, CompareOp>& compare_ops() {
  static const std::map<std::string, CompareOp> ops = {{"lt", CompareOp::Lt}, {"gt", CompareOp::Gt},
                                                        {"le", CompareOp::Le}, {"ge", CompareOp::Ge},
                                                        {"eq", CompareOp::Eq}, {"ne", CompareOp::Ne}};
  return ops;
}
const std::map<std::string, LogicalOp>& logical_ops() {
  static const std::map<std::string, LogicalOp> ops = {{"not", LogicalOp::Not}, {"and", LogicalOp::And}, {"or", LogicalOp::Or}};
  return ops;
}

const std::map<std::string, UnaryOp>& unary_ops() {
  static const std::map<std::string, UnaryOp> ops = {
      {"copy", UnaryOp::Copy},   {"neg", UnaryOp::Neg},         {"rcp", UnaryOp::Rcp},       {"exp", UnaryOp::Exp},
      {"log", UnaryOp::Log},     {"sin", UnaryOp::Sin},         {"cos", UnaryOp::Cos},       {"tan", UnaryOp::Tan},
      {"sinh", UnaryOp::Sinh},   {"cosh", UnaryOp::Cosh},       {"tanh", UnaryOp::Tanh},     {"asin", UnaryOp::Asin},
      {"acos", UnaryOp::Acos},   {"atan", UnaryOp::Atan},       {"asinh", UnaryOp::Asinh},   {"acosh", UnaryOp::Acosh},
      {"atanh", UnaryOp::Atanh}, {"abs", UnaryOp::Abs},         {"sign", UnaryOp::Sign},     {"floor", UnaryOp::Floor},
      {"ceil", UnaryOp::Ceil},   {"round", UnaryOp::Round},     {"sqr", UnaryOp::Sqr},       {"sqrt", UnaryOp::Sqrt},
      {"rsqr", UnaryOp::Rsqr},   {"rsqrt", UnaryOp::Rsqrt},     {"log2", UnaryOp::Log2},     {"relu", UnaryOp::Relu},
      {"sigmoid", UnaryOp::Sigmoid}, {"softplus", UnaryOp::Softplus}};
  return ops;
}
const std::map<std::string, BinaryOp>& binary_ops() {
  static const std::map<std::string, BinaryOp> ops = {{"add", BinaryOp::Add}, {"sub", BinaryOp::Sub},
                                                       {"mul", BinaryOp::Mul}, {"div", BinaryOp::Div},
                                                       {"pow", BinaryOp::Pow}, {"min", BinaryOp::Min},
                                                       {"max", BinaryOp::Max}};
  return ops;
}

std::optional<std::vector<Value>> lower_standard(Composer& c, const std::string& name, Args& a, const SourceLoc& loc) {
  if (name == "copy") return one(copy_of(c, a.begin()->second, loc));
  if (const auto u = unary_ops().find(name); u != unary_ops().end())
    return one(c.add_node1(name, UnaryAttrs{u->second}, {a.begin()->second}, loc));
  if (const auto b = binary_ops().find(name); b != binary_ops().end()) {
    const char* lhs = a.count("x") ? "x" : "A";
    return one(c.add_node1(name, BinaryAttrs{b->second, Broadcast::NnefLeft}, {a.at(lhs), a.at("y")}, loc));
  }
  if (const auto k = compare_ops().find(name); k != compare_ops().end())
    return one(c.add_node1(name, CompareAttrs{k->second, Broadcast::NnefLeft}, {a.at("x"), a.at("y")}, loc));
  if (const auto l = logical_ops().find(name); l != logical_ops().end()) {
    std::vector<Value> operands{a.at("x")};
    if (l->second != LogicalOp::Not) operands.push_back(a.at("y"));
    return one(c.add_node1(name, LogicalAttrs{l->second, Broadcast::NnefLeft}, operands, loc));
  }
  if (name == "elu" || name == "leaky_relu")
    return one(c.add_node1(name, UnaryAttrs{name == "elu" ? UnaryOp::Elu : UnaryOp::LeakyRelu, scalar(a, "alpha")},
                           {a.at("x")}, loc));
  if (name == "prelu") return one(c.add_node1(name, PreluAttrs{Broadcast::NnefLeft}, {a.at("x"), a.at("alpha")}, loc));
  if (name == "clamp") return one(c.add_node1(name, ClampAttrs{Broadcast::NnefLeft}, {a.at("x"), a.at("a"), a.at("b")}, loc));
  if (name == "select")
    return one(c.add_node1(name, SelectAttrs{Broadcast::NnefLeft, c.info(a.at("true_value")).kind},
                           {a.at("condition"), a.at("true_value"), a.at("false_value")}, loc));
  if (name == "add_n") {
    const std::vector<Value>& xs = a.at("x").items;
    if (xs.size() < 2) return std::nullopt;  // the body: x[0] + 0.0, or 0.0
    return one(c.add_node1(name, AddNAttrs{0}, xs, loc));
  }
  if (name == "conv") return conv(c, a, loc);
  if (name == "deconv") return deconv(c, a, loc);
  if (name == "linear") return linear(c, a, loc);
  if (name == "batch_normalization") return batch_norm(c, a, loc);
  if (name == "max_pool") return pool(c, name, a, PoolOp::Max, loc);
  if (name == "avg_pool") return pool(c, name, a, PoolOp::Avg, loc);
  if (name == "box") return box(c, a, loc);
  if (name == "argmax_pool") return argmax_pool(c, a, loc);
  if (name == "sample") return sample(c, a, loc);
  if (name == "desample") return desample(c, a, loc);
  if (name == "debox") return lower_debox(c, a, loc);
  if (name == "multilinear_upsample") return lower_multilinear_upsample(c, a, loc);
  if (name == "matmul")
    return one(c.add_node1(name, MatMulAttrs{logical(a, "transposeA"), logical(a, "transposeB")}, {a.at("A"), a.at("B")}, loc));
  if (name == "softmax") return one(c.add_node1(name, SoftmaxAttrs{integers(a, "axes"), 0}, {a.at("x")}, loc));
  if (name == "sum_reduce" || name == "mean_reduce" || name == "max_reduce" || name == "min_reduce") {
    ReduceOp op = name == "max_reduce" ? ReduceOp::Max : name == "min_reduce" ? ReduceOp::Min : ReduceOp::Mean;
    if (name == "sum_reduce" && !logical(a, "normalize")) op = ReduceOp::Sum;
    return one(c.add_node1(name, ReduceAttrs{op, integers(a, "axes"), true}, {a.at("input")}, loc));
  }
  if (name == "argmax_reduce" || name == "argmin_reduce")
    return one(c.add_node1(name, ArgReduceAttrs{name == "argmax_reduce" ? ArgReduceOp::Max : ArgReduceOp::Min, integers(a, "axes")},
                           {a.at("input")}, loc));
  if (name == "all_reduce" || name == "any_reduce")
    return one(c.add_node1(name, LogicalReduceAttrs{name == "all_reduce" ? LogicalReduceOp::All : LogicalReduceOp::Any,
                                                    integers(a, "axes")},
                           {a.at("input")}, loc));
  if (name == "gather") {
    if (integer(a, "axis") < 0) c.fail("nnef.argument.value", "gather: axis " + std::to_string(integer(a, "axis")) + " is negative", loc);
    return one(c.add_node1(name, GatherAttrs{integer(a, "axis")}, {a.at("input"), a.at("indices")}, loc));
  }
  if (name == "cast") {
    const std::optional<ElemKind> to = c.generic_kind();
    if (!to) c.fail("nnef.type.mismatch", "cast<string> has no tensor result", loc);
    return one(c.add_node1(name, CastAttrs{c.info(a.at("input")).kind, *to}, {a.at("input")}, loc));
  }
  if (name == "reshape") return reshape(c, a, loc);
  if (name == "squeeze")
    return one(c.add_node1(name, SqueezeAttrs{integers(a, "axes"), c.info(a.at("input")).kind}, {a.at("input")}, loc));
  if (name == "unsqueeze")
    return one(c.add_node1(name, UnsqueezeAttrs{integers(a, "axes"), c.info(a.at("input")).kind}, {a.at("input")}, loc));
  if (name == "transpose") return transpose(c, a, loc);
  if (name == "split") {
    const Value& x = a.at("value");
    std::vector<Value> parts = c.add_node(name, SplitAttrs{integer(a, "axis"), integers(a, "ratios"), c.info(x).kind}, {x}, loc);
    return one(Value::array(std::move(parts)));
  }
  if (name == "concat") {
    if (a.at("values").items.empty()) c.fail("nnef.argument.value", "concat of no tensors", loc);
    return one(c.add_node1(name, ConcatAttrs{integer(a, "axis"), 0, c.info(a.at("values").items[0]).kind}, a.at("values").items, loc));
  }
  if (name == "stack") return stack(c, a, loc);
  if (name == "unstack") return unstack(c, a, loc);
  if (name == "tile") return tile(c, a, loc);
  if (name == "slice") return slice(c, a, loc);
  if (name == "pad") return pad(c, a, loc);
  return lower_roi(c, name, a, loc);
}

}  // namespace nnref::nnef
