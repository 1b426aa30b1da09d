// The fast path's max, average and sum pooling in float32, channels last, vectorized over the
// channels of each input pixel: 2-D over its geometry, any rank over the WindowLists of its in-bounds pixels. The formulas are the spec's (spec/ops/pool.hpp), per output
// position, R the window positions inside the input and W the whole window:
//   max, Ignore: max over R              max, Constant: max over R and 0 if R ≠ W
//   avg, Ignore: Σ over R / |R|          avg, Constant: Σ over R / |W|
//   sum, either: Σ over R
// R empty gives 0; a NaN in R makes the result NaN. The average is a sum then a division, inside
// the spec's float32 envelope (fastpath_pool_test judges it with the Envelope scalar).
#pragma once

#include <cstdint>

#include "fastpath/window.hpp"
#include "fastpath/window_table.hpp"

namespace nnref::fastpath {

enum class Pooling { Max, Avg, Sum };

// y [out_h, out_w, channels] from x [height, width, channels], one sample. padded_count_as_zero:
// the spec's PoolBorder::Constant (padded positions are 0 and count), else Ignore.
void pool2d(const float* x, const WindowGeometry& g, Pooling op, bool padded_count_as_zero, float* y);

class ThreadPool;

// Every other pool (any spatial rank, padding mode): y [table.positions, channels] from one
// channels-last sample x with `channels` channels a pixel, the same formulas over each position's
// window in the table; positions split over the pool's threads (nullptr: this thread).
void pool_windows(const float* x, int64_t channels, const WindowLists& table, Pooling op, bool padded_count_as_zero,
                  float* y, ThreadPool* pool = nullptr);

}  // namespace nnref::fastpath
