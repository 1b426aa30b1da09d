// cumsum (ONNX CumSum): the cumulative sum of x along one axis, of reals or of integers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/cumsum.hpp"
#include "spec/axis_groups.hpp"
#include "spec/integer_arith.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"
#include "spec/truth.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const CumsumAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  sink.require(a.kind != ElemKind::Logical, kCumsumKind,
               "cumsum: its kind is logical, and it adds numbers (real or integer values)");
  if (!checked_axis(op_name(a), "axis", a.axis, AxisDomain(x.size()), sink)) return std::nullopt;
  return ShapeOut<Dim>{{x}, {}};
}

// The number of terms of y[i] along an axis of extent n: i + 1 from the start (i from the end when
// reversed: n − i), one fewer when exclusive.
inline int64_t cumsum_count(const CumsumAttrs& a, int64_t n, int64_t i) {
  return (a.reverse ? n - i : i + 1) - (a.exclusive ? 1 : 0);
}

// The position along the axis of the k-th term in summing order: k from the start, n − 1 − k when
// reversed.
inline int64_t cumsum_position(const CumsumAttrs& a, int64_t n, int64_t k) { return a.reverse ? n - 1 - k : k; }

// Σ_{k<count} term(k) over int64 modulo 2^64 (integer_value's Add, spec/integer_arith.hpp), wrapped
// to `type` as ONNX Runtime's CumSum of that type wraps (2^bits divides 2^64, so wrapping the int64
// sum once equals wrapping each partial sum), and kUnknownInteger when a term is unknown.
template <class Term>
int64_t integer_sum(IntegerType type, int64_t count, Term&& term) {
  int64_t acc = 0;
  for (int64_t k = 0; k < count; ++k) {
    const int64_t v = term(k);
    if (v == kUnknownInteger) return kUnknownInteger;
    acc = *integer_value(IntegerOp::Add, acc, v);
  }
  return wrapped(type, acc);
}

// Along the axis of extent n, with every other index held:
//   y[i] = Σ_{j ∈ P(i)} x[j],  P(i) = {0, …, i}          (forward)   {0, …, i − 1}      (exclusive)
//                                    {i, …, n − 1}      (reverse)   {i + 1, …, n − 1}  (both)
// its terms taken in summing order (from the start, or from the end when reversed). Reals: sum_of
// over P(i), so that an enclosure bounds the sum as a whole (any order of a runtime's additions,
// a running sum included); an empty P(i) gives 0 exactly. Integers: integer_sum (wraps at the
// result type's width; unknown when a term of P(i) is).
template <Scalar T>
void evaluate(const Checked<CumsumAttrs>& op, const OpIO<T>& io) {
  const CumsumAttrs& a = op.attrs();
  const Shape& shape = op.inputs()[0];
  const auto axis = static_cast<size_t>(normalize_axis(a.axis, AxisDomain(shape.rank())));
  // Named members rather than a structured binding: clang 14 cannot capture bindings in lambdas.
  const AxisSplit split = split_axes(shape, {axis});
  const auto n = static_cast<int64_t>(split.inner.size());
  const auto cumulate = [&](const auto& x, auto& y, auto&& sum) {
    for (int64_t o : split.outer) {
      const auto at = [&](int64_t k) { return x[o + split.inner[static_cast<size_t>(cumsum_position(a, n, k))]]; };
      for (int64_t i = 0; i < n; ++i) y[o + split.inner[static_cast<size_t>(i)]] = sum(cumsum_count(a, n, i), at);
    }
  };
  if (a.kind == ElemKind::Integer)
    cumulate(io.template in_as<int64_t>(0), io.template out_as<int64_t>(0),
             [&a](int64_t count, const auto& at) { return integer_sum(a.type, count, at); });
  else
    cumulate(io.in(0), io.out(0), [](int64_t count, const auto& at) { return sum_of<T>(count, at); });
}

}  // namespace nnref
