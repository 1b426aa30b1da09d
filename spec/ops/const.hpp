// const: a constant tensor of the declared shape and kind; its value is the payload entry (node,
// "value"), held as reals like every parameter: an integer constant's values are whole numbers, a
// logical one's 0 or 1.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/const.hpp"
#include "spec/op_rule.hpp"
#include "spec/truth.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const ConstAttrs& a, const std::vector<Dims<Dim>>&, ObligationSink<Dim>&) {
  const Dims<Dim> dims(a.dims.begin(), a.dims.end());
  return ShapeOut<Dim>{{dims}, {{"value", dims, true}}};
}

// y = value; an integer constant's values rounded to the nearest integer (they are whole numbers
// read as reals), a logical one's true where nonzero.
template <Scalar T>
void evaluate(const Checked<ConstAttrs>& op, const OpIO<T>& io) {
  const Tensor<T>& value = *io.param(0);
  switch (op.attrs().kind) {
    case ElemKind::Real: std::copy(value.data().begin(), value.data().end(), io.out(0).data().begin()); return;
    case ElemKind::Integer:
      std::transform(value.data().begin(), value.data().end(), std::get<Tensor<int64_t>>(*io.outputs[0]).data().begin(),
                     [](const T& v) { return static_cast<int64_t>(std::llround(sc::to_double(v))); });
      return;
    case ElemKind::Logical:
      std::transform(value.data().begin(), value.data().end(), std::get<Tensor<uint8_t>>(*io.outputs[0]).data().begin(),
                     [](const T& v) { return truth_of(sc::to_double(v) != 0.0); });
      return;
  }
}

}  // namespace nnref
