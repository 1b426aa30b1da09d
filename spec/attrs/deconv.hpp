// The attributes of deconv: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/deconv.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/rules/window.hpp"

namespace nnref {

// Input [N, C, x...]; weight [C, out_channels/groups, k...]; bias [out_channels] if has_bias.
// Output [N, out_channels, X...] with, per spatial axis, X = (x − 1)·s + (k − 1)·d + 1 − p − q:
// the up-scaled extent of NNEF §4.3. The padding (p, q) may be negative (q = −e is ONNX's
// output_padding e); automatic padding and output_shape are resolved by the front-ends into (p, q).
struct DeconvAttrs {
  int64_t out_channels = 0;
  std::vector<int64_t> kernel;    // spatial extents; kernel.size() is the spatial rank (≥ 1)
  std::vector<int64_t> stride;    // empty: all 1
  std::vector<int64_t> dilation;  // empty: all 1
  std::vector<std::pair<int64_t, int64_t>> padding;  // (p, q) per spatial axis, any sign; empty: 0
  int64_t groups = 1;
  bool has_bias = true;
};

inline constexpr ObligationSpec kDeconvGroups{
    ObligationKind::Attribute, "attr.deconv.groups-nonpositive", "The groups of deconv is at least 1.", "groups >= 1",
    "An IR deconv with groups 0 (NNEF's groups = 0 is read as the input's channels first): "
    "error[attr.deconv.groups-nonpositive]."};
inline constexpr ObligationSpec kDeconvOutChannels{
    ObligationKind::Attribute, "attr.deconv.out-channels-indivisible",
    "The out_channels of deconv is at least 1 and a multiple of groups (the weight's second extent is "
    "out_channels / groups).",
    "out_channels >= 1 && out_channels % groups == 0",
    "An IR deconv with out_channels 6 and groups 4: error[attr.deconv.out-channels-indivisible]."};
inline constexpr ObligationSpec kDeconvChannelsIndivisible{
    ObligationKind::Shape, "shape.deconv.channels-indivisible",
    "The channel extent C of the deconv input is a multiple of groups.", "C % groups == 0",
    "An IR deconv with groups 2 on an input whose channel extent is a size symbol ranging over 1..8: refuted with "
    "the counterexample 1: error[shape.deconv.channels-indivisible]."};
inline constexpr ObligationSpec kDeconvExtentOverflow{
    ObligationKind::Size, "size.deconv.extent-overflow",
    "Every spatial output extent of deconv, before and after its padding, fits a 64-bit index.",
    "(x - 1) * s + (k - 1) * d + 1 + |p| + |q| < 9223372036854775807, for every spatial axis",
    "An IR deconv with stride 4611686018427387904 on an input of width 3: error[size.deconv.extent-overflow]."};

template <>
struct OpInfo<DeconvAttrs> {
  static std::vector<const ObligationSpec*> obligations() {
    return {&kDeconvGroups, &kDeconvOutChannels, &kDeconvChannelsIndivisible, &kDeconvExtentOverflow};
  }
};

inline std::string op_name(const DeconvAttrs&) { return "deconv"; }
inline Arity arity(const DeconvAttrs&) { return {1, 1}; }

namespace deconv {

// Spatial axis i's attributes, defaults filled in (padding into before/after, any sign).
inline window::Axis axis(const DeconvAttrs& a, size_t i) {
  window::Axis r;
  r.k = a.kernel[i];
  if (!a.stride.empty()) r.s = a.stride[i];
  if (!a.dilation.empty()) r.d = a.dilation[i];
  if (!a.padding.empty()) std::tie(r.before, r.after) = a.padding[i];
  return r;
}

}  // namespace deconv

}  // namespace nnref
