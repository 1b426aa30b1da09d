// Well-formedness, checked once before any evaluation (TorchLean's checkWellFormed, LLVM's
// Verifier): the structure of the graph, then the graph walk (semantics/graph_walk.hpp) read over
// concrete extents. Each failure is a located diagnostic naming the node.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "semantics/graph.hpp"
#include "semantics/graph_walk.hpp"
#include "semantics/payload.hpp"
#include "spec/result.hpp"
#include "spec/shape.hpp"

namespace nnref {

struct NodeInfo {
  std::vector<Shape> outputs;
  ElemKind kind = ElemKind::Real;  // of every output
  std::vector<ParamInfo> params;
};

struct GraphInfo {
  std::vector<NodeInfo> nodes;  // indexed by node id
  int64_t peak_bytes = 0;       // what evaluation holds at its peak, at the scalar size checked for
};

// Ids in order, unique non-empty names, inputs that name an earlier node, at least one graph
// output and every output naming a node. All problems, in node order. Arity is the op's
// obligation (spec/rules/arity.hpp), read in the walk.
std::vector<Diagnostic> check_structure(const Graph& graph);

struct ConcreteCheck {
  std::vector<Diagnostic> diagnostics;  // in node order: one error per failing node (its other
                                        // failures as notes), then bind.unused warnings
  std::optional<GraphInfo> info;        // when no error
  bool ok() const { return info.has_value(); }
};

// The walk over the declared extents: structure, every node's obligations, the binding of every
// parameter (unless `payload` is nullptr), the budget of `budget` bytes at `scalar_size` bytes per
// element (unless scalar_size is 0), the parameters held as `holding` says (semantics/memory.hpp).
ConcreteCheck check_concrete(const Graph& graph, const Payload* payload, const ParamNames& names, int64_t scalar_size,
                             int64_t budget, ParamHolding holding = ParamHolding::WhileNodeRuns);

// The shapes, without parameters or budget; the first error.
Result<GraphInfo> infer_shapes(const Graph& graph);

// Everything check_concrete checks; the first error (warnings are skipped). Used by every engine.
// `names`: the parameters' names in the model's terms (semantics/param_names.hpp).
Result<GraphInfo> check_graph(const Graph& graph, const Payload& payload, int64_t scalar_size, int64_t budget,
                              const ParamNames& names = {}, ParamHolding holding = ParamHolding::WhileNodeRuns);

// A warning ("bind.unused") for each payload entry whose (node, role) is not in `used`.
std::vector<Diagnostic> unused_parameters(const Payload& payload,
                                          const std::set<std::pair<std::string, std::string>>& used,
                                          const ParamNames& names = {});

}  // namespace nnref
