#include "semantics/wellformed.hpp"

#include <algorithm>
#include <cstdint>
#include <set>

#include "semantics/spelling.hpp"

namespace nnref {

namespace {

// r names a node with id < before.
bool earlier(ValueRef r, int64_t before) { return r.node >= 0 && r.node < before && r.output >= 0; }

// The concrete reading: each node's failures become one diagnostic (the first, the others as notes).
class ConcreteReading final : public GraphReading<CDim> {
 public:
  ConcreteReading(const Graph& g, int64_t budget, std::vector<Diagnostic>& out) : graph_(g), budget_(budget), out_(out) {}

  ObligationSink<CDim>& sink() override { return sink_; }
  void at(const Node* node) override {
    flush();
    node_ = node;
  }
  bool node_failed() const override { return !sink_.ok(); }
  Dims<CDim> input_dims(const Node& input) override {
    const auto& dims = std::get<InputAttrs>(input.op).dims;
    return Dims<CDim>(dims.begin(), dims.end());
  }
  void require_budget(const MemoryUse<CDim>& use) override {
    const Peak<CDim> peak = find_peak(use, use.totals(), [](CDim b) { return b.v; });
    peak_ = peak.bytes;
    if (peak_ <= budget_) return;
    Diagnostic d = make_error(std::string(kBudget.code), "evaluation needs " + std::to_string(peak_) +
                                                             " bytes at its peak, over the budget of " +
                                                             std::to_string(budget_) + " bytes (--max-memory)");
    if (peak.largest) {
      d.loc = graph_node(peak.largest->node).loc;
      d.node = graph_node(peak.largest->node).name;
      d.notes.push_back("the largest tensor is " + peak.largest->what + ", " + std::to_string(peak.largest_bytes) +
                        " bytes");
    }
    out_.push_back(std::move(d));
  }

  // Raises the last node's diagnostic.
  void finish() { flush(); }
  int64_t peak() const { return peak_; }

 private:
  const Node& graph_node(int64_t id) const { return graph_.nodes[static_cast<size_t>(id)]; }
  void flush() {
    if (sink_.ok()) return;
    Diagnostic d = sink_.first_failure();
    out_.push_back(node_ ? at_node(std::move(d), *node_) : std::move(d));
    sink_ = ConcreteSink{};
  }

