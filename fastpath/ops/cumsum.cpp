// cumsum: per line along the axis (the positions that differ only on it, tabled once at lowering by
// split_axes), a running sum in summing order (from the start, or from the end when reversed;
// cumsum_position, spec/ops/cumsum.hpp), each output the sum before (exclusive) or after its own
// term is added. Reals in float32, one rounding per addition: a sequential order, inside the
// spec's envelope for any order. Integers in int64 wrapping modulo 2^64, each output wrapped to the
// result type, unknown from the first unknown term on, so that the answers equal the spec's. A simple loop per line; the lines split
// over threads.
#include <cstdint>
#include <memory>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "spec/ops/cumsum.hpp"

namespace nnref::fastpath {

namespace {

// The sum so far: float32 additions.
struct RealRunning {
  float acc = 0.0f;
  void add(float v) { acc += v; }
  float value() const { return acc; }
};

// The sum so far over int64: modulo 2^64, wrapped to the result type, and unknown once a term is
// (as integer_sum).
struct IntegerRunning {
  IntegerType type;
  uint64_t acc = 0;
  bool unknown = false;
  void add(int64_t v) {
    unknown = unknown || v == kUnknownInteger;
    acc += static_cast<uint64_t>(v);
  }
  int64_t value() const { return unknown ? kUnknownInteger : wrapped(type, static_cast<int64_t>(acc)); }
};

template <class E, class Running>
Step cumsum_step(std::shared_ptr<const AxisSplit> split, CumsumAttrs a, Running start, Slot in, Slot out) {
  return [split, a, start, in, out](const Frame& f) {
    const E* xs = f.at<E>(in);
    E* ys = f.at<E>(out);
    const auto n = static_cast<int64_t>(split->inner.size());
    f.pool->parallel_for(static_cast<int64_t>(split->outer.size()), 16, [&](int64_t b, int64_t e) {
      for (int64_t line = b; line < e; ++line) {
        const int64_t o = split->outer[static_cast<size_t>(line)];
        Running sum = start;
        for (int64_t k = 0; k < n; ++k) {
          const int64_t at = o + split->inner[static_cast<size_t>(cumsum_position(a, n, k))];
          const E v = xs[at];
          if (a.exclusive) ys[at] = sum.value();
          sum.add(v);
          if (!a.exclusive) ys[at] = sum.value();
        }
      }
    });
  };
}

}  // namespace

Step lower_op(const Checked<CumsumAttrs>& op, const NodeLowering& node) {
  const CumsumAttrs& a = op.attrs();
  const Shape& shape = op.inputs()[0];
  const auto axis = static_cast<size_t>(normalize_axis(a.axis, AxisDomain(shape.rank())));
  auto split = std::make_shared<const AxisSplit>(split_axes(shape, {axis}));
  if (a.kind == ElemKind::Integer)
    return cumsum_step<int64_t>(split, a, IntegerRunning{a.type}, node.inputs[0], node.outputs[0]);
  return cumsum_step<float>(split, a, RealRunning{}, node.inputs[0], node.outputs[0]);
}

}  // namespace nnref::fastpath
