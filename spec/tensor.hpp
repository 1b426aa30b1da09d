// Tensor<T>: a Shape and its elements, contiguous and row-major.
#pragma once

#include <span>
#include <vector>

#include "spec/shape.hpp"

namespace nnref {

template <class T>
class Tensor {
 public:
  Tensor() : data_(1) {}
  // Zero-filled. Callers check the memory budget before building large tensors.
  explicit Tensor(Shape shape) : shape_(std::move(shape)), data_(static_cast<size_t>(shape_.count())) {}
  // data.size() must equal shape.count(); checked by from().
  static Result<Tensor> from(Shape shape, std::vector<T> data) {
    if (static_cast<int64_t>(data.size()) != shape.count())
      return make_error("tensor.size-mismatch", std::to_string(data.size()) + " values given for shape " +
                                                    shape.str() + " of " + std::to_string(shape.count()) +
                                                    " elements");
    Tensor t;
    t.shape_ = std::move(shape);
    t.data_ = std::move(data);
    return t;
  }

  const Shape& shape() const { return shape_; }
  int64_t size() const { return shape_.count(); }
  std::span<T> data() { return data_; }
  std::span<const T> data() const { return data_; }
  const std::vector<T>& values() const { return data_; }
  T& operator[](int64_t flat) { return data_[static_cast<size_t>(flat)]; }
  const T& operator[](int64_t flat) const { return data_[static_cast<size_t>(flat)]; }

 private:
  Shape shape_;
  std::vector<T> data_;
};

}  // namespace nnref
