// Index arithmetic the kernels share: row-major multi-indices, gathers and element products.
#pragma once

#include <cstdint>
#include <vector>

#include "spec/dim.hpp"
#include "spec/tensor.hpp"

namespace nnref {

// The row-major multi-index of `flat` in `dims`.
inline void unflatten(int64_t flat, const std::vector<int64_t>& dims, std::vector<int64_t>& idx) {
  idx.resize(dims.size());
  for (size_t i = dims.size(); i-- > 0;) {
    idx[i] = flat % dims[i];
    flat /= dims[i];
  }
}

// Calls f(flat, index) for every index of `shape`, in row-major order.
template <class F>
void for_each_index(const Shape& shape, F&& f) {
  std::vector<int64_t> index(shape.rank(), 0);
  for (int64_t flat = 0; flat < shape.count(); ++flat) {
    f(flat, index);
    for (size_t k = shape.rank(); k-- > 0;) {
      if (++index[k] < shape[k]) break;
      index[k] = 0;
    }
  }
}

inline int64_t offset_of(const std::vector<int64_t>& index, const std::vector<int64_t>& strides) {
  int64_t off = 0;
  for (size_t k = 0; k < index.size(); ++k) off += index[k] * strides[k];
  return off;
}

// y[i] = x[source(i)] for every multi-index i of y's shape.
template <class T, class Source>
void gather(Tensor<T>& y, const Tensor<T>& x, Source&& source) {
  for_each_index(y.shape(), [&](int64_t flat, const std::vector<int64_t>& idx) { y[flat] = x[source(idx)]; });
}

// Π d[from..to), as a Dim (1 for an empty range).
template <class Dim>
Dim product(const Dims<Dim>& d, size_t from, size_t to) {
  Dim p = Dim(int64_t{1});
  for (size_t i = from; i < to; ++i) p = p * d[i];
  return p;
}

}  // namespace nnref
