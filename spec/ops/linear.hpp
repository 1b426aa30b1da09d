// linear: a dense layer, y = x·W + b over an input [N, in], in either weight layout.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/linear.hpp"
#include "spec/op_rule.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const LinearAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  sink.require(a.units >= 1, kLinearUnits, "linear: units must be at least 1, got " + std::to_string(a.units));
  const Dims<Dim>& x = inputs[0];
  sink.require(x.size() == 2, kLinearInputRank,
               "linear: the input must have rank 2 [N, in], got shape " + dims_str(x) +
                   "; insert a Flatten before this layer to turn [N, d1, d2, ...] into [N, d1·d2·...]");
  if (a.units < 1 || x.size() != 2) return std::nullopt;
  const Dim n = x[0], in = x[1], units = Dim(a.units);
  ShapeOut<Dim> out{{{n, units}}, {}};
  out.params.push_back({"weight", a.layout == WeightLayout::InOut ? Dims<Dim>{in, units} : Dims<Dim>{units, in}, true});
  if (a.has_bias) out.params.push_back({"bias", {units}, true});
  return out;
}

// y[n, u] = b[u] + Σ_i x[n, i]·W(i, u), with W(i, u) = weight[i, u] (InOut) or weight[u, i] (OutIn):
// one dot_of per output, starting from the bias (0 without).
template <Scalar T>
void evaluate(const Checked<LinearAttrs>& op, const OpIO<T>& io) {
  const Tensor<T>&x = io.in(0), &w = *io.param(0);
  const Tensor<T>* b = op.attrs().has_bias ? io.param(1) : nullptr;
  const int64_t n = op.inputs()[0][0], in = op.inputs()[0][1], units = op.attrs().units;
  const bool in_out = op.attrs().layout == WeightLayout::InOut;
  const int64_t w_step = in_out ? units : 1;  // from W(i, u) to W(i + 1, u)
  const T zero = from_double<T>(0.0);
  Tensor<T>& y = io.out(0);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t u = 0; u < units; ++u) {
      const int64_t x0 = r * in, w0 = in_out ? u : u * in;  // x[r, 0] and W(0, u)
      const auto x_at = [&](int64_t i) -> const T& { return x[x0 + i]; };
      const auto w_at = [&](int64_t i) -> const T& { return w[w0 + i * w_step]; };
      y[r * units + u] = dot_of<T>(in, x_at, w_at, b ? (*b)[u] : zero);
    }
}

}  // namespace nnref
