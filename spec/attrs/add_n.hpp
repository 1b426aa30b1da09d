// The attributes of add_n: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/add_n.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

// batch_axes: how many leading axes messages do not count, as for an axis attribute
// (spec/rules/axes.hpp: NNL 1, so that its users read per-sample axes; others 0).
struct AddNAttrs {
  size_t batch_axes = 0;
};

inline constexpr ObligationSpec kAddNMismatch{
    ObligationKind::Shape, "shape.add_n.mismatch",
    "Every input of add_n (NNL Add) has the shape of input 0: the same rank and the same extent on every axis.",
    "rank(x_k) == rank(x_0) && X_k == X_0, for every input k and axis",
    "`layer input = Input(shape: [32, 32, 8]); layer conv = Conv2D(filters: 8, kernel: 3, stride: [2, 1], padding: "
    "\"same\"); layer res = Add();` with `connections { input -> conv; [input, conv] -> res; }`, checked with "
    "`nnref check m.nnl --dim input.0=1..64`: heights input.0 and (input.0 + 1) / 2: error[shape.add_n.mismatch], "
    "counterexample: input.0 = 2."};

template <>
struct OpInfo<AddNAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kAddNMismatch}; }
};

inline std::string op_name(const AddNAttrs&) { return "add_n"; }
inline Arity arity(const AddNAttrs&) { return {2, -1}; }

}  // namespace nnref
