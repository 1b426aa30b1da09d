#include "cli/engines.hpp"

#include "fastpath/engine.hpp"
#include "fastpath/targets.hpp"
#include "hw/engine.hpp"
#include "semantics/evaluate.hpp"

namespace nnref {

bool is_fast(const EngineChoice& e) { return e.engine == "fast"; }
bool is_hw(const EngineChoice& e) { return e.engine == "hw"; }

Status prepare_engine_choice(const EngineChoice& e) {
  if (!is_fast(e) && (e.threads != 1 || !e.target.empty()))
    return make_error("usage.fast-only", "--threads and --target choose how the fast path runs; add --engine fast");
  if (!e.target.empty()) return fastpath::force_target(e.target);
  return {};
}

Result<std::vector<Tensor<float>>> run_float32(const Model& m, const std::vector<HostTensor>& inputs,
                                               int64_t max_memory, const EngineChoice& e) {
  if (is_hw(e)) {
    const hw::Config config;
    auto program = hw::program_for(m, config, std::nullopt, max_memory);
    if (!program) return std::move(program).error();
    auto run = hw::run(*program, inputs, config, max_memory);
    if (!run) return std::move(run).error();
    return std::move(run->outputs);
  }
  if (!is_fast(e)) return evaluate<float>(m.graph, m.payload, inputs, EvalOptions{max_memory, m.param_keys});
  auto plan = make_plan<float>(m.graph, m.payload, PlanOptions{max_memory, m.param_keys, &inputs});
  if (!plan) return std::move(plan).error();
  auto engine = fastpath::Engine::prepare(*plan, {e.threads, max_memory});
  if (!engine) return std::move(engine).error();
  auto outputs = (*engine)->run(inputs);
  if (!outputs) return std::move(outputs).error();
  return **outputs;
}

}  // namespace nnref
