// The arguments of nnref's own NAC operations, `nnref.<op>` (docs/nac.md): for each IR op, its
// tensor inputs, then every attribute, then its parameters, in one order that the writer and the
// reader both walk (IO is the writer's ArgWriter or the reader's ArgReader), so that a write followed
// by a read gives back the same attributes.
#pragma once

#include "semantics/op.hpp"

namespace nnref::nac {

template <class IO> void fields(IO& io, UnaryAttrs& a) { io.inputs(); io.real(a.alpha); }
template <class IO> void fields(IO& io, BinaryAttrs& a) { io.inputs(); io.choice(a.broadcast); }
template <class IO> void fields(IO& io, AddNAttrs& a) { io.inputs(); io.size(a.batch_axes); }
template <class IO> void fields(IO& io, ClampAttrs& a) { io.inputs(); io.choice(a.broadcast); }
template <class IO> void fields(IO& io, PreluAttrs& a) { io.inputs(); io.choice(a.broadcast); }
template <class IO> void fields(IO& io, SelectAttrs& a) { io.inputs(); io.choice(a.broadcast); io.choice(a.kind); }
template <class IO> void fields(IO& io, CompareAttrs& a) { io.inputs(); io.choice(a.broadcast); }
template <class IO> void fields(IO& io, LogicalAttrs& a) { io.inputs(); io.choice(a.broadcast); }
template <class IO> void fields(IO& io, MatMulAttrs& a) { io.inputs(); io.boolean(a.transpose_a); io.boolean(a.transpose_b); }
template <class IO> void fields(IO& io, SoftmaxAttrs& a) { io.inputs(); io.ints(a.axes); io.size(a.batch_axes); }
template <class IO> void fields(IO& io, ReduceAttrs& a) { io.inputs(); io.ints(a.axes); io.boolean(a.keep_dims); io.choice(a.kind); io.choice(a.type.width); io.boolean(a.type.is_signed); }
template <class IO> void fields(IO& io, ArgReduceAttrs& a) { io.inputs(); io.ints(a.axes); io.boolean(a.last); }
template <class IO> void fields(IO& io, LogicalReduceAttrs& a) { io.inputs(); io.ints(a.axes); }
template <class IO> void fields(IO& io, CumsumAttrs& a) { io.inputs(); io.integer(a.axis); io.boolean(a.exclusive); io.boolean(a.reverse); io.choice(a.kind); io.choice(a.type.width); io.boolean(a.type.is_signed); }
// A list of element kinds as integers (a kind that is none reads as real: the walk's kind check
// then names the operand).
template <class IO>
void kinds(IO& io, std::vector<ElemKind>& ks) {
  std::vector<int64_t> v;
  for (ElemKind k : ks) v.push_back(static_cast<int64_t>(k));
  io.ints(v);
  ks.clear();
  for (int64_t k : v) ks.push_back(k == 1 ? ElemKind::Integer : k == 2 ? ElemKind::Logical : ElemKind::Real);
}
template <class IO> void fields(IO& io, ContractAttrs& a) { io.inputs(); io.integer(a.inputs); io.ints(a.program); kinds(io, a.kinds); io.choice(a.result); }
template <class IO> void fields(IO& io, PadAttrs& a) { io.inputs(); io.pairs(a.padding); io.choice(a.border); io.real(a.value); io.choice(a.kind); io.ints(a.computed.code); kinds(io, a.computed.sources); }
template <class IO> void fields(IO& io, BroadcastToAttrs& a) { io.inputs(); io.ints(a.dims); io.choice(a.broadcast); io.ints(a.computed); kinds(io, a.sources); io.choice(a.kind); }
template <class IO> void fields(IO& io, ReshapeAttrs& a) { io.inputs(); io.ints(a.dims); io.choice(a.kind); io.ints(a.computed); kinds(io, a.sources); }
template <class IO> void fields(IO& io, RangeAttrs& a) { io.inputs(); io.choice(a.kind); io.real(a.start); io.real(a.limit); io.real(a.delta); io.integer(a.istart); io.integer(a.ilimit); io.integer(a.idelta); io.ints(a.computed); kinds(io, a.sources); }
template <class IO> void fields(IO& io, SizesAttrs& a) { io.inputs(); io.ints(a.program); kinds(io, a.sources); }
template <class IO> void fields(IO& io, FlattenAttrs& a) { io.inputs(); io.integer(a.axis); }
template <class IO> void fields(IO& io, TransposeAttrs& a) { io.inputs(); io.ints(a.perm); io.choice(a.kind); }
template <class IO> void fields(IO& io, ConcatAttrs& a) { io.inputs(); io.integer(a.axis); io.size(a.batch_axes); io.choice(a.kind); }
template <class IO> void fields(IO& io, SplitAttrs& a) { io.inputs(); io.integer(a.axis); io.ints(a.ratios); io.choice(a.kind); }
template <class IO> void fields(IO& io, SliceAttrs& a) { io.inputs(); io.ints(a.axes); io.ints(a.begin); io.ints(a.end); io.ints(a.stride); io.choice(a.kind); io.ints(a.computed); kinds(io, a.sources); }
template <class IO> void fields(IO& io, GatherAttrs& a) { io.inputs(); io.integer(a.axis); }
template <class IO> void fields(IO& io, InterpolateAttrs& a) { io.inputs(); io.ints(a.axes); }
template <class IO> void fields(IO& io, RoiAttrs& a) { io.inputs(); io.choice(a.op); io.ints(a.output_size); io.choice(a.method); }
template <class IO> void fields(IO& io, CastAttrs& a) { io.inputs(); io.choice(a.from); io.choice(a.to); }
template <class IO> void fields(IO& io, IntegerBinaryAttrs& a) { io.inputs(); io.choice(a.broadcast); io.choice(a.type.width); io.boolean(a.type.is_signed); }

template <class IO> void fields(IO& io, SqueezeAttrs& a) { io.inputs(); io.ints(a.axes); io.choice(a.kind); }
template <class IO> void fields(IO& io, UnsqueezeAttrs& a) { io.inputs(); io.ints(a.axes); io.choice(a.kind); }

template <class IO>
void fields(IO& io, LinearAttrs& a) {
  io.inputs();
  io.integer(a.units);
  io.choice(a.layout);
  io.boolean(a.has_bias);
  io.param("weight", 'W');
  if (a.has_bias) io.param("bias", 'B');
}

template <class IO>
void fields(IO& io, ConvAttrs& a) {
  io.inputs();
  io.integer(a.out_channels);
  io.ints(a.kernel);
  io.ints(a.stride);
  io.ints(a.dilation);
  io.pairs(a.padding);
  io.choice(a.pad_mode);
  io.integer(a.groups);
  io.choice(a.layout);
  io.boolean(a.has_bias);
  io.param("weight", 'W');
  if (a.has_bias) io.param("bias", 'B');
}

template <class IO>
void fields(IO& io, DeconvAttrs& a) {
  io.inputs();
  io.integer(a.out_channels);
  io.ints(a.kernel);
  io.ints(a.stride);
  io.ints(a.dilation);
  io.pairs(a.padding);
  io.integer(a.groups);
  io.boolean(a.has_bias);
  io.param("weight", 'W');
  if (a.has_bias) io.param("bias", 'B');
}

// A pool's window, shared by the pools, argmax_pool, sample and desample (after their inputs).
template <class IO, class A>
void window_fields(IO& io, A& a) {
  io.ints(a.kernel);
  io.ints(a.stride);
  io.ints(a.dilation);
  io.pairs(a.padding);
  io.choice(a.pad_mode);
}

template <class IO>
void fields(IO& io, PoolAttrs& a) {
  io.inputs();
  window_fields(io, a);
  io.choice(a.border);
  io.choice(a.layout);
}

template <class IO>
void fields(IO& io, ArgmaxPoolAttrs& a) {
  io.inputs();
  window_fields(io, a);
  io.choice(a.border);
}

template <class IO>
void fields(IO& io, SampleAttrs& a) {
  io.inputs();
  window_fields(io, a);
  io.ints(a.output_shape);
}

template <class IO>
void fields(IO& io, BatchNormAttrs& a) {
  io.inputs();
  io.real(a.epsilon);
  io.integer(a.channel_axis);
  io.param("mean", 'P');
  io.param("variance", 'P');
  io.param("scale", 'W');
  io.param("offset", 'B');
}

template <class IO>
void fields(IO& io, LayerNormAttrs& a) {
  io.inputs();
  io.ints(a.axes);
  io.real(a.epsilon);
  io.boolean(a.affine);
  if (a.affine) {
    io.param("scale", 'W');
    io.param("offset", 'B');
  }
}

// Input and Const are not nnref.* operations: they are <INPUT B=0> and <INPUT B=1>.
template <class IO> void fields(IO& io, InputAttrs&) { io.not_an_operation(); }
template <class IO> void fields(IO& io, ConstAttrs&) { io.not_an_operation(); }

}  // namespace nnref::nac
