// Einsum (formats/onnx/ops/products.cpp): products, sums, diagonals, implicit outputs and "...",
// each worked out by hand from the equation (NumPy's einsum).
#include <cmath>
#include <limits>

#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> einsum(const TempDir& tmp, const std::string& equation, const std::vector<HostTensor>& xs) {
  OnnxModel m(12);
  std::vector<std::string> names;
  for (size_t k = 0; k < xs.size(); ++k) {
    names.push_back("x" + std::to_string(k));
    std::vector<std::string> dims;
    for (int64_t d : xs[k].shape.dims()) dims.push_back(std::to_string(d));
    m.input(names.back(), dims);
  }
  set_string(m.node("Einsum", names, {"y"}), "equation", equation);
  m.output("y");
  const auto out = run_f64(load_onnx(m, tmp / "m.onnx"), xs);
  return {out[0].data().begin(), out[0].data().end()};
}

}  // namespace

TEST_CASE("onnx Einsum: products, sums, diagonals, implicit outputs and broadcast axes, by hand") {
  TempDir tmp("onnx_einsum");
  const HostTensor a = host({2, 2}, {1, 2, 3, 4}), b = host({2, 2}, {5, 6, 7, 8});
  // [[1, 2], [3, 4]]·[[5, 6], [7, 8]] = [[19, 22], [43, 50]].
  CHECK(einsum(tmp, "ij,jk->ik", {a, b}) == std::vector<double>{19, 22, 43, 50});
  // Implicit output: "ij,jk" sums j and keeps i, k in alphabetical order: the same product.
  CHECK(einsum(tmp, "ij,jk", {a, b}) == std::vector<double>{19, 22, 43, 50});
  // "ba": the implicit output is "ab": the transpose.
  CHECK(einsum(tmp, "ba", {a}) == std::vector<double>{1, 3, 2, 4});
  // The diagonal, its sum (the trace), and an inner product.
  CHECK(einsum(tmp, "ii->i", {a}) == std::vector<double>{1, 4});
  CHECK(einsum(tmp, "ii", {a}) == std::vector<double>{5});
  CHECK(einsum(tmp, "i,i", {host({3}, {1, 2, 3}), host({3}, {4, 5, 6})}) == std::vector<double>{32});
  // A diagonal beside an infinite element: the element off the diagonal does not reach the result.
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(einsum(tmp, "ii->i", {host({2, 2}, {1, inf, -inf, 4})}) == std::vector<double>{1, 4});
  // "...ii->...i" over a batch of two: each matrix's diagonal.
  CHECK(einsum(tmp, "...ii->...i", {host({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})}) == std::vector<double>{1, 4, 5, 8});
  // "...": [2, 2] against [2] broadcasts as NumPy does: each row times [10, 100].
  CHECK(einsum(tmp, "...,...->...", {a, host({2}, {10, 100})}) == std::vector<double>{10, 200, 30, 400});
  // Three operands: (1·2)·[3, 4]ᵀ summed: Σ_ij x_i y_ij z_j with x = [1, 2], y = a, z = [1, 1]:
  // 1·(1 + 2) + 2·(3 + 4) = 17.
  CHECK(einsum(tmp, "i,ij,j->", {host({2}, {1, 2}), a, host({2}, {1, 1})}) == std::vector<double>{17});
}

TEST_CASE("onnx Einsum: a malformed equation is refused by name") {
  TempDir tmp("onnx_einsum_errors");
  const auto refused = [&](const std::string& equation, size_t inputs) {
    OnnxModel m(12);
    std::vector<std::string> names;
    for (size_t k = 0; k < inputs; ++k) {
      names.push_back("x" + std::to_string(k));
      m.input(names.back(), {"2", "2"});
    }
    set_string(m.node("Einsum", names, {"y"}), "equation", equation);
    m.output("y");
    return find_code(load_errors(m, tmp / "m.onnx"), "onnx.attribute-value") != nullptr;
  };
  CHECK(refused("ij,jk->ik", 1));  // two terms, one input
  CHECK(refused("ijk->i", 1));     // three letters for a matrix
  CHECK(refused("ij->ii", 1));     // an output label twice
  CHECK(refused("ij->k", 1));      // an output label in no input
  CHECK(refused("i.j->i", 1));     // a lone '.'
}
