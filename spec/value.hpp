// Values (TorchLean's Σ s, Tensor α s): a tensor tagged with its element kind. Real elements are
// the interpretation's scalar T; integers are int64; logical elements are 0 or 1 (uint8, since
// std::vector<bool> has no contiguous storage).
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "spec/scalar.hpp"
#include "spec/tensor.hpp"

namespace nnref {

// The alternatives of Value<T>, in this order.
enum class ElemKind { Real, Integer, Logical };

inline const char* elem_kind_name(ElemKind k) {
  switch (k) {
    case ElemKind::Real: return "real";
    case ElemKind::Integer: return "integer";
    case ElemKind::Logical: return "logical";
  }
  return "real";
}

template <Scalar T>
using Value = std::variant<Tensor<T>, Tensor<int64_t>, Tensor<uint8_t>>;

template <Scalar T>
ElemKind kind_of(const Value<T>& v) {
  return static_cast<ElemKind>(v.index());
}

template <Scalar T>
const Shape& shape_of(const Value<T>& v) {
  return std::visit([](const auto& t) -> const Shape& { return t.shape(); }, v);
}

// A zero-filled value of this kind and shape. Callers check the memory budget first.
template <Scalar T>
Value<T> zeros(ElemKind kind, const Shape& shape) {
  switch (kind) {
    case ElemKind::Integer: return Tensor<int64_t>(shape);
    case ElemKind::Logical: return Tensor<uint8_t>(shape);
    case ElemKind::Real: break;
  }
  return Tensor<T>(shape);
}

}  // namespace nnref
