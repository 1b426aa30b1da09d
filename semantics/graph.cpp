#include "semantics/graph.hpp"

namespace nnref {

int64_t Graph::add(std::string name, OpAttrs op, std::vector<ValueRef> inputs, SourceLoc loc) {
  int64_t id = static_cast<int64_t>(nodes.size());
  Node n;
  n.id = id;
  n.name = std::move(name);
  n.op = std::move(op);
  n.inputs = std::move(inputs);
  n.loc = std::move(loc);
  nodes.push_back(std::move(n));
  return id;
}

const ValueRef* Node::param_value(const std::string& role) const {
  for (const ParamValue& p : param_values)
    if (p.role == role) return &p.value;
  return nullptr;
}

const Node* Graph::find(const std::string& name) const {
  for (const auto& n : nodes)
    if (n.name == name) return &n;
  return nullptr;
}

std::vector<int64_t> Graph::input_ids() const {
  std::vector<int64_t> ids;
  for (const auto& n : nodes)
    if (std::holds_alternative<InputAttrs>(n.op)) ids.push_back(n.id);
  return ids;
}

}  // namespace nnref
