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

namespace {

// The model compiled to NAC in memory at `w`'s quantization, and the schedule options the cost model
// gives for it: each result's bytes, each tick's cycles and each parameter's transfer, the SRAM.
struct Estimated {
  nac::LoadedProgram program;
  nac::ScheduleOptions schedule;
};

Result<Estimated> estimate(const Model& m, const nac::WriteOptions& w, const Config& c, int64_t max_memory) {
  auto compiled = loaded(nac::compile_program(m, w, LoadOptions{WeightsPolicy::Required, max_memory}));
  if (!compiled) return std::move(compiled).error();
  auto plan = make_plan<float>(compiled->model.graph, compiled->model.payload, PlanOptions{max_memory, compiled->model.param_keys});
  if (!plan) return std::move(plan).error();
  nac::ScheduleOptions s;
  s.sram_bytes = c.sram_bytes;
  for (const TickWork& t : tick_work(*compiled, *plan, c)) {
    s.value_bytes.push_back(t.result_bytes);
    s.tick_cycles.push_back(t.cost.cycles);
    s.load_cycles.push_back(t.param_load ? dram_cycles(t.result_bytes, c) : 0);
  }
  return Estimated{std::move(*compiled), std::move(s)};
}

// A .nac model's own program, read again from its file at the extents `m` has: those the file
// records no shape for (NAC v1.6 records none) and those --dim or the inputs set since it was read.
Result<nac::LoadedProgram> reread(const Model& m, int64_t max_memory) {
  LoadOptions options{WeightsPolicy::Required, max_memory};
  for (int64_t id : m.graph.input_ids()) {
    const Node& n = m.graph.nodes[static_cast<size_t>(id)];
    const auto& in = std::get<InputAttrs>(n.op);
    options.input_shapes.push_back({n.name, in.dims, in.kind});
  }
  auto lp = loaded(nac::load_program(m.path, options));
  if (!lp) return lp;
  for (int64_t id : lp->model.graph.input_ids()) {
    Node& n = lp->model.graph.nodes[static_cast<size_t>(id)];
    const Node* was = m.graph.find(n.name);
    if (was && std::holds_alternative<InputAttrs>(was->op)) std::get<InputAttrs>(n.op).dims = std::get<InputAttrs>(was->op).dims;
  }
  return lp;
}

}  // namespace

Result<nac::LoadedProgram> program_for(const Model& m, const Config& c, std::optional<int> preload_ahead,
                                       int64_t max_memory) {
  if (m.format == "nac") return reread(m, max_memory);
  auto e = estimate(m, nac::WriteOptions{}, c, max_memory);
  if (!e) return std::move(e).error();
  if (preload_ahead) {
    e->schedule.preload_ahead = *preload_ahead;
    e->schedule.tick_cycles.clear();
    e->schedule.load_cycles.clear();
  }
  e->program.program.mmap = nac::compute_schedule(e->program.program, e->schedule);
  return std::move(e->program);
}

Result<std::pair<std::vector<int64_t>, std::vector<int64_t>>> preload_estimates(const Model& m, const nac::WriteOptions& w,
                                                                                const Config& c, int64_t max_memory) {
  auto e = estimate(m, w, c, max_memory);
  if (!e) return std::move(e).error();
  return std::pair{std::move(e->schedule.tick_cycles), std::move(e->schedule.load_cycles)};
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
