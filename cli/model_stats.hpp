// Per-node figures for inspect and init-weights: multiply-accumulates and fan-in.
#pragma once

#include <cstdint>
#include <vector>

#include "semantics/graph.hpp"
#include "semantics/wellformed.hpp"

namespace nnref {

// Multiply-accumulate operations of one evaluation of the node (0 for ops without products).
int64_t node_macs(const Node& node, const NodeInfo& info, const std::vector<Shape>& inputs);

// Multiply-accumulate operations of one evaluation of the whole graph.
int64_t graph_macs(const Graph& g, const GraphInfo& info);

// The number of inputs that feed each output unit through a weight tensor: conv
// (C/groups)·Πk, linear in_features. Used for He-style initialisation scale sqrt(2/fan_in).
int64_t weight_fan_in(const Node& node, const Shape& weight);

}  // namespace nnref
