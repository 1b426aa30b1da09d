// nnref bench: a model's latency on one of nnref's float32 engines, repeated, with its arithmetic
// rate and the share of this machine's float32 peak it reaches (docs/fastpath.md, "Peak").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
#include <optional>
#include <random>
#include <stdexcept>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/engines.hpp"
#include "cli/sizes.hpp"
#include "cli/model_stats.hpp"
#include "fastpath/engine.hpp"
#include "fastpath/gemm.hpp"
#include "fastpath/peak.hpp"
#include "semantics/oracle.hpp"

namespace nnref {

namespace {

// Deterministic inputs of the declared shapes when none are given: reals uniform in [−1, 1),
// integers and logical values 0.
std::vector<HostTensor> generated_inputs(const Graph& g) {
  std::mt19937_64 gen(1);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<HostTensor> out;
  for (int64_t id : g.input_ids()) {
    const auto& in = std::get<InputAttrs>(g.nodes[static_cast<size_t>(id)].op);
    HostTensor h{in.kind == ElemKind::Real ? DType::F32 : in.kind == ElemKind::Integer ? DType::I64 : DType::Bool,
                 *Shape::make(in.dims), {}};
    h.values.resize(static_cast<size_t>(h.shape.count()), 0.0);
    if (in.kind == ElemKind::Real)
      for (double& v : h.values) v = unit(gen);
    out.push_back(std::move(h));
  }
  return out;
}

// One run of the model, ready to repeat: the plan and (for the fast path) the prepared engine are
// made once, outside the timing.
struct Runner {
  Plan<float> plan;
  std::unique_ptr<fastpath::Engine> engine;
  Status run(const std::vector<HostTensor>& inputs) {
    if (engine) {
      auto r = engine->run(inputs);
      return r ? Status{} : Status(std::move(r).error());
    }
    auto r = run_oracle(plan, inputs);
    return r ? Status{} : Status(std::move(r).error());
  }
};

double quantile(std::vector<double> sorted, double q) {
  std::sort(sorted.begin(), sorted.end());
  const double at = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(at);
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (at - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

}  // namespace

int bench_command(const BenchOptions& o, std::ostream& out, std::ostream& err) {
  if (Status chosen = prepare_engine_choice(o.engine); !chosen) {
    print_diagnostics(err, {chosen.error()});
    return kExitUsage;
  }
  int exit = kExitOk;
  // Given inputs set the sizes they carry (cli/sizes.hpp); without them, the declared sizes.
  auto loaded = load_with_inputs(o.model, LoadOptions{WeightsPolicy::Required, o.max_memory}, {}, o.inputs, err, exit);
  if (!loaded) return exit;
  const Model& model = loaded->model;
  if (o.inputs.empty()) loaded->inputs = generated_inputs(model.graph);
  const std::vector<HostTensor>& inputs = loaded->inputs;
  auto plan = make_plan<float>(model.graph, model.payload, PlanOptions{o.max_memory, model.param_keys});
  if (!plan) {
    Diagnostic d = std::move(plan).error();
    note_given_sizes(d, loaded->model.graph, loaded->sizes);
    print_diagnostics(err, {d});
    return exit_code_for(d);
  }
  auto info = shapes_reporting(model, 0, err, exit);
  if (!info) return exit;
  Runner runner{std::move(plan).value(), nullptr};
  if (is_fast(o.engine)) {
    auto engine = fastpath::Engine::prepare(runner.plan, {o.engine.threads, o.max_memory});
    if (!engine) {
      print_diagnostics(err, {engine.error()});
      return exit_code_for(engine.error());
    }
    runner.engine = std::move(engine).value();
  }
  std::vector<double> ms;
  for (int k = 0; k <= o.repeat; ++k) {  // the first run warms caches and is not counted
    const auto start = std::chrono::steady_clock::now();
    if (Status s = runner.run(inputs); !s) {
      print_diagnostics(err, {s.error()});
      return exit_code_for(s.error());
    }
    const double elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (k > 0) ms.push_back(elapsed);
  }

  const double median = quantile(ms, 0.5), gflop = 2.0 * static_cast<double>(graph_macs(model.graph, *info)) / 1e9;
  const double gflops = gflop / (median / 1e3);
  const std::string target = is_fast(o.engine) ? fastpath::current_target() : "oracle";
  const int threads = is_fast(o.engine) ? o.engine.threads : 1;
  std::optional<int> fma_override;
  try {
    fma_override = fastpath::fma_override_from_env();
  } catch (const std::invalid_argument& e) {
    print_diagnostics(err, {make_error("usage.fma-per-cycle", e.what())});
    return kExitUsage;
  }
  const fastpath::Peak peak = fastpath::measure_peak(threads, fma_override);
  const double peak_gflops = peak.flops() / 1e9;
  if (o.format == "json") {
    nlohmann::json j = {{"model", o.model},          {"engine", o.engine.engine},
                        {"target", target},          {"threads", threads},
                        {"repeat", o.repeat},        {"median_ms", median},
                        {"min_ms", quantile(ms, 0)}, {"p10_ms", quantile(ms, 0.1)},
                        {"p90_ms", quantile(ms, 0.9)}, {"max_ms", quantile(ms, 1)},
                        {"gflop", gflop},            {"gflops", gflops},
                        {"peak_gflops", peak_gflops}, {"percent_of_peak", 100 * gflops / peak_gflops},
                        {"peak_derivation", peak.derivation()}};
    out << j.dump(2) << "\n";
    return kExitOk;
  }
  char line[256];
  std::snprintf(line, sizeof line, "%s: %s engine (%s, %d thread(s)), %d runs after one warm-up\n", o.model.c_str(),
                o.engine.engine.c_str(), target.c_str(), threads, o.repeat);
  out << line;
  std::snprintf(line, sizeof line, "latency: median %.3f ms (min %.3f, p10 %.3f, p90 %.3f, max %.3f)\n", median,
                quantile(ms, 0), quantile(ms, 0.1), quantile(ms, 0.9), quantile(ms, 1));
  out << line;
  std::snprintf(line, sizeof line, "work: %.4f GFLOP (2 per multiply-add), %.1f GFLOP/s, %.1f %% of the float32 peak\n",
                gflop, gflops, 100 * gflops / peak_gflops);
  out << line << "peak: " << peak.derivation() << "\n";
  return kExitOk;
}

}  // namespace nnref
