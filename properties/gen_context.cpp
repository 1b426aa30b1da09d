#include "properties/gen_context.hpp"

#include <algorithm>
#include <numeric>

namespace nnref::properties {

const Shape& GenContext::shape(const Operand& x) const {
  return x.pool >= 0 ? pool_[static_cast<size_t>(x.pool)].shape : x.leaf.shape;
}

ElemKind GenContext::kind(const Operand& x) const {
  return x.pool >= 0 ? pool_[static_cast<size_t>(x.pool)].kind : x.leaf.kind;
}

Shape GenContext::random_shape(size_t min_rank, size_t max_rank) {
  max_rank = std::max(min_rank, std::min(max_rank, static_cast<size_t>(o.max_rank)));
  const auto rank = min_rank + static_cast<size_t>(c.below(max_rank - min_rank + 1));
  std::vector<int64_t> dims;
  int64_t room = o.max_elements;  // extents whose product stays within max_elements
  for (size_t i = 0; i < rank; ++i) {
    const int64_t extent = c.between(1, std::max<int64_t>(1, std::min(o.max_extent, room)));
    dims.push_back(extent);
    room = std::max<int64_t>(1, room / extent);
  }
  return Shape::make(dims).value();  // at most max_elements elements: the count fits
}

Operand GenContext::leaf(const Shape& shape, ElemKind kind, Range range, int64_t int_bound) {
  return Operand{-1, Leaf{shape, kind, range, c.flip(3), int_bound}};
}

Operand GenContext::filled(const Shape& shape, double value) {
  Leaf leaf{shape, ElemKind::Real, Range::Any, true, 1};
  leaf.fill = value;
  return Operand{-1, std::move(leaf)};
}

Operand GenContext::operand(ElemKind kind, size_t min_rank, size_t max_rank, Range range) {
  std::vector<int> fits;  // the most recent first
  for (int i = static_cast<int>(pool_.size()) - 1; i >= 0; --i) {
    const PoolValue& v = pool_[static_cast<size_t>(i)];
    if (v.kind == kind && v.shape.rank() >= min_rank && v.shape.rank() <= max_rank) fits.push_back(i);
  }
  if (!fits.empty() && !c.flip(5)) return Operand{fits[static_cast<size_t>(c.below(fits.size()))], {}};
  return leaf(random_shape(min_rank, max_rank), kind, range);
}

Operand GenContext::of_shape(const Shape& shape, ElemKind kind, Range range) {
  std::vector<int> fits;
  for (int i = static_cast<int>(pool_.size()) - 1; i >= 0; --i) {
    const PoolValue& v = pool_[static_cast<size_t>(i)];
    if (v.kind == kind && v.shape == shape) fits.push_back(i);
  }
  if (!fits.empty() && !c.flip(3)) return Operand{fits[static_cast<size_t>(c.below(fits.size()))], {}};
  return leaf(shape, kind, range);
}

Broadcast GenContext::broadcast_mode() {
  static constexpr Broadcast kModes[] = {Broadcast::Equal, Broadcast::NumpyRight, Broadcast::NnefLeft};
  return kModes[c.below(3)];
}

Shape GenContext::broadcast_partner(const Shape& x, Broadcast b) {
  if (b == Broadcast::Equal) return x;
  const auto& d = x.dims();
  const size_t keep = d.size() - static_cast<size_t>(c.below(d.size() + 1));
  std::vector<int64_t> p = b == Broadcast::NumpyRight ? std::vector<int64_t>(d.end() - static_cast<ptrdiff_t>(keep), d.end())
                                                      : std::vector<int64_t>(d.begin(), d.begin() + static_cast<ptrdiff_t>(keep));
  for (auto& e : p)
    if (c.flip(3)) e = 1;
  return Shape::make(p).value();  // no more elements than x
}

std::vector<int64_t> GenContext::axes(size_t rank) {
  if (rank == 0) return {0};
  std::vector<int64_t> all(rank);
  std::iota(all.begin(), all.end(), 0);
  const auto n = 1 + static_cast<size_t>(c.below(rank));
  for (size_t i = 0; i < n; ++i) std::swap(all[i], all[i + static_cast<size_t>(c.below(rank - i))]);
  all.resize(n);
  std::sort(all.begin(), all.end());
  for (auto& a : all)
    if (c.flip(4)) a -= static_cast<int64_t>(rank);
  return all;
}

int64_t GenContext::axis(size_t rank) {
  if (rank == 0) return 0;
  const auto a = static_cast<int64_t>(c.below(rank));
  return c.flip(4) ? a - static_cast<int64_t>(rank) : a;
}

}  // namespace nnref::properties
