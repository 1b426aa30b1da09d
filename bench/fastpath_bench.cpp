// The fast path's benchmark, so far its kernels: the float32 matrix product and 2-D convolution
// by the fast path (weights packed once, as the engine does at prepare time), by PyTorch
// (bench/torch_kernels.py, through Python) and by oneDNN (bench/onednn_kernels.cpp), all in one
// run on the same number of threads. Prints, per kernel and runner, the median and best wall time
// of R runs, GFLOP/s and the share of the machine's float32 peak (fastpath/peak.hpp) from the
// best, and the fast path's best time over each peer's.
//
//   build/bench/fastpath_bench [--repeat R] [--threads N] [--format text|json]
//                              [--fma-per-cycle F] [--python PATH] [ITEM ...]
//
// ITEM: gemm:S or conv:H:W:C:F:K:P (bench/kernel_item.hpp). Default: gemm:256 gemm:1024
// conv:56:56:64:64:3:1 conv:56:56:64:256:1:0. --fma-per-cycle (or NNREF_FMA_PER_CYCLE) sets the
// FMAs per cycle per core the peak assumes, when the table in fastpath/peak.cpp does not know
// this CPU. Exit 0, 1 if a peer fails, 2 on a usage error.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/kernel_item.hpp"
#include "bench/onednn_kernels.hpp"
#include "bench/peer_json.hpp"
#include "fastpath/conv.hpp"
#include "fastpath/gemm.hpp"
#include "fastpath/peak.hpp"
#include "fastpath/threads.hpp"

namespace fp = nnref::fastpath;
namespace bench = nnref::bench;

namespace {

const char* kUsage =
    "usage: fastpath_bench [--repeat R] [--threads N] [--format text|json] [--fma-per-cycle F] [--python PATH] "
    "[gemm:S | conv:H:W:C:F:K:P ...]\n";

// The fast path's kernel for item, operands made and weights packed, threads from pool.
std::function<void()> fast_kernel(const bench::KernelItem& item, fp::ThreadPool* pool) {
  if (item.kind == bench::KernelItem::Kind::gemm) {
    const int64_t s = item.size;
    auto a = std::make_shared<std::vector<float>>(bench::random_values(static_cast<size_t>(s * s)));
    auto c = std::make_shared<std::vector<float>>(a->size());
    auto b = std::make_shared<fp::PackedMatrix>(fp::pack_b(bench::random_values(a->size()).data(), nullptr, s, s));
    return [=] { fp::gemm(a->data(), s, *b, c->data(), pool); };
  }
  const int64_t h = item.height, w = item.width, c = item.channels, f = item.filters, k = item.kernel, p = item.padding;
  const fp::ConvGeometry g{h, w, c, k, k, 1, 1, 1, 1, p, p, item.out_height(), item.out_width()};
  auto x = std::make_shared<std::vector<float>>(bench::random_values(static_cast<size_t>(h * w * c)));
  auto y = std::make_shared<std::vector<float>>(static_cast<size_t>(g.out_h * g.out_w * f));
  auto packed = std::make_shared<fp::PackedMatrix>(fp::pack_conv_weights(
      bench::random_values(static_cast<size_t>(f * c * k * k)).data(), bench::random_values(static_cast<size_t>(f)).data(), g, f));
  return [=] { fp::conv2d(x->data(), g, *packed, y->data(), pool); };
}

struct Times {
  double median = 0, best = 0;
};

// One warm-up run, then `repeat` timed ones. The median of an even count is the mean of the two
// middle times, as Python's statistics.median (bench/torch_kernels.py).
Times time_runs(const std::function<void()>& run, int repeat) {
  run();
  std::vector<double> t;
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  const size_t n = t.size();
  return {n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2, t.front()};
}

std::optional<nlohmann::json> torch_times(const std::string& python, const std::vector<std::string>& items, int repeat,
                                          int threads) {
  std::string cmd = bench::quoted(python) + " " + bench::quoted(std::string(NNREF_SOURCE_DIR) + "/bench/torch_kernels.py") +
                    " --repeat " + std::to_string(repeat) + " --threads " + std::to_string(threads);
  for (const auto& item : items) cmd += " " + item;
  return bench::peer_json(cmd, {"best_s", "median_s", "version", "threads"});
}

struct Options {
  int repeat = 5, threads = 1;
  bool json = false;
  std::optional<int> fma_per_cycle;
  std::string python = "/usr/bin/python3";
  std::vector<std::string> items;
};

// A whole number in [lo, hi], or nullopt.
std::optional<int> whole(const std::string& text, int lo, int hi) {
  if (text.empty() || text.size() > 6 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  const int v = std::stoi(text);
  return v >= lo && v <= hi ? std::optional<int>(v) : std::nullopt;
}

// The options, or a message saying what is wrong.
std::variant<Options, std::string> parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--repeat" || a == "--threads") {
      const auto v = has_value ? whole(argv[++i], 1, a == "--repeat" ? 100000 : 1024) : std::nullopt;
      if (!v) return a + " needs a whole number (repeat: 1 to 100000, threads: 1 to 1024)";
      (a == "--repeat" ? o.repeat : o.threads) = *v;
    } else if (a == "--fma-per-cycle") {
      o.fma_per_cycle = has_value ? fp::parse_fma_per_cycle(argv[++i]) : std::nullopt;
      if (!o.fma_per_cycle) return "--fma-per-cycle needs a whole number from 1 to 16";
    } else if (a == "--format") {
      const std::string f = has_value ? argv[++i] : "";
      if (f != "text" && f != "json") return "--format is text or json";
      o.json = f == "json";
    } else if (a == "--python") {
      if (!has_value) return "--python needs a path";
      o.python = argv[++i];
    } else if (a.starts_with("--")) {
      return "unknown option '" + a + "'";
    } else {
      o.items.push_back(a);
    }
  }
  if (o.items.empty()) o.items = {"gemm:256", "gemm:1024", "conv:56:56:64:64:3:1", "conv:56:56:64:256:1:0"};
  return o;
}

