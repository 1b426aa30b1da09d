// One node's op as the rest of semantics sees it: its arity and its shape rule's concrete reading.
#pragma once

#include <optional>
#include <type_traits>
#include <vector>

#include "semantics/graph.hpp"
#include "semantics/wellformed.hpp"
#include "spec/op_rule.hpp"

namespace nnref {

Arity node_arity(const OpAttrs& op);

// The node's output shapes and parameter shapes for these input shapes; a failed obligation is
// returned as a diagnostic located at the node.
Result<NodeInfo> node_info(const Node& node, const std::vector<Shape>& inputs);

// The obligations of an op over dimension type Dim (op_obligations). Input and Const nodes yield
// their declared dims (a Const also its "value" parameter), under the same output obligations;
// the checker replaces an Input's declared dims by its size symbols.
template <class Dim, class S>
std::optional<ShapeOut<Dim>> node_obligations(const OpAttrs& op, const std::vector<Dims<Dim>>& inputs, S& sink) {
  return std::visit(
      [&](const auto& a) -> std::optional<ShapeOut<Dim>> {
        using A = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<A, InputAttrs> || std::is_same_v<A, ConstAttrs>) {
          const Dims<Dim> dims(a.dims.begin(), a.dims.end());
          ShapeOut<Dim> out{{dims}, {}};
          if constexpr (std::is_same_v<A, ConstAttrs>) out.params.push_back({"value", dims, true});
          require_valid_shapes(op_name(a), out, sink);
          return out;
        } else {
          return op_obligations(a, inputs, sink);
        }
      },
      op);
}

// Puts the node's location and name on a diagnostic raised about it.
Diagnostic at_node(Diagnostic d, const Node& node);

}  // namespace nnref