  ConcreteSink sink_;
  const Node* node_ = nullptr;
  const Graph& graph_;
  int64_t budget_;
  int64_t peak_ = 0;
  std::vector<Diagnostic>& out_;
};

}  // namespace

std::vector<std::string> operand_names(const Graph& g, const Node& node) {
  std::vector<std::string> names;
  for (const ValueRef& r : node.inputs) {
    const std::string& producer = g.nodes[static_cast<size_t>(r.node)].name;
    names.push_back(r.output == 0 ? producer : producer + " output " + std::to_string(r.output));
  }
  return names;
}

std::vector<Diagnostic> check_structure(const Graph& g) {
  std::vector<Diagnostic> out;
  std::set<std::string> names;
  const auto n = static_cast<int64_t>(g.nodes.size());
  const auto fail = [&](const ObligationSpec& o, std::string msg, const Node* node) {
    Diagnostic d = make_error(std::string(o.code), std::move(msg));
    out.push_back(node ? at_node(std::move(d), *node) : std::move(d));
  };
  for (int64_t i = 0; i < n; ++i) {
    const Node& node = g.nodes[static_cast<size_t>(i)];
    if (node.id != i) fail(kNodeId, "has id " + std::to_string(node.id) + " at position " + std::to_string(i), &node);
    if (node.name.empty())
      fail(kNameEmpty, "has no name", &node);
    else if (!names.insert(node.name).second)
      fail(kNameDuplicate, "the name is used by an earlier node", &node);
    for (const auto& r : node.inputs)
      if (!earlier(r, i))
        fail(kTopology,
             "input refers to node " + std::to_string(r.node) +
                 ", which is not an earlier node (nodes must be in topological order)",
             &node);
    std::set<std::string> roles;
    for (const ParamValue& p : node.param_values) {
      if (!earlier(p.value, i))
        fail(kTopology,
             "parameter '" + p.role + "' refers to node " + std::to_string(p.value.node) +
                 ", which is not an earlier node (nodes must be in topological order)",
             &node);
      if (!roles.insert(p.role).second) fail(kTopology, "parameter '" + p.role + "' is bound to two values", &node);
    }
  }
  if (g.outputs.empty()) fail(kNoOutputs, "the graph has no outputs", nullptr);
  for (const auto& o : g.outputs)
    if (!earlier(o.value, n)) fail(kGraphOutput, "output '" + o.name + "' refers to no node", nullptr);
  return out;
}

ConcreteCheck check_concrete(const Graph& g, const Payload* payload, const ParamNames& names, int64_t scalar_size,
                             int64_t budget, ParamHolding holding) {
  ConcreteCheck c;
  c.diagnostics = check_structure(g);
  if (!c.diagnostics.empty()) return c;
  ConcreteReading reading(g, budget, c.diagnostics);
  const WalkResult<CDim> w = walk_graph<CDim>(g, payload, names, reading, scalar_size, holding);
  reading.finish();
  add_skip_notes(g, w.root, c.diagnostics);
  if (payload)
    for (auto& d : unused_parameters(*payload, w.used, names)) c.diagnostics.push_back(std::move(d));
  if (std::any_of(c.diagnostics.begin(), c.diagnostics.end(),
                  [](const Diagnostic& d) { return d.severity == Severity::Error; }))
    return c;
  GraphInfo info;
  info.peak_bytes = reading.peak();
  for (size_t id = 0; id < g.nodes.size(); ++id) {
    const ShapeOut<CDim>& s = *w.shapes[id];
    NodeInfo ni;
    ni.kind = w.kinds[id];
    for (const auto& o : s.outputs) ni.outputs.push_back(*to_shape(o));  // the walk proved them valid
    for (const auto& p : s.params) ni.params.push_back({p.role, *to_shape(p.dims), p.required});
    info.nodes.push_back(std::move(ni));
  }
  c.info = std::move(info);
  return c;
}

namespace {

Result<GraphInfo> first_error(ConcreteCheck c) {
  if (c.info) return std::move(*c.info);
  for (auto& d : c.diagnostics)
    if (d.severity == Severity::Error) return std::move(d);
  return make_error("graph.internal", "the check failed without a diagnostic");
}

}  // namespace

Result<GraphInfo> infer_shapes(const Graph& g) { return first_error(check_concrete(g, nullptr, {}, 0, 0)); }

Result<GraphInfo> check_graph(const Graph& g, const Payload& payload, int64_t scalar_size, int64_t budget,
                              const ParamNames& names, ParamHolding holding) {
  return first_error(check_concrete(g, &payload, names, scalar_size, budget, holding));
}

std::vector<Diagnostic> unused_parameters(const Payload& payload,
                                          const std::set<std::pair<std::string, std::string>>& used,
                                          const ParamNames& names) {
  std::vector<Diagnostic> out;
  const std::vector<std::string> absent = absent_params(payload, names);
  size_t searches = 0;
  for (const auto& [key, entry] : payload.entries())
    if (!used.count(key)) {
      const std::string name = param_name(names, key.first, key.second);
      const auto meant = searches++ < kMaxLookalikeSearches ? lookalike_param(name, absent) : std::nullopt;
      Diagnostic d = make_warning(std::string(kBindUnused.code),
                                  "parameter " + name + " (" + entry.source + ") is not used by any layer" +
                                      (meant ? "; did you mean " + *meant + " for " + name + "?" : ""));
      d.loc.file = entry.source;
      out.push_back(std::move(d));
    }
  return out;
}

void add_skip_notes(const Graph& g, const std::vector<int64_t>& root, std::vector<Diagnostic>& diags) {
  std::map<int64_t, int64_t> skipped;  // failed node → how many later nodes depend on it
  for (size_t id = 0; id < root.size(); ++id)
    if (root[id] >= 0 && root[id] != static_cast<int64_t>(id)) ++skipped[root[id]];
  for (const auto& [failed, count] : skipped) {
    const std::string& name = g.nodes[static_cast<size_t>(failed)].name;
    for (auto d = diags.rbegin(); d != diags.rend(); ++d)
      if (d->node == name) {
        d->notes.push_back(std::to_string(count) + (count == 1 ? " later node" : " later nodes") +
                           " not checked: " + (count == 1 ? "it depends" : "they depend") + " on '" + name + "'");
        break;
      }
  }
}

}  // namespace nnref
