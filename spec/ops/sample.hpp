// sample, desample (NNEF 1.0 §4.3.3): sample reads, per output position of a pool's window, the
// element at the window position an integer index names (as argmax_pool gives it); desample, its
// adjoint, sums each input element into the up-scaled position its index names. Window geometry:
// spec/rules/window.hpp (sample), deconv's terms (desample: spec/ops/deconv.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/attrs/deconv.hpp"
#include "spec/attrs/sample.hpp"
#include "spec/deconv_plan.hpp"
#include "spec/index.hpp"
#include "spec/op_rule.hpp"
#include "spec/orderings.hpp"
#include "spec/rules/window.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const SampleAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>&x = inputs[0], &index = inputs[1];
  const bool sample = a.op == SampleOp::Sample;
  Dims<Dim> up = x;  // the up-scaled shape
  if (!sample) {
    bool ok = a.output_shape.size() == x.size() && x.size() >= 2;
    sink.require(ok, kDesampleOutputShape,
                 "desample output_shape has " + std::to_string(a.output_shape.size()) + " entries for an input " +
                     dims_str(x));
    if (!ok) return std::nullopt;
    up.clear();
    for (int64_t e : a.output_shape) up.push_back(Dim(e));
    for (size_t i = 0; i < 2; ++i)
      sink.require(up[i] == x[i], kDesampleOutputShape,
                   "desample output_shape " + dims_str(up) + " must keep the input's batch and channel extents, " +
                       dims_str(x));
  }
  const auto spatial = window::spatial_rule(op_name(a), a, up, sink);
  if (!spatial) return std::nullopt;
  const Dims<Dim> down = window::with_channels(a.layout, up[0], up[1], *spatial);
  if (!sample)
    for (size_t i = 2; i < down.size(); ++i)
      sink.require(down[i] == x[i], kDesampleOutputShape,
                   "desample output_shape " + dims_str(up) + " down-scales to " + dims_str(down) +
                       " through the window, not to the input " + dims_str(x));
  const Dims<Dim>& expected = sample ? down : x;
  const bool rank = index.size() == expected.size();
  sink.require(rank, kSampleIndexShape,
               op_name(a) + " index " + dims_str(index) + " must have the shape " + dims_str(expected) + " of the " +
                   (sample ? "output" : "input"));
  if (!rank) return std::nullopt;
  for (size_t i = 0; i < index.size(); ++i)
    sink.require(index[i] == expected[i], kSampleIndexShape,
                 op_name(a) + " index " + dims_str(index) + " must have the shape " + dims_str(expected) + " of the " +
                     (sample ? "output" : "input"));
  return ShapeOut<Dim>{{sample ? down : up}, {}};
}

namespace sample {

// The element the window of output position (n, c, o) holds at row-major window index j, read
// from x0 = x[n, c, 0…0]: inside the input, x there; in the padding, 0; j outside [0, volume)
// names no position: NaN. An index an enclosure left unknown (kUnknownInteger) reads the hull of
// every element of the window.
template <Scalar T>
T at_index(const Tensor<T>& x, int64_t x0, const window::Offsets& win, int64_t volume, int64_t j) {
  const T zero = from_double<T>(0.0);
  if (j == kUnknownInteger) {
    T h = win.size() < volume ? zero : x[x0 + win.input[0]];
    for (int64_t off : win.input) h = sc::hull<T>(h, x[x0 + off]);
    return h;
  }
  if (j < 0 || j >= volume) return from_double<T>(std::numeric_limits<double>::quiet_NaN());
  const auto it = std::lower_bound(win.kernel.begin(), win.kernel.end(), j);  // win.kernel is increasing
  if (it == win.kernel.end() || *it != j) return zero;
  return x[x0 + win.input[static_cast<size_t>(it - win.kernel.begin())]];
}

// desample's geometry as deconv's: the down-scaled input positions each up-scaled position
// o + p − j·d = k·s reads, with p the up-scaled tensor's padding before (automatic padding resolved
// from its extents).
inline deconv::Plan terms_plan(const SampleAttrs& a, const Shape& down, const Shape& up) {
  DeconvAttrs d;
  d.kernel = a.kernel;
  d.stride = a.stride;
  d.dilation = a.dilation;
  for (size_t i = 0; i < a.kernel.size(); ++i)
    d.padding.emplace_back(window::pad_before(up[2 + i], window::axis(a, i), a.pad_mode), 0);
  return deconv::plan(d, down);
}

}  // namespace sample

// sample:   y[n, c, o] = ĩ[n, c, o·s + j·d − p], j the row-major window position index[n, c, o]
//           names; ĩ is x inside the input and 0 in the padding; j ∉ [0, Π k): NaN.
// desample: y[n, c, O] = Σ_{j : O + p − j·d = k·s, 0 ≤ k < x, index[n, c, k] = j} x[n, c, k]
//           (an index outside [0, Π k) equals no j: its element adds nothing, as the formula reads).
// Under an enclosure an unknown index reads the hull of the window (sample) and adds hull(0, x[k])
// wherever it may point (desample).
template <Scalar T>
void evaluate(const Checked<SampleAttrs>& op, const OpIO<T>& io) {
  const SampleAttrs& a = op.attrs();
  const Tensor<T>& x = io.in(0);
  const Tensor<int64_t>& index = std::get<Tensor<int64_t>>(*io.inputs[1]);
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const auto xs = in.strides(), ys = out.strides();
  Tensor<T>& y = io.out(0);
  window::Offsets win;
  if (a.op == SampleOp::Sample) {
    const window::Plan plan = window::plan(a, in);
    window::for_each_position(plan, out, [&](const std::vector<int64_t>& o, int64_t yo) {
      window::offsets_at(plan, o, win);
      for (int64_t n = 0; n < in[0]; ++n)
        for (int64_t c = 0; c < in[1]; ++c) {
          const int64_t yi = n * ys[0] + c * ys[1] + yo;
          y[yi] = sample::at_index(x, n * xs[0] + c * xs[1], win, plan.volume, index[yi]);
        }
    });
    return;
  }
  const window::Plan up = window::plan(a, out);  // walks the up-scaled positions
  const deconv::Plan terms = sample::terms_plan(a, in, out);
  const T zero = from_double<T>(0.0);
  std::vector<T> picked;
  window::for_each_position(up, out, [&](const std::vector<int64_t>& o, int64_t yo) {
    deconv::terms_at(terms, o, win);
    for (int64_t n = 0; n < in[0]; ++n)
      for (int64_t c = 0; c < in[1]; ++c) {
        const int64_t x0 = n * xs[0] + c * xs[1];
        picked.clear();
        for (int64_t t = 0; t < win.size(); ++t) {
          const int64_t k = x0 + win.input[static_cast<size_t>(t)], j = index[k];
          if (j == win.kernel[static_cast<size_t>(t)]) picked.push_back(x[k]);
          else if (j == kUnknownInteger) picked.push_back(sc::hull<T>(zero, x[k]));
        }
        y[n * ys[0] + c * ys[1] + yo] =
            sum_of<T>(static_cast<int64_t>(picked.size()), [&](int64_t t) { return picked[static_cast<size_t>(t)]; });
      }
  });
}

}  // namespace nnref
