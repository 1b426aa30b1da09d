// ONNX's arithmetic on integers, on int64 (the IR's integer): + − × wrap modulo 2^64 as two's
// complement does (ONNX Runtime's int64 arithmetic); Div truncates toward zero (C, ONNX Runtime);
// Mod with fmod 0 takes the divisor's sign (Python's %), with fmod 1 the dividend's (C's fmod);
// Min and Max. A zero divisor gives no value: ONNX leaves it undefined.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

namespace nnref {

enum class IntegerOp { Add, Sub, Mul, Div, Mod, Fmod, Min, Max };

inline std::optional<int64_t> integer_value(IntegerOp op, int64_t a, int64_t b) {
  const auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (op) {
    case IntegerOp::Add: return static_cast<int64_t>(ua + ub);
    case IntegerOp::Sub: return static_cast<int64_t>(ua - ub);
    case IntegerOp::Mul: return static_cast<int64_t>(ua * ub);
    case IntegerOp::Min: return std::min(a, b);
    case IntegerOp::Max: return std::max(a, b);
    case IntegerOp::Div:
    case IntegerOp::Mod:
    case IntegerOp::Fmod: break;
  }
  if (b == 0) return std::nullopt;
  if (b == -1) return op == IntegerOp::Div ? static_cast<int64_t>(0 - ua) : 0;  // INT64_MIN / -1 wraps
  if (op == IntegerOp::Div) return a / b;
  const int64_t r = a % b;  // the dividend's sign
  return op == IntegerOp::Mod && r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

}  // namespace nnref
