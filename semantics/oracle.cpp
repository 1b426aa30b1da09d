#include "semantics/oracle.hpp"

#include "semantics/host_values.hpp"

namespace nnref {

template <Scalar T>
Result<std::vector<Tensor<T>>> run_oracle(const Plan<T>& plan, const std::vector<HostTensor>& inputs) {
  return run_plan<T>(plan, inputs, [](const CheckedOp& op, const OpIO<T>& io) {
    std::visit([&](const auto& o) { run_kernel(o, io); }, op);
  });
}

template <Scalar T>
Result<std::vector<Value<T>>> run_plan_values(const Plan<T>& plan, const std::vector<HostTensor>& inputs,
                                              const NodeKernel<T>& kernel) {
  if (auto s = check_inputs(plan, inputs); !s) return std::move(s).error();
  std::vector<std::vector<std::optional<Value<T>>>> values(plan.nodes.size());
  size_t next_input = 0;
  for (const PlannedNode<T>& p : plan.nodes) {
    auto& out = values[static_cast<size_t>(p.node->id)];
    const bool is_input = std::holds_alternative<Checked<InputAttrs>>(p.op);
    for (const Shape& s : outputs_of(p.op))
      out.emplace_back(is_input ? to_value<T>(inputs[next_input++], kind_of(p.op)) : zeros<T>(kind_of(p.op), s));
    OpIO<T> io;
    std::vector<Tensor<T>> converted;  // freed after the node: ParamHolding::WhileNodeRuns
    for (const ValueRef& r : p.node->inputs)
      io.inputs.push_back(&*values[static_cast<size_t>(r.node)][static_cast<size_t>(r.output)]);
    io.params = node_params(p, converted);
    for (auto& v : out) io.outputs.push_back(&*v);
    kernel(p.op, io);
    for (const ValueRef& r : p.frees) values[static_cast<size_t>(r.node)][static_cast<size_t>(r.output)].reset();
  }
  std::vector<Value<T>> outputs;
  for (const GraphOutput& o : plan.graph->outputs)
    outputs.push_back(*values[static_cast<size_t>(o.value.node)][static_cast<size_t>(o.value.output)]);
  return outputs;
}

template <Scalar T>
Result<std::vector<Tensor<T>>> run_plan(const Plan<T>& plan, const std::vector<HostTensor>& inputs,
                                        const NodeKernel<T>& kernel) {
  auto values = run_plan_values(plan, inputs, kernel);
  if (!values) return std::move(values).error();
  std::vector<Tensor<T>> outputs;
  for (size_t k = 0; k < values->size(); ++k) {
    auto* t = std::get_if<Tensor<T>>(&(*values)[k]);
    if (t == nullptr)
      return make_error("eval.kind", "output '" + plan.graph->outputs[k].name + "' holds " +
                                         elem_kind_name(kind_of((*values)[k])) + " data, not reals");
    outputs.push_back(std::move(*t));
  }
  return outputs;
}

#define NNREF_ORACLE(unused, T)                                                                          \
  template Result<std::vector<Tensor<T>>> run_oracle<T>(const Plan<T>&, const std::vector<HostTensor>&); \
  template Result<std::vector<Tensor<T>>> run_plan<T>(const Plan<T>&, const std::vector<HostTensor>&, const NodeKernel<T>&); \
  template Result<std::vector<Value<T>>> run_plan_values<T>(const Plan<T>&, const std::vector<HostTensor>&,              \
                                                            const NodeKernel<T>&);
NNREF_FOR_EACH_SCALAR(NNREF_ORACLE, )
#undef NNREF_ORACLE

}  // namespace nnref
