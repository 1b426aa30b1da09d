// The one walk of a graph (DESIGN idea 3 at the graph level), written once over the dimension
// type: per node in id order, the edges it reads, its op's obligations, the shapes its source
// declares, the binding of its parameters; then the graph outputs and the memory budget. Its two
// readings are the concrete check (semantics/wellformed.cpp: CDim, at once) and the checker
// (checker/check_model.cpp: size symbols, by Z3); they differ only in a GraphReading.
//
// Root causes, not cascades: a node whose obligation fails for every admissible size gives its
// outputs no meaning, so the nodes that depend on it are not checked; the walk records, per node,
// the failed node it depends on, and skip_notes says how many were skipped. A failed binding (a
// parameter missing, or of the wrong dtype or shape) is not such a root: the rule computed the
// outputs from the attributes and the operands, whatever the weights hold, so the nodes that read
// them are still checked and their own failures reported. (An obligation that fails for some sizes
// only is assumed by the checker from then on, so later counterexamples respect it.)
#pragma once

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "semantics/binding_rule.hpp"
#include "semantics/graph.hpp"
#include "semantics/graph_obligations.hpp"
#include "semantics/memory.hpp"
#include "semantics/node_rule.hpp"
#include "semantics/param_names.hpp"
#include "semantics/payload.hpp"
#include "spec/size_program.hpp"

