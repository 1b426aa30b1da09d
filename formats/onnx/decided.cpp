#include "formats/onnx/decided.hpp"

#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "semantics/evaluate.hpp"
#include "spec/truth.hpp"

namespace nnref::onnx_format {

namespace {

// The nodes r depends on (through inputs and computed parameters), renumbered in their order, with
// r and `extra` (when given) as the outputs.
Graph graph_computing(const Graph& g, const ValueRef& r, const std::optional<ValueRef>& extra) {
  std::set<int64_t> needed;
  std::vector<int64_t> unvisited{r.node};
  while (!unvisited.empty()) {
    const Node& n = g.nodes[static_cast<size_t>(unvisited.back())];
    unvisited.pop_back();
    if (!needed.insert(n.id).second) continue;
    for (const ValueRef& in : n.inputs) unvisited.push_back(in.node);
    for (const ParamValue& p : n.param_values) unvisited.push_back(p.value.node);
  }
  Graph out;
  std::map<int64_t, int64_t> renumbered;
  const auto moved = [&](const ValueRef& v) { return ValueRef{renumbered.at(v.node), v.output}; };
  for (int64_t id : needed) {
    Node n = g.nodes[static_cast<size_t>(id)];
    n.id = renumbered[id] = static_cast<int64_t>(out.nodes.size());
    for (ValueRef& in : n.inputs) in = moved(in);
    for (ParamValue& p : n.param_values) p.value = moved(p.value);
    out.nodes.push_back(std::move(n));
  }
  out.outputs.push_back({"value", moved(r)});
  if (extra) out.outputs.push_back({"cast", moved(*extra)});
  return out;
}

// The first element of an integer or logical value as an integer: kUnknownInteger where it is
// undetermined (an enclosure across an integer's boundary, an unknown truth).
template <Scalar T>
int64_t integer_of(const Value<T>& v) {
  if (const auto* t = std::get_if<Tensor<int64_t>>(&v)) return t->data()[0];
  const uint8_t truth = std::get<Tensor<uint8_t>>(v).data()[0];
  return truth == kUnknown ? kUnknownInteger : int64_t{truth == kTrue};
}

std::string integer_text(int64_t v) { return v == kUnknownInteger ? "undetermined" : std::to_string(v); }

std::string real_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

Result<int64_t> decided_at_load(const Graph& g, const Payload& payload, const ValueRef& r,
                                LoadOptions::EncloseConstants enclose, int64_t max_memory) {
  const Node& producer = g.nodes[static_cast<size_t>(r.node)];
  const auto* cast = std::get_if<CastAttrs>(&producer.op);
  const std::optional<ValueRef> cast_operand =
      cast != nullptr && cast->from == ElemKind::Real ? std::optional(producer.inputs[0]) : std::nullopt;
  auto values = enclose(graph_computing(g, r, cast_operand), payload, max_memory);
  if (!values) return std::move(values).error();
  const std::vector<Value<Interval>>& exact = values->exact;
  const std::vector<Value<Envelope>>& runtime = values->runtime;
  if (shape_of(exact[0]).count() != 1 || kind_of(exact[0]) == ElemKind::Real)
    return make_error("onnx.input-type", "it must be one integer or bool");
  const int64_t e = integer_of(exact[0]), f = integer_of(runtime[0]);
  if (e != kUnknownInteger && e == f) return e;
  const std::string& precision = current_runtime().name;
  std::string message = "it is computed from constants by real arithmetic, and correct " + precision +
                        " runtimes need not compute one integer for it: the exact value gives " + integer_text(e) +
                        ", the " + precision + " envelope " + integer_text(f);
  if (cast_operand) {
    const Envelope& x = std::get<Tensor<Envelope>>(runtime[1]).data()[0];
    message += " (it casts the real value the envelope bounds by [" + real_text(x.lo) + ", " + real_text(x.hi) + "])";
  }
  return make_error("onnx.value-undecided", message);
}

}  // namespace nnref::onnx_format
