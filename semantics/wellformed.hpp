// Well-formedness, checked once before any evaluation (TorchLean's checkWellFormed, LLVM's
// Verifier): structure, then every node's shape rule in id order, then the binding of every
// parameter. Each failure is a located diagnostic naming the node.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "semantics/graph.hpp"
#include "semantics/payload.hpp"
#include "spec/result.hpp"
#include "spec/shape.hpp"

namespace nnref {

struct ParamInfo {
  std::string role;
  Shape shape;  // exactly the shape the op implies
  bool required = true;
};

struct NodeInfo {
  std::vector<Shape> outputs;
  std::vector<ParamInfo> params;
};

struct GraphInfo {
  std::vector<NodeInfo> nodes;  // indexed by node id
};

// The name a (node, role) parameter has in its source, e.g. (bn1, scale) → "bn1.gamma"; absent
// entries are named "node/role".
using ParamNames = std::map<std::pair<std::string, std::string>, std::string>;
std::string param_name(const ParamNames& names, const std::string& node, const std::string& role);

// Ids in order, unique non-empty names, inputs that name an earlier node's existing output,
// arity, at least one graph output and every output valid. All problems, in node order.
std::vector<Diagnostic> check_structure(const Graph& graph);

// Runs every op's concrete shape rule (Input and Const nodes: their declared dims). The first
// failure is returned, located at its node. Assumes check_structure found nothing.
Result<GraphInfo> infer_shapes(const Graph& graph);

// Every parameter a node needs exists, is floating-point and has exactly the implied shape; each
// Const's value has its declared shape. Errors for those; a warning for each payload entry no node
// uses. Assumes infer_shapes succeeded.
std::vector<Diagnostic> check_bindings(const Graph& graph, const GraphInfo& info, const Payload& payload,
                                       const ParamNames& names = {});

// A warning ("bind.unused") for each payload entry whose (node, role) is not in `used`.
std::vector<Diagnostic> unused_parameters(const Payload& payload, const std::set<std::pair<std::string, std::string>>& used,
                                          const ParamNames& names = {});

// The bytes that evaluation in a scalar of `scalar_size` bytes will hold: every node output and
// every converted parameter. Over `budget`: a "size.budget" diagnostic naming the largest tensor.
Status check_memory(const Graph& graph, const GraphInfo& info, int64_t scalar_size, int64_t budget);

// All of the above in order; the first error (warnings are skipped). Used by every engine.
Result<GraphInfo> check_graph(const Graph& graph, const Payload& payload, int64_t scalar_size, int64_t budget);

}  // namespace nnref
