// The reduction kernels, compiled once per Highway target and chosen at run time. Where the
// innermost run is reduced, each group's lanes accumulate along it and meet at the end; where it is
// kept, each lane is its own group and accumulates over the reduced offsets.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fastpath/reductions.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <limits>

#include "fastpath/reductions.hpp"
#include "fastpath/vectors-inl.h"

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {

// One reduction's vector operation, its identity (also the padding of a partial vector) and its
// meeting of lanes; max and min carry a NaN mask, since x86's vector max and min drop a NaN.
template <ReduceOp Op>
struct Fold {
  static constexpr bool kExtremum = Op == ReduceOp::Max || Op == ReduceOp::Min;
  static float identity() {
    const float inf = std::numeric_limits<float>::infinity();
    return Op == ReduceOp::Max ? -inf : Op == ReduceOp::Min ? inf : 0.0f;
  }
  template <class V>
  static V apply(V acc, V v) {
    if constexpr (Op == ReduceOp::Max) return hn::Max(acc, v);
    else if constexpr (Op == ReduceOp::Min) return hn::Min(acc, v);
    else return hn::Add(acc, v);
  }
  template <class D, class V>
  static float lanes(D d, V acc) {
    if constexpr (Op == ReduceOp::Max) return hn::GetLane(hn::MaxOfLanes(d, acc));
    else if constexpr (Op == ReduceOp::Min) return hn::GetLane(hn::MinOfLanes(d, acc));
    else return hn::GetLane(hn::SumOfLanes(d, acc));
  }
};

template <ReduceOp Op>
void ReduceAlongRun(const float* x, const GroupLayout& g, int64_t k_begin, int64_t k_end, float* y) {
  using F = Fold<Op>;
  const hn::ScalableTag<float> d;
  using V = decltype(hn::Zero(d));
  const float count = static_cast<float>(g.group_size());
  for (int64_t k = k_begin; k < k_end; ++k) {
    V acc = hn::Set(d, F::identity());
    auto nan = hn::IsNaN(acc);
    for (int64_t r : g.grouped)
      ForVectors(d, x + g.kept[static_cast<size_t>(k)] + r, g.run, F::identity(), [&](V v, int64_t, int64_t) {
        acc = F::apply(acc, v);
        if constexpr (F::kExtremum) nan = hn::Or(nan, hn::IsNaN(v));
      });
    float v = F::lanes(d, acc);
    if (F::kExtremum && !hn::AllFalse(d, nan)) v = std::numeric_limits<float>::quiet_NaN();
    y[k] = Op == ReduceOp::Mean ? v / count : v;
  }
}

template <ReduceOp Op>
void ReduceAcrossRun(const float* x, const GroupLayout& g, int64_t k_begin, int64_t k_end, float* y) {
  using F = Fold<Op>;
  const hn::ScalableTag<float> d;
  using V = decltype(hn::Zero(d));
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  const float count = static_cast<float>(g.group_size());
  const V nan_value = hn::Set(d, std::numeric_limits<float>::quiet_NaN());
  HWY_ALIGN float tail[HWY_MAX_BYTES / sizeof(float)];
  for (int64_t k = k_begin; k < k_end; ++k) {
    const float* base = x + g.kept[static_cast<size_t>(k)];
    for (int64_t i = 0; i < g.run; i += lanes) {
      const int64_t width = std::min(lanes, g.run - i);
      V acc = hn::Set(d, F::identity());
      auto nan = hn::IsNaN(acc);
      for (int64_t r : g.grouped) {
        V v;
        if (width == lanes) {
          v = hn::LoadU(d, base + r + i);
        } else {
          std::fill_n(tail, lanes, F::identity());
          std::copy_n(base + r + i, width, tail);
          v = hn::Load(d, tail);
        }
        acc = F::apply(acc, v);
        if constexpr (F::kExtremum) nan = hn::Or(nan, hn::IsNaN(v));
      }
      if constexpr (F::kExtremum) acc = hn::IfThenElse(nan, nan_value, acc);
      if constexpr (Op == ReduceOp::Mean) acc = hn::Div(acc, hn::Set(d, count));
      StoreFirst(d, acc, width, y + k * g.run + i);
    }
  }
}

template <ReduceOp Op>
void ReduceAs(const float* x, const GroupLayout& g, int64_t k_begin, int64_t k_end, float* y) {
  if (g.run_grouped) ReduceAlongRun<Op>(x, g, k_begin, k_end, y);
  else ReduceAcrossRun<Op>(x, g, k_begin, k_end, y);
}

void ReduceGroups(ReduceOp op, const float* x, const GroupLayout& g, int64_t k_begin, int64_t k_end, float* y) {
  switch (op) {
    case ReduceOp::Sum: return ReduceAs<ReduceOp::Sum>(x, g, k_begin, k_end, y);
    case ReduceOp::Mean: return ReduceAs<ReduceOp::Mean>(x, g, k_begin, k_end, y);
    case ReduceOp::Max: return ReduceAs<ReduceOp::Max>(x, g, k_begin, k_end, y);
    case ReduceOp::Min: return ReduceAs<ReduceOp::Min>(x, g, k_begin, k_end, y);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nnref::fastpath {

HWY_EXPORT(ReduceGroups);

void reduce_groups(ReduceOp op, const float* x, const GroupLayout& g, int64_t k_begin, int64_t k_end, float* y) {
  HWY_DYNAMIC_DISPATCH(ReduceGroups)(op, x, g, k_begin, k_end, y);
}

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
