// The one list of all ops (LLVM's .def idea). X(attribute struct, file stem under spec/ops/).
// From it come the IR's OpAttrs variant and name dispatch (semantics/op.hpp), the obligation
// catalogue (semantics/catalogue.cpp) and, read by CMake, one translation unit per op and scalar
// that instantiates its kernel (spec/CMakeLists.txt) and per op and dimension type that
// instantiates its rule (spec/, checker/). Adding an op: docs/adding-an-op.md.
#pragma once

#include "spec/ops/add_n.hpp"
#include "spec/ops/arg_reduce.hpp"
#include "spec/ops/argmax_pool.hpp"
#include "spec/ops/batch_norm.hpp"
#include "spec/ops/cast.hpp"
#include "spec/ops/binary.hpp"
#include "spec/ops/broadcast_to.hpp"
#include "spec/ops/clamp.hpp"
#include "spec/ops/compare.hpp"
#include "spec/ops/concat.hpp"
#include "spec/ops/const.hpp"
#include "spec/ops/conv.hpp"
#include "spec/ops/deconv.hpp"
#include "spec/ops/flatten.hpp"
#include "spec/ops/gather.hpp"
#include "spec/ops/input.hpp"
#include "spec/ops/layer_norm.hpp"
#include "spec/ops/linear.hpp"
#include "spec/ops/logical.hpp"
#include "spec/ops/logical_reduce.hpp"
#include "spec/ops/matmul.hpp"
#include "spec/ops/pad.hpp"
#include "spec/ops/pool.hpp"
#include "spec/ops/prelu.hpp"
#include "spec/ops/reduce.hpp"
#include "spec/ops/reshape.hpp"
#include "spec/ops/roi.hpp"
#include "spec/ops/sample.hpp"
#include "spec/ops/sizes.hpp"
#include "spec/ops/select.hpp"
#include "spec/ops/slice.hpp"
#include "spec/ops/softmax.hpp"
#include "spec/ops/split.hpp"
#include "spec/ops/squeeze.hpp"
#include "spec/ops/transpose.hpp"
#include "spec/ops/unary.hpp"
#include "spec/ops/unsqueeze.hpp"

// clang-format off
#define NNREF_FOR_EACH_OP(X)           \
  X(InputAttrs, input)                 \
  X(ConstAttrs, const)                 \
  X(UnaryAttrs, unary)                 \
  X(BinaryAttrs, binary)               \
  X(AddNAttrs, add_n)                  \
  X(BroadcastToAttrs, broadcast_to)    \
  X(ClampAttrs, clamp)                 \
  X(PreluAttrs, prelu)                 \
  X(SelectAttrs, select)               \
  X(CompareAttrs, compare)             \
  X(LogicalAttrs, logical)             \
  X(LinearAttrs, linear)               \
  X(MatMulAttrs, matmul)               \
  X(ConvAttrs, conv)                   \
  X(DeconvAttrs, deconv)               \
  X(PoolAttrs, pool)                   \
  X(ArgmaxPoolAttrs, argmax_pool)      \
  X(SampleAttrs, sample)               \
  X(BatchNormAttrs, batch_norm)        \
  X(LayerNormAttrs, layer_norm)        \
  X(SoftmaxAttrs, softmax)             \
  X(ReduceAttrs, reduce)               \
  X(ArgReduceAttrs, arg_reduce)        \
  X(LogicalReduceAttrs, logical_reduce) \
  X(ReshapeAttrs, reshape)             \
  X(SizesAttrs, sizes)                 \
  X(FlattenAttrs, flatten)             \
  X(TransposeAttrs, transpose)         \
  X(ConcatAttrs, concat)               \
  X(SplitAttrs, split)                 \
  X(SliceAttrs, slice)                 \
  X(GatherAttrs, gather)               \
  X(RoiAttrs, roi)                     \
  X(CastAttrs, cast)                   \
  X(PadAttrs, pad)                     \
  X(SqueezeAttrs, squeeze)             \
  X(UnsqueezeAttrs, unsqueeze)
// clang-format on

#include "spec/op_instances.hpp"
