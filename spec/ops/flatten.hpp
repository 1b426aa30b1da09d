// flatten: merges the axes from `axis` on into one, row-major.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/flatten.hpp"
#include "spec/index.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const FlattenAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const auto rank = static_cast<int64_t>(x.size());
  // 0 to rank inclusive (rank appends an axis of extent 1), never counted from the end.
  const bool ok = a.axis >= 0 && a.axis <= rank;
  sink.require(ok, kAxisOutOfRange, axis_range_message(op_name(a), "axis", a.axis, x.size(), 0, rank));
  if (!ok) return std::nullopt;
  const auto axis = static_cast<size_t>(a.axis);
  Dims<Dim> out(x.begin(), x.begin() + a.axis);
  out.push_back(product(x, axis, x.size()));
  return ShapeOut<Dim>{{out}, {}};
}

// y[i] = x[i] for every row-major position i.
template <Scalar T>
void evaluate(const Checked<FlattenAttrs>&, const OpIO<T>& io) {
  std::ranges::copy(io.in(0).data(), io.out(0).data().begin());
}

}  // namespace nnref
