// One node's op as the rest of semantics sees it: its arity and its shape rule's concrete reading.
#pragma once

#include <vector>

#include "semantics/graph.hpp"
#include "semantics/wellformed.hpp"
#include "spec/op_rule.hpp"

namespace nnref {

Arity node_arity(const OpAttrs& op);

// The node's output shapes and parameter shapes for these input shapes; a failed obligation is
// returned as a diagnostic located at the node.
Result<NodeInfo> node_info(const Node& node, const std::vector<Shape>& inputs);

// Puts the node's location and name on a diagnostic raised about it.
Diagnostic at_node(Diagnostic d, const Node& node);

}  // namespace nnref
