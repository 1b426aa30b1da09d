// The fast path's benchmark, so far its kernels: the float32 matrix product and 2-D convolution
// by the fast path (weights packed once, as the engine will at prepare time) and, in the same
// run, by PyTorch (bench/torch_kernels.py, through Python), each on one thread. Prints the best
// wall time of each, GFLOP/s and their ratio.
//
//   build/bench/fastpath_bench [--repeat R] [--python PATH] [ITEM ...]
//
// ITEM: gemm:S (C = A·B, S × S) or conv:H:W:C:F:K:P (one sample H × W × C, F filters K × K,
// padding P, stride 1, with a bias). Default: gemm:256 gemm:1024 conv:56:56:64:64:3:1
// conv:56:56:64:256:1:0.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/peer_json.hpp"
#include "fastpath/conv.hpp"
#include "fastpath/gemm.hpp"

namespace fp = nnref::fastpath;

namespace {

std::vector<float> random_values(size_t count) {
  static std::mt19937_64 gen(1);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<float> v(count);
  for (float& x : v) x = unit(gen);
  return v;
}

// A kernel ready to run (operands made, weights packed) and its floating-point operations.
struct Kernel {
  std::function<void()> run;
  double flops = 0;
};

std::optional<Kernel> make_kernel(const std::string& item) {
  std::vector<int64_t> d;
  std::stringstream in(item);
  std::string kind, part;
  std::getline(in, kind, ':');
  while (std::getline(in, part, ':')) d.push_back(std::atoll(part.c_str()));
  if (std::any_of(d.begin(), d.end(), [](int64_t v) { return v < 0; })) return std::nullopt;
  if (kind == "gemm" && d.size() == 1 && d[0] > 0) {
    const int64_t s = d[0];
    auto a = std::make_shared<std::vector<float>>(random_values(static_cast<size_t>(s * s)));
    auto c = std::make_shared<std::vector<float>>(a->size());
    auto b = std::make_shared<fp::PackedMatrix>(fp::pack_b(random_values(a->size()).data(), nullptr, s, s));
    return Kernel{[=] { fp::gemm(a->data(), s, *b, c->data()); }, 2.0 * double(s) * double(s) * double(s)};
  }
  if (kind == "conv" && d.size() == 6 && d[0] > 0 && d[1] > 0 && d[2] > 0 && d[3] > 0 && d[4] > 0) {
    const int64_t h = d[0], w = d[1], c = d[2], f = d[3], k = d[4], p = d[5];
    const fp::ConvGeometry g{h, w, c, k, k, 1, 1, 1, 1, p, p, h + 2 * p - k + 1, w + 2 * p - k + 1};
    if (g.out_h < 1 || g.out_w < 1) return std::nullopt;
    auto x = std::make_shared<std::vector<float>>(random_values(static_cast<size_t>(h * w * c)));
    auto y = std::make_shared<std::vector<float>>(static_cast<size_t>(g.out_h * g.out_w * f));
    auto packed = std::make_shared<fp::PackedMatrix>(fp::pack_conv_weights(
        random_values(static_cast<size_t>(f * c * k * k)).data(), random_values(static_cast<size_t>(f)).data(), g, f));
    return Kernel{[=] { fp::conv2d(x->data(), g, *packed, y->data()); },
                  2.0 * double(g.out_h * g.out_w) * double(f) * double(c * k * k)};
  }
  return std::nullopt;
}

double best_seconds(const Kernel& kernel, int repeat) {
  kernel.run();  // warm-up
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    kernel.run();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

std::optional<nlohmann::json> torch_times(const std::string& python, const std::vector<std::string>& items, int repeat) {
  std::string cmd = nnref::bench::quoted(python) + " " +
                    nnref::bench::quoted(std::string(NNREF_SOURCE_DIR) + "/bench/torch_kernels.py") + " --repeat " +
                    std::to_string(repeat) + " --threads 1";
  for (const auto& item : items) cmd += " " + item;
  return nnref::bench::peer_json(cmd, {"best_s", "version"});
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 5;
  std::string python = "/usr/bin/python3";
  std::vector<std::string> items;
  std::vector<Kernel> kernels;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--python" && i + 1 < argc) {
      python = argv[++i];
    } else {
      items.push_back(a);
    }
  }
  if (items.empty()) items = {"gemm:256", "gemm:1024", "conv:56:56:64:64:3:1", "conv:56:56:64:256:1:0"};
  for (const auto& item : items) {
    auto kernel = make_kernel(item);
    if (!kernel) {
      std::cerr << "fastpath_bench: bad item '" << item << "'\nusage: fastpath_bench [--repeat R] [--python PATH] "
                                                           "[gemm:S | conv:H:W:C:F:K:P ...]\n";
      return 2;
    }
    kernels.push_back(std::move(*kernel));
  }
  const auto torch = torch_times(python, items, repeat);
  if (!torch) {
    std::cerr << "fastpath_bench: bench/torch_kernels.py failed (PyTorch: apt-get install python3-torch)\n";
    return 1;
  }
  std::printf("fastpath_bench: float32, best wall time of %d, 1 thread each; fast path target %s, PyTorch %s\n",
              repeat, fp::current_target(), (*torch)["version"].get<std::string>().c_str());
  for (size_t i = 0; i < items.size(); ++i) {
    const double fast = best_seconds(kernels[i], repeat), peer = (*torch)["best_s"][items[i]].get<double>();
    const double flops = kernels[i].flops;
    std::printf("  %-24s fast path %8.3f ms (%6.1f GFLOP/s), PyTorch %8.3f ms (%6.1f GFLOP/s): %.2fx PyTorch's time\n",
                items[i].c_str(), fast * 1e3, flops / fast / 1e9, peer * 1e3, flops / peer / 1e9, fast / peer);
  }
  return 0;
}
