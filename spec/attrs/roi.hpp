// The attributes of roi: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/roi.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

enum class RoiOp { MaxPool, AvgPool, Resample };
// §4.3.4's multilinear methods, read for a region (docs/ops/roi.md): sample i of p over a region
// [s, e) sits at s + (i + ½)·(e − s)/p − ½ (symmetric), s + i·(e − s)/p (asymmetric) or
// s + i·(e − s − 1)/(p − 1) (aligned: the first and last samples on the region's first and last
// points; s alone when p = 1), in the input's index coordinates.
enum class RoiMethod { Symmetric, Asymmetric, Aligned };
inline constexpr RoiMethod kRoiMethods[] = {RoiMethod::Symmetric, RoiMethod::Asymmetric, RoiMethod::Aligned};
inline const char* roi_method_name(RoiMethod m) {
  return m == RoiMethod::Symmetric ? "symmetric" : m == RoiMethod::Asymmetric ? "asymmetric" : "aligned";
}

// Inputs x [N, C, s_0..s_{M-1}], rois [R, 2M] (real: the M starts, then the M ends, as NNEF's
// (y0, x0, y1, x1)), batch_index [R] (integer). Output [R, C, output_size...]. No parameters.
struct RoiAttrs {
  RoiOp op = RoiOp::AvgPool;
  std::vector<int64_t> output_size;  // one extent per spatial axis, each ≥ 1
  RoiMethod method = RoiMethod::Symmetric;  // roi_resample only
};

inline constexpr ObligationSpec kRoiOutputSize{
    ObligationKind::Attribute, "attr.roi.output-size",
    "output_size of a region-of-interest op is not empty and every entry is at least 1.", "output_size[k] >= 1",
    "`avg_roi_pool(x, rois, index, output_size = [0, 2])`: error[attr.roi.output-size]."};
inline constexpr ObligationSpec kRoiInputRank{
    ObligationKind::Shape, "shape.roi.input-rank",
    "The input of a region-of-interest op is [N, C, s...] with one spatial axis per entry of output_size.",
    "rank(x) == 2 + length(output_size)",
    "`max_roi_pool(x, rois, index, output_size = [2, 2])` with x of shape [1, 3, 8]: error[shape.roi.input-rank]."};
inline constexpr ObligationSpec kRoiBoxes{
    ObligationKind::Shape, "shape.roi.rois",
    "rois is [R, 2M]: a start and an end per spatial axis of the input for each of the R regions.",
    "rank(rois) == 2 && rois[1] == 2 * (rank(x) - 2)",
    "`roi_resample(x, rois, index, output_size = [2, 2])` with x [1, 3, 8, 8] and rois [5, 2]: "
    "error[shape.roi.rois]."};
inline constexpr ObligationSpec kRoiBatchIndex{
    ObligationKind::Shape, "shape.roi.batch-index", "batch_index is [R]: one batch item per row of rois.",
    "rank(batch_index) == 1 && batch_index[0] == rois[0]",
    "`avg_roi_pool(x, rois, index, output_size = [2, 2])` with rois [5, 4] and index [4]: "
    "error[shape.roi.batch-index]."};

template <>
struct OpInfo<RoiAttrs> {
  static std::vector<const ObligationSpec*> obligations() {
    return {&kRoiOutputSize, &kRoiInputRank, &kRoiBoxes, &kRoiBatchIndex};
  }
  static std::vector<RoiAttrs> prototypes() {
    RoiAttrs max, avg, resample;
    max.op = RoiOp::MaxPool;
    resample.op = RoiOp::Resample;
    return {max, avg, resample};
  }
};

inline std::string op_name(const RoiAttrs& a) {
  return a.op == RoiOp::MaxPool ? "max_roi_pool" : a.op == RoiOp::AvgPool ? "avg_roi_pool" : "roi_resample";
}
inline Arity arity(const RoiAttrs&) { return {3, 3}; }
inline Signature signature(const RoiAttrs&) {
  return {{ElemKind::Real, ElemKind::Real, ElemKind::Integer}, ElemKind::Real, ElemKind::Real};
}

}  // namespace nnref
