#include "semantics/node_rule.hpp"

#include <type_traits>

namespace nnref {

namespace {

template <class A>
constexpr bool is_source = std::is_same_v<A, InputAttrs> || std::is_same_v<A, ConstAttrs>;

// A source's declared shape, under the obligations every output has.
Result<NodeInfo> declared(const OpAttrs& op) {
  ConcreteSink sink;
  auto out = node_obligations(op, std::vector<Dims<CDim>>{}, sink);
  if (!sink.ok()) return sink.first_failure();
  NodeInfo info;
  for (const auto& o : out->outputs) {
    auto s = to_shape(o);
    if (!s) return std::move(s).error();
    info.outputs.push_back(*s);
  }
  for (const auto& p : out->params) {
    auto s = to_shape(p.dims);
    if (!s) return std::move(s).error();
    info.params.push_back({p.role, *s, p.required});
  }
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
          return declared(node.op);
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
