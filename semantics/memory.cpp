#include "semantics/memory.hpp"

namespace nnref {

std::vector<std::vector<int64_t>> last_uses(const Graph& g, const std::vector<size_t>& outputs) {
  std::vector<std::vector<int64_t>> last;
  for (const Node& node : g.nodes) last.emplace_back(outputs[static_cast<size_t>(node.id)], node.id);
  const auto extend = [&](ValueRef r, int64_t until) {
    if (r.node < 0 || static_cast<size_t>(r.node) >= last.size()) return;
    auto& uses = last[static_cast<size_t>(r.node)];
    if (r.output >= 0 && static_cast<size_t>(r.output) < uses.size())
      uses[static_cast<size_t>(r.output)] = std::max(uses[static_cast<size_t>(r.output)], until);
  };
  for (const Node& node : g.nodes)
    for (const ValueRef& r : node.inputs) extend(r, node.id);
  for (const GraphOutput& o : g.outputs) extend(o.value, static_cast<int64_t>(g.nodes.size()));
  return last;
}

}  // namespace nnref
