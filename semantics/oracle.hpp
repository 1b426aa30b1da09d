// The oracle: the denotational evaluator (TorchLean's denoteAll) as an engine over a plan. Nodes
// run in id order, each op's formula writing into its output slots; a value is freed after its
// last reader.
#pragma once

#include <functional>
#include <vector>

#include "semantics/plan.hpp"
#include "spec/host_tensor.hpp"

namespace nnref {

// `inputs` are matched by position to plan.input_ids; each must have exactly the declared shape
// and a dtype of the declared kind. Returns the values of the graph outputs, in order.
template <Scalar T>
Result<std::vector<Tensor<T>>> run_oracle(const Plan<T>& plan, const std::vector<HostTensor>& inputs);

// The walk of any engine that computes node by node: run_oracle with `kernel` in place of the op's
// formula (the hardware model's own kernels, hw/kernels.hpp).
template <Scalar T>
using NodeKernel = std::function<void(const CheckedOp&, const OpIO<T>&)>;
template <Scalar T>
Result<std::vector<Tensor<T>>> run_plan(const Plan<T>& plan, const std::vector<HostTensor>& inputs,
                                        const NodeKernel<T>& kernel);
// The same walk, giving the graph outputs' values of any kind (run_plan requires reals): the plan
// reads integers it computes from the inputs as sizes (make_plan, semantics/plan.cpp).
template <Scalar T>
Result<std::vector<Value<T>>> run_plan_values(const Plan<T>& plan, const std::vector<HostTensor>& inputs,
                                              const NodeKernel<T>& kernel);

#define NNREF_EXTERN_ORACLE(unused, T)                                                                          \
  extern template Result<std::vector<Tensor<T>>> run_oracle<T>(const Plan<T>&, const std::vector<HostTensor>&); \
  extern template Result<std::vector<Tensor<T>>> run_plan<T>(const Plan<T>&, const std::vector<HostTensor>&,    \
                                                             const NodeKernel<T>&);                            \
  extern template Result<std::vector<Value<T>>> run_plan_values<T>(const Plan<T>&, const std::vector<HostTensor>&, \
                                                                   const NodeKernel<T>&);
NNREF_FOR_EACH_SCALAR(NNREF_EXTERN_ORACLE, )
#undef NNREF_EXTERN_ORACLE

}  // namespace nnref
