// Window geometry (spec/rules/window.hpp): each output position's window as offset lists, checked
// by hand on asymmetric padding, stride, dilation, 1-D, 2-D and 3-D; then conv and the pools on
// many geometries against a direct loop over the whole kernel written here from the formula.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "op_test_support.hpp"
#include "spec/ops/conv.hpp"
#include "spec/ops/pool.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

// The window of a pool with these attributes over `input` at output position o.
window::Offsets window_of(const PoolAttrs& a, const Shape& input, const std::vector<int64_t>& o) {
  window::Offsets w;
  window::offsets_at(window::plan(a, input), o, w);
  return w;
}

using Offsets = std::vector<int64_t>;

}  // namespace

TEST_CASE("window offsets, 1-D: stride 2, dilation 2, padding (3, 1)", "[window]") {
  PoolAttrs a;
  a.kernel = {3};
  a.stride = {2};
  a.dilation = {2};
  a.padding = {{3, 1}};
  const Shape in = Shape::of({1, 1, 7});
  // padded 7 + 3 + 1 = 11, window (3−1)·2 + 1 = 5, out ⌊(11−5)/2⌋ + 1 = 4; output o reads input
  // positions 2o − 3 + 2j for j = 0, 1, 2.
  REQUIRE(out_shape(a, {in}) == Shape::of({1, 1, 4}));
  auto w = window_of(a, in, {0});  // −3, −1, 1: only j = 2
  CHECK(w.input == Offsets{1});
  CHECK(w.kernel == Offsets{2});
  w = window_of(a, in, {1});  // −1, 1, 3
  CHECK(w.input == Offsets{1, 3});
  CHECK(w.kernel == Offsets{1, 2});
  w = window_of(a, in, {2});  // 1, 3, 5
  CHECK(w.input == Offsets{1, 3, 5});
  CHECK(w.kernel == Offsets{0, 1, 2});
  w = window_of(a, in, {3});  // 3, 5, 7: 7 is past the end
  CHECK(w.input == Offsets{3, 5});
  CHECK(w.kernel == Offsets{0, 1});
}

TEST_CASE("window offsets, 2-D channels last: the padding cuts rows and columns", "[window]") {
  PoolAttrs a;
  a.kernel = {2, 2};
  a.padding = {{1, 0}, {0, 1}};
  a.layout = Layout::ChannelsLast;
  const Shape in = Shape::of({1, 3, 4, 2});  // H 3, W 4, C 2: strides H 8, W 2; kernel strides 2, 1
  REQUIRE(out_shape(a, {in}) == Shape::of({1, 3, 4, 2}));
  // o = (0, 3): rows −1, 0 and columns 3, 4: only (0, 3), kernel offset j = (1, 0).
  auto w = window_of(a, in, {0, 3});
  CHECK(w.input == Offsets{0 * 8 + 3 * 2});
  CHECK(w.kernel == Offsets{1 * 2 + 0});
  // o = (1, 1): rows 0, 1 and columns 1, 2, all inside.
  w = window_of(a, in, {1, 1});
  CHECK(w.input == Offsets{0 * 8 + 1 * 2, 0 * 8 + 2 * 2, 1 * 8 + 1 * 2, 1 * 8 + 2 * 2});
  CHECK(w.kernel == Offsets{0, 1, 2, 3});
}

TEST_CASE("window offsets, 3-D: dilation on one axis, padding on every axis", "[window]") {
  PoolAttrs a;
  a.kernel = {2, 2, 2};
  a.stride = {1, 1, 2};
  a.dilation = {1, 2, 1};
  a.padding = {{1, 0}, {1, 1}, {0, 1}};
  const Shape in = Shape::of({1, 1, 2, 3, 4});  // D 2, H 3, W 4: strides 12, 4, 1; kernel strides 4, 2, 1
  // D: padded 3, window 2 → 2; H: padded 5, window 3 → 3; W: padded 5, window 2, stride 2 → 2.
  REQUIRE(out_shape(a, {in}) == Shape::of({1, 1, 2, 3, 2}));
  // o = (0, 0, 1): depths −1, 0; rows −1, 1; columns 2, 3.
  auto w = window_of(a, in, {0, 0, 1});
  CHECK(w.input == Offsets{0 * 12 + 1 * 4 + 2, 0 * 12 + 1 * 4 + 3});
  CHECK(w.kernel == Offsets{1 * 4 + 1 * 2 + 0, 1 * 4 + 1 * 2 + 1});
  // o = (1, 2, 1): depths 0, 1; rows 1, 3 (3 is past the end); columns 2, 3.
  w = window_of(a, in, {1, 2, 1});
  CHECK(w.input == Offsets{0 * 12 + 1 * 4 + 2, 0 * 12 + 1 * 4 + 3, 1 * 12 + 1 * 4 + 2, 1 * 12 + 1 * 4 + 3});
  CHECK(w.kernel == Offsets{0, 1, 4, 5});
}

