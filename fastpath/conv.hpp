// The fast path's 2-D convolution in float32, channels last (NHWC), groups 1: an implicit GEMM
// over the matrix product's micro-kernel (fastpath/gemm.cpp), with the weights packed once as
// B [(ky, kx, channel), out_channel]. Each output element is a dot product of kH·kW·C terms
// started at its bias: inside the float32 envelope γ(kH·kW·C + 1)·(|bias| + Σ|x||w|), like the
// matrix product.
#pragma once

#include <cstdint>

#include "fastpath/gemm.hpp"
#include "fastpath/window.hpp"

namespace nnref::fastpath {

using ConvGeometry = WindowGeometry;

// w [out_channels, channels, kernel_h, kernel_w] (the IR's layout), bias [out_channels] (nullptr:
// zeros) and the epilogue, packed for the target dispatch picks now.
PackedMatrix pack_conv_weights(const float* w, const float* bias, const ConvGeometry& g, int64_t out_channels,
                               const Epilogue& epilogue = {});

// y [out_h, out_w, out_channels] = epilogue(conv(x [height, width, channels])) for one sample,
// output pixels split over the pool's threads (nullptr: this thread).
void conv2d(const float* x, const ConvGeometry& g, const PackedMatrix& w, float* y, ThreadPool* pool = nullptr);

}  // namespace nnref::fastpath
