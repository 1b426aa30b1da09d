// range: start + i·delta, which the witness fixes: the lowering computes the values once (an
// integer range by the spec's own start, a real one in double, then float32), the step writes them.
#include <algorithm>
#include <memory>
#include <vector>

#include "fastpath/lower.hpp"
#include "spec/ops/range.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<RangeAttrs>& op, const NodeLowering& node) {
  const RangeAttrs& a = op.attrs();
  const int64_t n = op.outputs()[0].count();
  if (a.kind == ElemKind::Integer) {
    const auto start = static_cast<uint64_t>(integer_range_start(a, op.inputs()));
    std::vector<int64_t> values(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      values[static_cast<size_t>(i)] = static_cast<int64_t>(start + static_cast<uint64_t>(i) * static_cast<uint64_t>(a.idelta));
    return [values, out = node.outputs[0]](const Frame& f) { std::copy(values.begin(), values.end(), f.at<int64_t>(out)); };
  }
  std::vector<float> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    values[static_cast<size_t>(i)] = static_cast<float>(a.start.value + static_cast<double>(i) * a.delta.value);
  return [values, out = node.outputs[0]](const Frame& f) { std::copy(values.begin(), values.end(), f.at<float>(out)); };
}

}  // namespace nnref::fastpath
