#include "fastpath/fusion.hpp"

#include <cmath>
#include <map>

#include "spec/rules/axes.hpp"

namespace nnref::fastpath {

namespace {

// How many times each value is read: by nodes, and once more if it is a graph output.
std::map<std::pair<int64_t, int>, int> readers(const Graph& g) {
  std::map<std::pair<int64_t, int>, int> count;
  for (const Node& n : g.nodes)
    for (const ValueRef& r : n.inputs) ++count[{r.node, r.output}];
  for (const GraphOutput& o : g.outputs) ++count[{o.value.node, o.value.output}];
  return count;
}

// The axis of a head's output that holds its output channels, or nullopt for a node that is no head.
std::optional<size_t> channel_axis_of_head(const CheckedOp& op) {
  if (const auto* conv = std::get_if<Checked<ConvAttrs>>(&op))
    return conv->attrs().layout == Layout::ChannelsLast ? conv->outputs()[0].rank() - 1 : 1;
  if (std::holds_alternative<Checked<LinearAttrs>>(op)) return 1;
  return std::nullopt;
}

bool normalizes_axis(const CheckedOp& op, size_t axis) {
  const auto* bn = std::get_if<Checked<BatchNormAttrs>>(&op);
  return bn && static_cast<size_t>(normalize_axis(bn->attrs().channel_axis, bn->inputs()[0].rank())) == axis;
}

bool is_relu(const CheckedOp& op) {
  const auto* u = std::get_if<Checked<UnaryAttrs>>(&op);
  return u && u->attrs().op == UnaryOp::Relu;
}

}  // namespace

std::vector<FusedGroup> fuse(const Plan<float>& plan) {
  const Graph& g = *plan.graph;
  const auto count = readers(g);
  // The node that reads value (node i, output 0) when it is that value's only reader, else nullopt.
  std::vector<std::optional<size_t>> sole_reader(plan.nodes.size());
  for (size_t i = 0; i < plan.nodes.size(); ++i)
    for (const ValueRef& r : plan.nodes[i].node->inputs)
      if (r.output == 0 && count.at({r.node, 0}) == 1) sole_reader[static_cast<size_t>(r.node)] = i;

  std::vector<FusedGroup> groups;
  std::vector<bool> taken(plan.nodes.size(), false);
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    if (taken[i]) continue;
    FusedGroup group{i, std::nullopt, std::nullopt};
    if (const auto axis = channel_axis_of_head(plan.nodes[i].op)) {
      const auto next = sole_reader[i];
      if (next && plan.nodes[*next].node->inputs.size() == 1 && normalizes_axis(plan.nodes[*next].op, *axis))
        group.batch_norm = next;
      const auto after = sole_reader[group.last()];
      if (after && is_relu(plan.nodes[*after].op)) group.relu = after;
    }
    for (auto k : {group.batch_norm, group.relu})
      if (k) taken[*k] = true;
    groups.push_back(group);
  }
  return groups;
}

Epilogue batch_norm_epilogue(const Checked<BatchNormAttrs>& op, const Tensor<float>& mean, const Tensor<float>& variance,
                             const Tensor<float>& scale, const Tensor<float>& offset) {
  const float eps = real_value<float>(op.attrs().epsilon);
  Epilogue e;
  for (int64_t c = 0; c < mean.size(); ++c) {
    // The spec's dot product offset + x·a + mean·(−a), summed as (offset + mean·(−a)) + x·a.
    const float a = scale[c] / std::sqrt(variance[c] + eps);
    e.scale.push_back(a);
    e.shift.push_back(offset[c] + mean[c] * -a);
  }
  return e;
}

Epilogue epilogue_of(const FusedGroup& group, const Plan<float>& plan) {
  Epilogue e;
  if (group.batch_norm) {
    const PlannedNode<float>& bn = plan.nodes[*group.batch_norm];
    e = batch_norm_epilogue(std::get<Checked<BatchNormAttrs>>(bn.op), *bn.params[0], *bn.params[1], *bn.params[2],
                            *bn.params[3]);
  }
  e.relu = group.relu.has_value();
  return e;
}

}  // namespace nnref::fastpath
