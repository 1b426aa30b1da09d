// The attributes of binary: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/binary.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/rules/broadcast.hpp"

namespace nnref {

enum class BinaryOp {
  Add, Sub, Mul, Div, Pow, Min, Max,
  Fmod  // ONNX Mod with fmod = 1: C's fmod, x − y·trunc(x/y), x's sign
};
inline constexpr BinaryOp kLastBinaryOp = BinaryOp::Fmod;
struct BinaryAttrs {
  BinaryOp op = BinaryOp::Add;
  Broadcast broadcast = Broadcast::Equal;
};

// Every binary obligation is a broadcast obligation (spec/rules/broadcast.hpp).
template <>
struct OpInfo<BinaryAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
  static std::vector<BinaryAttrs> prototypes() {
    std::vector<BinaryAttrs> all;
    for (int op = 0; op <= static_cast<int>(kLastBinaryOp); ++op) all.push_back({static_cast<BinaryOp>(op)});
    return all;
  }
};

inline std::string op_name(const BinaryAttrs& a) {
  switch (a.op) {
    case BinaryOp::Add: return "add";
    case BinaryOp::Sub: return "sub";
    case BinaryOp::Mul: return "mul";
    case BinaryOp::Div: return "div";
    case BinaryOp::Pow: return "pow";
    case BinaryOp::Min: return "min";
    case BinaryOp::Max: return "max";
    case BinaryOp::Fmod: return "fmod";
  }
  return "binary";
}
inline Arity arity(const BinaryAttrs&) { return {2, 2}; }

}  // namespace nnref
