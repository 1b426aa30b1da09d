// The general convolution step over a WindowTable: one sample at a time, groups one at a time
// through conv_windows (fastpath/conv.hpp), depthwise ones through depthwise_windows, on a
// channels-last copy of the sample when the layout is channels first. Shared by conv (every case
// but the 2-D channels-last implicit GEMM) and deconv (whose table lists, for each output position
// and kernel position, the input pixel the transposed window reads).
#pragma once

#include <cstdint>

#include "fastpath/lower.hpp"
#include "fastpath/window_table.hpp"

namespace nnref::fastpath {

struct WindowedConv {
  WindowTable table;
  int64_t batch = 0, channels = 0, out_channels = 0, groups = 1;
  bool channels_first = true;
};

// w [out_channels, channels/groups, volume] (conv's layout), bias [out_channels] (nullptr: zeros)
// and the epilogue, packed now; x and y the node's input and output slots.
Step windowed_conv_step(WindowedConv geometry, const float* w, const float* bias, const Epilogue& epilogue,
                        const Slot& x, const Slot& y);

}  // namespace nnref::fastpath