TEST_CASE("window offsets: same padding's odd unit, and a window entirely in the padding", "[window]") {
  PoolAttrs a;
  a.kernel = {3};
  a.stride = {2};
  const Shape in = Shape::of({1, 1, 6});  // out ⌈6/2⌉ = 3, total (3−1)·2 + 3 − 6 = 1
  a.pad_mode = PadMode::SameUpper;        // (0, 1): output o starts at 2o
  CHECK(window_of(a, in, {0}).input == Offsets{0, 1, 2});
  CHECK(window_of(a, in, {2}).input == Offsets{4, 5});
  CHECK(window_of(a, in, {2}).kernel == Offsets{0, 1});
  a.pad_mode = PadMode::SameLower;  // (1, 0): output o starts at 2o − 1
  CHECK(window_of(a, in, {0}).input == Offsets{0, 1});
  CHECK(window_of(a, in, {0}).kernel == Offsets{1, 2});
  CHECK(window_of(a, in, {2}).input == Offsets{3, 4, 5});

  PoolAttrs b;
  b.kernel = {1};
  b.padding = {{1, 1}};
  const Shape one = Shape::of({1, 1, 1});  // out 3: positions −1, 0, 1
  CHECK(window_of(b, one, {0}).size() == 0);
  CHECK(window_of(b, one, {1}).input == Offsets{0});
  CHECK(window_of(b, one, {2}).size() == 0);
}

TEST_CASE("for_each_position visits the output positions row-major with their offsets", "[window]") {
  PoolAttrs a;
  a.kernel = {1, 1};
  a.layout = Layout::ChannelsLast;
  const Shape out = Shape::of({1, 2, 3, 5});  // spatial strides 15, 5
  std::vector<std::pair<std::vector<int64_t>, int64_t>> seen;
  window::for_each_position(window::plan(a, out), out,
                            [&](const std::vector<int64_t>& o, int64_t offset) { seen.emplace_back(o, offset); });
  REQUIRE(seen.size() == 6);
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t w = 0; w < 3; ++w) {
      CHECK(seen[static_cast<size_t>(h * 3 + w)].first == std::vector<int64_t>{h, w});
      CHECK(seen[static_cast<size_t>(h * 3 + w)].second == h * 15 + w * 5);
    }
}

