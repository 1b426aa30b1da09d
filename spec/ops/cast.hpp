// cast (NNEF 1.0 §4.5.8): each element converted between the element kinds as the built-in
// functions of §3.3.3 convert: to a real, true is 1 and false 0; to an integer, a real is floored
// ("truncated to the closest smaller integer") and true is 1; to a logical, everything but 0 is true.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/cast.hpp"
#include "spec/attrs/compare.hpp"
#include "spec/op_rule.hpp"
#include "spec/orderings.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const CastAttrs&, const std::vector<Dims<Dim>>& inputs, ObligationSink<Dim>&) {
  return ShapeOut<Dim>{{inputs[0]}, {}};
}

// ⌊x⌋ as an integer: kUnknownInteger when the enclosure's floor is not one integer, or x is NaN
// or beyond int64.
template <Scalar T>
int64_t floor_to_integer(const T& x) {
  const Enclosure e = sc::enclosure(sc::floor(x));
  constexpr double kLimit = 0x1p63;
  if (!(e.lo == e.hi) || !(e.lo >= -kLimit && e.lo < kLimit)) return kUnknownInteger;
  return static_cast<int64_t>(e.lo);
}

// A real read as an element of kind `to`.
template <Scalar T>
void cast_real(const T& x, ElemKind to, T* real, int64_t* integer, uint8_t* logical) {
  if (to == ElemKind::Real) *real = x;
  else if (to == ElemKind::Integer) *integer = floor_to_integer(x);
  else *logical = truth_for(sc::orderings(x, from_double<T>(0.0)), holding_orderings(CompareOp::Ne));
}

// y[i] = x[i] converted; an integer or logical value an enclosure left unknown stays unknown (a
// real: every value it may be, [0, 1] for a logical; NaN, bounding nothing, for an integer).
template <Scalar T>
void evaluate(const Checked<CastAttrs>& op, const OpIO<T>& io) {
  const ElemKind to = op.attrs().to;
  const int64_t n = op.outputs()[0].count();
  T* real = to == ElemKind::Real ? io.out(0).data().data() : nullptr;
  int64_t* integer = to == ElemKind::Integer ? std::get<Tensor<int64_t>>(*io.outputs[0]).data().data() : nullptr;
  uint8_t* logical = to == ElemKind::Logical ? std::get<Tensor<uint8_t>>(*io.outputs[0]).data().data() : nullptr;
  const auto offset = [](auto* p, int64_t i) { return p ? p + i : p; };
  for (int64_t i = 0; i < n; ++i) {
    T* r = offset(real, i);
    int64_t* z = offset(integer, i);
    uint8_t* l = offset(logical, i);
    switch (op.attrs().from) {
      case ElemKind::Real: cast_real(io.in(0)[i], to, r, z, l); break;
      case ElemKind::Integer: {
        const int64_t v = std::get<Tensor<int64_t>>(*io.inputs[0])[i];
        const bool unknown = v == kUnknownInteger;
        if (r) *r = from_double<T>(unknown ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(v));
        if (z) *z = v;
        if (l) *l = unknown ? kUnknown : truth_of(v != 0);
        break;
      }
      case ElemKind::Logical: {
        const uint8_t v = io.logical_in(0)[i];
        if (r) *r = v == kUnknown ? sc::hull(from_double<T>(0.0), from_double<T>(1.0)) : from_double<T>(v == kTrue ? 1.0 : 0.0);
        if (z) *z = v == kUnknown ? kUnknownInteger : int64_t{v == kTrue};
        if (l) *l = v;
        break;
      }
    }
  }
}

}  // namespace nnref
