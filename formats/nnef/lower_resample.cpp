// debox and multilinear_upsample as IR deconvs whose filters are constants of the NNEF graph
// ('aligned' as gathers with constant indices and weights).
//
// debox (§4.3.2): output[i] = Σ_{j<f, (i + p − j·d) mod s = 0} ĩ[(i + p − j·d)/s] on every axis is
// the NNEF deconv's formula (lower_ops.cpp, every border) with weights all 1 (each term ĩ·1, the
// same real number), over the input viewed as [1, 1, x...] so that every axis is spatial, as box's
// window (docs/ops/pool.md); normalize divides by the kernel volume Π size afterwards ('ignore':
// by the positions that take part, below).
//
// multilinear_upsample (§4.3.4), methods 'symmetric' and 'asymmetric': per spatial axis of factor
// f, output i interpolates at v = (i − c)/f (c = (f − 1)/2 symmetric, 0 asymmetric): (1 − u)·ĩ[j] +
// u·ĩ[j + 1], j = ⌊v⌋, u = v − j, so input k weighs max(1 − |v − k|, 0) = W[t]/(2f) with
// t = i + p − k·f, W[t] = max(2f − |2t − 2p − 2c|, 0) an integer, over t ∈ [0, 2f) when p = ⌊f/2⌋
// (symmetric) or f − 1 (asymmetric). That is a deconv of stride f with the integer filter W (the
// outer product over the axes), each channel on its own (the input viewed as [N·C, 1, spatial...],
// so the filter is one channel's), followed by one division by Π 2f: the spec's real number in
// every interpretation, no weight rounded. Its output extent x·f fixes the padding after,
// q = 2f − f − p. ĩ is zero outside the input ('constant', the deconv's own border); 'replicate',
// 'reflect' and 'reflect-even' pad the input by one element on each spatial side first (the
// terms reach j = −1 and j + 1 = x at most), shifting p by f.
#include "formats/nnef/lower_resample.hpp"

#include <algorithm>

#include <cstdlib>
#include <string>
#include <utility>

#include "formats/nnef/lower_args.hpp"
#include "formats/nnef/lower_border.hpp"

