// integer_binary (ONNX's Add, Sub, Mul, Div, Mod, Min, Max on integers): z[i] = wrapped(type,
// x[i'] ∘ y[i'']) by integer_value (spec/integer_arith.hpp: + − × wrap modulo 2^64, Div truncates
// toward zero, Mod takes the divisor's sign and Fmod the dividend's, INT64_MIN / −1 wraps), then
// wrapped to the result's type (modulo 2^bits: uint8 200 + 100 = 44), the operands broadcast under
// the op's rule (spec/rules/broadcast.hpp). The same formula in every scalar: integers in,
// integers out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/integer_binary.hpp"
#include "spec/integer_arith.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"
#include "spec/truth.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const IntegerBinaryAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  auto out = broadcast_all(inputs, a.broadcast, sink);
  if (!out) return std::nullopt;
  return ShapeOut<Dim>{{std::move(*out)}, {}};
}

// One element: x ∘ y wrapped to the type, or kUnknownInteger ("any integer", spec/truth.hpp) when an operand is
// unknown or when the divisor of Div, Mod or Fmod is 0, for which ONNX defines no result (as
// gather gives NaN for an index with no element: no value, never a number). A result that wraps to
// INT64_MIN reads as unknown too, that being the sentinel's value.
inline int64_t integer_element(IntegerOp op, IntegerType type, int64_t x, int64_t y) {
  if (x == kUnknownInteger || y == kUnknownInteger) return kUnknownInteger;
  const std::optional<int64_t> z = integer_value(op, x, y);
  return z ? wrapped(type, *z) : kUnknownInteger;
}

// z[i] = wrapped(type, x[i'] ∘ y[i'']), each operand read at index i of z with its missing and extent-1 axes
// held at 0.
template <Scalar T>
void evaluate(const Checked<IntegerBinaryAttrs>& op, const OpIO<T>& io) {
  Tensor<int64_t>& z = std::get<Tensor<int64_t>>(*io.outputs[0]);
  broadcast_map(
      z.shape(), op.attrs().broadcast,
      [&](int64_t i, int64_t x, int64_t y) { z[i] = integer_element(op.attrs().op, op.attrs().type, x, y); },
      std::get<Tensor<int64_t>>(*io.inputs[0]), std::get<Tensor<int64_t>>(*io.inputs[1]));
}

}  // namespace nnref
