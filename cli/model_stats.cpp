#include "cli/model_stats.hpp"

namespace nnref {

namespace {

int64_t saturating_mul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

// Output units of a weighted op: the weight count divided by this is the fan-in.
int64_t output_units(const Node& node) {
  if (const auto* c = std::get_if<ConvAttrs>(&node.op)) return c->out_channels;
  if (const auto* l = std::get_if<LinearAttrs>(&node.op)) return l->units;
  return 0;
}

}  // namespace

int64_t weight_fan_in(const Node& node, const Shape& weight) {
  int64_t units = output_units(node);
  if (units <= 0) units = weight.rank() > 0 ? weight[0] : 1;
  return units > 0 ? std::max<int64_t>(weight.count() / units, 1) : 1;
}

int64_t node_macs(const Node& node, const NodeInfo& info, const std::vector<Shape>& inputs) {
  if (info.outputs.empty()) return 0;
  const int64_t out = info.outputs[0].count();
  if (std::holds_alternative<ConvAttrs>(node.op) || std::holds_alternative<LinearAttrs>(node.op)) {
    for (const auto& p : info.params)
      if (p.role == "weight") return saturating_mul(out, weight_fan_in(node, p.shape));
  }
  // deconv: every input element meets the weights of its group's output channels, [C, M/G, k...].
  if (std::holds_alternative<DeconvAttrs>(node.op) && !inputs.empty())
    for (const auto& p : info.params)
      if (p.role == "weight" && p.shape.rank() > 0 && p.shape[0] > 0)
        return saturating_mul(inputs[0].count(), p.shape.count() / p.shape[0]);
  if (const auto* m = std::get_if<MatMulAttrs>(&node.op); m && !inputs.empty() && inputs[0].rank() >= 2) {
    const Shape& a = inputs[0];
    int64_t k = m->transpose_a ? a[a.rank() - 2] : a[a.rank() - 1];
    return saturating_mul(out, k);
  }
  return 0;
}

int64_t graph_macs(const Graph& g, const GraphInfo& info) {
  int64_t total = 0;
  for (const Node& node : g.nodes) {
    std::vector<Shape> inputs;
    for (const auto& r : node.inputs)
      inputs.push_back(info.nodes[static_cast<size_t>(r.node)].outputs[static_cast<size_t>(r.output)]);
    total += node_macs(node, info.nodes[static_cast<size_t>(node.id)], inputs);
  }
  return total;
}

}  // namespace nnref
