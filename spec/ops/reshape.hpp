// reshape: the same elements, row-major, under another shape of equal count (NNEF 1.0 reshape).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/index.hpp"
#include "spec/op_rule.hpp"
#include "spec/size_program.hpp"

namespace nnref {

// An entry -1 is inferred (at most one); 0 copies the input extent at that position (NNEF).
// Element counts must agree. Computed dims (an export's x.view(x.size(0), -1)): a size program
// (spec/size_program.hpp) over the extents of the operands after the first, whose kinds
// `sources` lists; its constant entries read as dims' do, the others must be at least 1.
struct ReshapeAttrs {
  std::vector<int64_t> dims;
  ElemKind kind = ElemKind::Real;  // of the input and the output: a view holds any kind
  std::vector<int64_t> computed{};  // when not empty, the dims (dims is then empty)
  std::vector<ElemKind> sources{};
};

inline constexpr ObligationSpec kReshapeNegativeExtent{
    ObligationKind::Attribute, "attr.reshape.negative-extent",
    "No entry of reshape's dims is below -1 (-1 alone is allowed: the inferred extent).",
    "v >= -1, for every entry v of dims", "An IR reshape with dims [2, -3]: error[attr.reshape.negative-extent]."};
inline constexpr ObligationSpec kReshapeMultipleInferred{
    ObligationKind::Attribute, "attr.reshape.multiple-inferred", "At most one entry of reshape's dims is -1.",
    "the number of entries v of dims with v == -1 is <= 1",
    "An IR reshape with dims [-1, -1]: error[attr.reshape.multiple-inferred]."};
inline constexpr ObligationSpec kReshapeZeroOutOfRange{
    ObligationKind::Shape, "shape.reshape.zero-out-of-range",
    "An entry 0 of reshape's dims (copy the input extent at that position) sits at a position the input has.",
    "i < rank(x), for every position i with dims[i] == 0",
    "An IR reshape with dims [0, 0, 0] of a rank-2 input: error[shape.reshape.zero-out-of-range]."};
inline constexpr ObligationSpec kReshapeCountIndivisible{
    ObligationKind::Shape, "shape.reshape.count-indivisible",
    "With a -1 in reshape's dims, the product P of the other entries (0 entries copying the input extent) is at least "
    "1 and divides the input's element count.",
    "P >= 1 && (X_0 * X_1 * ... * X_{r-1}) % P == 0",
    "An IR reshape with dims [-1, 5] of an input [2, 3]: error[shape.reshape.count-indivisible]; with dims [-1, 4] of "
    "an input [N, 6], N a size symbol over 1..100: refuted, counterexample N = 1."};
inline constexpr ObligationSpec kReshapeComputedExtent{
    ObligationKind::Shape, "shape.reshape.computed-extent",
    "An entry of reshape's dims that the model computes from extents (not a constant) is at least 1: nnref reads 0 "
    "(copy) and -1 (infer) only as constants.",
    "D_i >= 1, for every computed entry D_i",
    "An ONNX Reshape of x [N, 6] to [Shape(x)[0] - 1, -1], N a size symbol over 1..8: refuted, counterexample N = 1."};
inline constexpr ObligationSpec kReshapeCountMismatch{
    ObligationKind::Shape, "shape.reshape.count-mismatch",
    "Without a -1, the product of reshape's dims (0 entries copying the input extent) equals the input's element "
    "count.",
    "D_0 * D_1 * ... * D_{m-1} == X_0 * X_1 * ... * X_{r-1}",
    "An IR reshape with dims [4, 4] of an input [2, 3]: error[shape.reshape.count-mismatch] (16 and 6 elements)."};

template <>
struct OpInfo<ReshapeAttrs> {
  static std::vector<const ObligationSpec*> obligations() {
    return {&kReshapeNegativeExtent, &kReshapeMultipleInferred, &kReshapeZeroOutOfRange, &kReshapeCountIndivisible,
            &kReshapeComputedExtent, &kReshapeCountMismatch};
  }
};

inline std::string op_name(const ReshapeAttrs&) { return "reshape"; }
inline Arity arity(const ReshapeAttrs& a) {
  const int n = 1 + static_cast<int>(a.sources.size());
  return {n, n};
}
inline Signature signature(const ReshapeAttrs& a) {
  std::vector<ElemKind> operands{a.kind};
  operands.insert(operands.end(), a.sources.begin(), a.sources.end());
  return {operands, a.kind, a.kind};
}

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const ReshapeAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  std::vector<SizeValue<Dim>> entries;
  for (int64_t v : a.dims) entries.push_back({Dim(v), v});
  if (!a.computed.empty()) {
    auto values = run_size_program(a.computed, std::vector<Dims<Dim>>(inputs.begin() + 1, inputs.end()), sink,
                                   "reshape");
    if (!values) return std::nullopt;
    entries = std::move(*values);
  }
  std::optional<size_t> inferred;
  Dims<Dim> out;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!entries[i].constant) {
      sink.require(entries[i].value >= Dim(int64_t{1}), kReshapeComputedExtent,
                   "reshape extent " + dim_str(entries[i].value) + " at position " + std::to_string(i) +
                       ", computed from extents, may be below 1");
      out.push_back(entries[i].value);
      continue;
    }
    const int64_t v = *entries[i].constant;
    const bool second_inferred = v == -1 && inferred.has_value();
    const bool zero_outside = v == 0 && i >= x.size();
    sink.require(v >= -1, kReshapeNegativeExtent,
                 "reshape extent " + std::to_string(v) + " at position " + std::to_string(i) +
                     " is negative (only -1, inferred, is allowed)");
    sink.require(!second_inferred, kReshapeMultipleInferred,
                 "reshape has more than one -1 extent (positions " +
                     (inferred ? std::to_string(*inferred) : std::string()) + " and " + std::to_string(i) + ")");
    sink.require(!zero_outside, kReshapeZeroOutOfRange,
                 "reshape extent 0 at position " + std::to_string(i) +
                     " copies an input axis, but the input has rank " + std::to_string(x.size()));
    if (v < -1 || second_inferred || zero_outside) return std::nullopt;
    if (v == -1) inferred = i;
    out.push_back(v == 0 ? x[i] : Dim(v));  // the inferred entry is filled in below
  }
  const Dim count = product(x, 0, x.size());
  if (inferred) {
    out[*inferred] = Dim(int64_t{1});
    const Dim known = product(out, 0, out.size());
    const std::string what = "reshape cannot infer the -1 extent: the input's " + dim_str(count) +
                             " elements are not a multiple of the other extents' product " + dim_str(known);
    sink.require(known >= Dim(int64_t{1}), kReshapeCountIndivisible, what);
    sink.require(floor_div(count, known) * known == count, kReshapeCountIndivisible, what);
    out[*inferred] = floor_div(count, known);
  } else {
    const Dim target = product(out, 0, out.size());
    sink.require(target == count, kReshapeCountMismatch,
                 "reshape to " + dims_str(out) + " (" + dim_str(target) + " elements) from " + dims_str(x) + " (" +
                     dim_str(count) + " elements)");
  }
  return ShapeOut<Dim>{{out}, {}};
}

// y[i] = x[i] for every row-major position i.
template <Scalar T>
void evaluate(const Checked<ReshapeAttrs>&, const OpIO<T>& io) {
  copy_elements(*io.inputs[0], *io.outputs[0]);
}

}  // namespace nnref
