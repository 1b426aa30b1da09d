// The attributes of conv: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/conv.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/rules/window.hpp"

namespace nnref {

// Input [N, C, s...] or [N, s..., C]; weight [out_channels, C/groups, k...] whatever the layout;
// bias [out_channels] if has_bias. Output extent per spatial axis:
// ⌊(in + pad_before + pad_after − ((k−1)·dilation + 1)) / stride⌋ + 1.
struct ConvAttrs {
  int64_t out_channels = 0;
  std::vector<int64_t> kernel;    // spatial extents; kernel.size() is the spatial rank (≥ 1)
  std::vector<int64_t> stride;    // empty: all 1
  std::vector<int64_t> dilation;  // empty: all 1
  std::vector<std::pair<int64_t, int64_t>> padding;  // Explicit: (before, after) per axis; empty: 0
  PadMode pad_mode = PadMode::Explicit;
  int64_t groups = 1;
  Layout layout = Layout::ChannelsFirst;
  bool has_bias = true;
};

inline constexpr ObligationSpec kConvGroups{
    ObligationKind::Attribute, "attr.conv.groups-nonpositive", "The groups of conv is at least 1.", "groups >= 1",
    "An IR conv with groups 0 (NNL's Conv2D always has groups 1): error[attr.conv.groups-nonpositive]."};
inline constexpr ObligationSpec kConvOutChannels{
    ObligationKind::Attribute, "attr.conv.out-channels-nonpositive",
    "The out_channels of conv (NNL filters) is at least 1.", "out_channels >= 1",
    "An IR conv with out_channels 0 (NNL rejects filters: 0 earlier, as nnl.param.value): "
    "error[attr.conv.out-channels-nonpositive]."};
inline constexpr ObligationSpec kConvOutChannelsIndivisible{
    ObligationKind::Attribute, "attr.conv.out-channels-indivisible", "The out_channels of conv is a multiple of groups.",
    "out_channels % groups == 0", "An IR conv with out_channels 6 and groups 4: error[attr.conv.out-channels-indivisible]."};
inline constexpr ObligationSpec kConvChannelsIndivisible{
    ObligationKind::Shape, "shape.conv.channels-indivisible",
    "The channel extent C of the conv input is a multiple of groups.", "C % groups == 0",
    "An IR conv with groups 4 on an input with 6 channels: error[shape.conv.channels-indivisible]; with the channel "
    "extent a size symbol ranging over 1..64, refuted with the counterexample 1 (NNL's Conv2D has groups 1, which "
    "always holds)."};

// The weights of a block of output channels that evaluate reads at every output position before
// the next block: well inside a core's L2 cache.
inline constexpr int64_t kConvBlockBytes = int64_t{1} << 20;

template <>
struct OpInfo<ConvAttrs> {
  static std::vector<const ObligationSpec*> obligations() {
    return {&kConvGroups, &kConvOutChannels, &kConvOutChannelsIndivisible, &kConvChannelsIndivisible};
  }
};

inline std::string op_name(const ConvAttrs&) { return "conv"; }
inline Arity arity(const ConvAttrs&) { return {1, 1}; }

}  // namespace nnref
