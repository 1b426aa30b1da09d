// add_n: the sum of two or more inputs of identical shape, in input order (NNEF add_n, NNL Add).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/add_n.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const AddNAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& first = inputs[0];
  for (size_t k = 1; k < inputs.size(); ++k) {
    const std::string what = "add_n: " + sink.operand(k) + " has shape " + dims_str(inputs[k]) + ", but " +
                             sink.operand(0) + " has shape " + dims_str(first) +
                             "; all inputs must have the same shape";
    if (inputs[k].size() != first.size()) {
      sink.require(false, kAddNMismatch, what);
      return std::nullopt;
    }
    for (size_t i = 0; i < first.size(); ++i)
      sink.require(inputs[k][i] == first[i], kAddNMismatch,
                   what + " (" + axis_label(i, a.batch_axes) + ": " + dim_str(inputs[k][i]) + " vs " +
                       dim_str(first[i]) + ")");
  }
  return ShapeOut<Dim>{{first}, {}};
}

// y = Σ_k x_k, in input order.
template <Scalar T>
void evaluate(const Checked<AddNAttrs>&, const OpIO<T>& io) {
  std::vector<const Tensor<T>*> xs;
  for (size_t k = 0; k < io.inputs.size(); ++k) xs.push_back(&io.in(k));
  Tensor<T>& y = io.out(0);
  const auto n = static_cast<int64_t>(xs.size());
  for (int64_t i = 0; i < y.size(); ++i) y[i] = sum_of<T>(n, [&](int64_t k) { return (*xs[k])[i]; });
}

}  // namespace nnref
