// Const: its value (a parameter, bound by the plan) copied into its slot on every run, since the
// arena reuses the slot's bytes once the plan frees the value. Integer and logical constants are
// converted once, at lowering, from the float parameter the plan gives (whole numbers: exact up to
// 2^24 in magnitude; docs/fastpath.md).
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "fastpath/lower.hpp"

namespace nnref::fastpath {

namespace {

template <class E, class Convert>
Step copy_converted(const Tensor<float>& value, const Slot& out, Convert convert) {
  auto items = std::make_shared<std::vector<E>>();
  for (float v : value.data()) items->push_back(convert(v));
  return [items, out](const Frame& f) { std::memcpy(f.at<E>(out), items->data(), items->size() * sizeof(E)); };
}

}  // namespace

Step lower_op(const Checked<ConstAttrs>& op, const NodeLowering& node) {
  const Tensor<float>* value = node.params[0];
  const Slot& out = node.outputs[0];
  switch (op.attrs().kind) {
    case ElemKind::Integer:
      return copy_converted<int64_t>(*value, out, [](float v) { return static_cast<int64_t>(std::llround(v)); });
    case ElemKind::Logical: return copy_converted<uint8_t>(*value, out, [](float v) -> uint8_t { return v != 0.0f; });
    case ElemKind::Real: break;
  }
  return [value, out](const Frame& f) {
    std::memcpy(f.at<float>(out), value->data().data(), value->data().size_bytes());
  };
}

}  // namespace nnref::fastpath
