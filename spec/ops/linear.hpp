// Affine maps: linear (dense) layers and matrix multiplication.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/ops/elementwise.hpp"

namespace nnref {

// InOut: weight [in, units], y = x·W + b (NNL Dense). OutIn: weight [units, in], y = x·Wᵀ + b
// (PyTorch Linear, ONNX Gemm with transB, NNEF linear, TorchLean W·x).
enum class WeightLayout { InOut, OutIn };
// Input [N, in] (rank exactly 2), output [N, units]; params weight, bias [units] (if has_bias).
struct LinearAttrs {
  int64_t units = 0;
  WeightLayout layout = WeightLayout::InOut;
  bool has_bias = true;
};

// NNEF matmul: A [..., m, k] (or [..., k, m] transposed) times B [..., k, n]; rank ≥ 2, leading
// (batch) axes equal.
struct MatMulAttrs {
  bool transpose_a = false;
  bool transpose_b = false;
};


// ---- linear -----------------------------------------------------------------------------------

inline std::string op_name(const LinearAttrs&) { return "linear"; }
inline Arity arity(const LinearAttrs&) { return {1, 1}; }

template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const LinearAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!detail::require_arity(a, inputs.size(), sink)) return std::nullopt;
  sink.require(a.units >= 1, "attr.linear.units", "linear: units must be at least 1, got " + std::to_string(a.units));
  const Dims<Dim>& x = inputs[0];
  sink.require(x.size() == 2, "shape.linear.input-rank",
               "linear: the input must have rank 2 [N, in], got shape " + dims_str(x) +
                   "; insert a Flatten before this layer to turn [N, d1, d2, ...] into [N, d1·d2·...]");
  if (a.units < 1 || x.size() != 2) return std::nullopt;
  Dim n = x[0], in = x[1], units = Dim(a.units);
  ShapeOut<Dim> out{{{n, units}}, {}};
  out.params.push_back({"weight", a.layout == WeightLayout::InOut ? Dims<Dim>{in, units} : Dims<Dim>{units, in}, true});
  if (a.has_bias) out.params.push_back({"bias", {units}, true});
  return out;
}

// y[n, u] = Σ_i x[n, i]·W(i, u) + b[u], with W(i, u) = weight[i, u] (InOut) or weight[u, i] (OutIn).
template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<LinearAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>& params) {
  const Tensor<T>&x = *inputs[0], &w = *params[0];
  const Tensor<T>* b = op.attrs().has_bias ? params[1] : nullptr;
  const int64_t n = x.shape()[0], in = x.shape()[1], units = op.attrs().units;
  const bool in_out = op.attrs().layout == WeightLayout::InOut;
  Tensor<T> y(op.outputs()[0]);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t u = 0; u < units; ++u) {
      T dot = sum_of<T>(in, [&](int64_t i) { return x[r * in + i] * w[in_out ? i * units + u : u * in + i]; });
      y[r * units + u] = b ? dot + (*b)[u] : dot;
    }
  return {std::move(y)};
}

// ---- matmul -----------------------------------------------------------------------------------

inline std::string op_name(const MatMulAttrs&) { return "matmul"; }
inline Arity arity(const MatMulAttrs&) { return {2, 2}; }

template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const MatMulAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!detail::require_arity(a, inputs.size(), sink)) return std::nullopt;
  const Dims<Dim>&A = inputs[0], &B = inputs[1];
  std::string shapes = "matmul of shapes " + dims_str(A) + " and " + dims_str(B);
  bool ranks_ok = A.size() >= 2 && B.size() >= 2;
  sink.require(ranks_ok, "shape.matmul.rank", shapes + ": both operands need rank at least 2");
  if (!ranks_ok) return std::nullopt;
  sink.require(A.size() == B.size(), "shape.matmul.rank-mismatch", shapes + ": the operands' ranks must be equal");
  if (A.size() != B.size()) return std::nullopt;
  const size_t r = A.size();
  Dims<Dim> out;
  for (size_t i = 0; i + 2 < r; ++i) {
    sink.require(A[i] == B[i], "shape.matmul.batch-mismatch",
                 shapes + ": batch axis " + std::to_string(i) + " has extents " + dim_str(A[i]) + " and " +
                     dim_str(B[i]));
    out.push_back(A[i]);
  }
  // A' = [m, k] and B' = [k, n] after the optional transposes.
  const Dim& m = a.transpose_a ? A[r - 1] : A[r - 2];
  const Dim& ka = a.transpose_a ? A[r - 2] : A[r - 1];
  const Dim& kb = a.transpose_b ? B[r - 1] : B[r - 2];
  const Dim& n = a.transpose_b ? B[r - 2] : B[r - 1];
  sink.require(ka == kb, "shape.matmul.inner-mismatch",
               shapes + " (transpose_a " + (a.transpose_a ? "true" : "false") + ", transpose_b " +
                   (a.transpose_b ? "true" : "false") + "): inner extents " + dim_str(ka) + " and " + dim_str(kb) +
                   " differ");
  out.push_back(m);
  out.push_back(n);
  return ShapeOut<Dim>{{std::move(out)}, {}};
}

// C[b, i, j] = Σ_l A'[b, i, l]·B'[b, l, j], A' = A or Aᵀ, B' = B or Bᵀ on the last two axes.
template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<MatMulAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  const Tensor<T>&A = *inputs[0], &B = *inputs[1];
  const Shape& out = op.outputs()[0];
  const size_t r = out.rank();
  const int64_t m = out[r - 2], n = out[r - 1];
  const int64_t ra = A.shape()[r - 2], ca = A.shape()[r - 1], rb = B.shape()[r - 2], cb = B.shape()[r - 1];
  const int64_t k = op.attrs().transpose_a ? ra : ca;
  const bool ta = op.attrs().transpose_a, tb = op.attrs().transpose_b;
  int64_t batches = 1;
  for (size_t i = 0; i + 2 < r; ++i) batches *= out[i];
  Tensor<T> C(out);
  for (int64_t b = 0; b < batches; ++b) {
    const int64_t a0 = b * ra * ca, b0 = b * rb * cb, c0 = b * m * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        C[c0 + i * n + j] = sum_of<T>(k, [&](int64_t l) {
          return A[a0 + (ta ? l * ca + i : i * ca + l)] * B[b0 + (tb ? j * cb + l : l * cb + j)];
        });
  }
  return {std::move(C)};
}

}  // namespace nnref
