// input: a model input, a fresh tensor per run of the declared shape and kind. The engine binds
// the run's tensor to the node's output; the checker reads its extents as size symbols.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/attrs/input.hpp"
#include "spec/op_rule.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const InputAttrs& a, const std::vector<Dims<Dim>>&, ObligationSink<Dim>&) {
  return ShapeOut<Dim>{{Dims<Dim>(a.dims.begin(), a.dims.end())}, {}};
}

// Nothing to compute: the engine has put the run's tensor in the output slot.
template <Scalar T>
void evaluate(const Checked<InputAttrs>&, const OpIO<T>&) {}

}  // namespace nnref
