// The denotational evaluator (TorchLean's denoteAll): a fold over the nodes in id order, each
// node's value computed by its spec op from its parents' values. Well-formedness, shapes, bindings
// and the memory budget are checked once up front (semantics/wellformed.hpp); then every node's
// value, or the first error naming the node and its source location.
#pragma once

#include <cstdint>
#include <vector>

#include "semantics/graph.hpp"
#include "semantics/payload.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"
#include "spec/scalar.hpp"
#include "spec/tensor.hpp"

namespace nnref {

struct EvalOptions {
  int64_t max_memory = int64_t{4} << 30;  // bytes for all planned tensors, in the scalar type
};

// `inputs` are matched by position to graph.input_ids(); each must have exactly the declared
// shape. Returns the values of graph.outputs, in order.
template <Scalar T>
Result<std::vector<Tensor<T>>> evaluate(const Graph& graph, const Payload& payload,
                                        const std::vector<HostTensor>& inputs, const EvalOptions& options);

extern template Result<std::vector<Tensor<float>>> evaluate<float>(const Graph&, const Payload&,
                                                                   const std::vector<HostTensor>&,
                                                                   const EvalOptions&);
extern template Result<std::vector<Tensor<double>>> evaluate<double>(const Graph&, const Payload&,
                                                                     const std::vector<HostTensor>&,
                                                                     const EvalOptions&);
extern template Result<std::vector<Tensor<mp50>>> evaluate<mp50>(const Graph&, const Payload&,
                                                                 const std::vector<HostTensor>&,
                                                                 const EvalOptions&);

}  // namespace nnref
