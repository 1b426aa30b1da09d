// conv: convolution over any number of spatial axes, with groups, dilation, asymmetric padding
// and an explicit layout (window geometry: spec/rules/window.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/attrs/conv.hpp"
#include "spec/index.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/window.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const ConvAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const auto spatial = window::spatial_rule(op_name(a), a, x, sink);
  sink.require(a.groups >= 1, kConvGroups,
               "conv groups is " + std::to_string(a.groups) + ", must be at least 1");
  sink.require(a.out_channels >= 1, kConvOutChannels,
               "conv out_channels is " + std::to_string(a.out_channels) + ", must be at least 1");
  if (!spatial || a.groups < 1 || a.out_channels < 1) return std::nullopt;
  sink.require(a.out_channels % a.groups == 0, kConvOutChannelsIndivisible,
               "conv out_channels " + std::to_string(a.out_channels) + " is not a multiple of groups " +
                   std::to_string(a.groups));
  const Dim c = x[window::channel_axis(a.layout, x.size())];
  const Dim per_group = floor_div(c, Dim(a.groups));
  sink.require(per_group * a.groups == c, kConvChannelsIndivisible,
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

// y[n, m, o] = b[m] + Σ_{c < C/G} Σ_{j in window} x[n, g·C/G + c, o·s + j·d − pad_before] · w[m, c, j],
// g = ⌊m / (M/G)⌋ the group of output channel m; positions in the padding read 0 and are left out.
// Per output position o the window is laid out as offset lists over its terms t (channel-major,
// then the window's in-bounds positions row-major), so that x_at(t) = x[n, g·C/G + c, …] and
// w_at(t) = w[m, c, j] for every n and m; the sum starts from the bias (0 without). Output
// channels go in blocks whose weights stay in cache while every position reads them; each block
// lays the windows out again.
template <Scalar T>
void evaluate(const Checked<ConvAttrs>& op, const OpIO<T>& io) {
  const ConvAttrs& a = op.attrs();
  const Tensor<T>& x = io.in(0);
  const Tensor<T>& w = *io.param(0);
  const Tensor<T>* bias = a.has_bias ? io.param(1) : nullptr;
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const window::Plan plan = window::plan(a, in);
  const auto xs = in.strides(), ys = out.strides(), ws = op.params()[0].shape.strides();
  const int64_t xc = xs[plan.channel], yc = ys[plan.channel];
  const int64_t per_group = op.params()[0].shape[1];
  const int64_t out_per_group = a.out_channels / a.groups;
  const int64_t block = std::max<int64_t>(1, kConvBlockBytes / (ws[0] * ScalarOps<T>::bytes));
  const T zero = from_double<T>(0.0);
  Tensor<T>& y = io.out(0);
  window::Offsets win;
  std::vector<int64_t> xo, wo;  // per term t: offsets from x[n, g·C/G, 0…0] and from w[m, 0, 0…0]
  for (int64_t m0 = 0; m0 < a.out_channels; m0 += block)
    window::for_each_position(plan, out, [&](const std::vector<int64_t>& o, int64_t yo) {
      window::offsets_at(plan, o, win);
      const int64_t k = win.size(), terms = per_group * k;
      xo.resize(static_cast<size_t>(terms));
      wo.resize(static_cast<size_t>(terms));
      for (int64_t c = 0; c < per_group; ++c)
        for (int64_t t = 0; t < k; ++t) {
          xo[c * k + t] = c * xc + win.input[t];
          wo[c * k + t] = c * ws[1] + win.kernel[t];
        }
      for (int64_t n = 0; n < in[0]; ++n)
        for (int64_t m = m0; m < std::min(m0 + block, a.out_channels); ++m) {
          const int64_t x0 = n * xs[0] + m / out_per_group * per_group * xc, w0 = m * ws[0];
          const auto x_at = [&](int64_t t) -> const T& { return x[x0 + xo[t]]; };
          const auto w_at = [&](int64_t t) -> const T& { return w[w0 + wo[t]]; };
          y[n * ys[0] + m * yc + yo] = dot_of<T>(terms, x_at, w_at, bias ? (*bias)[m] : zero);
        }
    });
}

}  // namespace nnref
