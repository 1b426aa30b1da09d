// What evaluation holds in memory, written once for every reading (concrete extents, the checker's
// size symbols) and every user (the budget obligation, the engine's plan, inspect, the weight
// loaders): every parameter for the whole run as read (the model's payload, a double a value),
// converted to the scalar (ParamHolding), and each node output from the node that writes it to
// its last reader (graph outputs to the end). The budget bounds the peak.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "semantics/graph.hpp"
#include "semantics/param_names.hpp"
#include "spec/dim.hpp"

namespace nnref {

// How evaluation holds the parameters in its scalar (semantics/plan.hpp): converted once for the
// whole run, by the engines that run one plan many times (the fast path, the hardware model), or
// converted while their node runs and freed after it, by a plan run once (run, conform, and check's
// budget, which is run's). A parameter computed from constants (Node::param_values) is held in the
// scalar for the whole run either way.
enum class ParamHolding { WholeRun, WhileNodeRuns };

// The bytes the payload holds per element of a parameter as read (spec/host_tensor.hpp: a double).
inline constexpr int64_t kPayloadBytesPerElement = sizeof(double);

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
  // ParamHolding::WhileNodeRuns: the payload's parameters in the scalar, each held at its node's step
  std::vector<Held<Dim>> converted;

  // What is held while each node runs (the parameters alone for a graph without nodes).
  std::vector<Dim> totals() const {
    std::vector<Dim> out;
    for (const auto& step : live) {
      Dim total = params_bytes;
      for (size_t v : step) total = total + outputs[v].bytes;
      out.push_back(total);
    }
    for (const auto& c : converted) out[static_cast<size_t>(c.node)] = out[static_cast<size_t>(c.node)] + c.bytes;
    if (out.empty()) out.push_back(params_bytes);
    return out;
  }
};

// Where the peak is, with sizes read as numbers by `value` (the checker reads them at its
// counterexample): the step whose total is largest, and the largest tensor live then, the place
// to start shrinking (nullptr when nothing is held).
template <class Dim>
struct Peak {
  size_t step = 0;
  int64_t bytes = 0;
  const Held<Dim>* largest = nullptr;
  int64_t largest_bytes = 0;
};

template <class Dim, class Value>
Peak<Dim> find_peak(const MemoryUse<Dim>& use, const std::vector<Dim>& totals, Value&& value) {
  Peak<Dim> p;
  for (size_t t = 0; t < totals.size(); ++t)
    if (const int64_t b = value(totals[t]); t == 0 || b > p.bytes) p.step = t, p.bytes = b;
  const auto consider = [&](const Held<Dim>& h) {
    if (const int64_t b = value(h.bytes); !p.largest || b > p.largest_bytes) p.largest = &h, p.largest_bytes = b;
  };
  for (const auto& h : use.params) consider(h);
  for (const auto& h : use.converted)
    if (static_cast<size_t>(h.node) == p.step) consider(h);
  if (p.step < use.live.size())
    for (size_t v : use.live[p.step]) consider(use.outputs[v]);
  return p;
}

// outputs[node][k] and params[node][p] are element counts; `scalar_size` bytes per element, and a
// parameter the payload holds (not computed: Node::param_values) 8 bytes, its value as read, for the
// whole run and `scalar_size` as `holding` says. Parameters are named as `names` (the model's
// source) names them.
template <class Dim>
MemoryUse<Dim> memory_use(const Graph& g, const std::vector<std::vector<Dim>>& outputs,
                          const std::vector<std::vector<std::pair<std::string, Dim>>>& params, int64_t scalar_size,
                          const ParamNames& names, ParamHolding holding) {
  MemoryUse<Dim> m;
  std::vector<size_t> counts;
  for (const auto& o : outputs) counts.push_back(o.size());
  const auto last = last_uses(g, counts);
  std::vector<std::pair<size_t, int64_t>> open;  // (value index, last use)
  for (const Node& node : g.nodes) {
    const auto id = static_cast<size_t>(node.id);
    for (const auto& [role, count] : params[id]) {
      const std::string what = "parameter " + param_name(names, node.name, role);
      const bool read = !node.param_value(role);
      const bool per_node = read && holding == ParamHolding::WhileNodeRuns;
      if (per_node) m.converted.push_back({node.id, what + " (converted)", tensor_bytes(count, scalar_size)});
      const int64_t whole_run = (read ? kPayloadBytesPerElement : 0) + (per_node ? 0 : scalar_size);
      m.params.push_back({node.id, what, tensor_bytes(count, whole_run)});
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
