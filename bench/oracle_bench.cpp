// The oracle's benchmark: the resnet_block example and a generated ResNet-18-shaped model
// (bench/resnet18.hpp), each run by nnref's oracle and, in the same run, by PyTorch in float64
// (bench/torch_nnl.py, through Python). Prints per model the best time of each and their ratio,
// the interval and float32-envelope interpretations' times as ratios to the f64 oracle's,
// and the largest difference between the two answers (rounding: both compute in float64, in
// different orders). nnref's oracle runs on one thread, and PyTorch is given one too
// (torch.set_num_threads(1)) unless --torch-threads says otherwise.
//
//   build/bench/oracle_bench [--size S] [--repeat R] [--torch-threads T] [--python PATH] [--keep DIR]
//
// --size: ResNet-18's input is S x S x 3 (default 112); --repeat: best of R runs (default 5);
// --keep: write the generated model, its weights and input to DIR and keep them (default: a
// temporary folder, removed at the end).
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/peer_json.hpp"
#include "bench/resnet18.hpp"
#include "cli/commands.hpp"
#include "formats/tensor_files/npy.hpp"
#include "semantics/oracle.hpp"
#include "semantics/plan.hpp"

namespace fs = std::filesystem;
using namespace nnref;

namespace {

// The outputs of a run as doubles, and the CPU time of its two phases.
struct Run {
  NamedTensors outputs;
  double plan_s = 0, oracle_s = 0;
};

// CPU time of the process, in seconds: unlike wall time, it does not count the time other
// processes on a shared machine hold the core.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// An interpretation of the model, run as `nnref run --precision NAME` runs it: the plan (checks,
// parameters converted to the scalar once) and the oracle, from a loaded model to its outputs.
struct Interpretation {
  std::string precision;
  std::function<Result<Run>(const Model&, const std::vector<HostTensor>&)> run;
};

template <Scalar T>
Result<Run> oracle(const Model& m, const std::vector<HostTensor>& inputs) {
  Run run;
  const double t0 = cpu_seconds();
  auto plan = make_plan<T>(m.graph, m.payload, PlanOptions{kDefaultMaxMemory, m.param_keys});
  if (!plan) return std::move(plan).error();
  const double t1 = cpu_seconds();
  auto r = run_oracle(*plan, inputs);
  if (!r) return std::move(r).error();
  run.plan_s = t1 - t0;
  run.oracle_s = cpu_seconds() - t1;
  for (size_t k = 0; k < r->size(); ++k) {
    HostTensor h{DType::F64, (*r)[k].shape(), {}};
    for (const T& x : (*r)[k].data()) h.values.push_back(sc::to_double(x));
    run.outputs.emplace_back(m.graph.outputs[k].name, std::move(h));
  }
  return run;
}

const std::vector<Interpretation>& interpretations() {
  static const std::vector<Interpretation> all{
      {"f64", oracle<double>}, {"interval", oracle<Interval>}, {"envelope", oracle<Envelope>}};  // f32 runtime
  return all;
}

struct Options {
  int64_t size = 112;
  int repeat = 5;
  int torch_threads = 1;
  std::string python = "/usr/bin/python3";
  std::string keep;
};

// The best CPU time and the best wall time of a call, in seconds.
struct Times {
  double cpu = std::numeric_limits<double>::infinity(), wall = std::numeric_limits<double>::infinity();
};

template <class F>
Times best_of(int repeat, F&& f) {
  Times best;
  for (int i = 0; i < repeat; ++i) {
    const double c0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best.cpu = std::min(best.cpu, cpu_seconds() - c0);
    best.wall = std::min(best.wall, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

// Runs bench/torch_nnl.py on the model and input, its outputs written to `out`; its JSON line
// (cpu_s, wall_s, threads, version), or nullopt if it failed.
std::optional<nlohmann::json> run_torch(const Options& o, const std::string& model, const std::string& input,
                                        const std::string& out) {
  const std::string cmd = bench::quoted(o.python) + " " + bench::quoted(std::string(NNREF_SOURCE_DIR) + "/bench/torch_nnl.py") +
                          " " + bench::quoted(model) + " " + bench::quoted(input) + " " + bench::quoted(out) + " --repeat " +
                          std::to_string(o.repeat) + " --threads " + std::to_string(o.torch_threads);
  return bench::peer_json(cmd, {"cpu_s", "wall_s", "threads", "version"});
}

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, " %.1f ms", seconds * 1e3);
  return buf;
}

std::string fixed(double v, const char* fmt) {
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// Largest |a − b| and largest |a| over the outputs of `a`, matched by name in `b`; NaN when an
// output is missing or has another shape.
std::pair<double, double> largest_difference(const NamedTensors& a, const NamedTensors& b) {
  double diff = 0, magnitude = 0;
  for (const auto& [name, t] : a) {
    auto other = std::find_if(b.begin(), b.end(), [&](const auto& e) { return e.first == name; });
    if (other == b.end() || !(other->second.shape == t.shape)) return {std::nan(""), 0};
    for (size_t i = 0; i < t.values.size(); ++i) {
      diff = std::max(diff, std::abs(t.values[i] - other->second.values[i]));
      magnitude = std::max(magnitude, std::abs(t.values[i]));
    }
  }
  return {diff, magnitude};
}

// Times one model under every interpretation and PyTorch and prints the lines; false on failure.
bool bench_model(const Options& o, const std::string& title, const std::string& model_path,
                 const std::string& input_path, const fs::path& work) {
  int exit = 0;
  auto loaded = load_reporting(model_path, LoadOptions{WeightsPolicy::Required, kDefaultMaxMemory}, std::cerr, exit);
  auto input = read_npy(input_path);
  if (!loaded || !input) {
    if (!input) std::cerr << format_diagnostic(input.error()) << "\n";
    return false;
  }
  std::cout << "\n" << title << ", input " << input->shape.str() << ", " << loaded->graph.nodes.size() << " nodes\n";

  const auto torch_out = (work / "torch.npz").string();
  const auto torch = run_torch(o, model_path, input_path, torch_out);
  auto torch_values = torch ? read_npz(torch_out) : Result<NamedTensors>(make_error("bench.torch", ""));
  if (!torch || !torch_values) {
    std::cerr << "oracle_bench: bench/torch_nnl.py failed on " << model_path
              << " (PyTorch: apt-get install python3-torch)\n";
    return false;
  }
  const Times peer{(*torch)["cpu_s"].get<double>(), (*torch)["wall_s"].get<double>()};
  std::cout << "  PyTorch " << (*torch)["version"].get<std::string>() << " float64, "
            << (*torch)["threads"].get<int>() << " thread(s):" << ms(peer.cpu) << " (wall" << ms(peer.wall) << ")\n";

  Times f64;
  for (const Interpretation& in : interpretations()) {
    Result<Run> out = Run{};
    double plan = std::numeric_limits<double>::infinity(), oracle = plan;
    const Times t = best_of(o.repeat, [&] {
      out = in.run(*loaded, {*input});
      if (out) plan = std::min(plan, out->plan_s), oracle = std::min(oracle, out->oracle_s);
    });
    if (!out) {
      std::cerr << format_diagnostic(out.error()) << "\n";
      return false;
    }
    std::cout << "  nnref " << in.precision << ":" << ms(t.cpu) << " (wall" << ms(t.wall) << "; plan" << ms(plan)
              << ", oracle" << ms(oracle) << ")";
    if (in.precision == "f64") {
      f64 = t;
      const auto [diff, magnitude] = largest_difference(out->outputs, *torch_values);
      std::cout << ": " << fixed(t.cpu / peer.cpu, "%.2f") << "x PyTorch (oracle alone "
                << fixed(oracle / peer.cpu, "%.2f") << "x); largest |nnref - PyTorch| " << fixed(diff, "%.2g")
                << ", largest |y| " << fixed(magnitude, "%.3g");
    } else {
      std::cout << ": " << fixed(t.cpu / f64.cpu, "%.1f") << "x nnref f64";
    }
    std::cout << "\n";
  }
  return true;
}

// Writes ResNet-18 at o.size into dir: model.nnl, weights/ (init-weights, seed 1), input.npy
// (uniform in [-1, 1), from a fixed mt19937_64 stream, rounded to float32).
bool write_resnet18(const Options& o, const fs::path& dir) {
  fs::create_directories(dir);
  std::ofstream(dir / "model.nnl") << bench::resnet18_nnl(o.size);
  std::ostringstream quiet;
  if (init_weights_command(InitWeightsOptions{(dir / "model.nnl").string(), 1, "", kDefaultMaxMemory}, quiet,
                           std::cerr) != 0)
    return false;
  HostTensor x{DType::F32, Shape::make({1, o.size, o.size, 3}).value(), {}};
  std::mt19937_64 rng(20240611);
  for (int64_t i = 0; i < x.shape.count(); ++i)
    x.values.push_back(static_cast<float>(static_cast<double>(rng() >> 11) * 0x1p-52 - 1.0));
  Status written = write_npy((dir / "input.npy").string(), x);
  if (!written) std::cerr << format_diagnostic(written.error()) << "\n";
  return static_cast<bool>(written);
}

std::optional<Options> parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 == argc) return std::nullopt;
    const std::string v = argv[++i];
    if (a == "--size") o.size = std::atoll(v.c_str());
    else if (a == "--repeat") o.repeat = std::atoi(v.c_str());
    else if (a == "--torch-threads") o.torch_threads = std::atoi(v.c_str());
    else if (a == "--python") o.python = v;
    else if (a == "--keep") o.keep = v;
    else return std::nullopt;
  }
  if (o.size < 5 || o.repeat < 1 || o.torch_threads < 1) return std::nullopt;
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const auto o = parse(argc, argv);
  if (!o) {
    std::cerr << "usage: oracle_bench [--size S (>= 5)] [--repeat R] [--torch-threads T] [--python PATH] "
                 "[--keep DIR]\n";
    return 2;
  }
  const fs::path work = o->keep.empty()
                            ? fs::temp_directory_path() / ("nnref_oracle_bench_" + std::to_string(::getpid()))
                            : fs::path(o->keep);
  const std::string source = NNREF_SOURCE_DIR;
  const fs::path r18 = work / "resnet18";
  bool ok = write_resnet18(*o, r18);
  std::cout << "oracle_bench: CPU time of the process, best of " << o->repeat << " runs; nnref's plan and oracle "
               "on 1 thread\n";
  ok = ok && bench_model(*o, "resnet_block (examples/resnet_block)", source + "/examples/resnet_block/model.nnl",
                         source + "/examples/resnet_block/input.npy", work);
  ok = ok && bench_model(*o,
                         "resnet18 at " + std::to_string(o->size) + "x" + std::to_string(o->size) +
                             (o->keep.empty() ? " (bench/resnet18.cpp)" : " (" + r18.string() + ")"),
                         (r18 / "model.nnl").string(), (r18 / "input.npy").string(), work);
  if (o->keep.empty()) fs::remove_all(work);
  return ok ? 0 : 1;
}
