// The ONNX ops that read a tensor at positions computed from data, and Det:
// GridSample and Det, compositions of IR gathers, selects and real arithmetic
// (docs/onnx.md, "Compositions").
#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"
#include "formats/onnx/tensor_proto.hpp"

namespace nnref::onnx_format {

namespace {

// ---- Det ----

// The largest n whose n×n determinants Det reads: Leibniz's formula has n!
// terms of n factors.
constexpr int64_t kMaxDetOrder = 5;

// Det of x [..., n, n]: Leibniz's formula det A = Σ over the permutations σ of
// sgn(σ)·Π_i A[i, σ(i)], the definition itself, so exact in reals for every
// matrix (no pivot, no division). The rows of x flattened to [..., n·n]; per
// row i one gather of the entries i·n + σ(i) of every σ, [..., n!]; their
// product; times the signs; summed over the permutations. n ≤ kMaxDetOrder
// (n·n! gathered entries per matrix); larger n is refused by name.
void det(Ctx &c) {
  const std::vector<int64_t> shape = c.shape(0);
  const size_t r = shape.size();
  if (r < 2 || shape[r - 1] != shape[r - 2])
    c.refuse("onnx.input-shape", "the input must be [..., n, n]: square "
                                 "matrices over its last two axes");
  const int64_t n = shape[r - 1];
  if (n < 1 || n > kMaxDetOrder)
    c.refuse("onnx.shape-unsupported",
             "Det reads matrices of order 1 to " +
                 std::to_string(kMaxDetOrder) +
                 " (Leibniz's formula, n! terms), not " + std::to_string(n));
  std::vector<int64_t> sigma(static_cast<size_t>(n));
  std::iota(sigma.begin(), sigma.end(), 0);
  std::vector<std::vector<int64_t>> entries(
      static_cast<size_t>(n)); // per row i, i·n + σ(i) of every σ
  std::vector<double> signs;
  do {
    int64_t inversions = 0;
    for (int64_t i = 0; i < n; ++i) {
      entries[static_cast<size_t>(i)].push_back(i * n +
                                                sigma[static_cast<size_t>(i)]);
      for (int64_t j = i + 1; j < n; ++j)
        inversions +=
            sigma[static_cast<size_t>(j)] < sigma[static_cast<size_t>(i)];
    }
    signs.push_back(inversions % 2 == 0 ? 1.0 : -1.0);
  } while (std::next_permutation(sigma.begin(), sigma.end()));
  const auto terms = static_cast<int64_t>(signs.size());
  std::vector<int64_t> flat(r - 2, 0);
  flat.push_back(n * n);
  const ValueRef rows = c.emit("rows", ReshapeAttrs{flat}, {c.data(0)});
  std::optional<ValueRef> product;
  for (int64_t i = 0; i < n; ++i) {
    const std::string s = "row" + std::to_string(i);
    const ValueRef picked = c.emit(
        s, GatherAttrs{-1},
        {rows, c.literal(s + "-entries",
                         integer_tensor(
                             Shape::make({terms}).value(),
                             std::move(entries[static_cast<size_t>(i)])))});
    product = product
                  ? binary(c, s + "-product", BinaryOp::Mul, *product, picked)
                  : picked;
  }
  const ValueRef signed_terms = binary(
      c, "signed", BinaryOp::Mul, *product,
      c.literal("signs", HostTensor{DType::F64, Shape::make({terms}).value(),
                                    std::move(signs)}));
  c.set_output(
      0, c.emit("", ReduceAttrs{ReduceOp::Sum, {-1}, false}, {signed_terms}));
}

} // namespace

void add_sampling_ops(OpTable &table) {
  add_ops(table, {
                     {"Det", det},
                 });
}

} // namespace nnref::onnx_format
