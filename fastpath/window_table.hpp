// The window of every output position of a conv or pool, as the fast path's general kernels read
// it (any spatial rank, padding mode, stride and dilation), built at lowering from the spec's own
// window geometry (spec/rules/window.hpp: its padding, extents and in-bounds positions), and the
// 2-D geometry the channels-last kernels take. Both describe one sample in channels-last layout.
#pragma once

#include <cstdint>
#include <vector>

#include "fastpath/window.hpp"
#include "spec/rules/window.hpp"

namespace nnref::fastpath {

// offset[p·volume + j]: the element offset, in one channels-last sample [spatial..., C], of the
// input pixel that kernel position j (row-major over the kernel) reads at output position p
// (row-major over the output's spatial extents), or −1 when it lies in the padding.
struct WindowTable {
  int64_t positions = 0, volume = 0;
  std::vector<int64_t> offset;
  const int64_t* row(int64_t p) const { return offset.data() + p * volume; }
};

// A conv's or pool's shape with its channels moved last ([N, C, s...] → [N, s..., C]).
Shape channels_last_shape(const Shape& s, Layout layout);

// The table of attrs (a ConvAttrs or PoolAttrs) over input `in` with output `out`, both in the
// attrs' own layout.
template <class A>
WindowTable window_table(const A& attrs, const Shape& in, const Shape& out) {
  A last = attrs;
  last.layout = Layout::ChannelsLast;
  const Shape cl_in = channels_last_shape(in, attrs.layout), cl_out = channels_last_shape(out, attrs.layout);
  const window::Plan plan = window::plan(last, cl_in);
  WindowTable t;
  t.volume = plan.volume;
  t.positions = 1;
  for (size_t i = 1; i + 1 < cl_out.rank(); ++i) t.positions *= cl_out[i];
  t.offset.assign(static_cast<size_t>(t.positions * t.volume), -1);
  window::Offsets win;
  int64_t p = 0;
  window::for_each_position(plan, cl_out, [&](const std::vector<int64_t>& o, int64_t) {
    window::offsets_at(plan, o, win);
    for (int64_t k = 0; k < win.size(); ++k) t.offset[static_cast<size_t>(p * t.volume + win.kernel[k])] = win.input[k];
    ++p;
  });
  return t;
}

// The in-bounds pixels of every output position's window (positions in the padding left out,
// pixels counted in one channels-last sample) and the window's whole size (saturating): what
// pooling reads, whatever the kernel's size. A window of 2^80 positions over one pixel lists one.
struct WindowLists {
  int64_t positions = 0, volume = 0;
  std::vector<int64_t> start;  // position p's pixels are pixel[start[p] .. start[p + 1])
  std::vector<int64_t> pixel;
};

template <class A>
WindowLists window_lists(const A& attrs, const Shape& in, const Shape& out) {
  A last = attrs;
  last.layout = Layout::ChannelsLast;
  const Shape cl_in = channels_last_shape(in, attrs.layout), cl_out = channels_last_shape(out, attrs.layout);
  const int64_t channels = cl_in[cl_in.rank() - 1];
  const window::Plan plan = window::plan(last, cl_in);
  WindowLists t;
  t.volume = plan.volume;
  window::Offsets win;
  window::for_each_position(plan, cl_out, [&](const std::vector<int64_t>& o, int64_t) {
    window::offsets_at(plan, o, win);
    t.start.push_back(static_cast<int64_t>(t.pixel.size()));
    for (int64_t k = 0; k < win.size(); ++k) t.pixel.push_back(win.input[k] / channels);
    ++t.positions;
  });
  t.start.push_back(static_cast<int64_t>(t.pixel.size()));
  return t;
}

// The 2-D geometry of attrs over a channels-last input [N, H, W, C] with output [N, OH, OW, ·].
template <class A>
WindowGeometry geometry_2d(const A& attrs, const Shape& in, const Shape& out) {
  const window::Plan plan = window::plan(attrs, in);
  const window::Axis &y = plan.axes[0], &x = plan.axes[1];
  return {in[1], in[2], in[3], y.k, x.k, y.s, x.s, y.d, x.d, plan.pad_before[0], plan.pad_before[1], out[1], out[2]};
}

// One sample between layouts: x [C, pixels] → y [pixels, C], and back.
void to_channels_last(const float* x, int64_t channels, int64_t pixels, float* y);
void to_channels_first(const float* x, int64_t channels, int64_t pixels, float* y);

}  // namespace nnref::fastpath
