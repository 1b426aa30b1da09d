#include "semantics/evaluate.hpp"

#include "semantics/oracle.hpp"
#include "semantics/plan.hpp"

namespace nnref {

template <Scalar T>
Result<std::vector<Tensor<T>>> evaluate(const Graph& g, const Payload& payload, const std::vector<HostTensor>& inputs,
                                        const EvalOptions& options) {
  auto plan = make_plan<T>(g, payload, PlanOptions{options.max_memory, options.param_names, &inputs});
  if (!plan) return std::move(plan).error();
  return run_oracle(*plan, inputs);
}

#define NNREF_EVALUATE(unused, T)                                                                       \
  template Result<std::vector<Tensor<T>>> evaluate<T>(const Graph&, const Payload&,                    \
                                                      const std::vector<HostTensor>&, const EvalOptions&);
NNREF_FOR_EACH_SCALAR(NNREF_EVALUATE, )
#undef NNREF_EVALUATE

}  // namespace nnref
