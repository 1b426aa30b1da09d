// Dimension types for shape rules (DESIGN idea 3). A shape rule is a template over a dimension
// type Dim; this file gives the concrete reading, CDim: an int64 extent whose arithmetic
// saturates instead of overflowing, so that absurd attributes from a file (stride 2^62) produce
// a size diagnostic, never undefined behaviour. The checker adds a symbolic Dim (a Z3 term) with
// the same operations: construction from int64_t (rules build extents from attributes, such as
// Dim(units)), + - * with Dim or int64_t, comparisons, floor_div, ceil_div, dim_max, dim_select,
// dim_str.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace nnref {

struct CDim {
  int64_t v = 0;
  CDim() = default;
  CDim(int64_t x) : v(x) {}  // NOLINT: implicit by design, rules mix dims and constants
};

namespace detail {
inline int64_t saturate(bool overflowed, int64_t r, bool positive) {
  if (!overflowed) return r;
  return positive ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}
}  // namespace detail

inline CDim operator+(CDim a, CDim b) {
  int64_t r;
  bool o = __builtin_add_overflow(a.v, b.v, &r);
  return detail::saturate(o, r, a.v > 0);
}
inline CDim operator-(CDim a, CDim b) {
  int64_t r;
  bool o = __builtin_sub_overflow(a.v, b.v, &r);
  return detail::saturate(o, r, a.v >= 0);
}
inline CDim operator*(CDim a, CDim b) {
  int64_t r;
  bool o = __builtin_mul_overflow(a.v, b.v, &r);
  return detail::saturate(o, r, (a.v < 0) == (b.v < 0));
}
inline bool operator==(CDim a, CDim b) { return a.v == b.v; }
inline bool operator!=(CDim a, CDim b) { return a.v != b.v; }
inline bool operator<(CDim a, CDim b) { return a.v < b.v; }
inline bool operator<=(CDim a, CDim b) { return a.v <= b.v; }
inline bool operator>(CDim a, CDim b) { return a.v > b.v; }
inline bool operator>=(CDim a, CDim b) { return a.v >= b.v; }

// ⌊a/b⌋ and ⌈a/b⌉ for b ≥ 1 (rules state b ≥ 1 as an obligation first; b ≤ 0 yields 0 here).
inline CDim floor_div(CDim a, CDim b) {
  if (b.v <= 0) return 0;
  int64_t q = a.v / b.v;
  return (a.v % b.v != 0 && a.v < 0) ? q - 1 : q;
}
inline CDim ceil_div(CDim a, CDim b) {
  if (b.v <= 0) return 0;
  int64_t q = a.v / b.v;
  return (a.v % b.v != 0 && a.v > 0) ? q + 1 : q;
}
inline CDim dim_max(CDim a, CDim b) { return a.v < b.v ? b : a; }
inline CDim dim_select(bool c, CDim a, CDim b) { return c ? a : b; }
inline std::string dim_str(CDim a) { return std::to_string(a.v); }

// The predicate type a Dim's comparisons produce: bool for CDim, a Z3 boolean for symbols.
template <class Dim>
using PredOf = decltype(std::declval<Dim>() >= std::declval<Dim>());

template <class Dim>
using Dims = std::vector<Dim>;

// Π d (1 for a scalar): the element count of a tensor of extents d.
template <class Dim>
Dim element_count(const Dims<Dim>& d) {
  Dim n = Dim(int64_t{1});
  for (const Dim& x : d) n = n * x;
  return n;
}

template <class Dim>
std::string dims_str(const Dims<Dim>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + dim_str(d[i]);
  return s + "]";
}

}  // namespace nnref
