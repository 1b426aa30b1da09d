#include "semantics/size_names.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "semantics/node_rule.hpp"

namespace nnref {

std::vector<SizeName> batched_size_names(const Graph& g) {
  std::vector<SizeName> out;
  for (int64_t id : g.input_ids()) {
    const Node& n = g.nodes[static_cast<size_t>(id)];
    const auto& dims = std::get<InputAttrs>(n.op).dims;
    if (dims.empty()) continue;
    out.push_back({"batch", id, 0});
    for (size_t k = 1; k < dims.size(); ++k) out.push_back({n.name + "." + std::to_string(k - 1), id, k});
  }
  return out;
}

Status set_input_extents(Graph& g, const std::vector<SizeName>& names,
                         const std::vector<std::pair<std::string, int64_t>>& values) {
  std::set<std::string> seen;
  for (const auto& [name, value] : values) {
    if (!seen.insert(name).second) return make_error("usage.dim", "--dim " + name + " is given twice");
    bool found = false;
    for (const SizeName& n : names) {
      if (n.name != name) continue;
      std::get<InputAttrs>(g.nodes[static_cast<size_t>(n.node)].op).dims[n.axis] = value;
      found = true;
    }
    if (!found) {
      std::vector<std::string> known;
      for (const SizeName& n : names)
        if (std::find(known.begin(), known.end(), n.name) == known.end()) known.push_back(n.name);
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      return make_error("usage.dim", "--dim " + name + ": no input extent has this name" +
                                         (list.empty() ? std::string(" (the model has no input extents)")
                                                       : "; the names are: " + list));
    }
  }
  return {};
}

Result<std::vector<GivenSize>> set_sizes_from_inputs(Graph& g, const std::vector<SizeName>& names,
                                                     const std::vector<std::vector<int64_t>>& shapes,
                                                     const std::vector<std::pair<std::string, int64_t>>& dims) {
  const std::vector<int64_t> ids = g.input_ids();
  const auto where = [&](int64_t node, size_t axis) {
    return "input '" + g.nodes[static_cast<size_t>(node)].name + "' (axis " + std::to_string(axis) + ")";
  };
  const auto extent = [&](const SizeName& n) {
    const auto& dims = std::get<InputAttrs>(g.nodes[static_cast<size_t>(n.node)].op).dims;
    return n.axis < dims.size() ? dims[n.axis] : int64_t{-1};
  };
  // The names whose extents the model does not have equal: each of those extents stands alone.
  std::set<std::string> untied;
  for (const SizeName& n : names)
    for (const SizeName& m : names)
      if (m.name == n.name && extent(m) != extent(n)) untied.insert(n.name);
  std::vector<GivenSize> out;
  std::map<std::string, size_t> given;  // tied name → its entry in `out`
  std::vector<std::pair<const SizeName*, int64_t>> alone;  // untied extents and the arrays' values
  for (const SizeName& n : names) {
    const auto k = static_cast<size_t>(std::find(ids.begin(), ids.end(), n.node) - ids.begin());
    if (k >= ids.size() || k >= shapes.size()) continue;
    const Node& node = g.nodes[static_cast<size_t>(n.node)];
    const auto& declared = std::get<InputAttrs>(node.op).dims;
    if (shapes[k].size() != declared.size() || n.axis >= declared.size()) continue;
    const int64_t v = shapes[k][n.axis];
    if (untied.count(n.name)) {  // --dim would have tied it
      out.push_back({n.name, v, n.node, n.axis, declared[n.axis], n.symbolic, false});
      alone.emplace_back(&n, v);
      continue;
    }
    const auto dim = std::find_if(dims.begin(), dims.end(), [&](const auto& d) { return d.first == n.name; });
    if (dim != dims.end() && dim->second != v)
      return at_node(make_error("input.size-conflict",
                                "--dim " + n.name + "=" + std::to_string(dim->second) + ", but the array given for " +
                                    where(n.node, n.axis) + " has extent " + std::to_string(v) +
                                    ", which is size " + n.name + ": they must agree"),
                     node);
    if (auto it = given.find(n.name); it != given.end()) {
      const GivenSize& first = out[it->second];
      if (first.value != v)
        return at_node(make_error("input.size-conflict",
                                  "size " + n.name + " is " + std::to_string(first.value) + " in the array given for " +
                                      where(first.node, first.axis) + ", but " + std::to_string(v) +
                                      " in the array given for " + where(n.node, n.axis) +
                                      ": the arrays must agree on it"),
                       node);
      continue;
    }
    given.emplace(n.name, out.size());
    out.push_back({n.name, v, n.node, n.axis, declared[n.axis], n.symbolic, true});
  }
  for (const SizeName& n : names)
    if (auto it = given.find(n.name); it != given.end())
      std::get<InputAttrs>(g.nodes[static_cast<size_t>(n.node)].op).dims[n.axis] = out[it->second].value;
  for (const auto& [n, v] : alone) std::get<InputAttrs>(g.nodes[static_cast<size_t>(n->node)].op).dims[n->axis] = v;
  return out;
}

}  // namespace nnref
