#include "semantics/evaluate.hpp"

#include "semantics/dval.hpp"
#include "semantics/node_rule.hpp"
#include "semantics/wellformed.hpp"

namespace nnref {

namespace {

template <Scalar T>
Tensor<T> to_scalar(const HostTensor& h) {
  Tensor<T> t(h.shape);
  for (int64_t i = 0; i < t.size(); ++i) t[i] = from_double<T>(h.values[static_cast<size_t>(i)]);
  return t;
}

// The payload entry for (node, role), of exactly `shape`; nullptr for an absent optional one.
// check_bindings has reported these for the user already; here they keep kernels, which index
// parameters by the witness's shapes, from ever being handed another shape or a missing tensor.
Result<const ParamEntry*> bound_param(const Payload& payload, const Node& node, const std::string& role,
                                      const Shape& shape, bool required) {
  const ParamEntry* e = payload.find(node.name, role);
  if (e == nullptr) {
    if (required) return make_error("bind.missing", "parameter " + role + " is missing from the payload");
    return e;
  }
  if (!(e->tensor.shape == shape))
    return make_error("bind.shape-mismatch",
                      "parameter " + role + " has shape " + e->tensor.shape.str() + ", but the op needs " + shape.str());
  return e;
}

// Applies one non-source node's op to its parents' values: the witness is rebuilt for exactly
// these input shapes, then the spec op's formula runs.
template <Scalar T>
Result<std::vector<Tensor<T>>> apply_node(const Node& node, const std::vector<const Tensor<T>*>& in,
                                          const Payload& payload) {
  return std::visit(
      [&](const auto& a) -> Result<std::vector<Tensor<T>>> {
        using A = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<A, InputAttrs>) {
          return make_error("eval.internal", "input nodes are bound before evaluation");
        } else if constexpr (std::is_same_v<A, ConstAttrs>) {
          auto shape = Shape::make(a.dims);
          if (!shape) return std::move(shape).error();
          auto e = bound_param(payload, node, "value", *shape, true);
          if (!e) return std::move(e).error();
          return std::vector<Tensor<T>>{to_scalar<T>((*e)->tensor)};
        } else {
          std::vector<Shape> shapes;
          for (const auto* t : in) shapes.push_back(t->shape());
          auto op = Checked<A>::check(a, shapes);
          if (!op) return std::move(op).error();
          std::vector<Tensor<T>> storage;
          storage.reserve(op->params().size());
          std::vector<const Tensor<T>*> params;
          for (const auto& p : op->params()) {
            auto e = bound_param(payload, node, p.role, p.shape, p.required);
            if (!e) return std::move(e).error();
            if (*e == nullptr) {
              params.push_back(nullptr);
              continue;
            }
            storage.push_back(to_scalar<T>((*e)->tensor));
            params.push_back(&storage.back());
          }
          return evaluate<T>(*op, in, params);
        }
      },
      node.op);
}

Status bind_inputs_check(const Graph& g, const GraphInfo& info, const std::vector<HostTensor>& inputs) {
  auto ids = g.input_ids();
  if (ids.size() != inputs.size())
    return make_error("input.count", "the model has " + std::to_string(ids.size()) + " input(s), " +
                                         std::to_string(inputs.size()) + " given");
  for (size_t k = 0; k < ids.size(); ++k) {
    const Node& node = g.nodes[static_cast<size_t>(ids[k])];
    const Shape& want = info.nodes[static_cast<size_t>(ids[k])].outputs[0];
    if (!(inputs[k].shape == want))
      return at_node(make_error("input.shape-mismatch", "the input given has shape " + inputs[k].shape.str() +
                                                            ", but the model declares " + want.str()),
                     node);
  }
  return {};
}

}  // namespace

template <Scalar T>
Result<std::vector<Tensor<T>>> evaluate(const Graph& g, const Payload& payload, const std::vector<HostTensor>& inputs,
                                        const EvalOptions& options) {
  auto info = check_graph(g, payload, static_cast<int64_t>(sizeof(T)), options.max_memory);
  if (!info) return std::move(info).error();
  if (auto s = bind_inputs_check(g, *info, inputs); !s) return std::move(s).error();

  std::vector<std::vector<DVal<T>>> values(g.nodes.size());
  size_t next_input = 0;
  for (const Node& node : g.nodes) {
    auto& out = values[static_cast<size_t>(node.id)];
    if (std::holds_alternative<InputAttrs>(node.op)) {
      out.emplace_back(to_scalar<T>(inputs[next_input++]));
      continue;
    }
    std::vector<const Tensor<T>*> in;
    for (const auto& r : node.inputs) {
      const DVal<T>& v = values[static_cast<size_t>(r.node)][static_cast<size_t>(r.output)];
      const auto* t = std::get_if<Tensor<T>>(&v);
      if (t == nullptr)
        return at_node(make_error("eval.kind", std::string("takes real tensors, but input '") +
                                                   g.nodes[static_cast<size_t>(r.node)].name + "' holds " +
                                                   kind_name(v.index()) + " data"),
                       node);
      in.push_back(t);
    }
    auto result = apply_node<T>(node, in, payload);
    if (!result) return at_node(std::move(result).error(), node);
    const auto& expected = info->nodes[static_cast<size_t>(node.id)].outputs;
    for (size_t k = 0; k < result->size(); ++k)
      if (k >= expected.size() || !((*result)[k].shape() == expected[k]))
        return at_node(make_error("eval.internal", "the op's formula produced a shape other than its shape rule's"),
                       node);
    for (auto& t : *result) out.emplace_back(std::move(t));
  }

  std::vector<Tensor<T>> outputs;
  for (const auto& o : g.outputs) {
    const DVal<T>& v = values[static_cast<size_t>(o.value.node)][static_cast<size_t>(o.value.output)];
    const auto* t = std::get_if<Tensor<T>>(&v);
    if (t == nullptr)
      return make_error("eval.kind", "output '" + o.name + "' holds " + kind_name(v.index()) + " data, not reals");
    outputs.push_back(*t);
  }
  return outputs;
}

template Result<std::vector<Tensor<float>>> evaluate<float>(const Graph&, const Payload&, const std::vector<HostTensor>&,
                                                            const EvalOptions&);
template Result<std::vector<Tensor<double>>> evaluate<double>(const Graph&, const Payload&,
                                                              const std::vector<HostTensor>&, const EvalOptions&);
template Result<std::vector<Tensor<mp50>>> evaluate<mp50>(const Graph&, const Payload&, const std::vector<HostTensor>&,
                                                          const EvalOptions&);

}  // namespace nnref
