// The attributes of unary: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/unary.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

enum class UnaryOp {
  Copy, Neg, Rcp, Exp, Log, Sin, Cos, Tan, Sinh, Cosh, Tanh, Asin, Acos, Atan, Asinh, Acosh, Atanh,
  Abs, Sign, Floor, Ceil, Round, Sqr, Sqrt, Rsqr, Rsqrt, Log2,
  Relu, Sigmoid, Elu, LeakyRelu, Softplus,
  Erf,        // ONNX Erf: erf x = 2/√π ∫₀ˣ e^(−t²) dt
  RoundEven,  // ONNX Round: the nearest integer, halves to even (NNEF's round is ⌊x + ½⌋)
  RoundF16,   // ONNX Cast to float16: the nearest binary16 value, ties to even, ±∞ past 65504
  RoundBF16   // ONNX Cast to bfloat16: the nearest bfloat16 value, ties to even
};
inline constexpr UnaryOp kLastUnaryOp = UnaryOp::RoundBF16;
struct UnaryAttrs {
  UnaryOp op = UnaryOp::Copy;
  Real alpha = 0.0;  // LeakyRelu slope, Elu alpha; unused otherwise
};

inline constexpr ObligationSpec kUnaryAlpha{
    ObligationKind::Attribute, "attr.unary.alpha", "The alpha of elu and leaky_relu is a finite number.",
    "alpha is finite: neither NaN nor infinite",
    "An IR leaky_relu with alpha NaN (NNL has no layer with an alpha): error[attr.unary.alpha]."};

template <>
struct OpInfo<UnaryAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kUnaryAlpha}; }
  static std::vector<UnaryAttrs> prototypes() {
    std::vector<UnaryAttrs> all;
    for (int op = 0; op <= static_cast<int>(kLastUnaryOp); ++op) all.push_back({static_cast<UnaryOp>(op), Real(0.0)});
    return all;
  }
};

inline std::string op_name(const UnaryAttrs& a) {
  switch (a.op) {
    case UnaryOp::Copy: return "copy";
    case UnaryOp::Neg: return "neg";
    case UnaryOp::Rcp: return "rcp";
    case UnaryOp::Exp: return "exp";
    case UnaryOp::Log: return "log";
    case UnaryOp::Sin: return "sin";
    case UnaryOp::Cos: return "cos";
    case UnaryOp::Tan: return "tan";
    case UnaryOp::Sinh: return "sinh";
    case UnaryOp::Cosh: return "cosh";
    case UnaryOp::Tanh: return "tanh";
    case UnaryOp::Asin: return "asin";
    case UnaryOp::Acos: return "acos";
    case UnaryOp::Atan: return "atan";
    case UnaryOp::Asinh: return "asinh";
    case UnaryOp::Acosh: return "acosh";
    case UnaryOp::Atanh: return "atanh";
    case UnaryOp::Abs: return "abs";
    case UnaryOp::Sign: return "sign";
    case UnaryOp::Floor: return "floor";
    case UnaryOp::Ceil: return "ceil";
    case UnaryOp::Round: return "round";
    case UnaryOp::Sqr: return "sqr";
    case UnaryOp::Sqrt: return "sqrt";
    case UnaryOp::Rsqr: return "rsqr";
    case UnaryOp::Rsqrt: return "rsqrt";
    case UnaryOp::Log2: return "log2";
    case UnaryOp::Relu: return "relu";
    case UnaryOp::Sigmoid: return "sigmoid";
    case UnaryOp::Elu: return "elu";
    case UnaryOp::LeakyRelu: return "leaky_relu";
    case UnaryOp::Softplus: return "softplus";
    case UnaryOp::Erf: return "erf";
    case UnaryOp::RoundEven: return "round_even";
    case UnaryOp::RoundF16: return "round_f16";
    case UnaryOp::RoundBF16: return "round_bf16";
  }
  return "unary";
}
inline Arity arity(const UnaryAttrs&) { return {1, 1}; }

}  // namespace nnref
