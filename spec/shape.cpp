#include "spec/shape.hpp"

#include <stdexcept>

namespace nnref {

int64_t checked_element_count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return -1;
    if (__builtin_mul_overflow(n, d, &n)) return -1;
  }
  return n;
}

std::string dims_str(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

Result<Shape> Shape::make(std::vector<int64_t> dims) {
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] < 0)
      return make_error("shape.negative-extent", "extent " + std::to_string(dims[i]) + " of axis " +
                                                     std::to_string(i) + " in shape " + dims_str(dims) +
                                                     " is negative");
  int64_t n = checked_element_count(dims);
  if (n < 0)
    return make_error("size.overflow",
                      "shape " + dims_str(dims) + " has more elements than fit a 64-bit count");
  return Shape(std::move(dims), n);
}

Shape Shape::of(std::initializer_list<int64_t> dims) {
  auto r = make(std::vector<int64_t>(dims));
  if (!r) throw std::invalid_argument(r.error().message);
  return std::move(r).value();
}

std::vector<int64_t> Shape::strides() const {
  // The product always fits for a non-empty shape; an empty one ([0, 2^62, 2^62]) may have
  // suffix products that do not, and its strides are never used to index, so they saturate.
  std::vector<int64_t> s(dims_.size(), 1);
  for (size_t i = dims_.size(); i-- > 1;)
    if (__builtin_mul_overflow(s[i], dims_[i], &s[i - 1])) s[i - 1] = INT64_MAX;
  return s;
}

std::string Shape::str() const { return dims_str(dims_); }

}  // namespace nnref
