#include "formats/nnef/lower_border.hpp"

#include <algorithm>
#include <map>

namespace nnref::nnef {

std::optional<PadBorder> extending_border(const std::string& border) {
  static const std::map<std::string, PadBorder> extending = {
      {"replicate", PadBorder::Replicate}, {"reflect", PadBorder::Reflect}, {"reflect-even", PadBorder::ReflectEven}};
  const auto e = extending.find(border);
  if (e == extending.end()) return std::nullopt;
  return e->second;
}

std::optional<Padding> automatic_padding(const std::vector<int64_t>& in, const std::vector<int64_t>& size,
                                         const std::vector<int64_t>& stride, const std::vector<int64_t>& dilation) {
  Padding out;
  for (size_t i = 0; i < in.size(); ++i) {
    window::Axis w;
    w.k = size[i];
    if (!stride.empty()) w.s = stride[i];
    if (!dilation.empty()) w.d = dilation[i];
    if (w.k < 1 || w.s < 1 || w.d < 1) return std::nullopt;
    const int64_t before = window::pad_before(in[i], w, PadMode::SameUpper);
    out.emplace_back(before, window::same_total(CDim(in[i]), w).v - before);
  }
  return out;
}

Value extended_input(Composer& c, const Value& x, const Padding& padding, PadBorder border, const SourceLoc& loc) {
  bool zero = true;
  for (const auto& [b, e] : padding) zero = zero && b == 0 && e == 0;
  return zero ? x : c.add_node1("pad", PadAttrs{padding, border, 0.0}, {x}, loc);
}

Value cropped_input(Composer& c, const Value& x, Padding& padding, size_t first_axis, const SourceLoc& loc) {
  Padding crop(first_axis, {0, 0});
  bool any = false;
  for (auto& [b, e] : padding) {
    crop.emplace_back(std::min<int64_t>(b, 0), std::min<int64_t>(e, 0));
    any = any || b < 0 || e < 0;
    b = std::max<int64_t>(b, 0);
    e = std::max<int64_t>(e, 0);
  }
  return any ? c.add_node1("pad", PadAttrs{crop, PadBorder::Constant, 0.0}, {x}, loc) : x;
}

}  // namespace nnref::nnef
