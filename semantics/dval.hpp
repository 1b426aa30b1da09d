// DVal (TorchLean's Σ s, Tensor α s): a value in the evaluator's table, tagged with its shape and
// its kind of data: reals of the interpretation's scalar, integers, or booleans.
#pragma once

#include <cstdint>
#include <variant>

#include "spec/scalar.hpp"
#include "spec/tensor.hpp"

namespace nnref {

template <Scalar T>
using DVal = std::variant<Tensor<T>, Tensor<int64_t>, Tensor<uint8_t> /* boolean: 0 or 1 */>;

template <Scalar T>
const Shape& shape_of(const DVal<T>& v) {
  return std::visit([](const auto& t) -> const Shape& { return t.shape(); }, v);
}

inline const char* kind_name(size_t variant_index) {
  return variant_index == 0 ? "real" : variant_index == 1 ? "integer" : "boolean";
}

}  // namespace nnref
