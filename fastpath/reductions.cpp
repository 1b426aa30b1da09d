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

// One reduction's vector operation (a product for Prod: any order of its multiplications lies in
// the spec's envelope, spec/scalar_envelope.cpp), its identity (also the padding of a partial vector) and its
// meeting of lanes; max and min carry a NaN mask, since x86's vector max and min drop a NaN.
template <ReduceOp Op>
struct Fold {
  static constexpr bool kExtremum = Op == ReduceOp::Max || Op == ReduceOp::Min;
  static float identity() {
    const float inf = std::numeric_limits<float>::infinity();
    return Op == ReduceOp::Max ? -inf : Op == ReduceOp::Min ? inf : Op == ReduceOp::Prod ? 1.0f : 0.0f;
  }
  template <class V>
  static V apply(V acc, V v) {
    if constexpr (Op == ReduceOp::Max) return hn::Max(acc, v);
    else if constexpr (Op == ReduceOp::Min) return hn::Min(acc, v);
    else if constexpr (Op == ReduceOp::Prod) return hn::Mul(acc, v);
    else return hn::Add(acc, v);
  }
  template <class D, class V>
  static float lanes(D d, V acc) {
    if constexpr (Op == ReduceOp::Max) return hn::GetLane(hn::MaxOfLanes(d, acc));
    else if constexpr (Op == ReduceOp::Min) return hn::GetLane(hn::MinOfLanes(d, acc));
    else if constexpr (Op == ReduceOp::Prod) {  // Highway 1.0.3 has no product of lanes
      HWY_ALIGN float lane[HWY_MAX_BYTES / sizeof(float)];
      hn::Store(acc, d, lane);
      float p = lane[0];
      for (size_t i = 1; i < hn::Lanes(d); ++i) p *= lane[i];
      return p;
    } else return hn::GetLane(hn::SumOfLanes(d, acc));
  }
};

// Up to kBlock vectors accumulate side by side: independent chains of additions (or max, min)
// that the processor overlaps, and one pass over a run kept across up to kBlock vectors.
constexpr int64_t kBlock = 4;

template <ReduceOp Op>
void ReduceAlongRun(const float* x, const GroupLayout& g, int64_t k_begin, int64_t k_end, float* y) {
  using F = Fold<Op>;
  const hn::ScalableTag<float> d;
  using V = decltype(hn::Zero(d));
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  const float count = static_cast<float>(g.group_size());
  for (int64_t k = k_begin; k < k_end; ++k) {
    V acc[kBlock];
    for (V& a : acc) a = hn::Set(d, F::identity());
    auto nan = hn::IsNaN(acc[0]);
    for (int64_t r : g.grouped) {
      const float* row = x + g.kept[static_cast<size_t>(k)] + r;
      int64_t i = 0;
      for (; i + kBlock * lanes <= g.run; i += kBlock * lanes)
        for (int64_t b = 0; b < kBlock; ++b) {
          const V v = hn::LoadU(d, row + i + b * lanes);
          acc[b] = F::apply(acc[b], v);
          if constexpr (F::kExtremum) nan = hn::Or(nan, hn::IsNaN(v));
        }
      ForVectors(d, row + i, g.run - i, F::identity(), [&](V v, int64_t, int64_t) {
        acc[0] = F::apply(acc[0], v);
        if constexpr (F::kExtremum) nan = hn::Or(nan, hn::IsNaN(v));
      });
    }
    for (int64_t b = 1; b < kBlock; ++b) acc[0] = F::apply(acc[0], acc[b]);
    float v = F::lanes(d, acc[0]);
    if (F::kExtremum && !hn::AllFalse(d, nan)) v = std::numeric_limits<float>::quiet_NaN();
    y[k] = Op == ReduceOp::Mean ? v / count : v;
  }
}

template <ReduceOp Op>
void ReduceAcrossRun(const float* x, const GroupLayout& g, int64_t k_begin, int64_t k_end, float* y) {
  using F = Fold<Op>;
  const hn::ScalableTag<float> d;
  using V = decltype(hn::Zero(d));
  using M = decltype(hn::IsNaN(hn::Zero(d)));
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  const float count = static_cast<float>(g.group_size());
  const V nan_value = hn::Set(d, std::numeric_limits<float>::quiet_NaN());
  HWY_ALIGN float tail[HWY_MAX_BYTES / sizeof(float)];
  for (int64_t k = k_begin; k < k_end; ++k) {
    const float* base = x + g.kept[static_cast<size_t>(k)];
    for (int64_t i = 0; i < g.run; i += kBlock * lanes) {
      // vectors [i, i + width) of the run, the last one partial when the run ends inside it
      const int64_t width = std::min(kBlock * lanes, g.run - i), vectors = (width + lanes - 1) / lanes;
      V acc[kBlock];
      M nan[kBlock];
      for (int64_t b = 0; b < kBlock; ++b) {
        acc[b] = hn::Set(d, F::identity());
        nan[b] = hn::IsNaN(acc[b]);
      }
      for (int64_t r : g.grouped)
        for (int64_t b = 0; b < vectors; ++b) {
          const float* at = base + r + i + b * lanes;
          const int64_t n = std::min(lanes, width - b * lanes);
          V v;
          if (n == lanes) {
            v = hn::LoadU(d, at);
          } else {
            std::fill_n(tail, lanes, F::identity());
            std::copy_n(at, n, tail);
            v = hn::Load(d, tail);
          }
          acc[b] = F::apply(acc[b], v);
          if constexpr (F::kExtremum) nan[b] = hn::Or(nan[b], hn::IsNaN(v));
        }
      for (int64_t b = 0; b < vectors; ++b) {
        V v = acc[b];
        if constexpr (F::kExtremum) v = hn::IfThenElse(nan[b], nan_value, v);
        if constexpr (Op == ReduceOp::Mean) v = hn::Div(v, hn::Set(d, count));
        StoreFirst(d, v, std::min(lanes, width - b * lanes), y + k * g.run + i + b * lanes);
      }
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
    case ReduceOp::Prod: return ReduceAs<ReduceOp::Prod>(x, g, k_begin, k_end, y);
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
