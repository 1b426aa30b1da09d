// reshape: the same elements, row-major, under another shape of equal count (NNEF 1.0 reshape).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/reshape.hpp"
#include "spec/index.hpp"
#include "spec/op_rule.hpp"
#include "spec/size_program.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const ReshapeAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  auto values = size_entries(a.dims, a.computed, inputs, sink, "reshape");
  if (!values) return std::nullopt;
  const std::vector<SizeValue<Dim>>& entries = *values;
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
