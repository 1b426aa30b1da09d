// interpolate: a separable weighted sum of taps, y = Σ over every choice of one tap per axis of the
// taps' weights' product times x at the chosen positions (ONNX Resize's linear and cubic modes).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/interpolate.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const InterpolateAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  if (!checked_axes(op_name(a), a.axes, x.size(), false, sink)) return std::nullopt;
  Dims<Dim> out = x;
  for (size_t k = 0; k < a.axes.size(); ++k) {
    const Dims<Dim>&indices = inputs[1 + 2 * k], &weights = inputs[2 + 2 * k];
    const std::string what = "interpolate: axis " + std::to_string(a.axes[k]) + " has tap indices " +
                             dims_str(indices) + " and weights " + dims_str(weights) +
                             "; both must be one [positions, taps] matrix";
    const bool matrices = indices.size() == 2 && weights.size() == 2;
    sink.require(matrices, kInterpolateTaps, what);
    if (!matrices) return std::nullopt;
    sink.require(indices[0] == weights[0] && indices[1] == weights[1], kInterpolateTaps, what);
    out[static_cast<size_t>(normalize_axis(a.axes[k], x.size()))] = indices[0];
  }
  return ShapeOut<Dim>{{std::move(out)}, {}};
}

// With axes a_1..a_n, y[p] = Σ_{t_1 < T_1, …, t_n < T_n} (Π_k W_k[p_{a_k}, t_k]) · x[p with each
// p_{a_k} replaced by I_k[p_{a_k}, t_k]]: in any order and tree of its products and sums, which the
// float32 envelope bounds once for the whole sum (a runtime nests the axes, as PyTorch, or sums
// the corner terms flat, as ONNX Runtime). A point scalar takes each term's weights' product in
// axis order, times x, and sums the terms in row-major order of the taps. A tap whose weight is
// exactly 0 on a finite x adds nothing and is left out (a runtime's extra taps, docs/ops/layout.md);
// an index outside [0, extent) or unknown (kUnknownInteger) reads NaN.
template <Scalar T>
void evaluate(const Checked<InterpolateAttrs>& op, const OpIO<T>& io) {
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const size_t n = op.attrs().axes.size(), r = in.rank();
  std::vector<size_t> axis(n);
  std::vector<int64_t> taps(n), stride(r, 1);
  for (size_t d = r; d-- > 1;) stride[d - 1] = stride[d] * in[d];
  std::vector<bool> resized(r, false);
  for (size_t k = 0; k < n; ++k) {
    axis[k] = static_cast<size_t>(normalize_axis(op.attrs().axes[k], r));
    taps[k] = op.inputs()[1 + 2 * k][1];
    resized[axis[k]] = true;
  }
  const Tensor<T>& x = io.in(0);
  const auto indices = [&](size_t k) -> const Tensor<int64_t>& { return io.template in_as<int64_t>(1 + 2 * k); };
  const auto exactly_zero = [](const T& v) {
    const Enclosure e = sc::enclosure(v);
    return !e.nan && e.lo == 0 && e.hi == 0;
  };
  const T nan = from_double<T>(std::numeric_limits<double>::quiet_NaN());
  Tensor<T>& y = io.out(0);
  std::vector<int64_t> p(r, 0), t(n, 0);
  std::vector<T> xs, ws;  // the terms kept at p
  std::vector<T> factors(n);
  for (int64_t e = 0; e < y.size(); ++e) {
    int64_t base = 0;
    for (size_t d = 0; d < r; ++d)
      if (!resized[d]) base += p[d] * stride[d];
    xs.clear(), ws.clear();
    std::fill(t.begin(), t.end(), 0);
    for (bool more = true; more;) {
      int64_t offset = base;
      bool inside = true, zero = false;
      for (size_t k = 0; k < n; ++k) {
        const int64_t at = p[axis[k]] * taps[k] + t[k], j = indices(k)[at];
        inside = inside && j >= 0 && j < in[axis[k]];
        if (inside) offset += j * stride[axis[k]];
        factors[k] = io.in(2 + 2 * k)[at];
        zero = zero || exactly_zero(factors[k]);
      }
      const T v = inside ? x[offset] : nan;
      if (!(zero && sc::enclosure(v).bounded())) {
        xs.push_back(v);
        ws.push_back(
            ScalarOps<T>::prod(static_cast<int64_t>(n), [&](int64_t k) { return factors[static_cast<size_t>(k)]; }));
      }
      more = false;
      for (size_t k = n; k-- > 0;) {  // the next choice of taps, the last axis fastest
        if (++t[k] < taps[k]) {
          more = true;
          break;
        }
        t[k] = 0;
      }
    }
    y[e] = dot_of<T>(
        static_cast<int64_t>(xs.size()), [&](int64_t i) -> const T& { return xs[static_cast<size_t>(i)]; },
        [&](int64_t i) -> const T& { return ws[static_cast<size_t>(i)]; });
    for (size_t d = r; d-- > 0;) {  // the next output position, row-major
      if (++p[d] < out[d]) break;
      p[d] = 0;
    }
  }
}

}  // namespace nnref
