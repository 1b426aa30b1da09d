// The fast path's benchmark, so far its matrix product: C = A·B in float32 for square sizes, by
// fastpath::gemm (B packed once, as the engine will at prepare time) and, in the same run, by
// PyTorch (bench/torch_gemm.py, through Python, preallocated output), each on one thread. Prints
// the best wall time of each, GFLOP/s (2·S³ per product) and their ratio.
//
//   build/bench/fastpath_bench [--repeat R] [--python PATH] [SIZE ...]   (default sizes 256 1024)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fastpath/gemm.hpp"

namespace {

double best_gemm_seconds(int64_t s, int repeat) {
  std::mt19937_64 gen(1);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<float> a(static_cast<size_t>(s * s)), b(a.size()), c(a.size());
  for (float& x : a) x = unit(gen);
  for (float& x : b) x = unit(gen);
  const auto packed = nnref::fastpath::pack_b(b.data(), nullptr, s, s);
  nnref::fastpath::gemm(a.data(), s, packed, c.data());  // warm-up
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    nnref::fastpath::gemm(a.data(), s, packed, c.data());
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

std::optional<nlohmann::json> torch_times(const std::string& python, const std::vector<int64_t>& sizes, int repeat) {
  std::string cmd = "'" + python + "' '" + std::string(NNREF_SOURCE_DIR) + "/bench/torch_gemm.py' --repeat " +
                    std::to_string(repeat) + " --threads 1";
  for (int64_t s : sizes) cmd += " " + std::to_string(s);
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return std::nullopt;
  std::string text;
  char buf[4096];
  while (size_t n = std::fread(buf, 1, sizeof buf, p)) text.append(buf, n);
  if (pclose(p) != 0) return std::nullopt;
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("best_s") || !j.contains("version")) return std::nullopt;
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 5;
  std::string python = "/usr/bin/python3";
  std::vector<int64_t> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) {
      repeat = std::atoi(argv[++i]);
    } else if (a == "--python" && i + 1 < argc) {
      python = argv[++i];
    } else if (std::atoll(a.c_str()) > 0) {
      sizes.push_back(std::atoll(a.c_str()));
    } else {
      std::cerr << "usage: fastpath_bench [--repeat R] [--python PATH] [SIZE ...]\n";
      return 2;
    }
  }
  if (sizes.empty()) sizes = {256, 1024};
  if (repeat < 1) repeat = 1;
  const auto torch = torch_times(python, sizes, repeat);
  if (!torch) {
    std::cerr << "fastpath_bench: bench/torch_gemm.py failed (PyTorch: apt-get install python3-torch)\n";
    return 1;
  }
  std::printf("fastpath_bench: float32 C = A·B, best wall time of %d, 1 thread each; fast path target %s, "
              "PyTorch %s\n", repeat, nnref::fastpath::current_target(), (*torch)["version"].get<std::string>().c_str());
  for (int64_t s : sizes) {
    const double flops = 2.0 * static_cast<double>(s) * static_cast<double>(s) * static_cast<double>(s);
    const double fast = best_gemm_seconds(s, repeat), peer = (*torch)["best_s"][std::to_string(s)].get<double>();
    std::printf("  gemm %lld^3: fast path %.2f ms (%.1f GFLOP/s), PyTorch %.2f ms (%.1f GFLOP/s): %.2fx PyTorch's time\n",
                static_cast<long long>(s), fast * 1e3, flops / fast / 1e9, peer * 1e3, flops / peer / 1e9, fast / peer);
  }
  return 0;
}
