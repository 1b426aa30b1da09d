#include "cli/sizes.hpp"

#include <algorithm>

#include "checker/size_symbols.hpp"
#include "semantics/size_names.hpp"

namespace nnref {

Status apply_dims(Model& m, const std::vector<std::string>& dims) {
  std::vector<std::pair<std::string, int64_t>> sizes;
  for (const auto& text : dims) {
    auto d = parse_dim_value(text);
    if (!d) return std::move(d).error();
    sizes.emplace_back(d->name, d->lo);
  }
  return set_input_extents(m.graph, m.size_names, sizes);
}

std::optional<std::string> dim_hint(const Model& m, const std::vector<HostTensor>& inputs, const std::string& node) {
  const auto ids = m.graph.input_ids();
  for (size_t k = 0; k < ids.size() && k < inputs.size(); ++k) {
    const Node& n = m.graph.nodes[static_cast<size_t>(ids[k])];
    const auto& declared = std::get<InputAttrs>(n.op).dims;
    const auto& given = inputs[k].shape.dims();
    if (n.name != node || given.size() != declared.size()) continue;
    std::string hint;
    for (size_t axis = 0; axis < given.size(); ++axis) {
      if (given[axis] == declared[axis]) continue;
      const auto name = std::find_if(m.size_names.begin(), m.size_names.end(),
                                     [&](const SizeName& s) { return s.node == n.id && s.axis == axis; });
      if (name == m.size_names.end()) return std::nullopt;
      hint += " --dim " + name->name + "=" + std::to_string(given[axis]);
    }
    if (!hint.empty()) return "to run the model at the given size, add" + hint;
  }
  return std::nullopt;
}

}  // namespace nnref
