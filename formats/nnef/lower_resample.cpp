// debox and multilinear_upsample as IR deconvs whose filters are constants of the NNEF graph.
//
// debox (§4.3.2): output[i] = Σ_{j<f, (i + p − j·d) mod s = 0} ĩ[(i + p − j·d)/s] on every axis is
// the IR deconv's formula with weights all 1 (each term ĩ·1, the same real number), over the input
// viewed as [1, 1, x...] so that every axis is spatial, as box's window (docs/ops/pool.md);
// normalize divides by the kernel volume Π size afterwards.
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

#include <cstdlib>
#include <map>
#include <string>
#include <utility>

namespace nnref::nnef {

namespace {

using Args = Composer::Args;

std::vector<int64_t> integers(const Args& a, const char* name) {
  std::vector<int64_t> out;
  for (const Value& v : a.at(name).items) out.push_back(v.i);
  return out;
}
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

// Filters beyond this many elements are refused (before any is built): the constant filters stay
// small, and their integer weights and divisors exact.
constexpr double kFilterBound = 1 << 20;

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
  const bool normalize = a.at("normalize").b;
  if (border != "constant" && !(border == "ignore" && !normalize))
    c.fail("nnef.op-unsupported", "debox with border '" + border + (normalize ? "' normalized" : "'") +
                                      ": nnref's debox reads the input's border as zeros ('constant', or 'ignore' "
                                      "without normalization, where the zeros add nothing)", loc);
  const Value ones = c.literal_tensor(std::vector<double>(static_cast<size_t>(volume), 1.0), with_leading(size, 1, 1), loc);
  const Value whole = c.add_node1("unsqueeze", UnsqueezeAttrs{{0, 1}}, {x}, loc);
  Args d{{"input", whole},
         {"filter", ones},
         {"border", Value::string("constant")},
         {"padding", a.at("padding")},
         {"stride", a.at("stride")},
         {"dilation", a.at("dilation")},
         {"output_shape", integer_array(output_shape.empty() ? output_shape : with_leading(output_shape, 1, 1))},
         {"groups", Value::integer(1)}};
  Value y = c.add_node1("squeeze", SqueezeAttrs{{0, 1}}, {c.apply("deconv", std::move(d), loc)[0]}, loc);
  if (normalize) y = divided(c, y, volume, loc);
  return std::vector<Value>{y};
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
  if (method == "aligned")
    c.fail("nnef.op-unsupported", "multilinear_upsample with method 'aligned': its weights depend on the input's "
                                  "extent, and nnref lowers the uniform methods 'symmetric' and 'asymmetric' only", loc);
  if (method != "symmetric" && method != "asymmetric")
    c.fail("nnef.argument.value", "multilinear_upsample: method '" + method +
                                      "' (one of 'symmetric', 'asymmetric', 'aligned')", loc);
  static const std::map<std::string, PadBorder> extended = {
      {"replicate", PadBorder::Replicate}, {"reflect", PadBorder::Reflect}, {"reflect-even", PadBorder::ReflectEven}};
  const auto ext = extended.find(border);
  if (border != "constant" && ext == extended.end())
    c.fail("nnef.argument.value", "multilinear_upsample: border '" + border +
                                      "' (one of 'constant', 'replicate', 'reflect', 'reflect-even')", loc);
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
    const int64_t shift = ext != extended.end() ? f : 0;
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
  if (ext != extended.end()) x = c.add_node1("pad", PadAttrs{edge, ext->second, 0.0}, {x}, loc);
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
