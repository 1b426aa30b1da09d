// matmul: batched matrix product with optional transposes of either operand (NNEF matmul).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/matmul.hpp"
#include "spec/index.hpp"
#include "spec/matmul_batches.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const MatMulAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>&A = inputs[0], &B = inputs[1];
  const std::string shapes = "matmul of shapes " + dims_str(A) + " and " + dims_str(B);
  const bool ranks_ok = A.size() >= 2 && B.size() >= 2;
  sink.require(ranks_ok, kMatMulRank, shapes + ": both operands need rank at least 2");
  if (!ranks_ok) return std::nullopt;
  sink.require(A.size() == B.size(), kMatMulRankMismatch, shapes + ": the operands' ranks must be equal");
  if (A.size() != B.size()) return std::nullopt;
  const size_t r = A.size();
  Dims<Dim> out;
  for (size_t i = 0; i + 2 < r; ++i) {
    sink.require(extents_combine(A[i], B[i]), kMatMulBatchMismatch,
                 shapes + ": batch axis " + std::to_string(i) + " has extents " + dim_str(A[i]) + " and " +
                     dim_str(B[i]));
    out.push_back(combined_extent(A[i], B[i]));
  }
  // A' = [m, k] and B' = [k, n] after the optional transposes.
  const Dim& m = a.transpose_a ? A[r - 1] : A[r - 2];
  const Dim& ka = a.transpose_a ? A[r - 2] : A[r - 1];
  const Dim& kb = a.transpose_b ? B[r - 1] : B[r - 2];
  const Dim& n = a.transpose_b ? B[r - 2] : B[r - 1];
  sink.require(ka == kb, kMatMulInnerMismatch,
               shapes + " (transpose_a " + (a.transpose_a ? "true" : "false") + ", transpose_b " +
                   (a.transpose_b ? "true" : "false") + "): inner extents " + dim_str(ka) + " and " + dim_str(kb) +
                   " differ");
  out.push_back(m);
  out.push_back(n);
  return ShapeOut<Dim>{{std::move(out)}, {}};
}

// C[b, i, j] = Σ_l A'[b_A, i, l]·B'[b_B, l, j], A' = A or Aᵀ, B' = B or Bᵀ on the last two axes,
// b_A and b_B the batches of A and B that output batch b broadcasts from (spec/matmul_batches.hpp).
template <Scalar T>
void evaluate(const Checked<MatMulAttrs>& op, const OpIO<T>& io) {
  const Tensor<T>&A = io.in(0), &B = io.in(1);
  const Shape &out = op.outputs()[0], &sa = op.inputs()[0], &sb = op.inputs()[1];
  const size_t r = out.rank();
  const int64_t m = out[r - 2], n = out[r - 1];
  const int64_t ra = sa[r - 2], ca = sa[r - 1], rb = sb[r - 2], cb = sb[r - 1];
  const bool ta = op.attrs().transpose_a, tb = op.attrs().transpose_b;
  const int64_t k = ta ? ra : ca;
  const MatMulBatches batches = matmul_batches(sa, sb, out);
  // From A'[i, l] to A'[i, l + 1] and from B'[l, j] to B'[l + 1, j].
  const int64_t a_step = ta ? ca : 1, b_step = tb ? 1 : cb;
  Tensor<T>& C = io.out(0);
  // A column of B' read with a stride misses the cache at every term on large weights: it is
  // gathered once for all rows i (the same terms in the same order, so the same result).
  std::vector<T> column(b_step == 1 ? 0 : static_cast<size_t>(k));
  for (int64_t b = 0; b < static_cast<int64_t>(batches.a.size()); ++b)
    for (int64_t j = 0; j < n; ++j) {
      const int64_t b0 = batches.b[b] * rb * cb + (tb ? j * cb : j);  // B'[b_B, 0, j]
      for (size_t l = 0; l < column.size(); ++l) column[l] = B[b0 + static_cast<int64_t>(l) * b_step];
      const T* b_col = column.empty() ? &B[b0] : column.data();  // B'[b_B, :, j], contiguous
      const auto b_at = [&](int64_t l) -> const T& { return b_col[l]; };
      for (int64_t i = 0; i < m; ++i) {
        const int64_t a0 = batches.a[b] * ra * ca + (ta ? i : i * ca);  // A'[b_A, i, 0]
        const auto a_at = [&](int64_t l) -> const T& { return A[a0 + l * a_step]; };
        C[(b * m + i) * n + j] = dot_of<T>(k, a_at, b_at);
      }
    }
}

}  // namespace nnref
