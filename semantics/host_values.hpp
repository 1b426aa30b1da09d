// Tensors as files hold them (HostTensor, doubles) read in an interpretation's scalar, and back.
#pragma once

#include <cmath>
#include <type_traits>

#include "spec/host_tensor.hpp"
#include "spec/value.hpp"

namespace nnref {

// `read` gives each value as T.
template <Scalar T, class Read = T (*)(double)>
Tensor<T> to_scalar(const HostTensor& h, Read read = from_double<T>) {
  Tensor<T> t(h.shape);
  for (int64_t i = 0; i < t.size(); ++i) t[i] = read(h.values[static_cast<size_t>(i)]);
  return t;
}

// A run-time input's real: the value itself. The envelope holds an input's NaN as exactly NaN
// (a weight's or an IR literal's NaN may stand for "undefined" and stays a lost bound).
template <Scalar T>
T input_real(double x) {
  if constexpr (std::is_same_v<T, Envelope>) return envelope::from_input(x);
  return from_double<T>(x);
}

// A run-time input of this kind: reals in T, integers as int64, logical values as 0 or 1.
template <Scalar T>
Value<T> to_value(const HostTensor& h, ElemKind kind) {
  if (kind == ElemKind::Real) return to_scalar<T>(h, input_real<T>);
  if (kind == ElemKind::Integer) {
    Tensor<int64_t> t(h.shape);
    for (int64_t i = 0; i < t.size(); ++i) t[i] = static_cast<int64_t>(h.values[static_cast<size_t>(i)]);
    return t;
  }
  Tensor<uint8_t> t(h.shape);
  for (int64_t i = 0; i < t.size(); ++i) t[i] = h.values[static_cast<size_t>(i)] != 0.0 ? 1 : 0;
  return t;
}

// Whether a file's dtype can be read as this kind: every dtype as reals (images are often
// uint8), integers and booleans as integers, booleans alone as logical values.
inline bool dtype_reads_as(DType t, ElemKind kind) {
  switch (kind) {
    case ElemKind::Real: return true;
    case ElemKind::Integer: return !dtype_is_float(t);
    case ElemKind::Logical: return t == DType::Bool;
  }
  return false;
}

}  // namespace nnref
