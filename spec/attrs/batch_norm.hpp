// The attributes of batch_norm: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/batch_norm.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

// y = scale·(x − mean)/sqrt(variance + epsilon) + offset, per channel along channel_axis.
// Params mean, variance, scale, offset: each [C] where C is the extent of channel_axis.
struct BatchNormAttrs {
  Real epsilon{1e-5, "1e-5"};
  int64_t channel_axis = 1;  // may count from the end (-1: last)
};

// Every batch_normalization obligation is shared: the epsilon (spec/rules/epsilon.hpp) and the
// channel axis (spec/rules/axes.hpp).
template <>
struct OpInfo<BatchNormAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const BatchNormAttrs&) { return "batch_normalization"; }
inline Arity arity(const BatchNormAttrs&) { return {1, 1}; }

}  // namespace nnref
