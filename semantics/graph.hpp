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

// A parameter the graph computes from constants alone (an ONNX weight written as the Mul of two
// initializers, or DequantizeLinear of one): the node's parameter `role` is that value instead of
// a payload entry, evaluated in the plan's scalar when the plan is made (semantics/plan.cpp).
struct ParamValue {
  std::string role;
  ValueRef value;
};

// A condition on extents that the source states where its format states such things (a SkriptND
// @assert, an extent an operator's definition requires, a declared output extent), or that nnref's
// reading of the source assumes (`assumed`: a SkriptND graph is composed at its declared sizes, and
// a number composition computed from extents, such as a reshape's target, holds only at sizes that
// give the same number). Checked with the node that holds it, at every size (graph_walk.hpp).
struct SizeGuard {
  std::vector<ValueRef> values;  // `code` reads extent k of values[j] as kExtent j k
  std::vector<int64_t> code;     // a size program (spec/size_program.hpp) leaving 1 when the condition holds
  std::string message;           // the condition in the source's words, and where the source states it
  bool assumed = false;
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
  std::vector<ParamValue> param_values = {};
  std::vector<SizeGuard> guards = {};  // on the extents of this node's outputs and of earlier values

  // The value bound to parameter `role`, or nullptr when the payload holds it.
  const ValueRef* param_value(const std::string& role) const;
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
