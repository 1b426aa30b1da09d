// The op set of the IR: one attribute struct per op family, from spec/ops.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "spec/ops/conv.hpp"
#include "spec/ops/elementwise.hpp"
#include "spec/ops/layout_ops.hpp"
#include "spec/ops/linear.hpp"
#include "spec/ops/normalization.hpp"
#include "spec/ops/pool.hpp"
#include "spec/ops/reduce_ops.hpp"

namespace nnref {

// A model input: a fresh tensor per run, of the declared shape (batch axis included).
struct InputAttrs {
  std::vector<int64_t> dims;
};
// A constant: its value is the payload entry (node, "value"), of the declared shape.
struct ConstAttrs {
  std::vector<int64_t> dims;
};

using OpAttrs =
    std::variant<InputAttrs, ConstAttrs, UnaryAttrs, BinaryAttrs, AddNAttrs, BroadcastToAttrs, LinearAttrs,
                 MatMulAttrs, ConvAttrs, PoolAttrs, BatchNormAttrs, LayerNormAttrs, SoftmaxAttrs, ReduceAttrs,
                 ReshapeAttrs, FlattenAttrs, TransposeAttrs, ConcatAttrs, SplitAttrs, SliceAttrs, PadAttrs,
                 SqueezeAttrs, UnsqueezeAttrs>;

inline std::string op_name(const InputAttrs&) { return "input"; }
inline std::string op_name(const ConstAttrs&) { return "const"; }
std::string op_name(const OpAttrs& op);

}  // namespace nnref
