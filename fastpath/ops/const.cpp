// Const: its value (a parameter, bound by the plan) copied into its slot on every run, since the
// arena reuses the slot's bytes once the plan frees the value.
#include <cstring>

#include "fastpath/lower.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<ConstAttrs>&, const NodeLowering& node) {
  const Tensor<float>* value = node.params[0];
  return [value, out = node.outputs[0]](const Frame& f) {
    std::memcpy(f.at<float>(out), value->data().data(), value->data().size_bytes());
  };
}

}  // namespace nnref::fastpath
