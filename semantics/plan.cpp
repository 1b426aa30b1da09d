#include "semantics/plan.hpp"

#include <map>
#include <type_traits>

#include "semantics/host_values.hpp"
#include "semantics/memory.hpp"
#include "semantics/node_rule.hpp"
#include "semantics/oracle.hpp"
#include "semantics/size_code.hpp"
#include "semantics/wellformed.hpp"
#include "spec/real.hpp"
#include "spec/size_program.hpp"
#include "spec/truth.hpp"
#include "spec/value.hpp"

namespace nnref {

namespace {

// The witness of a node whose obligations the check has proved for these inputs. Its rule is read
// once more here, once per plan (not per run), so that a witness exists only through
// Checked::check.
Result<CheckedOp> witness(const Node& node, const std::vector<Shape>& shapes, const std::vector<ElemKind>& kinds) {
  return std::visit(
      [&](const auto& a) -> Result<CheckedOp> {
        using A = std::decay_t<decltype(a)>;
        auto c = Checked<A>::check(a, shapes, kinds);
        if (!c) return std::move(c).error();
        return CheckedOp(std::move(c).value());
      },
      node.op);
}

const std::vector<ParamInfo>& params_of(const CheckedOp& op) {
  return std::visit([](const auto& c) -> const std::vector<ParamInfo>& { return c.params(); }, op);
}

// A parameter in T, each value read from the decimal the model states where it states one.
template <Scalar T>
Tensor<T> param_to_scalar(const ParamEntry& e) {
  if (e.decimals.empty()) return to_scalar<T>(e.tensor);
  Tensor<T> t(e.tensor.shape);
  for (int64_t i = 0; i < t.size(); ++i) {
    const auto k = static_cast<size_t>(i);
    t[i] = real_value<T>(Real(e.tensor.values[k], e.decimals[k]));
  }
  return t;
}

// The parameters the graph computes from constants (Node::param_values), evaluated now in T by the
// ops' own kernels, so that every engine receives them as it receives the payload's. check_graph
// has proved that each is a real value computed from constants alone. A node's outputs are held
// until its last reader here, as the run holds them.
template <Scalar T>
void bind_computed_params(Plan<T>& plan) {
  const Graph& g = *plan.graph;
  std::vector<int64_t> readers(g.nodes.size(), 0);  // > 0: needed, and by how many
  for (size_t id = g.nodes.size(); id-- > 0;) {
    for (const ParamValue& p : g.nodes[id].param_values) ++readers[static_cast<size_t>(p.value.node)];
    if (readers[id] > 0)
      for (const ValueRef& r : g.nodes[id].inputs) ++readers[static_cast<size_t>(r.node)];
  }
  std::vector<std::vector<Value<T>>> values(g.nodes.size());
  const auto read = [&](const ValueRef& r) { return &values[static_cast<size_t>(r.node)][static_cast<size_t>(r.output)]; };
  const auto done = [&](const ValueRef& r) {
    if (--readers[static_cast<size_t>(r.node)] == 0) values[static_cast<size_t>(r.node)].clear();
  };
  for (size_t id = 0; id < g.nodes.size(); ++id) {
    PlannedNode<T>& p = plan.nodes[id];
    const std::vector<ParamInfo>& infos = params_of(p.op);
    for (size_t k = 0; k < infos.size(); ++k)
      if (const ValueRef* v = p.node->param_value(infos[k].role)) {
        p.params[k] = std::get<Tensor<T>>(*read(*v));
        done(*v);
      }
    if (readers[id] == 0) continue;
    for (const Shape& s : outputs_of(p.op)) values[id].push_back(zeros<T>(kind_of(p.op), s));
    OpIO<T> io;
    std::vector<Tensor<T>> converted;
    for (const ValueRef& r : p.node->inputs) io.inputs.push_back(read(r));
    io.params = node_params(p, converted);
    for (auto& v : values[id]) io.outputs.push_back(&v);
    std::visit([&](const auto& o) { run_kernel(o, io); }, p.op);
    for (const ValueRef& r : p.node->inputs) done(r);
  }
}

bool node_reads_elements(const Node& n) {
  const auto c = size_code_of(n.op);
  return c && reads_elements(*c->code);
}

// The values node n's program reads elements of (kElement j i: the node's input first + j), in
// the order it reads them; an operand the node lacks is shape.size-program.
Result<std::vector<ValueRef>> element_sources(const Node& n) {
  const auto c = *size_code_of(n.op);
  const std::vector<int64_t>& code = *c.code;
  std::vector<ValueRef> out;
  for (size_t i = 0; i < code.size(); i += token_width(code[i])) {
    if (code[i] != size_code::kElement) continue;
    const int64_t j = i + 1 < code.size() ? code[i + 1] : -1;
    if (i + 2 >= code.size() || j < 0 || c.first + static_cast<size_t>(j) >= n.inputs.size())
      return at_node(make_error(std::string(kSizeProgram.code),
                                op_name(n.op) + ": computed sizes read an element of an operand it does not have"),
                     n);
    out.push_back(n.inputs[c.first + static_cast<size_t>(j)]);
  }
  return out;
}

// The graph with every size computed from data (kElement) replaced by the number the run's
// inputs give (kConstant). Repeatedly: the first node whose program reads elements; the nodes
// before it (which hold every value it reads, and no such size any more) planned and run in T;
// each node whose program reads only values computed there gets their elements.
template <Scalar T>
Result<std::shared_ptr<const Graph>> resolve_element_sizes(const Graph& g, const Payload& payload,
                                                           const PlanOptions& options) {
  auto work = std::make_shared<Graph>(g);
  for (;;) {
    size_t first = 0;
    while (first < work->nodes.size() && !node_reads_elements(work->nodes[first])) ++first;
    if (first == work->nodes.size()) return std::shared_ptr<const Graph>(std::move(work));
    Graph prefix;
    prefix.nodes.assign(work->nodes.begin(), work->nodes.begin() + static_cast<std::ptrdiff_t>(first));
    std::map<std::pair<int64_t, int>, size_t> position;  // a value read → its output's position
    std::vector<std::pair<size_t, std::vector<ValueRef>>> batch;
    for (size_t id = first; id < work->nodes.size(); ++id) {
      Node& n = work->nodes[id];
      if (!node_reads_elements(n)) continue;
      auto refs = element_sources(n);
      if (!refs) return std::move(refs).error();
      if (std::any_of(refs->begin(), refs->end(), [&](const ValueRef& r) { return r.node >= static_cast<int64_t>(first); }))
        continue;
      for (const ValueRef& r : *refs)
        if (position.emplace(std::pair{r.node, r.output}, prefix.outputs.size()).second)
          prefix.outputs.push_back({prefix.nodes[static_cast<size_t>(r.node)].name + ":" + std::to_string(r.output), r});
      batch.emplace_back(id, std::move(*refs));
    }
    std::vector<HostTensor> inputs;
    for (const Node& n : prefix.nodes)
      if (std::holds_alternative<InputAttrs>(n.op) && inputs.size() < options.inputs->size())
        inputs.push_back((*options.inputs)[inputs.size()]);
    auto plan =
        make_plan<T>(prefix, payload, PlanOptions{options.max_memory, options.param_names, nullptr, options.params});
    if (!plan) return std::move(plan).error();
    auto values = run_plan_values<T>(*plan, inputs, [](const CheckedOp& op, const OpIO<T>& io) {
      std::visit([&](const auto& o) { run_kernel(o, io); }, op);
    });
    if (!values) return std::move(values).error();
    for (auto& [id, refs] : batch) {
      Node& n = work->nodes[id];
      std::vector<int64_t>& code = *size_code_of(n.op)->code;
      std::vector<int64_t> out;
      size_t read = 0;
      for (size_t i = 0; i < code.size(); i += token_width(code[i])) {
        if (code[i] != size_code::kElement) {
          out.insert(out.end(), code.begin() + static_cast<std::ptrdiff_t>(i),
                     code.begin() + static_cast<std::ptrdiff_t>(std::min(i + token_width(code[i]), code.size())));
          continue;
        }
        const ValueRef& r = refs[read++];
        const std::string source = "'" + work->nodes[static_cast<size_t>(r.node)].name + "'";
        const Value<T>& v = (*values)[position.at({r.node, r.output})];
        const auto* t = std::get_if<Tensor<int64_t>>(&v);
        const int64_t e = code[i + 2];
        if (t == nullptr || e < 0 || e >= t->size())
          return at_node(make_error(std::string(kSizeProgram.code),
                                    op_name(n.op) + ": a computed size is element " + std::to_string(e) + " of " +
                                        source + ", which " +
                                        (t == nullptr ? std::string("is not an integer value")
                                                      : "has " + std::to_string(t->size()) + " elements")),
                         n);
        const int64_t x = (*t)[e];
        if (x == kUnknownInteger)
          return at_node(make_error("run.size-undetermined",
                                    op_name(n.op) + ": a size is element " + std::to_string(e) + " of " + source +
                                        ", computed from the data of the inputs, and this run's scalar leaves it "
                                        "undetermined (an integer computed from enclosures that overlap, such as the "
                                        "ArgMax of a tie); nnref does not guess a size"),
                         n);
        out.insert(out.end(), {size_code::kConstant, x});
      }
      code = std::move(out);
    }
  }
}

}  // namespace

const std::vector<Shape>& outputs_of(const CheckedOp& op) {
  return std::visit([](const auto& c) -> const std::vector<Shape>& { return c.outputs(); }, op);
}

ElemKind kind_of(const CheckedOp& op) {
  return std::visit([](const auto& c) { return c.output_kind(); }, op);
}

template <Scalar T>
Result<Plan<T>> make_plan(const Graph& given, const Payload& payload, const PlanOptions& options) {
  std::shared_ptr<const Graph> resolved;
  if (options.inputs != nullptr &&
      std::any_of(given.nodes.begin(), given.nodes.end(), [](const Node& n) { return node_reads_elements(n); })) {
    if (options.inputs->size() != given.input_ids().size())  // as check_inputs says it
      return make_error("input.count", "the model has " + std::to_string(given.input_ids().size()) +
                                           " input(s), " + std::to_string(options.inputs->size()) + " given");
    auto r = resolve_element_sizes<T>(given, payload, options);
    if (!r) return std::move(r).error();
    resolved = std::move(r).value();
  }
  const Graph& g = resolved ? *resolved : given;
  auto info = check_graph(g, payload, ScalarOps<T>::bytes, options.max_memory, options.param_names, options.params);
  if (!info) return std::move(info).error();
  Plan<T> plan;
  plan.graph = &g;
  plan.resolved = std::move(resolved);
  plan.input_ids = g.input_ids();
  plan.peak_bytes = info->peak_bytes;
  std::vector<size_t> counts;
  for (const NodeInfo& ni : info->nodes) counts.push_back(ni.outputs.size());
  const auto last = last_uses(g, counts);
  std::vector<std::vector<ValueRef>> frees(g.nodes.size());
  for (size_t id = 0; id < last.size(); ++id)
    for (size_t k = 0; k < last[id].size(); ++k)
      if (last[id][k] < static_cast<int64_t>(g.nodes.size()))
        frees[static_cast<size_t>(last[id][k])].push_back({static_cast<int64_t>(id), static_cast<int>(k)});

  for (const Node& node : g.nodes) {
    std::vector<Shape> shapes;
    std::vector<ElemKind> kinds;
    for (const ValueRef& r : node.inputs) {
      const NodeInfo& parent = info->nodes[static_cast<size_t>(r.node)];
      shapes.push_back(parent.outputs[static_cast<size_t>(r.output)]);
      kinds.push_back(parent.kind);
    }
    auto op = witness(node, shapes, kinds);
    if (!op) return at_node(std::move(op).error(), node);
    PlannedNode<T> p{&node, std::move(op).value(), {}, std::move(frees[static_cast<size_t>(node.id)]), {}};
    // check_graph has proved every binding: each entry exists where required, with the implied shape.
    const bool per_node = options.params == ParamHolding::WhileNodeRuns;
    for (const ParamInfo& param : params_of(p.op)) {
      const ParamEntry* e = payload.find(node.name, param.role);
      p.params.push_back(e && !per_node ? std::optional<Tensor<T>>(param_to_scalar<T>(*e)) : std::nullopt);
      if (per_node) p.unconverted.push_back(e);
    }
    plan.nodes.push_back(std::move(p));
  }
  bind_computed_params(plan);
  return plan;
}

template <Scalar T>
std::vector<const Tensor<T>*> node_params(const PlannedNode<T>& p, std::vector<Tensor<T>>& converted) {
  converted.clear();
  converted.reserve(p.params.size());  // no reallocation: the pointers below stay valid
  std::vector<const Tensor<T>*> out;
  for (size_t k = 0; k < p.params.size(); ++k) {
    const ParamEntry* source = k < p.unconverted.size() ? p.unconverted[k] : nullptr;
    if (p.params[k]) out.push_back(&*p.params[k]);
    else if (source) out.push_back(&converted.emplace_back(param_to_scalar<T>(*source)));
    else out.push_back(nullptr);
  }
  return out;
}

namespace {

Status input_count(size_t declared, size_t given) {
  if (declared == given) return {};
  return make_error("input.count", "the model has " + std::to_string(declared) + " input(s), " +
                                       std::to_string(given) + " given");
}

// One input against its declared shape and kind. No allocation when it matches: the fast path
// checks its inputs on every run (fastpath_engine_test: a run allocates nothing).
Status check_input(const Node& node, const Shape& want, ElemKind kind, const HostTensor& given) {
  if (!(given.shape == want))
    return at_node(make_error("input.shape-mismatch", "the input given has shape " + given.shape.str() +
                                                          ", but the model declares " + want.str()),
                   node);
  if (!dtype_reads_as(given.dtype, kind))
    return at_node(make_error("input.kind-mismatch", std::string("the input given holds ") + dtype_name(given.dtype) +
                                                         " data, but the model declares a " + elem_kind_name(kind) +
                                                         " input"),
                   node);
  return {};
}

}  // namespace

Status check_inputs_against(const Graph& g, const std::vector<int64_t>& input_ids,
                            const std::vector<std::pair<Shape, ElemKind>>& declared,
                            const std::vector<HostTensor>& inputs) {
  if (Status n = input_count(input_ids.size(), inputs.size()); !n) return n;
  for (size_t k = 0; k < inputs.size(); ++k)
    if (Status s = check_input(g.nodes[static_cast<size_t>(input_ids[k])], declared[k].first, declared[k].second,
                               inputs[k]);
        !s)
      return s;
  return {};
}

template <Scalar T>
Status check_inputs(const Plan<T>& plan, const std::vector<HostTensor>& inputs) {
  if (Status n = input_count(plan.input_ids.size(), inputs.size()); !n) return n;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const auto id = static_cast<size_t>(plan.input_ids[k]);
    const PlannedNode<T>& p = plan.nodes[id];
    if (Status s = check_input(plan.graph->nodes[id], outputs_of(p.op)[0], kind_of(p.op), inputs[k]); !s) return s;
  }
  return {};
}

#define NNREF_PLAN(unused, T)                                                                    \
  template Result<Plan<T>> make_plan<T>(const Graph&, const Payload&, const PlanOptions&);         \
  template Status check_inputs<T>(const Plan<T>&, const std::vector<HostTensor>&);                \
  template std::vector<const Tensor<T>*> node_params<T>(const PlannedNode<T>&, std::vector<Tensor<T>>&);
NNREF_FOR_EACH_SCALAR(NNREF_PLAN, )
#undef NNREF_PLAN

}  // namespace nnref
