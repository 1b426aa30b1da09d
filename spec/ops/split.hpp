// split: the inverse of concat, parts proportional to ratios along one axis (NNEF 1.0 split).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/split.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const SplitAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const auto axis = checked_axis(op_name(a), "axis", a.axis, x.size(), sink);
  bool ok = axis && !a.ratios.empty();
  sink.require(!a.ratios.empty(), kSplitRatioNonpositive, "split needs at least one ratio");
  CDim total = 0;  // attribute arithmetic, saturating
  for (int64_t r : a.ratios) {
    sink.require(r >= 1, kSplitRatioNonpositive, "split ratio " + std::to_string(r) + " is not positive");
    ok = ok && r >= 1;
    total = total + r;
  }
  if (!ok) return std::nullopt;
  const Dim extent = x[*axis];
  const Dim unit = floor_div(extent, total.v);
  sink.require(unit * total.v == extent, kSplitExtentIndivisible,
               "split axis " + std::to_string(a.axis) + " has extent " + dim_str(extent) +
                   ", not a multiple of the ratios' sum " + std::to_string(total.v));
  ShapeOut<Dim> r;
  for (int64_t ratio : a.ratios) {
    Dims<Dim> part = x;
    part[*axis] = unit * ratio;
    r.outputs.push_back(part);
  }
  return r;
}

// y_k = the k-th part along axis, of extent X·r_k / Σ r. Row-major: for each index of the axes
// before `axis`, the outputs' blocks in turn.
template <Scalar T>
void evaluate(const Checked<SplitAttrs>& op, const OpIO<T>& io) {
  const Shape& in = op.inputs()[0];
  const auto axis = static_cast<size_t>(normalize_axis(op.attrs().axis, in.rank()));
  const int64_t outer = checked_element_count({in.dims().begin(), in.dims().begin() + axis});
  with_element_type<T>(op.attrs().kind, [&]<class E>() {
    const Tensor<E>& x = io.template in_as<E>(0);
    int64_t at = 0;
    for (int64_t o = 0; o < outer; ++o) {
      for (size_t k = 0; k < io.outputs.size(); ++k) {
        Tensor<E>& y = io.template out_as<E>(k);
        const int64_t block = y.size() / outer;
        for (int64_t e = 0; e < block; ++e) y[o * block + e] = x[at++];
      }
    }
  });
}

}  // namespace nnref
