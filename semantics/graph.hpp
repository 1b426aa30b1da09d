// Graph and Node (TorchLean's NN.IR.Graph): structure only, never tensor data. Nodes are in
// topological order: every input of node i refers to a node with a smaller id.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "semantics/op.hpp"
#include "spec/diagnostic.hpp"

namespace nnref {

// One output of one node (ops such as split have several).
struct ValueRef {
  int64_t node = 0;
  int output = 0;
  bool operator==(const ValueRef&) const = default;
};

struct Node {
  int64_t id = 0;
  std::string name;  // unique; the key of its parameters in the Payload
  OpAttrs op;
  std::vector<ValueRef> inputs;
  SourceLoc loc;
  // The output shapes the source declares, where its format declares them (per output; nullopt
  // or a shorter list where it does not). A declared shape the rule disagrees with is an error.
  std::vector<std::optional<std::vector<int64_t>>> declared;
};

struct GraphOutput {
  std::string name;
  ValueRef value;
};

struct Graph {
  std::vector<Node> nodes;
  std::vector<GraphOutput> outputs;

  // Appends a node with the next id and returns that id.
  int64_t add(std::string name, OpAttrs op, std::vector<ValueRef> inputs = {}, SourceLoc loc = {});
  const Node* find(const std::string& name) const;
  // Ids of the Input nodes, in order; run-time inputs are matched to them by name or position.
  std::vector<int64_t> input_ids() const;
};

}  // namespace nnref
