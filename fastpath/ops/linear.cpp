// Linear: y [N, units] = epilogue(bias + x [N, in] · W) through the matrix product, with W packed
// once ([in, units] as the IR's InOut layout holds it, transposed from OutIn).
#include <memory>

#include "fastpath/lower.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<LinearAttrs>& op, const NodeLowering& node) {
  const Shape& x = op.inputs()[0];
  const int64_t in = x[1], units = op.attrs().units;
  const Tensor<float>& weight = *node.params[0];
  std::vector<float> b(weight.data().begin(), weight.data().end());  // [in, units]
  if (op.attrs().layout == WeightLayout::OutIn)
    for (int64_t i = 0; i < in; ++i)
      for (int64_t j = 0; j < units; ++j) b[static_cast<size_t>(i * units + j)] = weight[j * in + i];
  const float* bias = op.attrs().has_bias ? node.param(1) : nullptr;
  auto packed = std::make_shared<PackedMatrix>(pack_b(b.data(), bias, in, units, node.epilogue));
  return [packed, rows = x[0], in_slot = node.inputs[0], out = node.outputs[0]](const Frame& f) {
    gemm(f.at<float>(in_slot), rows, *packed, f.at<float>(out), f.pool);
  };
}

}  // namespace nnref::fastpath
