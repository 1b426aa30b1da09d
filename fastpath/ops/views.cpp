// Reshape, flatten, squeeze and unsqueeze keep the elements in row-major order: their output is a
// view of their input's bytes (fastpath/memory_plan.hpp places both at one offset), so there is
// nothing to compute.
#include "fastpath/lower.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<ReshapeAttrs>&, const NodeLowering&) { return {}; }
Step lower_op(const Checked<FlattenAttrs>&, const NodeLowering&) { return {}; }
Step lower_op(const Checked<SqueezeAttrs>&, const NodeLowering&) { return {}; }
Step lower_op(const Checked<UnsqueezeAttrs>&, const NodeLowering&) { return {}; }

}  // namespace nnref::fastpath
