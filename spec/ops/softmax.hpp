// softmax: the normalised exponentials of each group of positions over the given axes;
// log_softmax (ONNX LogSoftmax): their logarithms, as a formula of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/softmax.hpp"
#include "spec/axis_groups.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const SoftmaxAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  if (!checked_axes(op_name(a), a.axes, AxisDomain(x, a.batch_axes), false, sink)) return std::nullopt;
  return ShapeOut<Dim>{{x}, {}};
}

// Over each group G of positions that differ only on the axes: m = max_G x, e = exp(x − m),
// y = e/Σ_G e. Subtracting m changes nothing in exact arithmetic; it keeps exp in range, so an
// enclosure subtracts a point of m's (sc::mid), not m's whole range.
// log_softmax: y = x − m − log Σ_G e, the three terms summed as one sum (sum_of), since a runtime
// may add them in either order: (x − m) − L (PyTorch 1.13) or x − (m + L), and the latter rounds
// m + L, an error relative to |m|, not to |x − m|. Not log(softmax): that is log 0 = −∞
// where e underflows, about 104 below the maximum in float32, and log_softmax is finite.
template <Scalar T>
void evaluate(const Checked<SoftmaxAttrs>& op, const OpIO<T>& io) {
  const Tensor<T>& x = io.in(0);
  Tensor<T>& y = io.out(0);
  if (x.size() == 0) return;  // no group to read
  const Shape& shape = op.inputs()[0];
  const AxisDomain domain(shape.dims(), op.attrs().batch_axes);
  const AxisSplit split = split_axes(shape, normalized_axes(op.attrs().axes, domain));
  const std::vector<int64_t>& outer = split.outer;
  const std::vector<int64_t>& inner = split.inner;
  const int64_t n = static_cast<int64_t>(inner.size());
  for (int64_t o : outer) {
    auto at = [&](int64_t r) { return o + inner[static_cast<size_t>(r)]; };
    const T m = sc::mid(fold<T>(n, [&](int64_t r) { return x[at(r)]; }, sc::max<T>));
    for (int64_t r = 0; r < n; ++r) y[at(r)] = sc::exp(x[at(r)] - m);
    T total = sum_of<T>(n, [&](int64_t r) { return y[at(r)]; });
    if (op.attrs().log) {
      const T terms[] = {-m, -sc::log(total)};
      for (int64_t r = 0; r < n; ++r) y[at(r)] = sum_of<T>(2, [&](int64_t t) { return terms[t]; }, x[at(r)]);
    } else {
      for (int64_t r = 0; r < n; ++r) y[at(r)] = y[at(r)] / total;
    }
  }
}

}  // namespace nnref
