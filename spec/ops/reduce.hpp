// sum_reduce, mean_reduce, max_reduce, min_reduce, prod_reduce (ONNX ReduceProd): one value per group of positions over the given axes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/reduce.hpp"
#include "spec/axis_groups.hpp"
#include "spec/integer_arith.hpp"
#include "spec/truth.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const ReduceAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const bool mean_of_integers = a.kind == ElemKind::Integer && a.op == ReduceOp::Mean;
  sink.require(!mean_of_integers, kReduceIntegerMean, "mean_reduce of integers is not defined (it takes reals)");
  if (mean_of_integers) return std::nullopt;
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

// An integer group's sum or product modulo 2^64 (two's complement, as integer_binary's Add and
// Mul), wrapped to `type`, its max or min; unknown (kUnknownInteger) when an element is.
template <class F>
int64_t integer_reduction(ReduceOp op, IntegerType type, int64_t n, F&& at) {
  uint64_t acc = op == ReduceOp::Prod ? 1 : 0;
  int64_t extremum = 0;
  for (int64_t r = 0; r < n; ++r) {
    const int64_t v = at(r);
    if (v == kUnknownInteger) return kUnknownInteger;
    if (op == ReduceOp::Sum) acc += static_cast<uint64_t>(v);
    else if (op == ReduceOp::Prod) acc *= static_cast<uint64_t>(v);
    else if (r == 0) extremum = v;
    else extremum = op == ReduceOp::Max ? std::max(extremum, v) : std::min(extremum, v);
  }
  if (op == ReduceOp::Max || op == ReduceOp::Min) return extremum;
  return wrapped(type, static_cast<int64_t>(acc));
}

// Over the group G of reduced positions: sum Σ_G x, mean Σ_G x / |G|, max, min and product Π_G x;
// of integers integer_reduction's (Σ and Π wrap to the type).
template <Scalar T>
void evaluate(const Checked<ReduceAttrs>& op, const OpIO<T>& io) {
  const ReduceAttrs& a = op.attrs();
  const Shape& shape = op.inputs()[0];
  // Named members rather than a structured binding: clang 14 cannot capture bindings in lambdas.
  const AxisSplit split = split_axes(shape, normalized_axes(a.axes, shape.rank()));
  const std::vector<int64_t>& outer = split.outer;
  const std::vector<int64_t>& inner = split.inner;
  const int64_t n = static_cast<int64_t>(inner.size());
  if (a.kind == ElemKind::Integer) {
    const Tensor<int64_t>& xi = io.template in_as<int64_t>(0);
    Tensor<int64_t>& yi = io.template out_as<int64_t>(0);
    for (size_t k = 0; k < outer.size(); ++k)
      yi[static_cast<int64_t>(k)] = integer_reduction(
          a.op, a.type, n, [&, o = outer[k]](int64_t r) { return xi[o + inner[static_cast<size_t>(r)]]; });
    return;
  }
  const Tensor<T>& x = io.in(0);
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
