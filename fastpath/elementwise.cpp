// The elementwise kernels, compiled once per Highway target and chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fastpath/elementwise.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

#include <algorithm>
#include <limits>

#include "fastpath/elementwise.hpp"
#include "fastpath/exp-inl.h"
#include "fastpath/vectors-inl.h"

HWY_BEFORE_NAMESPACE();
namespace nnref::fastpath {
namespace HWY_NAMESPACE {

using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// The lanes [i, i + count) of a run operand: loaded, or its one broadcast value.
HWY_INLINE V Read(D d, RunIn x, int64_t i, int64_t count) {
  if (!x.varies) return hn::Set(d, x.p[0]);
  if (count == static_cast<int64_t>(hn::Lanes(d))) return hn::LoadU(d, x.p + i);
  HWY_ALIGN float tail[HWY_MAX_BYTES / sizeof(float)] = {};
  std::copy_n(x.p + i, count, tail);
  return hn::Load(d, tail);
}

// f(i, count) for each full vector of [0, n), then the tail.
template <class F>
HWY_INLINE void ForLanes(D d, int64_t n, F&& f) {
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) f(i, lanes);
  if (i < n) f(i, n - i);
}

// The spec's max(a, b) and min(a, b) (spec/scalar.hpp): b if b is NaN, else the larger (smaller),
// a when they compare equal; so a NaN in either operand gives NaN.
HWY_INLINE V MaxOf(V a, V b) { return hn::IfThenElse(hn::Or(hn::IsNaN(b), hn::Lt(a, b)), b, a); }
HWY_INLINE V MinOf(V a, V b) { return hn::IfThenElse(hn::Or(hn::IsNaN(b), hn::Lt(b, a)), b, a); }

// log x over the whole float line: Highway's Log is valid on (0, FLT_MAX] (subnormals included).
HWY_INLINE V LogOf(D d, V x) {
  const V zero = hn::Zero(d);
  const auto valid = hn::And(hn::Gt(x, zero), hn::Lt(x, hn::Set(d, kInf)));
  const V log = hn::Log(d, hn::IfThenElse(valid, x, hn::Set(d, 1.0f)));
  const V ends = hn::IfThenElse(hn::Eq(x, zero), hn::Set(d, -kInf),
                                hn::IfThenElse(hn::Eq(x, hn::Set(d, kInf)), x, hn::Set(d, kNaN)));
  return hn::IfThenElse(valid, log, ends);
}

// log(exp(x) + 1) as max(x, 0) + log1p(exp(−|x|)): the same function without exp's overflow.
HWY_INLINE V SoftplusOf(D d, V x) {
  const V zero = hn::Zero(d);
  const V y = hn::Add(hn::Max(x, zero), hn::Log1p(d, hn::Exp(d, hn::Neg(hn::Abs(x)))));
  return hn::IfThenElse(hn::IsNaN(x), x, y);
}

// floor x with x's sign, which floor keeps (floor(−0) = −0); Highway's SSSE3 Floor loses it.
HWY_INLINE V FloorOf(V x) { return hn::CopySign(hn::Floor(x), x); }

template <class F>
HWY_INLINE void Map(D d, const float* x, int64_t n, float* y, F&& f) {
  ForVectors(d, x, n, 1.0f, [&](V v, int64_t i, int64_t count) { StoreFirst(d, f(v), count, y + i); });
}

void UnaryRun(UnaryOp op, float alpha, const float* x, int64_t n, float* y) {
  const D d;
  const V zero = hn::Zero(d), one = hn::Set(d, 1.0f), a = hn::Set(d, alpha);
  switch (op) {
    case UnaryOp::Neg: return Map(d, x, n, y, [&](V v) { return hn::Neg(v); });
    case UnaryOp::Abs: return Map(d, x, n, y, [&](V v) { return hn::Abs(v); });
    case UnaryOp::Sqr: return Map(d, x, n, y, [&](V v) { return hn::Mul(v, v); });
    case UnaryOp::Sqrt: return Map(d, x, n, y, [&](V v) { return hn::Sqrt(v); });
    case UnaryOp::Rcp: return Map(d, x, n, y, [&](V v) { return hn::Div(one, v); });
    case UnaryOp::Rsqr: return Map(d, x, n, y, [&](V v) { return hn::Div(one, hn::Mul(v, v)); });
    case UnaryOp::Rsqrt: return Map(d, x, n, y, [&](V v) { return hn::Div(one, hn::Sqrt(v)); });
    case UnaryOp::Exp: return Map(d, x, n, y, [&](V v) { return ExpOf(d, v); });
    case UnaryOp::Log: return Map(d, x, n, y, [&](V v) { return LogOf(d, v); });
    case UnaryOp::Log2:  // log x · log2(e), rounded twice: within Highway's Log2 (2 ulps)
      return Map(d, x, n, y, [&](V v) { return hn::Mul(LogOf(d, v), hn::Set(d, 1.44269504088896340736f)); });
    case UnaryOp::Tanh: return Map(d, x, n, y, [&](V v) { return hn::Tanh(d, v); });
    case UnaryOp::Sigmoid:  // 1/(1 + exp(−x))
      return Map(d, x, n, y, [&](V v) { return hn::Div(one, hn::Add(one, ExpOf(d, hn::Neg(v)))); });
    case UnaryOp::Softplus: return Map(d, x, n, y, [&](V v) { return SoftplusOf(d, v); });
    case UnaryOp::Relu:  // max(x, 0): NaN and −0 stay
      return Map(d, x, n, y, [&](V v) { return hn::IfThenZeroElse(hn::Lt(v, zero), v); });
    case UnaryOp::LeakyRelu: return Map(d, x, n, y, [&](V v) { return hn::IfThenElse(hn::Lt(v, zero), hn::Mul(a, v), v); });
    case UnaryOp::Elu:  // alpha·(exp(x) − 1) below 0, as the spec writes it
      return Map(d, x, n, y, [&](V v) {
        return hn::IfThenElse(hn::Lt(v, zero), hn::Mul(a, hn::Sub(ExpOf(d, v), one)), v);
      });
    case UnaryOp::Sign:  // 0, −0 and NaN stay
      return Map(d, x, n, y, [&](V v) {
        return hn::IfThenElse(hn::Gt(v, zero), one, hn::IfThenElse(hn::Lt(v, zero), hn::Neg(one), v));
      });
    case UnaryOp::Floor: return Map(d, x, n, y, [&](V v) { return FloorOf(v); });
    case UnaryOp::Ceil: return Map(d, x, n, y, [&](V v) { return hn::CopySign(hn::Ceil(v), v); });
    case UnaryOp::Round: return Map(d, x, n, y, [&](V v) { return FloorOf(hn::Add(v, hn::Set(d, 0.5f))); });
    case UnaryOp::RoundEven:  // Highway's Round ties to even; x's sign kept (−0.5 → −0), as nearbyint
      return Map(d, x, n, y, [&](V v) { return hn::CopySign(hn::Round(v), v); });
    default: return;  // loops over glibc's functions (fastpath/ops/unary.cpp)
  }
}

template <class F>
HWY_INLINE void Map2(D d, RunIn x, RunIn y, int64_t n, float* z, F&& f) {
  ForLanes(d, n, [&](int64_t i, int64_t count) { StoreFirst(d, f(Read(d, x, i, count), Read(d, y, i, count)), count, z + i); });
}

void BinaryRun(BinaryOp op, RunIn x, RunIn y, int64_t n, float* z) {
  const D d;
  switch (op) {
    case BinaryOp::Add: return Map2(d, x, y, n, z, [](V a, V b) { return hn::Add(a, b); });
    case BinaryOp::Sub: return Map2(d, x, y, n, z, [](V a, V b) { return hn::Sub(a, b); });
    case BinaryOp::Mul: return Map2(d, x, y, n, z, [](V a, V b) { return hn::Mul(a, b); });
    case BinaryOp::Div: return Map2(d, x, y, n, z, [](V a, V b) { return hn::Div(a, b); });
    case BinaryOp::Min: return Map2(d, x, y, n, z, [](V a, V b) { return MinOf(a, b); });
    case BinaryOp::Max: return Map2(d, x, y, n, z, [](V a, V b) { return MaxOf(a, b); });
    case BinaryOp::Pow: case BinaryOp::Fmod: return;  // loops over powf and fmodf (fastpath/ops/binary.cpp)
  }
}

void ClampRun(RunIn x, RunIn lo, RunIn hi, int64_t n, float* y) {
  const D d;
  ForLanes(d, n, [&](int64_t i, int64_t count) {
    StoreFirst(d, MaxOf(MinOf(Read(d, x, i, count), Read(d, hi, i, count)), Read(d, lo, i, count)), count, y + i);
  });
}

void PreluRun(RunIn x, RunIn alpha, int64_t n, float* y) {
  const D d;
  Map2(d, x, alpha, n, y, [&](V v, V a) { return hn::IfThenElse(hn::Lt(v, hn::Zero(d)), hn::Mul(a, v), v); });
}

void SelectRun(const uint8_t* condition, RunIn t, RunIn f, int64_t n, float* y) {
  const D d;
  const hn::RebindToSigned<D> di;
  const hn::Rebind<uint8_t, D> du8;
  ForLanes(d, n, [&](int64_t i, int64_t count) {
    HWY_ALIGN uint8_t c[HWY_MAX_BYTES / sizeof(float)] = {};
    std::copy_n(condition + i, count, c);
    const auto holds = hn::RebindMask(d, hn::Ne(hn::PromoteTo(di, hn::Load(du8, c)), hn::Zero(di)));
    StoreFirst(d, hn::IfThenElse(holds, Read(d, t, i, count), Read(d, f, i, count)), count, y + i);
  });
}

void AddRun(const std::byte* base, const int64_t* offsets, int64_t k, int64_t start, int64_t n, float* y) {
  const D d;
  const auto in = [&](int64_t j) { return RunIn{reinterpret_cast<const float*>(base + offsets[j]) + start, true}; };
  ForLanes(d, n, [&](int64_t i, int64_t count) {
    V sum = Read(d, in(0), i, count);
    for (int64_t j = 1; j < k; ++j) sum = hn::Add(sum, Read(d, in(j), i, count));
    StoreFirst(d, sum, count, y + start + i);
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace nnref::fastpath
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace nnref::fastpath {

HWY_EXPORT(UnaryRun);
HWY_EXPORT(BinaryRun);
HWY_EXPORT(ClampRun);
HWY_EXPORT(PreluRun);
HWY_EXPORT(SelectRun);
HWY_EXPORT(AddRun);

void unary_run(UnaryOp op, float alpha, const float* x, int64_t n, float* y) {
  HWY_DYNAMIC_DISPATCH(UnaryRun)(op, alpha, x, n, y);
}
void binary_run(BinaryOp op, RunIn x, RunIn y, int64_t n, float* z) { HWY_DYNAMIC_DISPATCH(BinaryRun)(op, x, y, n, z); }
void clamp_run(RunIn x, RunIn lo, RunIn hi, int64_t n, float* y) { HWY_DYNAMIC_DISPATCH(ClampRun)(x, lo, hi, n, y); }
void prelu_run(RunIn x, RunIn alpha, int64_t n, float* y) { HWY_DYNAMIC_DISPATCH(PreluRun)(x, alpha, n, y); }
void select_run(const uint8_t* condition, RunIn t, RunIn f, int64_t n, float* y) {
  HWY_DYNAMIC_DISPATCH(SelectRun)(condition, t, f, n, y);
}
void add_run(const std::byte* base, const int64_t* offsets, int64_t k, int64_t start, int64_t n, float* y) {
  HWY_DYNAMIC_DISPATCH(AddRun)(base, offsets, k, start, n, y);
}

}  // namespace nnref::fastpath
#endif  // HWY_ONCE
