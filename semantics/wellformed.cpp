#include "semantics/wellformed.hpp"

#include <cstdint>
#include <set>

#include "semantics/binding_rule.hpp"
#include "semantics/node_rule.hpp"

namespace nnref {

namespace {

// r names a node with id < before and, when its shapes are known, one of that node's outputs.
bool valid_ref(const GraphInfo* info, ValueRef r, int64_t before) {
  if (r.node < 0 || r.node >= before || r.output < 0) return false;
  return info == nullptr || r.output < static_cast<int>(info->nodes[static_cast<size_t>(r.node)].outputs.size());
}

}  // namespace

std::string param_name(const ParamNames& names, const std::string& node, const std::string& role) {
  auto it = names.find({node, role});
  return it != names.end() ? it->second : node + "/" + role;
}

std::vector<Diagnostic> check_structure(const Graph& g) {
  std::vector<Diagnostic> out;
  std::set<std::string> names;
  const auto n = static_cast<int64_t>(g.nodes.size());
  for (int64_t i = 0; i < n; ++i) {
    const Node& node = g.nodes[static_cast<size_t>(i)];
    auto fail = [&](std::string code, std::string msg) {
      out.push_back(at_node(make_error(std::move(code), std::move(msg)), node));
    };
    if (node.id != i) fail("graph.id", "has id " + std::to_string(node.id) + " at position " + std::to_string(i));
    if (node.name.empty()) fail("graph.name-empty", "has no name");
    else if (!names.insert(node.name).second) fail("graph.name-duplicate", "the name is used by an earlier node");
    Arity a = node_arity(node.op);
    int k = static_cast<int>(node.inputs.size());
    if (k < a.min || (a.max >= 0 && k > a.max))
      fail("graph.arity", "takes " + (a.max == a.min ? std::to_string(a.min)
                                      : a.max < 0  ? "at least " + std::to_string(a.min)
                                                   : std::to_string(a.min) + " to " + std::to_string(a.max)) +
                              " inputs, got " + std::to_string(k));
    for (const auto& r : node.inputs)
      if (!valid_ref(nullptr, r, i))
        fail("graph.topology", "input refers to node " + std::to_string(r.node) +
                                   ", which is not an earlier node (nodes must be in topological order)");
  }
  if (g.outputs.empty()) out.push_back(make_error("graph.no-outputs", "the graph has no outputs"));
  for (const auto& o : g.outputs)
    if (!valid_ref(nullptr, o.value, n))
      out.push_back(make_error("graph.output", "output '" + o.name + "' refers to no node"));
  return out;
}

Result<GraphInfo> infer_shapes(const Graph& g) {
  GraphInfo info;
  for (const Node& node : g.nodes) {
    std::vector<Shape> in;
    for (const auto& r : node.inputs) {
      const auto& parent = info.nodes[static_cast<size_t>(r.node)].outputs;
      if (r.output >= static_cast<int>(parent.size()))
        return at_node(make_error("graph.output-index", "reads output " + std::to_string(r.output) + " of node '" +
                                                            g.nodes[static_cast<size_t>(r.node)].name + "', which has " +
                                                            std::to_string(parent.size())),
                       node);
      in.push_back(parent[static_cast<size_t>(r.output)]);
    }
    auto ni = node_info(node, in);
    if (!ni) return std::move(ni).error();
    info.nodes.push_back(std::move(ni).value());
  }
  for (const auto& o : g.outputs)
    if (!valid_ref(&info, o.value, static_cast<int64_t>(g.nodes.size())))
      return make_error("graph.output", "output '" + o.name + "' refers to no output of its node");
  return info;
}

std::vector<Diagnostic> check_bindings(const Graph& g, const GraphInfo& info, const Payload& payload,
                                       const ParamNames& names) {
  std::vector<Diagnostic> out;
  std::set<std::pair<std::string, std::string>> used;
  for (const Node& node : g.nodes) {
    for (const auto& p : info.nodes[static_cast<size_t>(node.id)].params) {
      const ParamEntry* e = payload.find(node.name, p.role);
      if (e != nullptr) used.insert({node.name, p.role});
      ConcreteSink sink;
      const ParamShape<CDim> implied{p.role, Dims<CDim>(p.shape.dims().begin(), p.shape.dims().end()), p.required};
      require_binding(implied, e, param_name(names, node.name, p.role), sink);
      for (const auto& f : sink.failures()) out.push_back(at_node(make_error(f.code, f.message), node));
    }
  }
  for (auto& d : unused_parameters(payload, used, names)) out.push_back(std::move(d));
  return out;
}

std::vector<Diagnostic> unused_parameters(const Payload& payload, const std::set<std::pair<std::string, std::string>>& used,
                                          const ParamNames& names) {
  std::vector<Diagnostic> out;
  for (const auto& [key, entry] : payload.entries())
    if (!used.count(key)) {
      Diagnostic d = make_warning("bind.unused", "parameter " + param_name(names, key.first, key.second) + " (" +
                                                     entry.source + ") is not used by any layer");
      d.loc.file = entry.source;
      out.push_back(std::move(d));
    }
  return out;
}

Status check_memory(const Graph& g, const GraphInfo& info, int64_t scalar_size, int64_t budget) {
  int64_t total = 0, largest = -1;
  std::string largest_what;
  const Node* largest_node = nullptr;
  auto account = [&](const Node& node, const Shape& s, const std::string& what) {
    int64_t bytes;
    if (__builtin_mul_overflow(s.count(), scalar_size, &bytes)) bytes = INT64_MAX;
    if (__builtin_add_overflow(total, bytes, &total)) total = INT64_MAX;
    if (bytes > largest) largest = bytes, largest_what = what + " " + s.str(), largest_node = &node;
  };
  for (const Node& node : g.nodes) {
    const NodeInfo& ni = info.nodes[static_cast<size_t>(node.id)];
    for (size_t k = 0; k < ni.outputs.size(); ++k)
      account(node, ni.outputs[k], "the output of node '" + node.name + "'" + (k ? " #" + std::to_string(k) : ""));
    for (const auto& p : ni.params) account(node, p.shape, "parameter " + node.name + "/" + p.role);
  }
  if (total <= budget) return {};
  // Located at the node that holds the largest tensor: the place to start shrinking.
  Diagnostic d = make_error("size.budget", "evaluation needs " + std::to_string(total) + " bytes, over the budget of " +
                                               std::to_string(budget) + " bytes (--max-memory)",
                            largest_node ? largest_node->loc : SourceLoc{});
  if (largest_node) d.node = largest_node->name;
  d.notes.push_back("the largest tensor is " + largest_what + ", " + std::to_string(largest) + " bytes");
  return d;
}

Result<GraphInfo> check_graph(const Graph& g, const Payload& payload, int64_t scalar_size, int64_t budget) {
  auto structure = check_structure(g);
  if (!structure.empty()) return structure.front();
  auto info = infer_shapes(g);
  if (!info) return info;
  for (auto& d : check_bindings(g, *info, payload))
    if (d.severity == Severity::Error) return d;
  auto mem = check_memory(g, *info, scalar_size, budget);
  if (!mem) return std::move(mem).error();
  return info;
}

}  // namespace nnref
