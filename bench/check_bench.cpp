// The checker's benchmark: a generated NNL model of about 10,000 nodes (residual chains,
// two-branch blocks joined by Concat, downsampling by a pool and a strided conv joined by Add)
// with symbolic batch, height and width, checked over every admissible size. The peer, measured in the same run, is the concrete well-formedness check
// (check_graph) of the same model at its declared sizes: the ratio is the price of proving a
// model for every size instead of checking it for one.
//
//   build/bench/check_bench [NODES]     (default 10000)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "checker/check_model.hpp"
#include "formats/model.hpp"

namespace fs = std::filesystem;
using namespace nnref;

namespace {

// NNL text with one residual block (8 nodes) after another, a Concat block every 4th and a
// two-branch downsampling after each quarter, until about `nodes` IR nodes.
std::string generate(int nodes) {
  std::string layers, edges;
  int n = 0, count = 1;  // count: IR nodes so far (the input)
  std::string x = "input";
  const auto layer = [&](const std::string& decl, std::initializer_list<std::string> from, int ir_nodes) {
    const std::string id = "l" + std::to_string(n++);
    layers += "  layer " + id + " = " + decl + ";\n";
    std::string srcs;
    for (const auto& f : from) srcs += (srcs.empty() ? "" : ", ") + f;
    edges += "    " + (from.size() == 1 ? srcs : "[" + srcs + "]") + " -> " + id + ";\n";
    count += ir_nodes;
    return id;
  };
  int block = 0, pools = 0;
  while (count < nodes - 4) {
    if (block % 4 == 3) {
      const std::string a = layer("Conv2D(filters: 8, kernel: 3, padding: \"same\")", {x}, 1);
      const std::string b = layer("Conv2D(filters: 8, kernel: 1)", {x}, 1);
      const std::string c = layer("Concat(axis: -1)", {a, b}, 1);
      x = layer("Conv2D(filters: 8, kernel: 1)", {c}, 1);
    } else {
      const std::string c1 = layer("Conv2D(filters: 8, kernel: 3, padding: \"same\")", {x}, 1);
      const std::string b1 = layer("BatchNorm()", {c1}, 1);
      const std::string r1 = layer("ReLU()", {b1}, 1);
      const std::string c2 = layer("Conv2D(filters: 8, kernel: 3, padding: \"same\")", {r1}, 1);
      const std::string b2 = layer("BatchNorm()", {c2}, 1);
      const std::string s = layer("Add()", {x, b2}, 1);
      x = layer("ReLU()", {s}, 1);
    }
    ++block;
    if (pools < 3 && count > (pools + 1) * nodes / 4) {
      // Downsampling by two branches that agree only on even extents (⌊H/2⌋ = ⌈H/2⌉): with the
      // assumption that H and W are multiples of 8 this needs Z3, not interval bounds.
      const std::string p = layer("MaxPool2D(kernel: 2)", {x}, 1);
      const std::string c = layer("Conv2D(filters: 8, kernel: 3, stride: 2, padding: \"same\")", {x}, 1);
      x = layer("Add()", {p, c}, 1);
      ++pools;
    }
  }
  layer("Softmax(axis: -1)", {x}, 1);
  return "version 0.2;\nmodel bench {\n  config { batch: 1; weights: \"./weights\"; }\n  layer input = Input(shape: [64, 64, 8]);\n" +
         layers + "  connections {\n" + edges + "  }\n}\n";
}

// Zero-filled parameters of exactly the shapes the layers need, so that every binding holds.
void fill_payload(Model& m, const GraphInfo& info) {
  for (const Node& node : m.graph.nodes)
    for (const auto& p : info.nodes[static_cast<size_t>(node.id)].params)
      if (!m.payload.find(node.name, p.role))
        m.payload.set(node.name, p.role,
                      ParamEntry{HostTensor{DType::F32, p.shape, std::vector<double>(static_cast<size_t>(p.shape.count()))},
                                 "<bench>"});
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int nodes = argc > 1 ? std::atoi(argv[1]) : 10000;
  const fs::path file = fs::temp_directory_path() / ("nnref_check_bench_" + std::to_string(::getpid()) + ".nnl");
  std::ofstream(file) << generate(nodes);
  LoadResult loaded = load_model(file.string(), LoadOptions{WeightsPolicy::Skip, int64_t{1} << 50});
  fs::remove(file);
  if (loaded.has_errors() || !loaded.model) {
    for (const auto& d : loaded.diagnostics) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
    return 1;
  }
  Model& m = *loaded.model;
  const int64_t budget = int64_t{1} << 50;  // 1 PiB: the size obligation is proved, not refuted
  auto info = infer_shapes(m.graph);
  if (!info) return std::fprintf(stderr, "%s\n", format_diagnostic(info.error()).c_str()), 1;
  fill_payload(m, *info);

  auto t0 = std::chrono::steady_clock::now();
  auto concrete = check_graph(m.graph, m.payload, 8, budget);
  const double t_concrete = seconds_since(t0);

  CheckSettings s;
  s.dims = {{"batch", 1, 64}, {"input.0", 16, 1024}, {"input.1", 16, 1024}};
  s.assumptions = {"input.0 % 8 == 0", "input.1 % 8 == 0"};
  s.budget = budget;
  t0 = std::chrono::steady_clock::now();
  auto report = check_model(m.graph, m.payload, m.param_keys, s);
  const double t_symbolic = seconds_since(t0);
  if (!report) return std::fprintf(stderr, "%s\n", format_diagnostic(report.error()).c_str()), 1;
  for (const auto& d : report->diagnostics) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());

  const auto& c = report->counts;
  std::printf("model: %zu nodes; --dim batch=1..64 input.0=16..1024 input.1=16..1024 --assume 'input.0 %% 8 == 0' "
              "--assume 'input.1 %% 8 == 0'\n",
              m.graph.nodes.size());
  std::printf("symbolic check: %.3f s, %lld obligations: %lld proved, %lld refuted, %lld unknown\n", t_symbolic,
              static_cast<long long>(c.total), static_cast<long long>(c.proved), static_cast<long long>(c.refuted),
              static_cast<long long>(c.unknown));
  std::printf("Z3 calls: %lld\n", static_cast<long long>(report->solver_calls));
  std::printf("concrete check at the declared sizes (peer): %.3f s (%s)\n", t_concrete, concrete ? "valid" : "invalid");
  std::printf("ratio symbolic / concrete: %.1f\n", t_symbolic / t_concrete);
  return c.refuted + c.unknown == 0 && concrete ? 0 : 1;
}
