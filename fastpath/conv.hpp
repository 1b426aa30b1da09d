// The fast path's convolution in float32 on channels-last samples: 2-D with groups 1 (NHWC), and
// any rank and groups over a WindowTable (below), both an implicit GEMM
// over the matrix product's micro-kernel (fastpath/gemm.cpp), with the weights packed once as
// B [(ky, kx, channel), out_channel]. Each output element is a dot product of kH·kW·C terms
// started at its bias: inside the float32 envelope γ(kH·kW·C + 1)·(|bias| + Σ|x||w|), like the
// matrix product.
#pragma once

#include <cstdint>

#include "fastpath/gemm.hpp"
#include "fastpath/window.hpp"
#include "fastpath/window_table.hpp"

namespace nnref::fastpath {

using ConvGeometry = WindowGeometry;

// w [out_channels, channels, kernel_h, kernel_w] (the IR's layout), bias [out_channels] (nullptr:
// zeros) and the epilogue, packed for the target dispatch picks now.
PackedMatrix pack_conv_weights(const float* w, const float* bias, const ConvGeometry& g, int64_t out_channels,
                               const Epilogue& epilogue = {});

// y [out_h, out_w, out_channels] = epilogue(conv(x [height, width, channels])) for one sample,
// output pixels split over the pool's threads (nullptr: this thread).
void conv2d(const float* x, const ConvGeometry& g, const PackedMatrix& w, float* y, ThreadPool* pool = nullptr);

// Every other conv (any spatial rank, padding mode, groups), one group at a time over a
// WindowTable: the same implicit GEMM with B [(j, c), m] for kernel position j, channel c of the
// group and output channel m of the group, and A's row for output position p the group's channels
// of the pixel table.row(p)[j], or zeros in the padding. Each output is a dot product of
// volume·per_group terms started at its bias, as in the spec.

// w [out_channels, per_group, k...] (the IR's layout), bias [out_channels] (nullptr: zeros) and the
// epilogue over all out_channels; packs group g's out_channels/groups columns.
PackedMatrix pack_group_weights(const float* w, const float* bias, int64_t volume, int64_t per_group,
                                int64_t out_channels, int64_t groups, int64_t g, const Epilogue& epilogue);

// y [table.positions, w.n] = epilogue(conv) of the group whose channels are [first_channel,
// first_channel + per_group) of x, one channels-last sample;
// output positions split over the pool's threads (nullptr: this thread).
void conv_windows(const float* x, int64_t first_channel, int64_t per_group, const WindowTable& table,
                  const PackedMatrix& w, float* y, ThreadPool* pool = nullptr);

// Depthwise convs (groups = channels = out_channels) as a vector loop over the channels instead:
// the weights as [kernel position, channel] rows of `stride` floats (channels rounded up to the
// widest vector, zeros past them), the bias and the epilogue's scale and shift likewise.
struct DepthwiseWeights {
  int64_t stride = 0;
  hwy::AlignedFreeUniquePtr<float[]> data, bias, scale, shift;  // scale, shift: null without a normalization
  bool relu = false;
};

// w [channels, 1, k...] (the IR's layout), bias [channels] (nullptr: zeros), the epilogue.
DepthwiseWeights pack_depthwise_weights(const float* w, const float* bias, int64_t volume, int64_t channels,
                                        const Epilogue& epilogue);

// y [table.positions, channels] = epilogue(bias + the depthwise conv of x), one channels-last
// sample: each output the spec's dot product of its window's in-bounds terms started at its bias;
// output positions split over the pool's threads (nullptr: this thread).
void depthwise_windows(const float* x, int64_t channels, const WindowTable& table, const DepthwiseWeights& w, float* y,
                       ThreadPool* pool = nullptr);

}  // namespace nnref::fastpath
