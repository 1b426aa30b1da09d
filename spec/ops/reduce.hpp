// sum_reduce, mean_reduce, max_reduce, min_reduce, prod_reduce (ONNX ReduceProd): one value per group of positions over the given axes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/axis_groups.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"

namespace nnref {

enum class ReduceOp { Sum, Mean, Max, Min, Prod };
// Reduced axes become extent 1 (keep_dims, as NNEF) or disappear.
struct ReduceAttrs {
  ReduceOp op = ReduceOp::Sum;
  std::vector<int64_t> axes;  // may count from the end; empty is an error, not "all"
  bool keep_dims = true;
};

inline constexpr ObligationSpec kReduceEmptyAxis{
    ObligationKind::Shape, "shape.reduce.empty-axis",
    "Every axis reduced by mean_reduce, max_reduce or min_reduce has extent at least 1 (an empty group has no mean, "
    "max or min; sum_reduce gives 0, prod_reduce 1).",
    "X >= 1, for every reduced axis",
    "An IR mean_reduce over axis 1 of an input [2, 0, 3]: error[shape.reduce.empty-axis]."};

template <>
struct OpInfo<ReduceAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kReduceEmptyAxis}; }
  static std::vector<ReduceAttrs> prototypes() {
    std::vector<ReduceAttrs> all;
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod}) {
      ReduceAttrs a;
      a.op = op;
      all.push_back(a);
    }
    return all;
  }
};

inline std::string op_name(const ReduceAttrs& a) {
  switch (a.op) {
    case ReduceOp::Sum: return "sum_reduce";
    case ReduceOp::Mean: return "mean_reduce";
    case ReduceOp::Max: return "max_reduce";
    case ReduceOp::Min: return "min_reduce";
    case ReduceOp::Prod: return "prod_reduce";
  }
  return "reduce";
}
inline Arity arity(const ReduceAttrs&) { return {1, 1}; }

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
