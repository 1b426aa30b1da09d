// broadcast_to: the input repeated up to the target shape, run by run: a copy where the input
// varies along the run, a fill with its one element where it is held fixed.
#include <algorithm>
#include <memory>

#include "fastpath/broadcast_runs.hpp"
#include "fastpath/lower.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<BroadcastToAttrs>& op, const NodeLowering& node) {
  // Only input 0 is data: the others, computed dims' sources, give their extents alone.
  auto runs = std::make_shared<const BroadcastRuns>(op.outputs()[0], std::vector<Shape>{op.inputs()[0]},
                                                    op.attrs().broadcast);
  // Any element kind (broadcast_to's kind): the same copies and fills of int64 or truth values.
  return with_element_type<float>(op.attrs().kind, [&]<class E>() -> Step {
    return [runs, in = node.inputs[0], out = node.outputs[0]](const Frame& f) {
      const E* x = f.at<E>(in);
      E* y = f.at<E>(out);
      runs->for_each(f.pool, [&](const Run& r) {
        if (runs->varies(0)) std::copy_n(x + r.in[0], r.n, y + r.out);
        else std::fill_n(y + r.out, r.n, x[r.in[0]]);
      });
    };
  });
}

}  // namespace nnref::fastpath
