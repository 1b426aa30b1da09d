// The attributes of squeeze: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/squeeze.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

struct SqueezeAttrs {
  std::vector<int64_t> axes;  // each must have extent 1; may count from the end
  ElemKind kind = ElemKind::Real;  // of the input and the output: a view holds any kind
};

inline constexpr ObligationSpec kSqueezeExtentNotOne{
    ObligationKind::Shape, "shape.squeeze.extent-not-one", "Every axis squeeze removes has extent 1.",
    "X == 1, for every listed axis",
    "An IR squeeze with axes [1] of an input [2, 3]: error[shape.squeeze.extent-not-one]."};

template <>
struct OpInfo<SqueezeAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kSqueezeExtentNotOne}; }
};

inline std::string op_name(const SqueezeAttrs&) { return "squeeze"; }
inline Arity arity(const SqueezeAttrs&) { return {1, 1}; }
inline Signature signature(const SqueezeAttrs& a) { return {{a.kind}, a.kind, a.kind}; }

}  // namespace nnref
