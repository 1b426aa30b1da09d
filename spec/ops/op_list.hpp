// The one list of all ops (LLVM's .def idea). X(attribute struct, file stem under spec/ops/).
// From it come the IR's OpAttrs variant and name dispatch (semantics/op.hpp), the obligation
// catalogue (semantics/catalogue.cpp) and, read by CMake, the translation units that instantiate
// each op's rule over concrete extents and its kernel in every scalar (spec/CMakeLists.txt, one
// per op) and its rule over size symbols (checker/CMakeLists.txt). Adding an op: docs/adding-an-op.md.
#pragma once

#include "spec/attrs/add_n.hpp"
#include "spec/attrs/arg_reduce.hpp"
#include "spec/attrs/argmax_pool.hpp"
#include "spec/attrs/batch_norm.hpp"
#include "spec/attrs/cast.hpp"
#include "spec/attrs/binary.hpp"
#include "spec/attrs/broadcast_to.hpp"
#include "spec/attrs/clamp.hpp"
#include "spec/attrs/compare.hpp"
#include "spec/attrs/concat.hpp"
#include "spec/attrs/const.hpp"
#include "spec/attrs/contract.hpp"
#include "spec/attrs/conv.hpp"
#include "spec/attrs/cumsum.hpp"
#include "spec/attrs/deconv.hpp"
#include "spec/attrs/flatten.hpp"
#include "spec/attrs/gather.hpp"
#include "spec/attrs/input.hpp"
#include "spec/attrs/interpolate.hpp"
#include "spec/attrs/integer_binary.hpp"
#include "spec/attrs/layer_norm.hpp"
#include "spec/attrs/linear.hpp"
#include "spec/attrs/logical.hpp"
#include "spec/attrs/logical_reduce.hpp"
#include "spec/attrs/matmul.hpp"
#include "spec/attrs/pad.hpp"
#include "spec/attrs/pool.hpp"
#include "spec/attrs/prelu.hpp"
#include "spec/attrs/range.hpp"
#include "spec/attrs/reduce.hpp"
#include "spec/attrs/reshape.hpp"
#include "spec/attrs/roi.hpp"
#include "spec/attrs/sample.hpp"
#include "spec/attrs/sizes.hpp"
#include "spec/attrs/select.hpp"
#include "spec/attrs/slice.hpp"
#include "spec/attrs/softmax.hpp"
#include "spec/attrs/split.hpp"
#include "spec/attrs/squeeze.hpp"
#include "spec/attrs/transpose.hpp"
#include "spec/attrs/unary.hpp"
#include "spec/attrs/unsqueeze.hpp"

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
  X(CumsumAttrs, cumsum)               \
  X(ContractAttrs, contract)           \
  X(LogicalReduceAttrs, logical_reduce) \
  X(ReshapeAttrs, reshape)             \
  X(SizesAttrs, sizes)                 \
  X(RangeAttrs, range)                 \
  X(FlattenAttrs, flatten)             \
  X(TransposeAttrs, transpose)         \
  X(ConcatAttrs, concat)               \
  X(SplitAttrs, split)                 \
  X(SliceAttrs, slice)                 \
  X(GatherAttrs, gather)               \
  X(InterpolateAttrs, interpolate)     \
  X(RoiAttrs, roi)                     \
  X(CastAttrs, cast)                   \
  X(IntegerBinaryAttrs, integer_binary) \
  X(PadAttrs, pad)                     \
  X(SqueezeAttrs, squeeze)             \
  X(UnsqueezeAttrs, unsqueeze)
// clang-format on

#include "spec/op_instances.hpp"
