// The attributes of integer_binary: what the IR, the readers and the writers see of it. Its shape
// rule and formula: spec/ops/integer_binary.hpp, which only its own units include (cmake/ops.cmake).
// Elementwise arithmetic on integers as ONNX computes it: Add, Sub, Mul, Div, Mod (fmod 0 and 1),
// Min, Max of integer tensors (spec/integer_arith.hpp), computed in int64 and wrapped to the
// result's type (int64 by default; ONNX's int8 to uint32 wrap at their width).
#pragma once

#include <string>
#include <vector>

#include "spec/integer_arith.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"

namespace nnref {

struct IntegerBinaryAttrs {
  IntegerOp op = IntegerOp::Add;
  Broadcast broadcast = Broadcast::NumpyRight;
  IntegerType type{};  // of the result: x ∘ y in int64, wrapped to it
};

// Every integer_binary obligation is a broadcast obligation (spec/rules/broadcast.hpp).
template <>
struct OpInfo<IntegerBinaryAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
  static std::vector<IntegerBinaryAttrs> prototypes() {
    std::vector<IntegerBinaryAttrs> all;
    for (int op = 0; op <= static_cast<int>(IntegerOp::Max); ++op) all.push_back({static_cast<IntegerOp>(op)});
    return all;
  }
};

inline std::string op_name(const IntegerBinaryAttrs& a) {
  switch (a.op) {
    case IntegerOp::Add: return "integer_add";
    case IntegerOp::Sub: return "integer_sub";
    case IntegerOp::Mul: return "integer_mul";
    case IntegerOp::Div: return "integer_div";
    case IntegerOp::Mod: return "integer_mod";
    case IntegerOp::Fmod: return "integer_fmod";
    case IntegerOp::Min: return "integer_min";
    case IntegerOp::Max: return "integer_max";
  }
  return "integer_binary";
}
inline Arity arity(const IntegerBinaryAttrs&) { return {2, 2}; }
inline Signature signature(const IntegerBinaryAttrs&) {
  return {{ElemKind::Integer, ElemKind::Integer}, ElemKind::Integer, ElemKind::Integer};
}

}  // namespace nnref