namespace {

// A window geometry over concrete sizes, and the direct formulas of conv and the pools over it:
// every output position, every kernel offset j of the whole box, positions outside the input
// skipped. Values are small integers, so every sum is exact whatever its order.
struct Case {
  std::string name;
  std::vector<int64_t> in = {}, k = {}, s = {}, d = {};
  std::vector<std::pair<int64_t, int64_t>> padding = {};  // Explicit
  PadMode mode = PadMode::Explicit;
  Layout layout = Layout::ChannelsFirst;
  int64_t batch = 1, channels = 1, groups = 1, out_channels = 1;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all{
      {.name = "1-D stride 2, dilation 2, padding (3, 1), groups 2", .in = {9}, .k = {3}, .s = {2}, .d = {2},
       .padding = {{3, 1}}, .channels = 4, .groups = 2, .out_channels = 6},
      {.name = "1-D same lower, stride 3, depthwise, channels last", .in = {7}, .k = {4}, .s = {3}, .d = {1},
       .mode = PadMode::SameLower, .layout = Layout::ChannelsLast, .batch = 2, .channels = 3, .groups = 3,
       .out_channels = 3},
      {.name = "2-D strides (2, 1), dilations (1, 3), padding (2, 0), (1, 2), groups 2", .in = {5, 6}, .k = {3, 2},
       .s = {2, 1}, .d = {1, 3}, .padding = {{2, 0}, {1, 2}}, .layout = Layout::ChannelsLast, .batch = 2,
       .channels = 4, .groups = 2, .out_channels = 4},
      {.name = "2-D same upper, stride 2", .in = {7, 5}, .k = {3, 3}, .s = {2, 2}, .d = {1, 1},
       .mode = PadMode::SameUpper, .channels = 2, .out_channels = 3},
      {.name = "2-D padding wider than the window: windows entirely in the padding", .in = {2, 3}, .k = {2, 1},
       .s = {1, 2}, .d = {1, 1}, .padding = {{3, 3}, {0, 4}}, .channels = 2, .out_channels = 2},
      {.name = "3-D strides (1, 2, 2), dilations (2, 1, 1), padding on every axis", .in = {3, 4, 5}, .k = {2, 3, 2},
       .s = {1, 2, 2}, .d = {2, 1, 1}, .padding = {{1, 0}, {0, 2}, {1, 1}}, .channels = 2, .out_channels = 2},
      {.name = "3-D same lower, groups 2, channels last", .in = {3, 3, 4}, .k = {2, 2, 3}, .s = {2, 1, 2},
       .d = {1, 2, 1}, .mode = PadMode::SameLower, .layout = Layout::ChannelsLast, .batch = 2, .channels = 4,
       .groups = 2, .out_channels = 2},
  };
  return all;
}

template <class A>
void set_window(A& a, const Case& g) {
  a.kernel = g.k;
  a.stride = g.s;
  a.dilation = g.d;
  a.padding = g.padding;
  a.pad_mode = g.mode;
  a.layout = g.layout;
}

// Padding before and output extent of axis i, from the formulas of docs/ops/conv.md.
std::pair<int64_t, int64_t> before_and_extent(const Case& g, size_t i) {
  const int64_t in = g.in[i], window = (g.k[i] - 1) * g.d[i] + 1;
  if (g.mode == PadMode::Explicit)
    return {g.padding[i].first, (in + g.padding[i].first + g.padding[i].second - window) / g.s[i] + 1};
  const int64_t out = (in + g.s[i] - 1) / g.s[i];
  const int64_t total = std::max((out - 1) * g.s[i] + window - in, int64_t{0});
  return {g.mode == PadMode::SameUpper ? total / 2 : total - total / 2, out};
}

// Row-major offset of (n, c, p) in [N, C, extents...] or [N, extents..., C].
int64_t offset(const Case& g, const std::vector<int64_t>& extents, int64_t channels, int64_t n, int64_t c,
               const std::vector<int64_t>& p) {
  std::vector<int64_t> dims{g.batch}, index{n};
  if (g.layout == Layout::ChannelsFirst) dims.push_back(channels), index.push_back(c);
  dims.insert(dims.end(), extents.begin(), extents.end());
  index.insert(index.end(), p.begin(), p.end());
  if (g.layout == Layout::ChannelsLast) dims.push_back(channels), index.push_back(c);
  int64_t f = 0;
  for (size_t i = 0; i < dims.size(); ++i) f = f * dims[i] + index[i];
  return f;
}

// Calls f(v) for every v in [0, extents) row-major.
void each(const std::vector<int64_t>& extents, const std::function<void(const std::vector<int64_t>&)>& f) {
  std::vector<int64_t> v(extents.size(), 0);
  for (;;) {
    f(v);
    size_t i = extents.size();
    while (i-- > 0 && ++v[i] == extents[i]) v[i] = 0;
    if (i == static_cast<size_t>(-1)) return;
  }
}

Shape shape(const Case& g, const std::vector<int64_t>& extents, int64_t channels) {
  std::vector<int64_t> dims{g.batch};
  if (g.layout == Layout::ChannelsFirst) dims.push_back(channels);
  dims.insert(dims.end(), extents.begin(), extents.end());
  if (g.layout == Layout::ChannelsLast) dims.push_back(channels);
  return Shape::make(dims).value();
}

std::vector<double> pattern(int64_t count, int mul, int mod) {
  std::vector<double> v;
  for (int64_t i = 0; i < count; ++i) v.push_back(static_cast<double>((i * mul) % mod - mod / 2));
  return v;
}

// Calls f(p, inside) for every kernel offset j at output position o: p the input position,
// inside whether it lies in the input.
void each_tap(const Case& g, const std::vector<int64_t>& o,
              const std::function<void(const std::vector<int64_t>&, const std::vector<int64_t>&, bool)>& f) {
  each(g.k, [&](const std::vector<int64_t>& j) {
    std::vector<int64_t> p;
    bool inside = true;
    for (size_t i = 0; i < g.k.size(); ++i) {
      p.push_back(o[i] * g.s[i] + j[i] * g.d[i] - before_and_extent(g, i).first);
      inside = inside && p[i] >= 0 && p[i] < g.in[i];
    }
    f(j, p, inside);
  });
}

std::vector<int64_t> out_extents(const Case& g) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < g.k.size(); ++i) out.push_back(before_and_extent(g, i).second);
  return out;
}

}  // namespace

