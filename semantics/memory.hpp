// What evaluation holds in memory, written once for every reading (concrete extents, the checker's
// size symbols) and every user (the budget obligation, the engine's plan, inspect, the weight
// loaders): every parameter, converted once, for the whole run, and each node output from the
// node that writes it to its last reader (graph outputs to the end). The budget bounds the peak.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "semantics/graph.hpp"
#include "spec/dim.hpp"

namespace nnref {

// The bytes of `count` elements of `bytes_per_element` bytes each (saturating for CDim).
template <class Dim>
Dim tensor_bytes(const Dim& count, int64_t bytes_per_element) {
  return count * Dim(bytes_per_element);
}

// The step after which each output of each node is no longer read: its last consumer's id, the
// graph's end (nodes.size()) for a graph output, its own id when nothing reads it.
// last_use[node][output]; `outputs[node]` is the node's output count.
std::vector<std::vector<int64_t>> last_uses(const Graph& g, const std::vector<size_t>& outputs);

// One tensor evaluation holds.
template <class Dim>
struct Held {
  int64_t node = 0;
  std::string what;  // "the output of node 'conv1'", "parameter conv1/weight"
  Dim bytes;
};

// Per step (node id) the tensors live while that node runs: every parameter, then the outputs
// written so far and read at this step or later.
template <class Dim>
struct MemoryUse {
  std::vector<Held<Dim>> params;
  std::vector<Held<Dim>> outputs;           // indexed by value, in node order
  std::vector<std::vector<size_t>> live;    // live[step]: indices into `outputs`
  Dim params_bytes = Dim(int64_t{0});

  Dim at_step(size_t step) const {
    Dim total = params_bytes;
    for (size_t v : live[step]) total = total + outputs[v].bytes;
    return total;
  }
};

// outputs[node][k] and params[node][p] are element counts; `scalar_size` bytes per element.
template <class Dim>
MemoryUse<Dim> memory_use(const Graph& g, const std::vector<std::vector<Dim>>& outputs,
                          const std::vector<std::vector<std::pair<std::string, Dim>>>& params, int64_t scalar_size) {
  MemoryUse<Dim> m;
  std::vector<size_t> counts;
  for (const auto& o : outputs) counts.push_back(o.size());
  const auto last = last_uses(g, counts);
  std::vector<std::pair<size_t, int64_t>> open;  // (value index, last use)
  for (const Node& node : g.nodes) {
    const auto id = static_cast<size_t>(node.id);
    for (const auto& [role, count] : params[id]) {
      m.params.push_back({node.id, "parameter " + node.name + "/" + role, tensor_bytes(count, scalar_size)});
      m.params_bytes = m.params_bytes + m.params.back().bytes;
    }
    for (size_t k = 0; k < outputs[id].size(); ++k) {
      open.emplace_back(m.outputs.size(), last[id][k]);
      m.outputs.push_back({node.id, "the output of node '" + node.name + "'" + (k ? " #" + std::to_string(k) : ""),
                           tensor_bytes(outputs[id][k], scalar_size)});
    }
    std::vector<size_t> now;
    for (const auto& [v, until] : open) now.push_back(v);
    m.live.push_back(std::move(now));
    std::erase_if(open, [&](const auto& o) { return o.second <= node.id; });
  }
  return m;
}

}  // namespace nnref
