#include "fastpath/engine.hpp"

#include <algorithm>

#include "fastpath/fusion.hpp"
#include "fastpath/memory_plan.hpp"

namespace nnref::fastpath {

namespace {

// A run-time input into its slot, in the element type the oracle reads it as.
void copy_input(const HostTensor& h, const Slot& s, const Frame& f) {
  const auto& v = h.values;
  switch (s.kind) {
    case ElemKind::Real: std::transform(v.begin(), v.end(), f.at<float>(s), [](double x) { return static_cast<float>(x); }); return;
    case ElemKind::Integer: std::transform(v.begin(), v.end(), f.at<int64_t>(s), [](double x) { return static_cast<int64_t>(x); }); return;
    case ElemKind::Logical: std::transform(v.begin(), v.end(), f.at<uint8_t>(s), [](double x) -> uint8_t { return x != 0.0; }); return;
  }
}

}  // namespace

Result<std::unique_ptr<Engine>> Engine::prepare(const Plan<float>& plan, const EngineOptions& options) {
  std::unique_ptr<Engine> e(new Engine(plan, options.threads));
  const auto groups = fuse(plan);
  const MemoryPlan memory = plan_memory(plan, groups);
  if (memory.arena_bytes > options.max_memory)
    return make_error("fast.memory", "the fast path's arena needs " + std::to_string(memory.arena_bytes) +
                                         " bytes, over the budget of " + std::to_string(options.max_memory));
  e->arena_bytes_ = memory.arena_bytes;
  e->live_peak_bytes_ = memory.live_peak_bytes;
  e->arena_ = hwy::AllocateAligned<std::byte>(static_cast<size_t>(std::max<int64_t>(memory.arena_bytes, 1)));
  const auto slot = [&](const ValueRef& r) { return memory.slots[static_cast<size_t>(r.node)][static_cast<size_t>(r.output)]; };

  for (int64_t id : plan.input_ids) e->inputs_.push_back(memory.slots[static_cast<size_t>(id)][0]);
  for (const GraphOutput& o : plan.graph->outputs) {
    const Slot s = slot(o.value);
    if (s.kind != ElemKind::Real)
      return make_error("eval.kind", "output '" + o.name + "' holds " + elem_kind_name(s.kind) + " data, not reals");
    e->outputs_.push_back(s);
    e->results_.emplace_back(s.shape);
  }
  for (const FusedGroup& group : groups) {
    const PlannedNode<float>& head = plan.nodes[group.head];
    NodeLowering node;
    for (const ValueRef& r : head.node->inputs) node.inputs.push_back(slot(r));
    node.outputs = memory.slots[static_cast<size_t>(plan.nodes[group.last()].node->id)];
    for (const auto& p : head.params) node.params.push_back(p ? &*p : nullptr);
    node.epilogue = epilogue_of(group, plan);
    Step step = std::visit([&](const auto& op) { return lower_op(op, node); }, head.op);
    if (step) e->steps_.push_back(std::move(step));
  }
  return e;
}

Result<const std::vector<Tensor<float>>*> Engine::run(const std::vector<HostTensor>& inputs) {
  if (auto s = check_inputs(plan_, inputs); !s) return std::move(s).error();
  const Frame frame{arena_.get(), &pool_};
  for (size_t k = 0; k < inputs.size(); ++k) copy_input(inputs[k], inputs_[k], frame);
  for (const Step& step : steps_) step(frame);
  for (size_t k = 0; k < outputs_.size(); ++k) {
    const float* y = frame.at<float>(outputs_[k]);
    std::copy(y, y + results_[k].size(), results_[k].data().begin());
  }
  return &results_;
}

}  // namespace nnref::fastpath
