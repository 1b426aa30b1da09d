// The geometry of the transposed window, shared by deconv's formula (spec/ops/deconv.hpp),
// desample's (spec/ops/sample.hpp) and their fast-path kernels: which input positions each
// output position reads.
#pragma once

#include <cstdint>
#include <vector>

#include "spec/attrs/deconv.hpp"
#include "spec/rules/window.hpp"
#include "spec/shape.hpp"

namespace nnref {

namespace deconv {

// The input positions output position o reads on every spatial axis, as two offset lists over
// its terms t, row-major over the kernel offsets j: the terms with (o_i + p_i − j_i·d_i) a
// multiple of s_i whose quotient k_i lies in [0, x_i) (the others read the zero border):
//   input[t]  = Σ_i k_i·in_strides_i, the offset of the input position from (n, c, 0, …, 0);
//   kernel[t] = Σ_i j_i·kernel_strides_i, the offset of j in a row-major [k1..kr].
struct Plan {
  std::vector<window::Axis> axes;
  std::vector<int64_t> in, in_strides, kernel_strides;
};

inline Plan plan(const DeconvAttrs& a, const Shape& input) {
  Plan p;
  const std::vector<int64_t> strides = input.strides();
  for (size_t i = 0; i < a.kernel.size(); ++i) {
    p.axes.push_back(axis(a, i));
    p.in.push_back(input[2 + i]);
    p.in_strides.push_back(strides[2 + i]);
  }
  p.kernel_strides.assign(a.kernel.size(), 1);
  for (size_t i = a.kernel.size(); i-- > 1;) p.kernel_strides[i - 1] = p.kernel_strides[i] * a.kernel[i];
  return p;
}

namespace detail {

inline void append_terms(const Plan& p, const std::vector<int64_t>& o, size_t i, int64_t input, int64_t kernel,
                         window::Offsets& w) {
  if (i == p.axes.size()) {
    w.input.push_back(input);
    w.kernel.push_back(kernel);
    return;
  }
  const window::Axis& a = p.axes[i];
  for (int64_t j = 0; j < a.k; ++j) {
    const int64_t at = o[i] + a.before - j * a.d;  // the output position's place in the input, times s
    if (at < 0 || at % a.s != 0 || at / a.s >= p.in[i]) continue;
    append_terms(p, o, i + 1, input + at / a.s * p.in_strides[i], kernel + j * p.kernel_strides[i], w);
  }
}

}  // namespace detail

inline void terms_at(const Plan& p, const std::vector<int64_t>& o, window::Offsets& w) {
  w.input.clear();
  w.kernel.clear();
  detail::append_terms(p, o, 0, 0, 0, w);
}

}  // namespace deconv

}  // namespace nnref
