// The kernels the fast path's benchmark times, as its command line names them: gemm:S (C = A·B,
// S × S) or conv:H:W:C:F:K:P (one sample H × W × C, F filters K × K, padding P on every side,
// stride 1, with a bias). Each peer (the fast path, oneDNN, bench/torch_kernels.py) builds its
// own operands from one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nnref::bench {

struct KernelItem {
  enum class Kind { gemm, conv } kind = Kind::gemm;
  int64_t size = 0;                                 // gemm
  int64_t height = 0, width = 0, channels = 0;      // conv input
  int64_t filters = 0, kernel = 0, padding = 0;     // conv weights
  int64_t out_height() const { return height + 2 * padding - kernel + 1; }
  int64_t out_width() const { return width + 2 * padding - kernel + 1; }
  double flops() const;  // floating-point operations of one run: 2 per multiply-add
};

// The item `text` names, or nullopt if it is malformed or has an empty output.
std::optional<KernelItem> parse_kernel_item(const std::string& text);

// count values uniform in [0, 1) from one fixed-seed generator.
std::vector<float> random_values(size_t count);

}  // namespace nnref::bench
