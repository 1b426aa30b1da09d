#include "semantics/node_rule.hpp"

#include <type_traits>

namespace nnref {

namespace {

template <class A>
constexpr bool is_source = std::is_same_v<A, InputAttrs> || std::is_same_v<A, ConstAttrs>;

Result<NodeInfo> declared(const std::vector<int64_t>& dims, bool is_const) {
  auto s = Shape::make(dims);
  if (!s) return std::move(s).error();
  NodeInfo info;
  info.outputs.push_back(*s);
  if (is_const) info.params.push_back({"value", *s, true});
  return info;
}

}  // namespace

Arity node_arity(const OpAttrs& op) {
  return std::visit(
      [](const auto& a) -> Arity {
        using A = std::decay_t<decltype(a)>;
        if constexpr (is_source<A>)
          return {0, 0};
        else
          return arity(a);
      },
      op);
}

Diagnostic at_node(Diagnostic d, const Node& node) {
  if (d.loc.file.empty() && d.loc.line == 0) d.loc = node.loc;
  if (d.node.empty()) d.node = node.name;
  d.message = "node '" + node.name + "' (" + op_name(node.op) + "): " + d.message;
  return d;
}

Result<NodeInfo> node_info(const Node& node, const std::vector<Shape>& inputs) {
  auto r = std::visit(
      [&](const auto& a) -> Result<NodeInfo> {
        using A = std::decay_t<decltype(a)>;
        if constexpr (is_source<A>) {
          return declared(a.dims, std::is_same_v<A, ConstAttrs>);
        } else {
          auto c = Checked<A>::check(a, inputs);
          if (!c) return std::move(c).error();
          NodeInfo info;
          info.outputs = c->outputs();
          for (const auto& p : c->params()) info.params.push_back({p.role, p.shape, p.required});
          return info;
        }
      },
      node.op);
  if (!r) return at_node(std::move(r).error(), node);
  return r;
}

}  // namespace nnref