TEST_CASE("conv equals its direct formula on every window geometry", "[window][conv]") {
  for (const Case& g : cases()) {
    INFO(g.name);
    ConvAttrs a;
    set_window(a, g);
    a.out_channels = g.out_channels;
    a.groups = g.groups;
    const int64_t per_group = g.channels / g.groups, out_per_group = g.out_channels / g.groups;
    const Shape xs = shape(g, g.in, g.channels);
    std::vector<int64_t> wdims{g.out_channels, per_group};
    wdims.insert(wdims.end(), g.k.begin(), g.k.end());
    const Shape ws = Shape::make(wdims).value();
    const auto xv = pattern(xs.count(), 7, 11), wv = pattern(ws.count(), 5, 7), bv = pattern(g.out_channels, 3, 5);
    const auto out = out_extents(g);
    std::vector<double> want(static_cast<size_t>(shape(g, out, g.out_channels).count()));
    for (int64_t n = 0; n < g.batch; ++n)
      for (int64_t m = 0; m < g.out_channels; ++m)
        each(out, [&](const std::vector<int64_t>& o) {
          double acc = bv[static_cast<size_t>(m)];
          for (int64_t c = 0; c < per_group; ++c)
            each_tap(g, o, [&](const std::vector<int64_t>& j, const std::vector<int64_t>& p, bool inside) {
              if (!inside) return;
              int64_t wf = m * per_group + c;
              for (size_t i = 0; i < j.size(); ++i) wf = wf * g.k[i] + j[i];
              const int64_t xf = offset(g, g.in, g.channels, n, m / out_per_group * per_group + c, p);
              acc += xv[static_cast<size_t>(xf)] * wv[static_cast<size_t>(wf)];
            });
          want[static_cast<size_t>(offset(g, out, g.out_channels, n, m, o))] = acc;
        });
    auto y = run(a, {tensor(xs, xv)}, {tensor(ws, wv), tensor(Shape::of({g.out_channels}), bv)})[0];
    CHECK(y.shape() == shape(g, out, g.out_channels));
    CHECK(doubles(y) == want);
  }
}

TEST_CASE("max and avg pool equal their direct formulas on every window geometry and border", "[window][pool]") {
  for (const Case& g : cases())
    for (PoolOp op : {PoolOp::Max, PoolOp::Avg})
      for (PoolBorder border : {PoolBorder::Ignore, PoolBorder::Constant}) {
        INFO(g.name << (op == PoolOp::Max ? ", max" : ", avg")
                    << (border == PoolBorder::Ignore ? ", ignore" : ", constant"));
        PoolAttrs a;
        set_window(a, g);
        a.op = op;
        a.border = border;
        const Shape xs = shape(g, g.in, g.channels);
        const auto xv = pattern(xs.count(), 7, 11);
        const auto out = out_extents(g);
        std::vector<double> want(static_cast<size_t>(shape(g, out, g.channels).count()));
        for (int64_t n = 0; n < g.batch; ++n)
          for (int64_t c = 0; c < g.channels; ++c)
            each(out, [&](const std::vector<int64_t>& o) {
              std::vector<double> real;  // the values of R
              int64_t window = 0;        // |W|
              each_tap(g, o, [&](const std::vector<int64_t>&, const std::vector<int64_t>& p, bool inside) {
                ++window;
                if (inside) real.push_back(xv[static_cast<size_t>(offset(g, g.in, g.channels, n, c, p))]);
              });
              double r = 0;
              if (!real.empty() && op == PoolOp::Max) {
                r = *std::max_element(real.begin(), real.end());
                if (border == PoolBorder::Constant && static_cast<int64_t>(real.size()) < window) r = std::max(r, 0.0);
              } else if (!real.empty()) {
                double sum = 0;
                for (double v : real) sum += v;
                r = sum /
                    static_cast<double>(border == PoolBorder::Ignore ? static_cast<int64_t>(real.size()) : window);
              }
              want[static_cast<size_t>(offset(g, out, g.channels, n, c, o))] = r;
            });
        auto y = run(a, {tensor(xs, xv)})[0];
        CHECK(y.shape() == shape(g, out, g.channels));
        CHECK(doubles(y) == want);
      }
}
