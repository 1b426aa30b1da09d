// deconv: the transposed convolution, the adjoint of conv (NNEF 1.0 §4.3.1 deconv, ONNX
// ConvTranspose), channels first, with groups, dilation, stride and signed padding in the
// up-scaled (output) space; the border of the input is constant zero.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "spec/attrs/deconv.hpp"
#include "spec/deconv_plan.hpp"
#include "spec/index.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/window.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const DeconvAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const size_t sr = a.kernel.size();
  if (!window::require_lengths(op_name(a), sr, a.stride.size(), a.dilation.size(), true, a.padding.size(), x, sink))
    return std::nullopt;
  bool ok = true;
  for (size_t i = 0; i < sr; ++i) ok = window::require_positive(op_name(a), i, sr, deconv::axis(a, i), sink) && ok;
  sink.require(a.groups >= 1, kDeconvGroups, "deconv groups is " + std::to_string(a.groups) + ", must be at least 1");
  if (!ok || a.groups < 1) return std::nullopt;
  const bool oc_ok = a.out_channels >= 1 && a.out_channels % a.groups == 0;
  sink.require(oc_ok, kDeconvOutChannels,
               "deconv out_channels " + std::to_string(a.out_channels) + " is not a positive multiple of groups " +
                   std::to_string(a.groups));
  if (!oc_ok) return std::nullopt;
  const Dim c = x[1];
  sink.require(floor_div(c, Dim(a.groups)) * a.groups == c, kDeconvChannelsIndivisible,
               "deconv input has " + dim_str(c) + " channels, not a multiple of groups " + std::to_string(a.groups));
  Dims<Dim> out{x[0], Dim(a.out_channels)};
  for (size_t i = 0; i < sr; ++i) {
    const window::Axis w = deconv::axis(a, i);
    const std::string name = window::axis_name(i, sr);
    // |p| + |q| in saturating attribute arithmetic; the full extent before the padding is cut.
    const int64_t margin = (CDim(w.before < 0 ? CDim(0) - w.before : CDim(w.before)) +
                            (w.after < 0 ? CDim(0) - w.after : CDim(w.after)))
                               .v;
    const Dim full = (x[2 + i] - int64_t{1}) * w.s + window::extent(w);
    sink.require(full < Dim(std::numeric_limits<int64_t>::max()) - margin, kDeconvExtentOverflow,
                 "deconv output " + name + " (" + dim_str(x[2 + i]) + " - 1) * " + std::to_string(w.s) + " + " +
                     std::to_string(window::extent(w)) + " with padding (" + std::to_string(w.before) + ", " +
                     std::to_string(w.after) + ") does not fit a 64-bit index");
    out.push_back(full - (CDim(w.before) + w.after).v);
  }
  ShapeOut<Dim> r;
  r.outputs.push_back(out);
  Dims<Dim> weight{c, Dim(a.out_channels / a.groups)};
  for (int64_t k : a.kernel) weight.push_back(Dim(k));
  r.params.push_back({"weight", weight, true});
  if (a.has_bias) r.params.push_back({"bias", Dims<Dim>{Dim(a.out_channels)}, true});
  return r;
}

// y[n, m, o] = b[m] + Σ_{c < C/G} Σ_{j : (o + p − j·d) = k·s, 0 ≤ k < x} x[n, g·C/G + c, k] · w[g·C/G + c, m − g·M/G, j]
// with g = ⌊m / (M/G)⌋ the group of output channel m (NNEF §4.3.1; every axis at once). Per output
// position the terms are laid out channel-major, then row-major over the kernel, as conv does.
template <Scalar T>
void evaluate(const Checked<DeconvAttrs>& op, const OpIO<T>& io) {
  const DeconvAttrs& a = op.attrs();
  const Tensor<T>& x = io.in(0);
  const Tensor<T>& w = *io.param(0);
  const Tensor<T>* bias = a.has_bias ? io.param(1) : nullptr;
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const deconv::Plan plan = deconv::plan(a, in);
  const auto xs = in.strides(), ys = out.strides(), ws = op.params()[0].shape.strides();
  const int64_t per_group = in[1] / a.groups, out_per_group = a.out_channels / a.groups;
  const T zero = from_double<T>(0.0);
  Tensor<T>& y = io.out(0);
  window::Offsets win;
  std::vector<int64_t> xo, wo;  // per term t: offsets from x[n, g·C/G, 0…0] and from w[g·C/G, m − g·M/G, 0…0]
  std::vector<int64_t> o(a.kernel.size(), 0);
  const int64_t positions = out.count() / std::max<int64_t>(out[0] * out[1], 1);
  for (int64_t q = 0; q < positions; ++q) {
    int64_t yo = 0;
    for (size_t i = 0; i < o.size(); ++i) yo += o[i] * ys[2 + i];
    deconv::terms_at(plan, o, win);
    const int64_t k = win.size(), terms = per_group * k;
    xo.resize(static_cast<size_t>(terms));
    wo.resize(static_cast<size_t>(terms));
    for (int64_t c = 0; c < per_group; ++c)
      for (int64_t t = 0; t < k; ++t) {
        xo[c * k + t] = c * xs[1] + win.input[t];
        wo[c * k + t] = c * ws[0] + win.kernel[t];
      }
    for (int64_t n = 0; n < in[0]; ++n)
      for (int64_t m = 0; m < a.out_channels; ++m) {
        const int64_t g = m / out_per_group;
        const int64_t x0 = n * xs[0] + g * per_group * xs[1], w0 = g * per_group * ws[0] + (m - g * out_per_group) * ws[1];
        const auto x_at = [&](int64_t t) -> const T& { return x[x0 + xo[t]]; };
        const auto w_at = [&](int64_t t) -> const T& { return w[w0 + wo[t]]; };
        y[n * ys[0] + m * ys[1] + yo] = dot_of<T>(terms, x_at, w_at, bias ? (*bias)[m] : zero);
      }
    for (size_t i = o.size(); i-- > 0;) {
      if (++o[i] < out[2 + i]) break;
      o[i] = 0;
    }
  }
}

}  // namespace nnref
