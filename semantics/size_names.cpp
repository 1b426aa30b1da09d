#include "semantics/size_names.hpp"

#include <algorithm>
#include <set>

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

}  // namespace nnref
