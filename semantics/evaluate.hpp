// The denotational evaluator in one call: the plan (semantics/plan.hpp: well-formedness, shapes,
// bindings and the memory budget, checked once) and the oracle engine over it (semantics/oracle.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "semantics/graph.hpp"
#include "semantics/param_names.hpp"
#include "semantics/payload.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"
#include "spec/scalars.hpp"
#include "spec/tensor.hpp"
#include "spec/value.hpp"

namespace nnref {

struct EvalOptions {
  int64_t max_memory = int64_t{4} << 30;  // bytes the evaluation holds at its peak, in the scalar type
  ParamNames param_names{};               // how binding errors name parameters (Model::param_keys)
};

// `inputs` are matched by position to graph.input_ids(); each must have exactly the declared
// shape. Returns the values of graph.outputs, in order, or the first error, naming the node and
// its source location.
template <Scalar T>
Result<std::vector<Tensor<T>>> evaluate(const Graph& graph, const Payload& payload,
                                        const std::vector<HostTensor>& inputs, const EvalOptions& options);

// The outputs, of any kind, of a graph without inputs (values a reader computes from constants
// alone: an ONNX Loop's trip count) in the exact value's Interval and in the Envelope of the
// thread's runtime model (float32 unless a RuntimeScope says else), computed by the oracle.
// Readers reach it through LoadOptions::enclose_constants: they do not link the oracle.
struct ConstantEnclosures {
  std::vector<Value<Interval>> exact;
  std::vector<Value<Envelope>> runtime;
};
Result<ConstantEnclosures> enclose_constants(const Graph& graph, const Payload& payload, int64_t max_memory);

#define NNREF_EXTERN_EVALUATE(unused, T)                                                                    \
  extern template Result<std::vector<Tensor<T>>> evaluate<T>(const Graph&, const Payload&,                 \
                                                             const std::vector<HostTensor>&, const EvalOptions&);
NNREF_FOR_EACH_SCALAR(NNREF_EXTERN_EVALUATE, )
#undef NNREF_EXTERN_EVALUATE

}  // namespace nnref
