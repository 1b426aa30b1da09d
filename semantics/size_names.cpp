#include "semantics/size_names.hpp"

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

}  // namespace nnref
