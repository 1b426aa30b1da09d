// ONNX's arithmetic on integers, on int64 (the IR's integer): + − × wrap modulo 2^64 as two's
// complement does (ONNX Runtime's int64 arithmetic); Div truncates toward zero (C, ONNX Runtime);
// Mod with fmod 0 takes the divisor's sign (Python's %), with fmod 1 the dividend's (C's fmod);
// Min and Max. A zero divisor gives no value: ONNX leaves it undefined. A result of a narrower
// type (IntegerType) is the int64 result wrapped to it, as ONNX Runtime's C++ arithmetic on
// int8, uint8, int16, uint16, int32 and uint32 leaves it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

namespace nnref {

enum class IntegerOp { Add, Sub, Mul, Div, Mod, Fmod, Min, Max };

// The integer type a result is held in: its width (64, 32, 16 or 8 bits) and its signedness.
// The IR's integers are int64: 64 bits unsigned or not is int64.
enum class IntegerWidth { Bits64, Bits32, Bits16, Bits8 };
constexpr int bits_of(IntegerWidth w) { return 64 >> static_cast<int>(w); }
struct IntegerType {
  IntegerWidth width = IntegerWidth::Bits64;
  bool is_signed = true;
  bool operator==(const IntegerType&) const = default;
};

// v as the type holds it: v modulo 2^bits, in [−2^(bits−1), 2^(bits−1)) when signed, in
// [0, 2^bits) when not (two's complement truncation).
inline int64_t wrapped(IntegerType t, int64_t v) {
  const int bits = bits_of(t.width);
  if (bits == 64) return v;
  const uint64_t mask = (uint64_t{1} << bits) - 1, sign = uint64_t{1} << (bits - 1);
  const uint64_t low = static_cast<uint64_t>(v) & mask;
  return static_cast<int64_t>(t.is_signed && (low & sign) != 0 ? low | ~mask : low);
}

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
