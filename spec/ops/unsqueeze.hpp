// unsqueeze: inserts axes of extent 1 at listed output positions (NNEF 1.0 unsqueeze).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"

namespace nnref {

struct UnsqueezeAttrs {
  std::vector<int64_t> axes;  // positions in the output; may count from the end
  ElemKind kind = ElemKind::Real;  // of the input and the output: a view holds any kind
};

// The only unsqueeze obligations are the shared axis ones (spec/rules/axes.hpp), against the output rank.
template <>
struct OpInfo<UnsqueezeAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const UnsqueezeAttrs&) { return "unsqueeze"; }
inline Arity arity(const UnsqueezeAttrs&) { return {1, 1}; }
inline Signature signature(const UnsqueezeAttrs& a) { return {{a.kind}, a.kind, a.kind}; }

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const UnsqueezeAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const size_t rank = x.size() + a.axes.size();
  const auto axes = checked_axes(op_name(a), a.axes, rank, true, sink);
  if (!axes) return std::nullopt;
  const std::vector<bool> inserted = axis_mask(*axes, rank);
  Dims<Dim> out;
  auto next = x.begin();
  for (size_t i = 0; i < rank; ++i) out.push_back(inserted[i] ? Dim(int64_t{1}) : *next++);
  return ShapeOut<Dim>{{out}, {}};
}

// y[i] = x[i] for every row-major position i.
template <Scalar T>
void evaluate(const Checked<UnsqueezeAttrs>&, const OpIO<T>& io) {
  copy_elements(*io.inputs[0], *io.outputs[0]);
}

}  // namespace nnref
