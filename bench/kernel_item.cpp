#include "bench/kernel_item.hpp"

#include <algorithm>
#include <random>
#include <sstream>

namespace nnref::bench {

double KernelItem::flops() const {
  if (kind == Kind::gemm) return 2.0 * double(size) * double(size) * double(size);
  return 2.0 * double(out_height() * out_width()) * double(filters) * double(channels * kernel * kernel);
}

std::optional<KernelItem> parse_kernel_item(const std::string& text) {
  std::vector<int64_t> d;
  std::stringstream in(text);
  std::string kind, part;
  std::getline(in, kind, ':');
  while (std::getline(in, part, ':')) {
    if (part.empty() || part.size() > 6 || !std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    d.push_back(std::stoll(part));
  }
  KernelItem item;
  if (kind == "gemm" && d.size() == 1 && d[0] > 0) {
    item.size = d[0];
    return item;
  }
  if (kind == "conv" && d.size() == 6 && d[0] > 0 && d[1] > 0 && d[2] > 0 && d[3] > 0 && d[4] > 0) {
    item = {KernelItem::Kind::conv, 0, d[0], d[1], d[2], d[3], d[4], d[5]};
    if (item.out_height() >= 1 && item.out_width() >= 1) return item;
  }
  return std::nullopt;
}

std::vector<float> random_values(size_t count) {
  static std::mt19937_64 gen(1);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<float> v(count);
  for (float& x : v) x = unit(gen);
  return v;
}

}  // namespace nnref::bench
