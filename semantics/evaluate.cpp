#include "semantics/evaluate.hpp"

#include "semantics/oracle.hpp"
#include "semantics/plan.hpp"
#include "spec/op_instances.hpp"

namespace nnref {

template <Scalar T>
Result<std::vector<Tensor<T>>> evaluate(const Graph& g, const Payload& payload, const std::vector<HostTensor>& inputs,
                                        const EvalOptions& options) {
  auto plan = make_plan<T>(g, payload, PlanOptions{options.max_memory, options.param_names, &inputs, ParamHolding::WhileNodeRuns});
  if (!plan) return std::move(plan).error();
  return run_oracle(*plan, inputs);
}

namespace {

template <Scalar T>
Result<std::vector<Value<T>>> values_without_inputs(const Graph& g, const Payload& payload, int64_t max_memory) {
  auto plan = make_plan<T>(g, payload, PlanOptions{max_memory, {}, nullptr, ParamHolding::WhileNodeRuns});
  if (!plan) return std::move(plan).error();
  return run_plan_values<T>(*plan, {}, [](const CheckedOp& op, const OpIO<T>& io) {
    std::visit([&](const auto& o) { run_kernel(o, io); }, op);
  });
}

}  // namespace

Result<ConstantEnclosures> enclose_constants(const Graph& g, const Payload& payload, int64_t max_memory) {
  auto exact = values_without_inputs<Interval>(g, payload, max_memory);
  if (!exact) return std::move(exact).error();
  auto runtime = values_without_inputs<Envelope>(g, payload, max_memory);
  if (!runtime) return std::move(runtime).error();
  return ConstantEnclosures{std::move(*exact), std::move(*runtime)};
}

#define NNREF_EVALUATE(unused, T)                                                                       \
  template Result<std::vector<Tensor<T>>> evaluate<T>(const Graph&, const Payload&,                    \
                                                      const std::vector<HostTensor>&, const EvalOptions&);
NNREF_FOR_EACH_SCALAR(NNREF_EVALUATE, )
#undef NNREF_EVALUATE

}  // namespace nnref
