// The unary elementwise maps (NNEF 1.0 §4.2, §4.9): one formula per name, y[i] = f(x[i]).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "spec/attrs/unary.hpp"
#include "spec/op_rule.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const UnaryAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  if (a.op == UnaryOp::Elu || a.op == UnaryOp::LeakyRelu)
    sink.require(std::isfinite(a.alpha.value), kUnaryAlpha,
                 op_name(a) + ": alpha must be a finite number, got " + std::to_string(a.alpha.value));
  return ShapeOut<Dim>{{inputs[0]}, {}};
}

// The NNEF 1.0 definitions (§4.2, §4.9), and ONNX's erf and round. Branches on the sign of x go through
// sc::piecewise_at_zero, so that an enclosure holding both signs takes both pieces.
template <Scalar T>
T unary_value(const UnaryAttrs& a, const T& x) {
  const T one = from_double<T>(1.0);
  switch (a.op) {
    case UnaryOp::Copy: return x;
    case UnaryOp::Neg: return -x;
    case UnaryOp::Rcp: return one / x;
    case UnaryOp::Exp: return sc::exp(x);
    case UnaryOp::Log: return sc::log(x);
    case UnaryOp::Sin: return sc::sin(x);
    case UnaryOp::Cos: return sc::cos(x);
    case UnaryOp::Tan: return sc::tan(x);
    case UnaryOp::Sinh: return sc::sinh(x);
    case UnaryOp::Cosh: return sc::cosh(x);
    case UnaryOp::Tanh: return sc::tanh(x);
    case UnaryOp::Asin: return sc::asin(x);
    case UnaryOp::Acos: return sc::acos(x);
    case UnaryOp::Atan: return sc::atan(x);
    case UnaryOp::Asinh: return sc::asinh(x);
    case UnaryOp::Acosh: return sc::acosh(x);
    case UnaryOp::Atanh: return sc::atanh(x);
    case UnaryOp::Abs: return sc::abs(x);
    case UnaryOp::Sign: return sc::sign(x);  // 0 and NaN stay themselves
    case UnaryOp::Floor: return sc::floor(x);
    case UnaryOp::Ceil: return sc::ceil(x);
    case UnaryOp::Round: return sc::floor(x + from_double<T>(0.5));
    case UnaryOp::Sqr: return sc::sqr(x);
    case UnaryOp::Sqrt: return sc::sqrt(x);
    case UnaryOp::Rsqr: return one / sc::sqr(x);
    case UnaryOp::Rsqrt: return sc::rsqrt(x);
    case UnaryOp::Log2: return sc::log2(x);
    case UnaryOp::Relu: return sc::relu(x);
    case UnaryOp::Sigmoid: return sc::sigmoid(x);  // 1/(1 + exp(−x))
    case UnaryOp::Elu: {
      const T alpha = real_value<T>(a.alpha);
      return sc::piecewise_at_zero(x, [&](const T& v) { return alpha * (sc::exp(v) - one); }, [](const T& v) { return v; });
    }
    case UnaryOp::LeakyRelu: {
      const T alpha = real_value<T>(a.alpha);
      return sc::piecewise_at_zero(x, [&](const T& v) { return alpha * v; }, [](const T& v) { return v; });
    }
    case UnaryOp::Softplus: return sc::softplus(x);  // log(exp(x) + 1)
    case UnaryOp::Erf: return sc::erf(x);
    case UnaryOp::RoundEven: return sc::round_even(x);  // exact; ±0, ±inf and NaN stay
    case UnaryOp::RoundF16: return sc::round_to(x, kBinary16);  // exact, as round_even
    case UnaryOp::RoundBF16: return sc::round_to(x, kBfloat16);
  }
  return x;
}

template <Scalar T>
void evaluate(const Checked<UnaryAttrs>& op, const OpIO<T>& io) {
  const Tensor<T>& x = io.in(0);
  Tensor<T>& y = io.out(0);
  for (int64_t i = 0; i < y.size(); ++i) y[i] = unary_value(op.attrs(), x[i]);
}

}  // namespace nnref
