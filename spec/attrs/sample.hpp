// The attributes of sample: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/sample.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "spec/attrs/deconv.hpp"
#include "spec/op_rule.hpp"

namespace nnref {

enum class SampleOp { Sample, Desample };
// Inputs x (real) and index (integer), channels first; the window's padded positions read 0 (NNEF's
// 'constant'; its other borders are an IR pad first: formats/nnef/lower_ops.cpp). sample: x
// [N, C, X...] is the up-scaled tensor, index and the output [N, C, x...] the down-scaled ones.
// desample: x and index [N, C, x...] down-scaled, the output `output_shape` [N, C, X...] up-scaled.
struct SampleAttrs {
  SampleOp op = SampleOp::Sample;
  std::vector<int64_t> kernel;    // spatial window; its size is the spatial rank (≥ 1)
  std::vector<int64_t> stride;    // empty: all 1
  std::vector<int64_t> dilation;  // empty: all 1
  std::vector<std::pair<int64_t, int64_t>> padding;  // of the up-scaled tensor, as a pool's
  PadMode pad_mode = PadMode::Explicit;
  std::vector<int64_t> output_shape;  // desample only: the whole up-scaled shape
  static constexpr Layout layout = Layout::ChannelsFirst;  // NNEF's; read by the window rule
};

inline constexpr ObligationSpec kSampleIndexShape{
    ObligationKind::Shape, "shape.sample.index-shape",
    "The index operand of sample has the shape of its output (the down-scaled tensor); that of desample the shape "
    "of its input.",
    "shape(index) == shape(y) (sample), shape(index) == shape(x) (desample)",
    "NNEF `sample(x, i, size = [1, 1, 2, 2], stride = [1, 1, 2, 2], padding = [(0, 0)] * 4)` with x [1, 1, 4, 4] "
    "and i [1, 1, 4, 4] (the output is [1, 1, 2, 2]): error[shape.sample.index-shape]."};
inline constexpr ObligationSpec kDesampleOutputShape{
    ObligationKind::Shape, "shape.desample.output-shape",
    "The output_shape of desample has the input's rank, its batch and channel extents, and spatial extents that the "
    "window down-scales to the input's.",
    "len(output_shape) == rank(x) && output_shape[0:2] == x[0:2] && floor((X + p + q - ((k - 1) * d + 1)) / s) + 1 "
    "== x, for every spatial axis",
    "An IR desample with kernel [2, 2], stride [2, 2], no padding and output_shape [1, 1, 4, 4] of an input "
    "[1, 1, 3, 3] (4 down-scales to 2): error[shape.desample.output-shape]."};

template <>
struct OpInfo<SampleAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kSampleIndexShape, &kDesampleOutputShape}; }
  static std::vector<SampleAttrs> prototypes() {
    SampleAttrs sample, desample;
    desample.op = SampleOp::Desample;
    return {sample, desample};
  }
};

inline std::string op_name(const SampleAttrs& a) { return a.op == SampleOp::Sample ? "sample" : "desample"; }
inline Arity arity(const SampleAttrs&) { return {2, 2}; }
inline Signature signature(const SampleAttrs&) { return {{ElemKind::Real, ElemKind::Integer}, ElemKind::Real, ElemKind::Real}; }

}  // namespace nnref
