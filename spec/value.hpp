// Values (TorchLean's Σ s, Tensor α s): a tensor tagged with its element kind. Real elements are
// the interpretation's scalar T; integers are int64; logical elements are 0 or 1 (uint8, since
// std::vector<bool> has no contiguous storage).
#pragma once

#include <algorithm>
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

// f.template operator()<E>() with E the element type of kind k (T, int64_t or uint8_t): the ops
// that move elements without computing with them (the views, transpose, concat, split, slice) are
// written once for every kind.
template <Scalar T, class F>
auto with_element_type(ElemKind k, F&& f) {
  switch (k) {
    case ElemKind::Integer: return f.template operator()<int64_t>();
    case ElemKind::Logical: return f.template operator()<uint8_t>();
    case ElemKind::Real: break;
  }
  return f.template operator()<T>();
}

// The same elements in the same row-major order, whatever their kind: the formula of the views
// (reshape, squeeze, unsqueeze), which change only the shape. `to` has the kind of `from`.
template <Scalar T>
void copy_elements(const Value<T>& from, Value<T>& to) {
  with_element_type<T>(kind_of(from), [&]<class E>() {
    const auto& x = std::get<Tensor<E>>(from).data();
    std::copy(x.begin(), x.end(), std::get<Tensor<E>>(to).data().begin());
  });
}

}  // namespace nnref
