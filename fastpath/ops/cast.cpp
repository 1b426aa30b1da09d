// cast between reals (float), integers (int64) and logical values (bytes), element by element as
// the spec's: a real to an integer floored (NaN and values beyond int64: the spec's
// kUnknownInteger), a real or integer to a logical value true unless 0, a logical value to 0 or 1.
// A simple loop; the elements split over threads.
#include <cmath>
#include <cstring>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"

namespace nnref::fastpath {

namespace {

int64_t floored(float x) {
  const float v = std::floor(x);
  return v >= -0x1p63f && v < 0x1p63f ? static_cast<int64_t>(v) : kUnknownInteger;
}

// A step writing out[i] = convert(in[i]) for every element.
template <class From, class To, class Convert>
Step map_step(Slot in, Slot out, Convert convert) {
  const int64_t n = out.shape.count();
  return [in, out, n, convert](const Frame& f) {
    const From* xs = f.at<From>(in);
    To* ys = f.at<To>(out);
    f.pool->parallel_for(n, 4096, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) ys[i] = convert(xs[i]);
    });
  };
}

}  // namespace

Step lower_op(const Checked<CastAttrs>& op, const NodeLowering& node) {
  const Slot &in = node.inputs[0], &out = node.outputs[0];
  const ElemKind from = op.attrs().from, to = op.attrs().to;
  if (from == to) {
    const auto bytes = static_cast<size_t>(out.shape.count()) * (to == ElemKind::Real ? 4 : to == ElemKind::Integer ? 8 : 1);
    return [in, out, bytes](const Frame& f) { std::memmove(f.at<std::byte>(out), f.at<std::byte>(in), bytes); };
  }
  switch (from) {
    case ElemKind::Real:
      if (to == ElemKind::Integer) return map_step<float, int64_t>(in, out, floored);
      return map_step<float, uint8_t>(in, out, [](float x) -> uint8_t { return x != 0.0f; });
    case ElemKind::Integer:
      if (to == ElemKind::Real)
        return map_step<int64_t, float>(in, out, [](int64_t x) {
          return x == kUnknownInteger ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(x);
        });
      return map_step<int64_t, uint8_t>(in, out, [](int64_t x) -> uint8_t { return x != 0; });
    case ElemKind::Logical:
      if (to == ElemKind::Real) return map_step<uint8_t, float>(in, out, [](uint8_t x) { return static_cast<float>(x); });
      return map_step<uint8_t, int64_t>(in, out, [](uint8_t x) { return static_cast<int64_t>(x); });
  }
  return {};
}

}  // namespace nnref::fastpath
