#include "hw/engine.hpp"

#include "formats/nac/schedule.hpp"
#include "hw/kernels.hpp"
#include "semantics/oracle.hpp"

namespace nnref::hw {

namespace {

constexpr int64_t kElementBytes = 4;  // every value in SRAM is float32 (a logical or integer one too)

Result<nac::LoadedProgram> loaded(nac::LoadedOrErrors r) {
  if (auto* diags = std::get_if<std::vector<Diagnostic>>(&r)) return diags->front();
  return std::move(std::get<nac::LoadedProgram>(r));
}

const PlannedNode<float>* planned(const Plan<float>& plan, const std::string& name) {
  const Node* n = plan.graph->find(name);
  return n ? &plan.nodes[static_cast<size_t>(n->id)] : nullptr;
}

int64_t output_bytes(const CheckedOp& op) {
  int64_t bytes = 0;
  for (const Shape& s : outputs_of(op)) bytes += kElementBytes * s.count();
  return bytes;
}

OpCost dram(int64_t bytes, const Config& c) { return {Unit::Dram, dram_cycles(bytes, c), 0}; }

}  // namespace

std::vector<TickWork> tick_work(const nac::LoadedProgram& lp, const Plan<float>& plan, const Config& c) {
  const nac::Program& p = lp.program;
  std::vector<TickWork> work(p.ops.size());
  for (size_t i = 0; i < p.ops.size(); ++i) {
    const nac::Instruction& ins = p.ops[i];
    TickWork& w = work[i];
    const std::string node = "v" + std::to_string(i);
    if (ins.a == nac::kOpInput && ins.b == nac::kInputUser) {
      auto named = p.input_names.find(static_cast<uint16_t>(i));
      const PlannedNode<float>* n = planned(plan, named != p.input_names.end() ? named->second : "input" + std::to_string(i));
      w.op = "input";
      w.result_bytes = w.core_dram_bytes = n ? output_bytes(n->op) : 0;
      w.cost = dram(w.result_bytes, c);
    } else if (ins.a == nac::kOpInput && ins.b == nac::kInputParam) {
      auto bytes = lp.param_bytes.find(ins.ref_id);
      w.op = "param";
      w.param_load = true;
      w.result_bytes = bytes != lp.param_bytes.end() ? bytes->second : 0;
    } else if (ins.a == nac::kOpOutput) {
      w.op = "output";
      for (const GraphOutput& o : plan.graph->outputs)
        w.core_dram_bytes += kElementBytes * outputs_of(plan.nodes[static_cast<size_t>(o.value.node)].op)[static_cast<size_t>(o.value.output)].count();
      w.cost = dram(w.core_dram_bytes, c);
    } else if (const PlannedNode<float>* n = planned(plan, node)) {
      w.op = std::visit([](const auto& o) { return op_name(o.attrs()); }, n->op);
      w.cost = cost_of(n->op, c);
      w.result_bytes = output_bytes(n->op);
    } else {
      w.op = ins.regular() ? "getitem" : "const";  // a view of an earlier result, or a lifted constant
    }
  }
  return work;
}

Result<nac::LoadedProgram> program_for(const Model& m, const Config& c, std::optional<int> preload_ahead,
                                       int64_t max_memory) {
  const LoadOptions load{WeightsPolicy::Required, max_memory};
  if (m.format == "nac") return loaded(nac::load_program(m.path, load));
  auto compiled = loaded(nac::compile_program(m, nac::WriteOptions{}, load));
  if (!compiled) return compiled;
  // The schedule again, now that the cost model can estimate each tick and each transfer.
  auto plan = make_plan<float>(compiled->model.graph, compiled->model.payload, PlanOptions{max_memory, compiled->model.param_keys});
  if (!plan) return std::move(plan).error();
  const std::vector<TickWork> work = tick_work(*compiled, *plan, c);
  nac::ScheduleOptions s;
  s.sram_bytes = c.sram_bytes;
  for (const TickWork& w : work) {
    s.value_bytes.push_back(w.result_bytes);
    s.tick_cycles.push_back(w.cost.cycles);
    s.load_cycles.push_back(w.param_load ? dram_cycles(w.result_bytes, c) : 0);
  }
  if (preload_ahead) {
    s.preload_ahead = *preload_ahead;
    s.tick_cycles.clear();
    s.load_cycles.clear();
  }
  compiled->program.mmap = nac::compute_schedule(compiled->program, s);
  return compiled;
}

Result<Run> run(const nac::LoadedProgram& lp, const std::vector<HostTensor>& inputs, const Config& c,
                int64_t max_memory) {
  auto plan = make_plan<float>(lp.model.graph, lp.model.payload, PlanOptions{max_memory, lp.model.param_keys});
  if (!plan) return std::move(plan).error();
  if (Status s = check_inputs(*plan, inputs); !s) return std::move(s).error();
  Run r;
  r.work = tick_work(lp, *plan, c);
  auto timeline = simulate(lp.program, r.work, c);
  if (!timeline) return std::move(timeline).error();
  r.timeline = std::move(*timeline);
  auto outputs = run_plan<float>(*plan, inputs, [&c](const CheckedOp& op, const OpIO<float>& io) { compute(op, io, c); });
  if (!outputs) return std::move(outputs).error();
  r.outputs = std::move(*outputs);
  return r;
}

}  // namespace nnref::hw