// The 1-minute load average (/proc/loadavg), or -1: other processes running during the
// measurement make every time longer and the medians noisy.
double load_average() {
  std::ifstream in("/proc/loadavg");
  double load = -1;
  in >> load;
  return in ? load : -1;
}

nlohmann::json runner_json(const Times& t, double flops, double peak_flops) {
  return {{"median_s", t.median}, {"best_s", t.best}, {"gflops", flops / t.best / 1e9},
          {"percent_of_peak", 100 * flops / t.best / peak_flops}};
}

void print_text(const nlohmann::json& r) {
  const auto& peak = r["peak"];
  std::printf("fastpath_bench: float32, %d thread(s) each, %d timed runs each after one warm-up; CPU %s, %u "
              "hardware threads, load average %.2f at the start\n",
              r["threads"].get<int>(), r["repeat"].get<int>(), peak["cpu"].get<std::string>().c_str(),
              r["hardware_threads"].get<unsigned>(), r["load_average"].get<double>());
  std::printf("peak: %d thread(s) x %d FMA/cycle x %d lanes (%s) x 2 flops x %.3f GHz (measured) = %.1f GFLOP/s\n",
              peak["threads"].get<int>(), peak["fma_per_cycle"].get<int>(), peak["lanes"].get<int>(),
              peak["target"].get<std::string>().c_str(), peak["clock_ghz"].get<double>(), peak["gflops"].get<double>());
  std::printf("  FMA rate: %s\n", peak["fma_source"].get<std::string>().c_str());
  const auto& p = r["runners"];
  std::printf("runners: fast path %d thread(s); PyTorch %s, %d thread(s); oneDNN %s, %d thread(s)\n",
              p["fastpath"]["threads"].get<int>(), p["pytorch"]["version"].get<std::string>().c_str(),
              p["pytorch"]["threads"].get<int>(), p["onednn"]["version"].get<std::string>().c_str(),
              p["onednn"]["threads"].get<int>());
  std::printf("%-24s %-9s %10s %10s %9s %7s  %s\n", "item", "runner", "median ms", "best ms", "GFLOP/s", "% peak",
              "fast path's best time / this one's");
  for (const auto& item : r["items"]) {
    std::string label = item["item"];
    for (const char* runner : {"fastpath", "pytorch", "onednn"}) {
      const auto& t = item[runner];
      std::printf("%-24s %-9s %10.3f %10.3f %9.1f %7.1f", label.c_str(),
                  std::string(runner) == "fastpath" ? "fast path" : std::string(runner) == "pytorch" ? "PyTorch" : "oneDNN",
                  t["median_s"].get<double>() * 1e3, t["best_s"].get<double>() * 1e3, t["gflops"].get<double>(),
                  t["percent_of_peak"].get<double>());
      if (t.contains("fastpath_over_this")) std::printf("  %.2f", t["fastpath_over_this"].get<double>());
      if (t.contains("implementation")) std::printf("  (%s)", t["implementation"].get<std::string>().c_str());
      std::printf("\n");
      label.clear();
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const auto parsed = parse_options(argc, argv);
  if (const auto* error = std::get_if<std::string>(&parsed)) {
    std::cerr << "fastpath_bench: " << *error << "\n" << kUsage;
    return 2;
  }
  const Options& o = std::get<Options>(parsed);
  std::vector<bench::KernelItem> items;
  for (const auto& text : o.items) {
    const auto item = bench::parse_kernel_item(text);
    if (!item) {
      std::cerr << "fastpath_bench: bad item '" << text << "'\n" << kUsage;
      return 2;
    }
    items.push_back(*item);
  }
  std::optional<int> fma = o.fma_per_cycle;
  try {
    if (!fma) fma = fp::fma_override_from_env();
  } catch (const std::invalid_argument& e) {
    std::cerr << "fastpath_bench: " << e.what() << "\n";
    return 2;
  }

  const double load = load_average();
  // PyTorch first, in its own process, while this one's threads are idle.
  const auto torch = torch_times(o.python, o.items, o.repeat, o.threads);
  if (!torch) {
    std::cerr << "fastpath_bench: bench/torch_kernels.py failed (PyTorch: apt-get install python3-torch)\n";
    return 1;
  }
  const fp::Peak peak = fp::measure_peak(o.threads, fma);
  nlohmann::json result = {{"threads", o.threads}, {"repeat", o.repeat}, {"load_average", load},
                           {"hardware_threads", std::thread::hardware_concurrency()},
                           {"peak",
                            {{"cpu", peak.cpu}, {"target", peak.target}, {"lanes", peak.lanes},
                             {"fma_per_cycle", peak.fma.per_cycle}, {"fma_source", peak.fma.source},
                             {"clock_ghz", peak.hz / 1e9}, {"threads", peak.threads}, {"gflops", peak.flops() / 1e9}}}};

  std::vector<Times> fast;
  fp::ThreadPool pool(o.threads);
  for (const auto& item : items) fast.push_back(time_runs(fast_kernel(item, &pool), o.repeat));

  // oneDNN after the fast path, so that its OpenMP threads (spinning a while after each run) do
  // not compete with the fast path's.
  const int onednn_threads = bench::set_onednn_threads(o.threads);
  std::vector<std::pair<Times, std::string>> onednn;
  for (size_t i = 0; i < items.size(); ++i) {
    const auto kernel = bench::make_onednn_kernel(items[i]);
    if (!kernel) {
      std::cerr << "fastpath_bench: oneDNN refused '" << o.items[i] << "'\n";
      return 1;
    }
    onednn.emplace_back(time_runs(kernel->run, o.repeat), kernel->implementation);
  }

  result["runners"] = {{"fastpath", {{"target", peak.target}, {"threads", pool.size()}}},
                       {"pytorch", {{"version", (*torch)["version"]}, {"threads", (*torch)["threads"]}}},
                       {"onednn", {{"version", bench::onednn_version()}, {"threads", onednn_threads}}}};
  result["items"] = nlohmann::json::array();
  for (size_t i = 0; i < items.size(); ++i) {
    const double flops = items[i].flops();
    const Times torch_t{(*torch)["median_s"][o.items[i]].get<double>(), (*torch)["best_s"][o.items[i]].get<double>()};
    nlohmann::json entry = {{"item", o.items[i]}, {"gflop", flops / 1e9}, {"fastpath", runner_json(fast[i], flops, peak.flops())}};
    entry["pytorch"] = runner_json(torch_t, flops, peak.flops());
    entry["pytorch"]["fastpath_over_this"] = fast[i].best / torch_t.best;
    entry["onednn"] = runner_json(onednn[i].first, flops, peak.flops());
    entry["onednn"]["fastpath_over_this"] = fast[i].best / onednn[i].first.best;
    entry["onednn"]["implementation"] = onednn[i].second;
    result["items"].push_back(entry);
  }
  if (o.json)
    std::cout << result.dump(2) << "\n";
  else
    print_text(result);
  return 0;
}
