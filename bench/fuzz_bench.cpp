// nnref fuzz's throughput: models judged per second on generated models of 5 to 20 op nodes, by
// the three float32 engines against the float32 envelope, in this process and isolated in a child
// per model (as `nnref fuzz` runs by default), with the share of each step. bench/README.md.
//
//   fuzz_bench [--seed S] [--models N]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "cli/fuzz_campaign.hpp"
#include "cli/fuzz_judge.hpp"
#include "cli/fuzz_reproducer.hpp"
#include "properties/generate.hpp"

using namespace nnref;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// CPU time of this process and of its children that have ended.
double cpu_seconds() {
  double total = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage u{};
    ::getrusage(who, &u);
    total += static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
             static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
  }
  return total;
}

void row(const char* what, size_t models, const std::function<void(const properties::GeneratedModel&)>& step,
         const std::vector<properties::GeneratedModel>& all) {
  const double c0 = cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& m : all) step(m);
  const double wall = seconds_since(t0), cpu = cpu_seconds() - c0;
  std::printf("%-44s %9.1f %9.1f %10.3f\n", what, static_cast<double>(models) / wall, static_cast<double>(models) / cpu,
              1e3 * cpu / static_cast<double>(models));
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed = 1;
  size_t wanted = 500;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--models") wanted = std::strtoull(argv[i + 1], nullptr, 10);
    else return std::fprintf(stderr, "usage: fuzz_bench [--seed S] [--models N]\n"), 2;
  }
  properties::GenOptions options;
  options.max_nodes = 20;
  std::vector<properties::GeneratedModel> models;
  int64_t generated = 0;
  const auto g0 = std::chrono::steady_clock::now();
  const double gc0 = cpu_seconds();
  for (int64_t k = 0; models.size() < wanted; ++k, ++generated) {
    properties::Choices choices = properties::Choices::fresh(seed_of(seed, k));
    auto m = properties::generate(choices, options);
    if (!m) return std::fprintf(stderr, "%s\n", m.error().message.c_str()), 1;
    const int nodes = op_node_count(m->model.graph);
    if (nodes >= 5 && nodes <= 20) models.push_back(std::move(m).value());
  }
  const double gen_wall = seconds_since(g0), gen_cpu = cpu_seconds() - gc0;
  int64_t nodes = 0;
  for (const auto& m : models) nodes += op_node_count(m.model.graph);
  std::printf("%zu models of 5-20 op nodes (mean %.1f), seed %llu, from %lld generated\n\n", models.size(),
              static_cast<double>(nodes) / static_cast<double>(models.size()), static_cast<unsigned long long>(seed),
              static_cast<long long>(generated));
  std::printf("%-44s %9s %9s %10s\n", "step", "models/s", "per CPU s", "CPU ms/model");
  std::printf("%-44s %9.1f %9.1f %10.3f\n", "generate (all generated, counted per kept)",
              static_cast<double>(models.size()) / gen_wall, static_cast<double>(models.size()) / gen_cpu,
              1e3 * gen_cpu / static_cast<double>(models.size()));
  const size_t n = models.size();
  const int64_t memory = int64_t{1} << 30;
  row("envelope and exact interval (enclose_outputs)", n,
      [&](const auto& m) { (void)enclose_outputs(m.model, m.inputs, float32_runtime(), memory); }, models);
  for (const char* engine : {"oracle", "fast", "hw"})
    row((std::string("engine ") + engine).c_str(), n,
        [&](const auto& m) { (void)run_float32(m.model, m.inputs, memory, EngineChoice{engine, 1, ""}); }, models);
  std::vector<Subject> subjects;
  for (const char* engine : {"oracle", "fast", "hw"}) subjects.push_back({engine, EngineChoice{engine, 1, ""}, {}});
  const std::filesystem::path work = std::filesystem::temp_directory_path();
  row("judged by 3 engines, in this process", n,
      [&](const auto& m) { (void)judge_model(m.model, m.inputs, subjects, work, memory); }, models);
  row("judged by 3 engines, a child process each", n,
      [&](const auto& m) { (void)judge_model_isolated(m.model, m.inputs, subjects, work, memory, 60); }, models);
  return 0;
}
