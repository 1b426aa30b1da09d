// sum_reduce, mean_reduce, max_reduce, min_reduce, prod_reduce (ONNX ReduceProd): one value per group of positions over the given axes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/reduce.hpp"
#include "spec/axis_groups.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const ReduceAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const auto axes = checked_axes(op_name(a), a.axes, x.size(), false, sink);
  if (!axes) return std::nullopt;
  const std::vector<bool> reduced = axis_mask(*axes, x.size());
  Dims<Dim> out;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!reduced[i]) {
      out.push_back(x[i]);
      continue;
    }
    // A mean, max or min of no elements has no value.
    if (a.op != ReduceOp::Sum && a.op != ReduceOp::Prod)
      sink.require(x[i] >= int64_t{1}, kReduceEmptyAxis,
                   op_name(a) + ": reduced axis " + std::to_string(i) + " of input " + dims_str(x) +
                       " must have extent at least 1, got " + dim_str(x[i]));
    if (a.keep_dims) out.push_back(Dim(int64_t{1}));
  }
  return ShapeOut<Dim>{{std::move(out)}, {}};
}

// Over the group G of reduced positions: sum Σ_G x, mean Σ_G x / |G|, max, min and product Π_G x.
template <Scalar T>
void evaluate(const Checked<ReduceAttrs>& op, const OpIO<T>& io) {
  const Tensor<T>& x = io.in(0);
  const ReduceAttrs& a = op.attrs();
  const Shape& shape = op.inputs()[0];
  // Named members rather than a structured binding: clang 14 cannot capture bindings in lambdas.
  const AxisSplit split = split_axes(shape, normalized_axes(a.axes, shape.rank()));
  const std::vector<int64_t>& outer = split.outer;
  const std::vector<int64_t>& inner = split.inner;
  const int64_t n = static_cast<int64_t>(inner.size());
  Tensor<T>& y = io.out(0);
  for (size_t k = 0; k < outer.size(); ++k) {
    auto at = [&, o = outer[k]](int64_t r) { return x[o + inner[static_cast<size_t>(r)]]; };
    T& v = y[static_cast<int64_t>(k)];
    switch (a.op) {
      case ReduceOp::Sum: v = sum_of<T>(n, at); break;
      case ReduceOp::Mean: v = sum_of<T>(n, at) / from_double<T>(static_cast<double>(n)); break;
      case ReduceOp::Max: v = fold<T>(n, at, sc::max<T>); break;
      case ReduceOp::Min: v = fold<T>(n, at, sc::min<T>); break;
      case ReduceOp::Prod: v = ScalarOps<T>::prod(n, at); break;
    }
  }
}

}  // namespace nnref
