// add_n: y = x₀ + x₁ + … in input order, one pass over the inputs of identical shape (a vector
// loop that keeps the running sum in registers), cut into chunks the threads share.
#include <memory>
#include <utility>
#include <vector>

#include "fastpath/broadcast_runs.hpp"
#include "fastpath/elementwise.hpp"
#include "fastpath/lower.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<AddNAttrs>& op, const NodeLowering& node) {
  const Shape& y = op.outputs()[0];
  auto runs = std::make_shared<const BroadcastRuns>(y, std::vector<Shape>{y}, Broadcast::Equal);
  std::vector<int64_t> byte_offsets;
  for (const Slot& s : node.inputs) byte_offsets.push_back(s.offset);
  auto offsets = std::make_shared<const std::vector<int64_t>>(std::move(byte_offsets));
  return [runs, offsets, out = node.outputs[0]](const Frame& f) {
    float* ys = f.at<float>(out);
    runs->for_each(f.pool, [&](const Run& r) {
      add_run(f.arena, offsets->data(), static_cast<int64_t>(offsets->size()), r.out, r.n, ys);
    });
  };
}

}  // namespace nnref::fastpath
