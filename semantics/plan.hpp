// The engine seam (DESIGN idea 6): a plan, built once per graph, input shapes and scalar, holds
// what every engine needs and none of them should compute on its own: per node the witness that
// its op holds for its input shapes and kinds, its parameters bound and converted to the scalar
// once, the shapes and kinds of the output slots its op writes into, and which values die after
// it (liveness), so that an engine holds at most the peak the budget was checked against. The
// oracle (semantics/oracle.hpp) is one engine over it; the fast path and the hardware model are
// others.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "semantics/graph.hpp"
#include "semantics/memory.hpp"
#include "semantics/op.hpp"
#include "semantics/param_names.hpp"
#include "semantics/payload.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"
#include "spec/scalars.hpp"

namespace nnref {

struct PlanOptions {
  int64_t max_memory = int64_t{4} << 30;  // bytes, at the plan's scalar size, at the peak
  ParamNames param_names{};               // how binding errors name parameters (Model::param_keys)
  // The run's inputs (in input_ids order), when the plan is made for one run: a size the graph
  // computes from the data of its inputs (a size program's kElement, spec/size_program.hpp) is
  // then evaluated from them. Without them such a size is shape.data-dependent-size.
  const std::vector<HostTensor>* inputs = nullptr;
  // How the plan holds the payload's parameters in T (semantics/memory.hpp). WhileNodeRuns suits a
  // plan run once: the run converts each node's parameters before the node and frees them after, so
  // that the payload's doubles are the only copy held throughout (an Envelope is 24 bytes).
  ParamHolding params = ParamHolding::WholeRun;
};

template <Scalar T>
struct PlannedNode {
  const Node* node = nullptr;
  CheckedOp op;                                // the witness (its outputs: the slots' shapes)
  std::vector<std::optional<Tensor<T>>> params;  // aligned with the witness's params; nullopt if absent
  std::vector<ValueRef> frees;                 // values no later node reads, freed after this one
  // ParamHolding::WhileNodeRuns: aligned with params, the payload's entry of each one the plan
  // does not hold (node_params converts it); empty otherwise.
  std::vector<const ParamEntry*> unconverted;
};

// The node's parameters as its kernel reads them (nullptr where absent): those the plan holds, and
// the others converted into `converted`, which holds them until the caller drops it.
template <Scalar T>
std::vector<const Tensor<T>*> node_params(const PlannedNode<T>& p, std::vector<Tensor<T>>& converted);

template <Scalar T>
struct Plan {
  const Graph* graph = nullptr;
  // The graph planned when it is not the one given: a copy whose sizes computed from data
  // (kElement) are the numbers this run's inputs give (kConstant); `graph` points to it.
  std::shared_ptr<const Graph> resolved;
  std::vector<PlannedNode<T>> nodes;  // in id order
  std::vector<int64_t> input_ids;     // the Input nodes, in the order run-time inputs bind to them
  int64_t peak_bytes = 0;             // what the plan holds at its peak
};

// Checks the graph (semantics/wellformed.hpp: structure, obligations, bindings, the budget at
// sizeof(T) bytes per element) and builds the plan; the first error otherwise. Given the run's
// inputs (PlanOptions::inputs), it first evaluates, in T, the integer values that sizes read
// (kElement) by planning and running the nodes before the first such size, and writes their
// elements into the programs: run.size-undetermined where T leaves one undetermined
// (kUnknownInteger: an Interval ArgMax of a tie), never a guess.
template <Scalar T>
Result<Plan<T>> make_plan(const Graph& graph, const Payload& payload, const PlanOptions& options);

// The run's inputs against the plan, which every engine checks first: their count (matched by
// position to input_ids), and each one's shape and dtype against its Input node's.
template <Scalar T>
Status check_inputs(const Plan<T>& plan, const std::vector<HostTensor>& inputs);

// The same over the Input nodes `input_ids` of g with their declared shapes and kinds (a graph
// without outputs, which has no plan: cli/outputs.hpp, check_inputs_only).
Status check_inputs_against(const Graph& g, const std::vector<int64_t>& input_ids,
                            const std::vector<std::pair<Shape, ElemKind>>& declared,
                            const std::vector<HostTensor>& inputs);

// The output shapes and kind of a node's witness.
const std::vector<Shape>& outputs_of(const CheckedOp& op);
ElemKind kind_of(const CheckedOp& op);

#define NNREF_EXTERN_PLAN(unused, T)                                                                   \
  extern template Result<Plan<T>> make_plan<T>(const Graph&, const Payload&, const PlanOptions&);      \
  extern template Status check_inputs<T>(const Plan<T>&, const std::vector<HostTensor>&);             \
  extern template std::vector<const Tensor<T>*> node_params<T>(const PlannedNode<T>&, std::vector<Tensor<T>>&);
NNREF_FOR_EACH_SCALAR(NNREF_EXTERN_PLAN, )
#undef NNREF_EXTERN_PLAN

}  // namespace nnref