namespace nnref::nnef {

namespace {

using namespace args;

Value integer_array(const std::vector<int64_t>& v) {
  std::vector<Value> items;
  for (int64_t e : v) items.push_back(Value::integer(e));
  return Value::array(std::move(items));
}
Value pair_array(const std::vector<std::pair<int64_t, int64_t>>& v) {
  std::vector<Value> items;
  for (const auto& [b, e] : v) items.push_back(Value::tuple({Value::integer(b), Value::integer(e)}));
  return Value::array(std::move(items));
}
std::vector<int64_t> with_leading(std::vector<int64_t> v, int64_t a, int64_t b) {
  v.insert(v.begin(), {a, b});
  return v;
}

Value divided(Composer& c, const Value& y, double divisor, const SourceLoc& loc) {
  return c.add_node1("div", BinaryAttrs{BinaryOp::Div, Broadcast::NnefLeft},
                     {y, c.literal_tensor(Real(divisor), ElemKind::Real, loc)}, loc);
}

// debox with border 'ignore' normalized divides each output position by the kernel positions that
// take part: the volume Π f less the terms that would read the border (§4.3: 'ignore' leaves the
// border out of the average, as box's divisor counts the real elements). Along one axis of output
// position i, `all[i]` counts the j < f whose term exists ((i + p − j·d) mod s = 0) and `real[i]`
// those of them that read an input element (0 ≤ (i + p − j·d)/s < x). A term exists, or reads a
// real element, when it does along every axis, so the divisor is Π f − Π all + Π real.
struct TermCounts {
  std::vector<double> all, real;
};
TermCounts term_counts(int64_t x, int64_t up, int64_t f, int64_t p, int64_t s, int64_t d) {
  TermCounts t;
  for (int64_t i = 0; i < up; ++i) {
    int64_t all = 0, real = 0;
    for (int64_t j = 0; j < f; ++j) {
      const int64_t v = i + p - j * d;
      if (((v % s) + s) % s != 0) continue;
      ++all;
      real += v >= 0 && v / s < x;
    }
    t.all.push_back(static_cast<double>(all));
    t.real.push_back(static_cast<double>(real));
  }
  return t;
}

// y / (Π f − Π all + Π real), the products built in the graph from one vector per axis (shaped
// [1, ..., 1, X] so that left-aligned broadcasting puts it on its axis), or y / Π f when no term
// reads the border. The vectors fix the extents (nnef.extents.fixed).
Value divided_by_considered(Composer& c, const Value& y, const std::vector<TermCounts>& axes, double volume,
                            const SourceLoc& loc) {
  bool border = false;
  for (const TermCounts& t : axes) border = border || t.all != t.real;
  if (!border) return divided(c, y, volume, loc);
  c.fix_extents("debox with border 'ignore' normalized", loc);
  const BinaryAttrs mul{BinaryOp::Mul, Broadcast::NnefLeft};
  const auto product = [&](std::vector<double> TermCounts::*counts) {
    Value out;
    for (size_t k = 0; k < axes.size(); ++k) {
      std::vector<int64_t> shape(k, 1);
      shape.push_back(static_cast<int64_t>((axes[k].*counts).size()));
      const Value v = c.literal_tensor(axes[k].*counts, shape, loc);
      out = k == 0 ? v : c.add_node1("mul", mul, {out, v}, loc);
    }
    return out;
  };
  const Value all = product(&TermCounts::all), real = product(&TermCounts::real);
  const Value rest = c.add_node1("sub", BinaryAttrs{BinaryOp::Sub, Broadcast::NnefLeft},
                                 {c.literal_tensor(Real(volume), ElemKind::Real, loc), all}, loc);
  const Value divisor = c.add_node1("add", BinaryAttrs{BinaryOp::Add, Broadcast::NnefLeft}, {rest, real}, loc);
  return c.add_node1("div", BinaryAttrs{BinaryOp::Div, Broadcast::NnefLeft}, {y, divisor}, loc);
}

// Filters beyond this many elements are refused (before any is built): the constant filters stay
// small, and their integer weights and divisors exact.
constexpr double kFilterBound = 1 << 20;

// multilinear_upsample 'aligned' (§4.3.4): along a spatial axis of extent x ≥ 2 and factor f,
// output i interpolates at v = i/g, g = (x·f − 1)/(x − 1): with D = x·f − 1 and i·(x − 1) = j·D + r
// (0 ≤ r < D), j = ⌊v⌋ and u = r/D, so output i is ((D − r)·ĩ[j] + r·ĩ[j + 1])/D. Each axis is an IR
// pad of one element after (ĩ[x], read with weight 0 by the last output only), two gathers of the
// constant indices j and j + 1, the products by the integer weights D − r and r, and their sum;
// one division by Π D at the end: the spec's real number, no weight rounded. The indices and
// weights depend on x, so they fix the extents (nnef.extents.fixed).
Value upsampled_aligned(Composer& c, Value x, const std::vector<int64_t>& factor, PadBorder border, const SourceLoc& loc) {
  const std::vector<int64_t> in = c.info(x).shape;
  c.fix_extents("multilinear_upsample with method 'aligned'", loc);
  const BinaryAttrs mul{BinaryOp::Mul, Broadcast::NnefLeft};
  double divisor = 1;
  for (size_t k = 0; k < factor.size(); ++k) {
    const int64_t axis = static_cast<int64_t>(k) + 2, extent = in[k + 2], f = factor[k];
    if (extent < 2)
      c.fail("nnef.argument.value", "multilinear_upsample with method 'aligned' on spatial axis " + std::to_string(k) +
                                        " of extent 1: g = (x·f − 1)/(x − 1) divides by zero", loc);
    const int64_t d = extent * f - 1;
    std::vector<double> low, high, w_low, w_high;
    for (int64_t i = 0; i <= d; ++i) {
      const int64_t n = i * (extent - 1), j = n / d, r = n % d;
      low.push_back(static_cast<double>(j));
      high.push_back(static_cast<double>(j + 1));
      w_low.push_back(static_cast<double>(d - r));
      w_high.push_back(static_cast<double>(r));
    }
    Padding edge(in.size(), {0, 0});
    edge[static_cast<size_t>(axis)] = {0, 1};
    x = c.add_node1("pad", PadAttrs{edge, border, 0.0}, {x}, loc);
    const std::vector<int64_t> count{d + 1};
    std::vector<int64_t> on_axis(static_cast<size_t>(axis), 1);
    on_axis.push_back(d + 1);
    const auto term = [&](const std::vector<double>& index, const std::vector<double>& weight) {
      const Value g = c.add_node1("gather", GatherAttrs{axis}, {x, c.literal_tensor(index, count, loc, ElemKind::Integer)}, loc);
      return c.add_node1("mul", mul, {g, c.literal_tensor(weight, on_axis, loc)}, loc);
    };
    const Value lo = term(low, w_low), hi = term(high, w_high);
    x = c.add_node1("add", BinaryAttrs{BinaryOp::Add, Broadcast::NnefLeft}, {lo, hi}, loc);
    divisor *= static_cast<double>(d);
  }
  return divided(c, x, divisor, loc);
}

}  // namespace

std::optional<std::vector<Value>> lower_debox(Composer& c, Args& a, const SourceLoc& loc) {
  const Value x = a.at("input");
  const std::vector<int64_t> in = c.info(x).shape;  // a copy: add_node grows the tensor table
  const size_t rank = in.size();
  const std::vector<int64_t> size = integers(a, "size"), output_shape = integers(a, "output_shape");
  const auto per_axis = [&](size_t n, const char* what, bool may_be_empty) {
    if (n != rank && !(may_be_empty && n == 0))
      c.fail("nnef.argument.value", std::string("debox: ") + what + " has " + std::to_string(n) +
                                        " entries for an input of rank " + std::to_string(rank), loc);
  };
  per_axis(size.size(), "size", false);
  per_axis(a.at("stride").items.size(), "stride", true);
  per_axis(a.at("dilation").items.size(), "dilation", true);
  per_axis(a.at("padding").items.size(), "padding", true);
  per_axis(output_shape.size(), "output_shape", true);
  double volume = 1;
  for (int64_t k : size) {
    if (k < 1) c.fail("nnef.argument.value", "debox: size " + std::to_string(k) + " is not positive", loc);
    volume *= static_cast<double>(k);
  }
  if (volume > kFilterBound)
    c.fail("nnef.argument.value", "debox: a window of more than 2^20 positions", loc);
  const std::string& border = a.at("border").s;
  const bool normalize = a.at("normalize").b, ignore = border == "ignore";
  if (border != "constant" && !ignore && !extending_border(border))
    c.fail("nnef.argument.value", "debox: border '" + border +
                                      "' (one of 'ignore', 'constant', 'replicate', 'reflect', 'reflect-even')", loc);
  const Value ones = c.literal_tensor(std::vector<double>(static_cast<size_t>(volume), 1.0), with_leading(size, 1, 1), loc);
  const Value whole = c.add_node1("unsqueeze", UnsqueezeAttrs{{0, 1}}, {x}, loc);
  Args d{{"input", whole},
         {"filter", ones},
         {"border", Value::string(ignore ? "constant" : border)},
         {"padding", a.at("padding")},
         {"stride", a.at("stride")},
         {"dilation", a.at("dilation")},
         {"output_shape", integer_array(output_shape.empty() ? output_shape : with_leading(output_shape, 1, 1))},
         {"groups", Value::integer(1)}};
  Value y = c.add_node1("squeeze", SqueezeAttrs{{0, 1}}, {c.apply("deconv", std::move(d), loc)[0]}, loc);
  if (!normalize) return std::vector<Value>{y};
  if (!ignore) return std::vector<Value>{divided(c, y, volume, loc)};
  const std::vector<int64_t> up = c.info(y).shape;
  std::vector<TermCounts> axes;
  const std::vector<int64_t> stride = integers(a, "stride"), dilation = integers(a, "dilation");
  const auto padding = a.at("padding").items;
  for (size_t i = 0; i < rank; ++i) {
    const int64_t s = stride.empty() ? 1 : stride[i], dl = dilation.empty() ? 1 : dilation[i];
    const int64_t fd = (size[i] - 1) * dl + 1;
    const int64_t p = padding.empty() ? std::max<int64_t>((in[i] - 1) * s + fd - up[i], 0) / 2 : padding[i].items[0].i;
    axes.push_back(term_counts(in[i], up[i], size[i], p, s, dl));
  }
  return std::vector<Value>{divided_by_considered(c, y, axes, volume, loc)};
}

std::optional<std::vector<Value>> lower_multilinear_upsample(Composer& c, Args& a, const SourceLoc& loc) {
  Value x = a.at("input");
  const std::vector<int64_t> in = c.info(x).shape;
  const std::vector<int64_t> factor = integers(a, "factor");
  const std::string &method = a.at("method").s, &border = a.at("border").s;
  if (in.size() < 3 || factor.size() + 2 != in.size())
    c.fail("nnef.argument.value", "multilinear_upsample: " + std::to_string(factor.size()) +
                                      " factors for an input of rank " + std::to_string(in.size()) +
                                      " (one per spatial axis, at least one)", loc);
  double divisor = 1;  // Π 2f, the filter's volume
  for (int64_t f : factor) {
    if (f < 1) c.fail("nnef.argument.value", "multilinear_upsample: factor " + std::to_string(f) + " is not positive", loc);
    divisor *= 2 * static_cast<double>(f);
  }
  if (divisor > kFilterBound)
    c.fail("nnef.argument.value", "multilinear_upsample: factors whose filter Π 2f exceeds 2^20 elements", loc);
  if (method != "symmetric" && method != "asymmetric" && method != "aligned")
    c.fail("nnef.argument.value", "multilinear_upsample: method '" + method +
                                      "' (one of 'symmetric', 'asymmetric', 'aligned')", loc);
  const std::optional<PadBorder> ext = extending_border(border);
  if (border != "constant" && !ext)
    c.fail("nnef.argument.value", "multilinear_upsample: border '" + border +
                                      "' (one of 'constant', 'replicate', 'reflect', 'reflect-even')", loc);
  if (method == "aligned") return std::vector<Value>{upsampled_aligned(c, x, factor, ext.value_or(PadBorder::Constant), loc)};
  const bool symmetric = method == "symmetric";
  std::vector<int64_t> kernel, stride;
  std::vector<std::pair<int64_t, int64_t>> padding, edge{{0, 0}, {0, 0}};
  std::vector<std::vector<double>> weights;
  for (int64_t f : factor) {
    const int64_t p = symmetric ? f / 2 : f - 1, twice_c = symmetric ? f - 1 : 0;
    std::vector<double> w;
    for (int64_t t = 0; t < 2 * f; ++t) w.push_back(static_cast<double>(std::max<int64_t>(2 * f - std::abs(2 * t - 2 * p - twice_c), 0)));
    weights.push_back(std::move(w));
    kernel.push_back(2 * f);
    stride.push_back(f);
    const int64_t shift = ext ? f : 0;
    padding.emplace_back(p + shift, f - p + shift);
    edge.emplace_back(1, 1);
  }
  // The filter [1, 1, 2f1, ...]: the outer product of the axes' weights, row-major.
  std::vector<double> plane{1.0};
  for (const std::vector<double>& w : weights) {
    std::vector<double> next;
    for (double v : plane)
      for (double e : w) next.push_back(v * e);
    plane = std::move(next);
  }
  if (ext) x = extended_input(c, x, edge, *ext, loc);
  // [N, C, s...] as [N·C, 1, s...] and back (-1 inferred, 0 the extent at the same position).
  std::vector<int64_t> planes(in.size(), 0), back(in.size(), 0);
  planes[0] = -1, planes[1] = 1, back[0] = -1, back[1] = in[1];
  x = c.add_node1("reshape", ReshapeAttrs{planes}, {x}, loc);
  const Value filter = c.literal_tensor(plane, with_leading(kernel, 1, 1), loc);
  Args d{{"input", x},
         {"filter", filter},
         {"border", Value::string("constant")},
         {"padding", pair_array(padding)},
         {"stride", integer_array(stride)},
         {"dilation", integer_array({})},
         {"output_shape", integer_array({})},
         {"groups", Value::integer(1)}};
  const Value y = c.add_node1("reshape", ReshapeAttrs{back}, {c.apply("deconv", std::move(d), loc)[0]}, loc);
  return std::vector<Value>{divided(c, y, divisor, loc)};
}

}  // namespace nnref::nnef
