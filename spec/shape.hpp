// Shape: int64 extents whose element count is known to fit int64 (checked at construction).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "spec/result.hpp"

namespace nnref {

class Shape {
 public:
  Shape() = default;  // rank 0: a scalar, one element

  // Every extent ≥ 0 and the product fits int64; otherwise a "size.overflow" or
  // "shape.negative-extent" diagnostic.
  static Result<Shape> make(std::vector<int64_t> dims);
  // For literals in code and tests; throws std::invalid_argument when invalid.
  static Shape of(std::initializer_list<int64_t> dims);

  size_t rank() const { return dims_.size(); }
  int64_t operator[](size_t axis) const { return dims_[axis]; }
  const std::vector<int64_t>& dims() const { return dims_; }
  int64_t count() const { return count_; }
  // Row-major strides, in elements.
  std::vector<int64_t> strides() const;

  bool operator==(const Shape& o) const { return dims_ == o.dims_; }
  std::string str() const;  // "[2, 3, 4]"

 private:
  Shape(std::vector<int64_t> dims, int64_t count) : dims_(std::move(dims)), count_(count) {}
  std::vector<int64_t> dims_;
  int64_t count_ = 1;
};

// Product of extents, or nullopt-equivalent -1 when it does not fit int64 or an extent is negative.
int64_t checked_element_count(const std::vector<int64_t>& dims);

std::string dims_str(const std::vector<int64_t>& dims);

}  // namespace nnref
