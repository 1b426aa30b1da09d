// The attributes of layer_norm: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/layer_norm.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

// y = (x − μ)/sqrt(σ² + epsilon) over `axes` (μ, σ² the mean and biased variance over them);
// with affine, then ·scale + offset, both shaped like the normalised axes.
struct LayerNormAttrs {
  std::vector<int64_t> axes;  // may count from the end
  Real epsilon{1e-5, "1e-5"};
  bool affine = false;
};

// Every layer_normalization obligation is shared: the axes (spec/rules/axes.hpp) and the epsilon
// (spec/rules/epsilon.hpp).
template <>
struct OpInfo<LayerNormAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const LayerNormAttrs&) { return "layer_normalization"; }
inline Arity arity(const LayerNormAttrs&) { return {1, 1}; }

}  // namespace nnref
