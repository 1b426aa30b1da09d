// argmax_pool (NNEF 1.0 §4.3.3): per output position of a pool's window, the row-major index within
// the window of its maximum, as an integer (window geometry: spec/rules/window.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/attrs/arg_reduce.hpp"
#include "spec/attrs/argmax_pool.hpp"
#include "spec/attrs/pool.hpp"
#include "spec/extremum_index.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/window.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const ArgmaxPoolAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const auto spatial = window::spatial_rule(op_name(a), a, x, sink);
  if (!spatial) return std::nullopt;
  return ShapeOut<Dim>{{window::with_channels(a.layout, x[0], x[1], *spatial)}, {}};
}

namespace argmax_pool {

// The candidates of one window, in row-major window order: its positions inside the input and,
// under Constant when some position is padding, the first padded one (every padded position reads
// 0, so ties leave only the first in the running). kernel[t] is the candidate's index in the
// window, input[t] its input offset, or −1 for the padded zero.
inline void candidates(const window::Offsets& win, int64_t volume, bool constant, window::Offsets& c) {
  c = win;
  if (!constant || win.size() == volume) return;
  int64_t first = 0;  // win.kernel is increasing: the first gap is the first padded position
  while (first < win.size() && win.kernel[static_cast<size_t>(first)] == first) ++first;
  c.kernel.insert(c.kernel.begin() + first, first);
  c.input.insert(c.input.begin() + first, -1);
}

}  // namespace argmax_pool

// index[n, c, o] = argmax_{j ∈ W} ĩ[n, c, o·s + j·d − p], j row-major over the window W:
//   Ignore:   over the positions inside the input only; a window wholly in the padding gives 0
//             (its first position; sample there reads the constant 0, max_pool's value there);
//   Constant: ĩ is 0 at a padded position, which takes part and may be the answer.
// Ties go to the first, NaN counts beyond every number (the first NaN), as argmax_reduce
// (extremum_index); under an enclosure an index the overlapping sets leave undecided is
// kUnknownInteger (spec/truth.hpp).
template <Scalar T>
void evaluate(const Checked<ArgmaxPoolAttrs>& op, const OpIO<T>& io) {
  const ArgmaxPoolAttrs& a = op.attrs();
  const Tensor<T>& x = io.in(0);
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  const window::Plan plan = window::plan(a, in);
  const auto xs = in.strides(), ys = out.strides();
  const T zero = from_double<T>(0.0);
  Tensor<int64_t>& y = std::get<Tensor<int64_t>>(*io.outputs[0]);
  window::Offsets win, cand;
  window::for_each_position(plan, out, [&](const std::vector<int64_t>& o, int64_t yo) {
    window::offsets_at(plan, o, win);
    argmax_pool::candidates(win, plan.volume, a.border == PoolBorder::Constant, cand);
    const int64_t n = cand.size();
    for (int64_t b = 0; b < in[0]; ++b)
      for (int64_t c = 0; c < in[1]; ++c) {
        const int64_t x0 = b * xs[0] + c * xs[1];
        const auto at = [&](int64_t t) {
          const int64_t off = cand.input[static_cast<size_t>(t)];
          return off < 0 ? zero : x[x0 + off];
        };
        int64_t& r = y[b * ys[0] + c * ys[1] + yo];
        if (n == 0) {
          r = 0;
          continue;
        }
        const int64_t t = extremum_index<T>(n, at, kGreater, sc::max<T>);
        r = t == kUnknownInteger ? t : cand.kernel[static_cast<size_t>(t)];
      }
  });
}

}  // namespace nnref
