// Deconv (the transposed conv) as a gather: for each output position and kernel position the
// input pixel the spec's formula reads (deconv::terms_at, spec/deconv_plan.hpp), or none, in a
// WindowTable, and the weight rearranged once into conv's layout, so the general conv step
// (fastpath/windowed_conv.hpp: the implicit GEMM per group, or the depthwise vector loop) computes
// each output as its bias plus the dot product of the same terms as the spec.
#include <vector>

#include "fastpath/lower.hpp"
#include "fastpath/windowed_conv.hpp"
#include "spec/deconv_plan.hpp"

namespace nnref::fastpath {

namespace {

// The table of output positions (row-major over the spatial extents) × kernel positions: the
// element offset of the input pixel read, in one channels-last sample, or −1.
WindowTable deconv_table(const DeconvAttrs& a, const Shape& in, const Shape& out) {
  const deconv::Plan plan = deconv::plan(a, in);  // channels first: a spatial stride counts pixels
  WindowTable t;
  t.volume = 1;
  for (int64_t k : a.kernel) t.volume *= k;
  t.positions = out.count() / (out[0] * out[1]);
  t.offset.assign(static_cast<size_t>(t.positions * t.volume), -1);
  std::vector<int64_t> o(a.kernel.size(), 0);
  window::Offsets terms;
  for (int64_t p = 0; p < t.positions; ++p) {
    deconv::terms_at(plan, o, terms);
    for (int64_t k = 0; k < terms.size(); ++k)
      t.offset[static_cast<size_t>(p * t.volume + terms.kernel[k])] = terms.input[k] * in[1];
    for (size_t i = o.size(); i-- > 0;) {
      if (++o[i] < out[2 + i]) break;
      o[i] = 0;
    }
  }
  return t;
}

}  // namespace

Step lower_op(const Checked<DeconvAttrs>& op, const NodeLowering& node) {
  const DeconvAttrs& a = op.attrs();
  const Shape &in = op.inputs()[0], &out = op.outputs()[0];
  WindowedConv g;
  g.table = deconv_table(a, in, out);
  g.batch = in[0];
  g.channels = in[1];
  g.out_channels = a.out_channels;
  g.groups = a.groups;
  g.channels_first = true;
  // deconv's weight [C, M/G, k...] → conv's [M, C/G, k...]: both index (input channel c of group
  // g, output channel m of group g, kernel position j).
  const int64_t per_group = g.channels / g.groups, out_per_group = g.out_channels / g.groups, volume = g.table.volume;
  const float* w = node.param(0);
  std::vector<float> conv_w(static_cast<size_t>(g.out_channels * per_group * volume));
  for (int64_t grp = 0; grp < g.groups; ++grp)
    for (int64_t c = 0; c < per_group; ++c)
      for (int64_t m = 0; m < out_per_group; ++m)
        for (int64_t j = 0; j < volume; ++j)
          conv_w[static_cast<size_t>(((grp * out_per_group + m) * per_group + c) * volume + j)] =
              w[((grp * per_group + c) * out_per_group + m) * volume + j];
  return windowed_conv_step(std::move(g), conv_w.data(), a.has_bias ? node.param(1) : nullptr, node.epilogue,
                            node.inputs[0], node.outputs[0]);
}

}  // namespace nnref::fastpath
