// The obligations of the graph as a whole: its structure (checked before any op rule), the edges
// and outputs the walk reads, the shapes a format declares, and the memory budget.
#pragma once

#include <vector>

#include "spec/obligation.hpp"

namespace nnref {

inline constexpr ObligationSpec kNodeId{ObligationKind::Graph, "graph.id",
                                        "Every node's id equals its position in the node list.",
                                        "id == position, for every node",
                                        "An IR graph whose node at position 2 carries id 5 (front-ends number their "
                                        "nodes; a hand-built graph may not): error[graph.id] has id 5 at position 2."};
inline constexpr ObligationSpec kNameEmpty{ObligationKind::Graph, "graph.name-empty",
                                           "Every node has a non-empty name.", "len(name) >= 1, for every node",
                                           "An IR node named \"\": error[graph.name-empty] has no name."};
inline constexpr ObligationSpec kNameDuplicate{
    ObligationKind::Graph, "graph.name-duplicate", "No two nodes share a name.",
    "name_i != name_j, for every two nodes i != j",
    "Two IR nodes both named conv1: error[graph.name-duplicate] at the second (NNL reports repeated layer ids "
    "earlier, as nnl.layer.duplicate-id)."};
inline constexpr ObligationSpec kTopology{
    ObligationKind::Graph, "graph.topology",
    "Every input of a node is an output of an earlier node: the nodes are in topological order.",
    "0 <= input_node && input_node < id, for every input of every node",
    "An IR node 1 that reads node 3, or itself: error[graph.topology] (NNL sorts its layers and reports a cycle as "
    "nnl.graph.cycle)."};
inline constexpr ObligationSpec kNoOutputs{ObligationKind::Graph, "graph.no-outputs",
                                           "The graph has at least one output.", "len(outputs) >= 1",
                                           "An IR graph with an empty output list: error[graph.no-outputs]."};
inline constexpr ObligationSpec kGraphOutput{
    ObligationKind::Graph, "graph.output", "Every graph output names an existing output of an existing node.",
    "0 <= node && node < len(nodes) && 0 <= output && output < outputs(node), for every graph output",
    "An IR output y that refers to node 7 of a 5-node graph, or to output 1 of a conv (which has one): "
    "error[graph.output] output 'y' refers to no node."};
inline constexpr ObligationSpec kOutputIndex{
    ObligationKind::Graph, "graph.output-index", "Every node input reads an output its producer has.",
    "0 <= output && output < outputs(producer), for every input of every node",
    "An IR relu node reading output 1 of node conv1, a conv with one output: error[graph.output-index] reads output 1 "
    "of node 'conv1', which has 1."};
inline constexpr ObligationSpec kDeclaredShape{
    ObligationKind::Shape, "shape.declared-mismatch",
    "Every output shape a model file declares for a node is the shape the op's rule gives.",
    "rank(declared) == rank(rule) && D_i == R_i, for every axis i of every declared output",
    "An IR relu node whose source declares the output [1, 8] while its input is [1, 4]: "
    "error[shape.declared-mismatch] (NNL declares no output shapes; NNEF and ONNX files do)."};
inline constexpr ObligationSpec kBudget{
    ObligationKind::Size, "size.budget",
    "The bytes evaluation holds at its peak fit the --max-memory budget (default 4G): every parameter for the whole "
    "run as read (8 bytes a value, the model's), each node's parameters converted to the evaluation's scalar while "
    "the node runs, and each node output from "
    "the node that writes it to its last reader (graph outputs to the end). When refuted, a note gives the largest "
    "admissible size that fits, maximised in the order the --dim options were given.",
    "8 * (count(p_1) + ... + count(p_m)) + 8 * (count(q_1) + ... + count(q_l)) + 8 * (count(o_1) + ... + "
    "count(o_k)) <= budget while each node runs, over every parameter p_i as read, the running node's parameters "
    "q_i converted, and every output o_j live then (8 bytes per element: the f64 evaluation; a parameter computed "
    "from constants, not read, is held converted for the whole run)",
    "`layer input = Input(shape: [1024]); layer fc = Dense(units: 1024);` checked with `nnref check m.nnl --dim "
    "batch=1..100000 --max-memory 24M`: 16384 * batch + 16793600 bytes while fc runs: error[size.budget], "
    "counterexample: batch = 512, located at the node holding the largest tensor, with the note: the largest "
    "admissible sizes that fit (maximised in --dim order): batch = 511."};

inline constexpr ObligationSpec kSourceCondition{
    ObligationKind::Shape, "shape.source-condition",
    "Every condition on extents that the model's source states holds: a SkriptND @assert, an extent an operator's "
    "definition requires of its inputs, an output extent a definition or the graph declares.",
    "c(E) != 0, for the size program c of each condition over the extents E of the values it reads",
    "A SkriptND graph whose input is declared real[batch, width] and whose nn.linear has a filter [5, 4]: holds "
    "for every batch; `check --dim width=3..5` gives error[shape.source-condition] (nn.linear: extent 1 of input "
    "'filter' equals 'c'), with a counterexample width other than 4."};
inline constexpr ObligationSpec kComposedSize{
    ObligationKind::Shape, "shape.composed-size",
    "The sizes are ones at which nnref's reading of the model holds: a SkriptND graph is composed at its declared "
    "sizes, and a number its composition computed from extents (a reshape's target, a padding) keeps that value.",
    "t(E) == t(E_declared), for each such number's size program t over the extents E",
    "The nn.conv of tests/data/nnef2/cnn, whose input is declared [batch, 3, 12, 12]: the IR conv holds the "
    "padding placed for the input's spatial extents ('ix' = 12); `check --dim input.2=10..14` gives "
    "error[shape.composed-size] with a counterexample input.2 other than 12."};

inline std::vector<const ObligationSpec*> graph_obligations() {
  return {&kNodeId,      &kNameEmpty,   &kNameDuplicate, &kTopology,        &kNoOutputs,   &kGraphOutput,
          &kOutputIndex, &kDeclaredShape, &kBudget,      &kSourceCondition, &kComposedSize};
}

}  // namespace nnref
