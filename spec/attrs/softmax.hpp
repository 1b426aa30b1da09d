// The attributes of softmax: what the IR, the readers and the writers see of it. Its shape rule
// and formula: spec/ops/softmax.hpp, which only its own units include (cmake/ops.cmake).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

// y = exp(x − max)/Σ exp(x − max) over `axes` (the max subtracted for range, not meaning).
struct SoftmaxAttrs {
  std::vector<int64_t> axes;  // may count from the end
  size_t batch_axes = 0;      // leading axes the axes do not count (spec/rules/axes.hpp: NNL 1, others 0)
  bool log = false;           // log_softmax: x − max − log Σ exp(x − max)
};

// Every softmax obligation is an axes obligation (spec/rules/axes.hpp).
template <>
struct OpInfo<SoftmaxAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
  static std::vector<SoftmaxAttrs> prototypes() { return {SoftmaxAttrs{}, SoftmaxAttrs{{}, 0, true}}; }
};

inline std::string op_name(const SoftmaxAttrs& a) { return a.log ? "log_softmax" : "softmax"; }
inline Arity arity(const SoftmaxAttrs&) { return {1, 1}; }

}  // namespace nnref
