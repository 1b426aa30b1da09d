// const: a constant tensor of the declared shape; its value is the payload entry (node, "value").
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

struct ConstAttrs {
  std::vector<int64_t> dims;
};

template <>
struct OpInfo<ConstAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {}; }
};

inline std::string op_name(const ConstAttrs&) { return "const"; }
inline Arity arity(const ConstAttrs&) { return {0, 0}; }

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const ConstAttrs& a, const std::vector<Dims<Dim>>&, ObligationSink<Dim>&) {
  const Dims<Dim> dims(a.dims.begin(), a.dims.end());
  return ShapeOut<Dim>{{dims}, {{"value", dims, true}}};
}

// y = value.
template <Scalar T>
void evaluate(const Checked<ConstAttrs>&, const OpIO<T>& io) {
  const Tensor<T>& value = *io.param(0);
  std::copy(value.data().begin(), value.data().end(), io.out(0).data().begin());
}

}  // namespace nnref
