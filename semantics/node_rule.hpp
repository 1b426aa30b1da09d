// One node's op as the graph walk reads it: its obligations over any dimension type.
#pragma once

#include <optional>
#include <vector>

#include "semantics/graph.hpp"
#include "spec/op_rule.hpp"

namespace nnref {

// op_obligations of the node's op (arity, operand kinds, shape rule, result shapes).
template <class Dim>
std::optional<ShapeOut<Dim>> node_obligations(const OpAttrs& op, const std::vector<ElemKind>& kinds,
                                              const std::vector<Dims<Dim>>& inputs, ObligationSink<Dim>& sink) {
  return std::visit([&](const auto& a) { return op_obligations(a, kinds, inputs, sink); }, op);
}

// Puts the node's location and name on a diagnostic raised about it.
Diagnostic at_node(Diagnostic d, const Node& node);

}  // namespace nnref