namespace nnref {

// The names messages give a node's inputs: the node that produces each ("split output 1" for an
// output other than the first), so that "input 1" reads as the layer the model connected there.
std::vector<std::string> operand_names(const Graph& g, const Node& node);

// What differs between the readings.
template <class Dim>
class GraphReading {
 public:
  virtual ~GraphReading() = default;
  virtual ObligationSink<Dim>& sink() = 0;
  // The obligations raised from now on are about this node (nullptr: the graph as a whole).
  virtual void at(const Node* node) = 0;
  // Whether an obligation raised since the last at() fails for every admissible size.
  virtual bool node_failed() const = 0;
  // The extents of an Input node: its declared dims, or the checker's size symbols.
  virtual Dims<Dim> input_dims(const Node& input) = 0;
  // Called on each node's result before its consumers read it (the checker simplifies terms).
  virtual void settle(ShapeOut<Dim>&) {}
  // The budget obligation over what evaluation holds (its readings locate and explain it differently).
  virtual void require_budget(const MemoryUse<Dim>& use) = 0;
};

// The conditions a node holds (SizeGuard) over the extents of `out` (its own outputs) and of the
// earlier values `shapes` has read: a condition reading a value the walk has not read (a failed node)
// is not checked; one reading no value of the graph is an error of its program.
template <class Dim>
void require_guards(const Node& node, const ShapeOut<Dim>& out,
                    const std::vector<std::optional<ShapeOut<Dim>>>& shapes, ObligationSink<Dim>& sink) {
  for (const SizeGuard& guard : node.guards) {
    std::vector<Dims<Dim>> values;
    bool readable = true, exists = true;
    for (const ValueRef& r : guard.values) {
      exists = r.node >= 0 && r.node <= node.id;
      if (!exists) break;
      const ShapeOut<Dim>* s = &out;
      if (r.node < node.id) s = shapes[static_cast<size_t>(r.node)] ? &*shapes[static_cast<size_t>(r.node)] : nullptr;
      readable = readable && s != nullptr;
      if (!s) continue;
      exists = r.output >= 0 && static_cast<size_t>(r.output) < s->outputs.size();
      if (!exists) break;
      values.push_back(s->outputs[static_cast<size_t>(r.output)]);
    }
    if (!exists) {
      sink.require(false, kSizeProgram, "a condition on extents reads a value the graph does not have before it: " +
                                            guard.message);
      continue;
    }
    if (!readable) continue;
    const auto result = run_size_program(guard.code, values, sink, op_name(node.op));
    if (!result) continue;
    if (result->size() != 1) {
      sink.require(false, kSizeProgram, "a condition on extents leaves " + std::to_string(result->size()) +
                                            " values, not one: " + guard.message);
      continue;
    }
    sink.require((*result)[0].value != Dim(int64_t{0}), guard.assumed ? kComposedSize : kSourceCondition,
                 guard.message);
  }
}

template <class Dim>
struct WalkResult {
  std::vector<std::optional<ShapeOut<Dim>>> shapes;  // per node; nullopt where not checked
  std::vector<ElemKind> kinds;                        // per node, the kind of its outputs
  // Per node: -1 when its obligations were read (a node whose bindings alone failed too); else
  // the failed node it depends on (itself when its rule or declared shapes failed).
  std::vector<int64_t> root;
  std::set<std::pair<std::string, std::string>> used;  // payload entries some node binds
};

// Assumes check_structure (semantics/wellformed.hpp) found nothing: every input names an earlier
// node. `payload` nullptr: the parameters are not bound (a structure-only reading). `scalar_size` bytes
// per element for the budget, the parameters held as `holding` says; 0: no budget obligation.
template <class Dim>
WalkResult<Dim> walk_graph(const Graph& g, const Payload* payload, const ParamNames& names,
                           GraphReading<Dim>& reading, int64_t scalar_size,
                           ParamHolding holding = ParamHolding::WhileNodeRuns) {
  WalkResult<Dim> w;
  ObligationSink<Dim>& sink = reading.sink();
  std::optional<SpareEntries> spare;  // built at the first missing parameter: most walks have none
  std::vector<bool> from_constants;   // per node: no Input among it and its ancestors
  for (const Node& node : g.nodes) {
    reading.at(&node);
    from_constants.push_back(!std::holds_alternative<InputAttrs>(node.op) &&
                             std::all_of(node.inputs.begin(), node.inputs.end(),
                                         [&](const ValueRef& r) { return from_constants[static_cast<size_t>(r.node)]; }));
    w.kinds.push_back(op_signature(node.op).result);
    // A node that reads a failed one is not checked.
    int64_t root = -1;
    for (const ValueRef& r : node.inputs)
      if (root < 0) root = w.root[static_cast<size_t>(r.node)];
    std::vector<Dims<Dim>> in;
    std::vector<ElemKind> kinds;
    for (const ValueRef& r : node.inputs) {
      if (root >= 0) break;
      const auto& parent = *w.shapes[static_cast<size_t>(r.node)];
      if (r.output < 0 || static_cast<size_t>(r.output) >= parent.outputs.size()) {
        sink.require(false, kOutputIndex,
                     "reads output " + std::to_string(r.output) + " of node '" +
                         g.nodes[static_cast<size_t>(r.node)].name + "', which has " +
                         std::to_string(parent.outputs.size()));
        root = node.id;
        break;
      }
      in.push_back(parent.outputs[static_cast<size_t>(r.output)]);
      kinds.push_back(w.kinds[static_cast<size_t>(r.node)]);
    }
    std::optional<ShapeOut<Dim>> out;
    bool rule_failed = false;
    if (root < 0 && std::holds_alternative<InputAttrs>(node.op)) {
      out = ShapeOut<Dim>{{reading.input_dims(node)}, {}};
      require_valid_shapes(op_name(node.op), *out, sink);
    } else if (root < 0) {
      sink.name_operands(operand_names(g, node));
      out = node_obligations(node.op, kinds, in, sink);
      sink.name_operands({});
    }
    if (out) {
      for (size_t k = 0; k < node.declared.size() && k < out->outputs.size(); ++k) {
        if (!node.declared[k]) continue;
        const Dims<Dim> want(node.declared[k]->begin(), node.declared[k]->end());
        PredOf<Dim> same = want.size() == out->outputs[k].size();
        for (size_t i = 0; i < want.size() && i < out->outputs[k].size(); ++i)
          same = same && (want[i] == out->outputs[k][i]);
        sink.require(same, kDeclaredShape,
                     "the model declares output " + std::to_string(k) + " as " + dims_str(want) +
                         ", but the op gives " + dims_str(out->outputs[k]));
      }
      require_guards(node, *out, w.shapes, sink);
      reading.settle(*out);
      // What failed so far is the rule's (or the declared shapes'); what fails from here on is a
      // binding, which leaves the outputs the rule computed as they are.
      rule_failed = reading.node_failed();
      for (const ParamValue& v : node.param_values) {
        const bool known = std::any_of(out->params.begin(), out->params.end(),
                                       [&](const auto& p) { return p.role == v.role; });
        sink.require(known, kBindComputed,
                     "a value is bound to parameter '" + v.role + "', which " + op_name(node.op) + " does not have");
        sink.require(!payload || !payload->find(node.name, v.role), kBindComputed,
                     "parameter " + param_name(names, node.name, v.role) +
                         " is both computed in the graph and given by the weights");
      }
      for (const auto& p : out->params)
        if (const ValueRef* v = node.param_value(p.role)) {
          const auto& producer = w.shapes[static_cast<size_t>(v->node)];
          if (producer && static_cast<size_t>(v->output) < producer->outputs.size())
            require_computed_binding(p, producer->outputs[static_cast<size_t>(v->output)],
                                     w.kinds[static_cast<size_t>(v->node)], from_constants[static_cast<size_t>(v->node)],
                                     param_name(names, node.name, p.role), g.nodes[static_cast<size_t>(v->node)].name,
                                     sink);
        }
      if (payload != nullptr)
        for (const auto& p : out->params) {
          if (node.param_value(p.role)) continue;
          const ParamEntry* e = payload->find(node.name, p.role);
          if (e) w.used.insert({node.name, p.role});
          const std::string name = param_name(names, node.name, p.role);
          std::string lookalike;
          if (!e) {
            std::vector<std::string> roles;
            for (const auto& q : out->params) roles.push_back(q.role);
            if (!spare) spare.emplace(g, *payload, names);
            lookalike = spare->lookalike(node.name, roles, name);
          }
          require_binding(p, e, name, lookalike, sink);
        }
    }
    const bool binding_failed = out && !rule_failed && reading.node_failed();
    if (root < 0 && (!out || rule_failed)) root = node.id;
    // Its parameters are not known, or one of them is wrong: do not call the others unused.
    if ((root >= 0 || binding_failed) && payload != nullptr)
      for (const auto& [key, entry] : payload->entries())
        if (key.first == node.name) w.used.insert(key);
    w.root.push_back(root);
    w.shapes.push_back(root >= 0 ? std::nullopt : std::move(out));
  }

  reading.at(nullptr);
  bool all_read = true;
  for (const auto& s : w.shapes) all_read = all_read && s.has_value();
  for (const GraphOutput& o : g.outputs) {
    const auto& s = w.shapes[static_cast<size_t>(o.value.node)];
    if (!s) continue;
    const bool exists = o.value.output >= 0 && static_cast<size_t>(o.value.output) < s->outputs.size();
    sink.require(exists, kGraphOutput, "output '" + o.name + "' refers to no output of its node");
    all_read = all_read && exists;
  }
  if (all_read && scalar_size > 0) {
    std::vector<std::vector<Dim>> outputs;
    std::vector<std::vector<std::pair<std::string, Dim>>> params;
    for (const auto& s : w.shapes) {
      outputs.emplace_back();
      params.emplace_back();
      for (const auto& o : s->outputs) outputs.back().push_back(element_count(o));
      for (const auto& p : s->params) params.back().emplace_back(p.role, element_count(p.dims));
    }
    reading.require_budget(memory_use(g, outputs, params, scalar_size, names, holding));
  }
  return w;
}

// "3 later nodes not checked: they depend on 'conv1'" on the last diagnostic about each failed
// node that others depend on.
void add_skip_notes(const Graph& g, const std::vector<int64_t>& root, std::vector<Diagnostic>& diags);

}  // namespace nnref
