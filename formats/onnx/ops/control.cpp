// The ONNX control flow nnref reads: If, and Loop and Scan unrolled when the model is read.
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"

namespace nnref::onnx_format {

namespace {

// An ONNX node of one op over the given inputs and output (a part of a composition).
onnx::NodeProto onnx_node(const std::string& op, const std::string& name, const std::vector<std::string>& inputs,
                          const std::string& output) {
  onnx::NodeProto n;
  n.set_op_type(op);
  n.set_name(name);
  for (const auto& i : inputs) n.add_input(i);
  n.add_output(output);
  return n;
}

// A node of one op over the given inputs and outputs, named after the If it stands in.
onnx::NodeProto part(Ctx& c, const std::string& op, const std::vector<std::string>& inputs, const std::string& output,
                     size_t k) {
  return onnx_node(op, c.name() + "/" + op + std::to_string(k), inputs, output);
}

// If's outputs under symbolic extents, where the branches' shapes are not numbers to compare:
// each a select whose three operands must have one shape (Broadcast::Equal), cond expanded to
// then's shape, so that `check` proves else's shape equal to then's for every size in range, and
// `run` at the sizes it is given. A 0-D output with a cond of shape [1] fails that obligation.
void choose_where_shapes_equal(Ctx& c, const std::vector<std::string>& then_names,
                               const std::vector<std::string>& else_names) {
  for (size_t k = 0; k < then_names.size(); ++k) {
    const std::string shape = c.name() + "/then_shape" + std::to_string(k);
    const std::string cond = c.name() + "/cond" + std::to_string(k);
    c.add_node(part(c, "Shape", {then_names[k]}, shape, k));
    c.add_node(part(c, "Expand", {c.proto().input(0), shape}, cond, k));
    const ElemKind kind = c.kind_of(then_names[k]);
    const ValueRef chosen = c.emit(
        k == 0 ? "" : "select" + std::to_string(k), SelectAttrs{Broadcast::Equal, kind},
        {c.operand_of(cond, ElemKind::Logical), c.operand_of(then_names[k], kind), c.operand_of(else_names[k], kind)});
    c.set_output(k, chosen, kind);
  }
}

// If: the outputs of then_branch where cond holds, of else_branch where it does not; each branch a
// subgraph that reads the outer graph's values. A condition known when the model is read (a
// constant) takes its branch alone: the other is not read. One computed at run time reads both
// branches, so that `check` proves the obligations of each, and each output is Where(cond, then's,
// else's): both branches are evaluated, which changes nothing (nnref's ops have no side effects, and
// the branch not taken is discarded). That needs both branches' outputs of one shape: at fixed
// extents compared here, a branch whose shape differs (ONNX allows it) refused by name; under
// symbolic ones an obligation of the select (choose_where_shapes_equal).
void if_op(Ctx& c) {
  if (c.kind(0) != ElemKind::Logical) c.refuse("onnx.input-type", "cond must be a bool tensor");
  const size_t outputs = static_cast<size_t>(c.proto().output_size());
  const auto branch_outputs = [&](const std::string& branch) {
    std::vector<std::string> names = c.subgraph(branch);
    if (names.size() != outputs)
      c.refuse("onnx.attribute-value",
               branch + " has " + std::to_string(names.size()) + " outputs, the node " + std::to_string(outputs));
    return names;
  };
  if (const ExactTensor* cond = c.exact(0)) {
    if (cond->ints.size() != 1) c.refuse("onnx.input-shape", "cond must hold one value");
    const bool taken = cond->ints[0] != 0;
    c.attr(taken ? "else_branch" : "then_branch");  // read, not imported
    const std::vector<std::string> names = branch_outputs(taken ? "then_branch" : "else_branch");
    for (size_t k = 0; k < outputs; ++k)
      c.add_node(part(c, "Identity", {names[k]}, c.proto().output(static_cast<int>(k)), k));
    return;
  }
  const std::vector<std::string> then_names = branch_outputs("then_branch"), else_names = branch_outputs("else_branch");
  if (!c.extents_fixed()) return choose_where_shapes_equal(c, then_names, else_names);
  const std::optional<std::vector<int64_t>> cond_shape = c.known_shape(0);
  for (size_t k = 0; k < outputs; ++k) {
    const auto a = c.known_shape_of(then_names[k]), b = c.known_shape_of(else_names[k]);
    if (!a || !b || *a != *b)
      c.refuse("onnx.shape-unsupported",
               "output " + std::to_string(k) +
                   " has a shape in then_branch and another in "
                   "else_branch (or one nnref does not know): nnref reads an If computed at run "
                   "time whose branches agree");
    if (a->empty() && (!cond_shape || !cond_shape->empty()))
      c.refuse("onnx.shape-unsupported", "a 0-D output with a cond of shape [1] would broadcast to [1]");
    c.add_node(
        part(c, "Where", {c.proto().input(0), then_names[k], else_names[k]}, c.proto().output(static_cast<int>(k)), k));
  }
}

// ---- Loop and Scan: the body read once per step ----

// The most body nodes (nested subgraphs' counted) that a Loop or Scan is unrolled into: past it
// the node is refused by name (onnx.unroll-limit), checked before each step is read (before any
// where the count alone bounds the steps), so that a trip count of 10^9 is not unrolled. 65536 ONNX nodes is far beyond
// the node tests and PyTorch's fixed-count loops, and keeps a load within seconds.
constexpr int64_t kMaxUnrolledNodes = 65536;

int64_t node_count(const onnx::GraphProto& g) {
  int64_t n = g.node_size();
  for (const auto& node : g.node())
    for (const auto& a : node.attribute()) {
      if (a.has_g()) n += node_count(a.g());
      for (const auto& sub : a.graphs()) n += node_count(sub);
    }
  return n;
}

// Every name a graph defines (inputs, initializers, node outputs), its subgraphs' included.
void defined_names(const onnx::GraphProto& g, std::set<std::string>& out) {
  for (const auto& i : g.input()) out.insert(i.name());
  for (const auto& i : g.initializer()) out.insert(i.name());
  for (const auto& n : g.node()) {
    for (const auto& o : n.output())
      if (!o.empty()) out.insert(o);
    for (const auto& a : n.attribute()) {
      if (a.has_g()) defined_names(a.g(), out);
      for (const auto& sub : a.graphs()) defined_names(sub, out);
    }
  }
}

// Renames, through `to`, every name of g (and of its subgraphs) that `to` holds; node names get
// `prefix`. A name it does not hold is an outer value, read as it is.
void rename(onnx::GraphProto& g, const std::map<std::string, std::string>& to, const std::string& prefix) {
  const auto renamed = [&](std::string* name) {
    if (auto it = to.find(*name); it != to.end()) *name = it->second;
  };
  for (auto& i : *g.mutable_input()) renamed(i.mutable_name());
  for (auto& i : *g.mutable_initializer()) renamed(i.mutable_name());
  for (auto& o : *g.mutable_output()) renamed(o.mutable_name());
  for (int k = 0; k < g.node_size(); ++k) {
    onnx::NodeProto& n = *g.mutable_node(k);
    n.set_name(prefix + (n.name().empty() ? n.op_type() + std::to_string(k) : n.name()));
    for (auto& i : *n.mutable_input()) renamed(&i);
    for (auto& o : *n.mutable_output()) renamed(&o);
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) rename(*a.mutable_g(), to, prefix);
      for (auto& sub : *a.mutable_graphs()) rename(sub, to, prefix);
    }
  }
}

void set_int(onnx::NodeProto& n, const std::string& attr, int64_t v) {
  onnx::AttributeProto* a = n.add_attribute();
  a->set_name(attr);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

// A Constant node of the tensor t, or of a scalar of the given ONNX integer or bool type.
onnx::NodeProto constant_node(const std::string& output, const onnx::TensorProto& t) {
  onnx::NodeProto n = onnx_node("Constant", output, {}, output);
  onnx::AttributeProto* a = n.add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  *a->mutable_t() = t;
  return n;
}

onnx::NodeProto scalar_node(const std::string& output, int32_t type, int64_t v) {
  onnx::TensorProto t;
  t.set_data_type(type);
  if (type == onnx::TensorProto::INT64)
    t.add_int64_data(v);
  else
    t.add_int32_data(static_cast<int32_t>(v));  // bool
  return constant_node(output, t);
}

// Reads ONNX subgraphs step by step into the graph, as parts of the node c (NodeCtx::add_node).
class Unroller {
 public:
  explicit Unroller(Ctx& c) : c_(c) {}

  // Refused unless `steps` reads of `body` stay within kMaxUnrolledNodes.
  void require_within_limit(const onnx::GraphProto& body, int64_t steps, const std::string& what) const {
    const int64_t per_step = std::max<int64_t>(node_count(body), 1);
    if (steps > kMaxUnrolledNodes / per_step)
      c_.refuse("onnx.unroll-limit", what + ": " + std::to_string(steps) + " steps of a body of " +
                                         std::to_string(per_step) + " nodes exceed the " +
                                         std::to_string(kMaxUnrolledNodes) +
                                         " nodes nnref unrolls (docs/onnx.md, \"Compositions\": Loop and Scan)");
  }

  // One read of `body` (step `step`): its inputs are the outer values `inputs`, every other name
  // it defines is renamed for this step; the names of its outputs.
  std::vector<std::string> step(const onnx::GraphProto& body, const std::vector<std::string>& inputs, int64_t step) {
    const std::string prefix = c_.name() + "/" + std::to_string(step) + "/";
    std::set<std::string> names;
    defined_names(body, names);
    std::map<std::string, std::string> to;
    for (const auto& n : names) to[n] = prefix + n;
    for (int k = 0; k < body.input_size(); ++k) to[body.input(k).name()] = inputs[static_cast<size_t>(k)];
    onnx::GraphProto& g = graphs_.emplace_back(body);  // kept: the reads may refer to it
    rename(g, to, prefix);
    for (const auto& init : g.initializer()) c_.add_node(constant_node(init.name(), init));
    for (const auto& n : g.node()) c_.add_node(n);
    std::vector<std::string> outputs;
    for (const auto& o : g.output()) outputs.push_back(o.name());
    return outputs;
  }

  // A constant scalar of the ONNX type `type` named after the node, step and role.
  std::string scalar(const std::string& role, int32_t type, int64_t v) {
    const std::string name = c_.name() + "/" + role + std::to_string(counter_++);
    c_.add_node(scalar_node(name, type, v));
    return name;
  }

  // The values `parts` (one shape) stacked along a new axis `axis` (in [0, rank]): each unsqueezed,
  // then concatenated, into `output` (a fresh name when empty).
  std::string stack(const std::vector<std::string>& parts, int64_t axis, std::string output) {
    if (output.empty()) output = c_.name() + "/stacked" + std::to_string(counter_++);
    std::vector<std::string> unsqueezed;
    for (const auto& p : parts) {
      const std::string name = c_.name() + "/unsqueezed" + std::to_string(counter_++);
      onnx::NodeProto n = onnx_node("Unsqueeze", name, {p}, name);
      if (c_.opset() >= 13) {
        onnx::TensorProto axes;
        axes.set_data_type(onnx::TensorProto::INT64);
        axes.add_dims(1);
        axes.add_int64_data(axis);
        c_.add_node(constant_node(name + "/axes", axes));
        n.add_input(name + "/axes");
      } else {
        onnx::AttributeProto* a = n.add_attribute();
        a->set_name("axes");
        a->set_type(onnx::AttributeProto::INTS);
        a->add_ints(axis);
      }
      c_.add_node(n);
      unsqueezed.push_back(name);
    }
    onnx::NodeProto concat = onnx_node("Concat", output + "/concat", unsqueezed, output);
    set_int(concat, "axis", axis);
    c_.add_node(concat);
    return output;
  }

  // The slice at `index` of `x` along `axis`, the axis removed (Gather of a scalar index).
  std::string element(const std::string& x, int64_t axis, int64_t index) {
    const std::string i = scalar("index", onnx::TensorProto::INT64, index);
    const std::string name = c_.name() + "/element" + std::to_string(counter_++);
    onnx::NodeProto n = onnx_node("Gather", name, {x, i}, name);
    set_int(n, "axis", axis);
    c_.add_node(n);
    return name;
  }

  // Output k of the node is the value `v` (an Identity of it).
  void define_output(size_t k, const std::string& v) {
    const std::string& out = c_.proto().output(static_cast<int>(k));
    if (!out.empty()) c_.add_node(onnx_node("Identity", c_.name() + "/output" + std::to_string(k), {v}, out));
  }

 private:
  Ctx& c_;
  std::deque<onnx::GraphProto> graphs_;
  int64_t counter_ = 0;
};

const onnx::GraphProto& body_of(Ctx& c) {
  const onnx::AttributeProto* b = c.attr("body");
  if (b == nullptr || !b->has_g()) c.refuse("onnx.attribute-type", "body must be a graph");
  return b->g();
}

// A scalar (or one-element) input read when the model is read: M's count, cond's truth. One the
// graph computes from constants alone by real arithmetic is taken where every correct runtime
// computes the same integer (NodeCtx::decided).
int64_t scalar_at_load(Ctx& c, size_t k, const std::string& what) {
  if (const std::optional<int64_t> v = c.decided(k, what)) return *v;
  if (c.exact(k) == nullptr && c.producer(k) != nullptr)
    c.refuse("onnx.input-not-constant",
             what + " ('" + c.proto().input(static_cast<int>(k)) +
                 "') is computed by the graph when it runs (from its data, or by real arithmetic, which nnref "
                 "evaluates at load in run, conform and check only): nnref unrolls a Loop for a number of steps "
                 "known when it reads the model");
  c.require_constant(k, what);
  const ExactTensor& t = *c.exact(k);
  if (t.ints.size() != 1 || dtype_is_float(t.tensor.dtype))
    c.refuse("onnx.input-type", what + " must be one " + (k == 0 ? "integer" : "bool"));
  return t.ints[0];
}

// Loop: while i < M and cond, the body maps (i, cond, v...) to (cond', v'..., scan...); the
// node's outputs are the last v and each scan output's values stacked along a new axis 0 (ONNX's
// pseudo-code, Operators.md). nnref unrolls it when the model is read: M and cond must be known
// then (constants, or graph inputs bound at load), and so must the body's cond' after each step
// that another would follow: a loop whose end depends on the data is refused by name. Each step
// reads the body once (its values renamed), so the unrolled graph is exactly the loop's sequence
// of bodies, and `check` proves each step's obligations for this count.
void loop_op(Ctx& c) {
  const onnx::GraphProto& body = body_of(c);
  if (c.input_count() < 2) c.refuse("onnx.input-missing", "Loop takes M and cond (each may be the empty name)");
  const size_t carried = c.input_count() - 2;
  if (static_cast<size_t>(body.input_size()) != carried + 2 || static_cast<size_t>(body.output_size()) < carried + 1)
    c.refuse("onnx.attribute-value", "the body must take 2 + " + std::to_string(carried) + " inputs and give 1 + " +
                                         std::to_string(carried) + " or more outputs");
  const size_t scans = static_cast<size_t>(body.output_size()) - 1 - carried;
  if (static_cast<size_t>(c.proto().output_size()) != carried + scans)
    c.refuse("onnx.attribute-value", "the node must have " + std::to_string(carried + scans) + " outputs");
  if (!c.has_input(0) && !c.has_input(1)) c.refuse("onnx.input-missing", "a Loop with neither M nor cond never ends");
  // A count from symbolic extents (Shape(x)[0]) is a number once the sizes it depends on are fixed
  // at load (NodeCtx::fixed_size): the loop is unrolled for each count check enumerates.
  const SizeTerms* m_terms = c.sizes(0);
  if (m_terms != nullptr && m_terms->elements.size() != 1) c.refuse("onnx.input-type", "M must be one integer");
  const std::optional<int64_t> trip = !c.has_input(0)      ? std::nullopt
                                      : m_terms != nullptr ? std::optional(c.fixed_size(*m_terms, "M (the trip count)"))
                                                           : std::optional(scalar_at_load(c, 0, "M (the trip count)"));
  bool more = !c.has_input(1) || scalar_at_load(c, 1, "cond") != 0;
  Unroller u(c);
  const auto steps_so_far = [&](int64_t i) {
    const std::string held = "cond has held for " + std::to_string(i) + " steps";
    return !trip ? held : "M is " + std::to_string(*trip) + (c.has_input(1) ? " and " + held : "");
  };
  if (trip && !c.has_input(1)) u.require_within_limit(body, *trip, steps_so_far(0));
  std::vector<std::string> state;
  for (size_t j = 0; j < carried; ++j) state.push_back(c.proto().input(static_cast<int>(j + 2)));
  std::vector<std::vector<std::string>> scanned(scans);
  for (int64_t i = 0; more && (!trip || i < *trip); ++i) {
    u.require_within_limit(body, i + 1, steps_so_far(i));  // cond may end it sooner than M
    std::vector<std::string> in = {u.scalar("iteration", onnx::TensorProto::INT64, i),
                                   u.scalar("condition", onnx::TensorProto::BOOL, 1)};
    in.insert(in.end(), state.begin(), state.end());
    const std::vector<std::string> out = u.step(body, in, i);
    if (!trip || i + 1 < *trip) {  // another step follows if cond' holds
      const ExactTensor* cond = c.exact_value(out[0]);
      if (cond == nullptr || cond->ints.size() != 1)
        c.refuse("onnx.input-not-constant",
                 "the body's condition '" + body.output(0).name() + "' after step " + std::to_string(i) +
                     " is computed at run time from the data: nnref unrolls a Loop when the model is read, and "
                     "this one's number of steps depends on the data");
      more = cond->ints[0] != 0;
    }
    state.assign(out.begin() + 1, out.begin() + 1 + static_cast<std::ptrdiff_t>(carried));
    for (size_t k = 0; k < scans; ++k) scanned[k].push_back(out[1 + carried + k]);
  }
  for (size_t j = 0; j < carried; ++j) u.define_output(j, state[j]);
  for (size_t k = 0; k < scans; ++k) {
    if (scanned[k].empty()) {
      if (c.output_read(carried + k))
        c.refuse("onnx.shape-unsupported",
                 "the loop takes no step: scan output " + std::to_string(k) + " is empty, which nnref does not hold");
      continue;
    }
    u.stack(scanned[k], 0, c.proto().output(static_cast<int>(carried + k)));
  }
}

// An axis attribute list of n entries (default 0 each); a negative axis counts from rank(k).
std::vector<int64_t> axes_attr(Ctx& c, const std::string& a, size_t n, const std::vector<int64_t>& ranks) {
  std::vector<int64_t> v = c.attr_ints(a);
  if (v.empty()) v.assign(n, 0);
  if (v.size() != n) c.refuse("onnx.attribute-value", a + " must have " + std::to_string(n) + " entries");
  for (size_t k = 0; k < n; ++k) {
    if (v[k] < 0) v[k] += ranks[k];
    if (v[k] < 0 || v[k] >= ranks[k]) c.refuse("onnx.attribute-value", a + " holds an axis out of range");
  }
  return v;
}

std::vector<int64_t> directions_attr(Ctx& c, const std::string& a, size_t n) {
  std::vector<int64_t> v = c.attr_ints(a);
  if (v.empty()) v.assign(n, 0);
  if (v.size() != n) c.refuse("onnx.attribute-value", a + " must have " + std::to_string(n) + " entries");
  for (int64_t d : v)
    if (d != 0 && d != 1) c.refuse("onnx.attribute-value", a + " holds a direction other than 0 and 1");
  return v;
}

// How a Scan walks its scan inputs and stacks its scan outputs.
struct ScanPlan {
  std::vector<int64_t> in_axes, in_directions, out_axes, out_directions;
};

// Scan's steps over the given states and scan inputs (outer names; their sequence length
// `length`): step t reads element t of each scan input along its axis (L − 1 − t in reverse), the
// body maps (states, elements) to (states', outputs); the result is the last states, then each
// scan output's values stacked along its axis (in reverse order where its direction is 1).
std::vector<std::string> scan_steps(Ctx& c, Unroller& u, const onnx::GraphProto& body, std::vector<std::string> states,
                                    const std::vector<std::string>& xs, int64_t length, const ScanPlan& p,
                                    int64_t first_step, const std::vector<std::string>& outputs) {
  const size_t scans = static_cast<size_t>(body.output_size()) - states.size();
  std::vector<std::vector<std::string>> scanned(scans);
  for (int64_t t = 0; t < length; ++t) {
    std::vector<std::string> in = states;
    for (size_t j = 0; j < xs.size(); ++j)
      in.push_back(u.element(xs[j], p.in_axes[j], p.in_directions[j] != 0 ? length - 1 - t : t));
    const std::vector<std::string> out = u.step(body, in, first_step + t);
    std::copy(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(states.size()), states.begin());
    for (size_t k = 0; k < scans; ++k) scanned[k].push_back(out[states.size() + k]);
  }
  std::vector<std::string> result = states;
  for (size_t k = 0; k < scans; ++k) {
    if (p.out_directions[k] != 0) std::reverse(scanned[k].begin(), scanned[k].end());
    int64_t axis = p.out_axes[k];
    if (axis < 0) {
      const auto s = c.known_shape_of(scanned[k][0]);
      if (!s) c.refuse("onnx.shape-unknown", "a negative scan_output_axes needs the rank of the body's output");
      axis += static_cast<int64_t>(s->size()) + 1;
    }
    result.push_back(u.stack(scanned[k], axis, outputs.empty() ? "" : outputs[states.size() + k]));
  }
  return result;
}

// Scan (opset 9 on): inputs (states..., scan inputs...), the sequence length the extent of each
// scan input's axis, which must be known when the model is read. Opset 8: input 0 sequence_lens
// (nnref reads it absent only: every batch row's length is the full extent), each input with a
// batch axis 0 that the body does not see: each batch row scanned on its own (its rows taken by
// Gather, the results stacked back along axis 0), `directions` for the scan inputs.
void scan_op(Ctx& c) {
  const onnx::GraphProto& body = body_of(c);
  const bool batched = c.opset() < 9;
  if (batched && c.has_input(0))
    c.refuse("onnx.input-unsupported", "sequence_lens: nnref reads a Scan-8 whose rows have the full length only");
  const size_t first = batched ? 1 : 0;
  const auto scan_inputs = static_cast<size_t>(c.attr_int("num_scan_inputs", -1));
  if (c.input_count() < first + scan_inputs || scan_inputs < 1)
    c.refuse("onnx.attribute-value", "num_scan_inputs must be between 1 and the number of inputs");
  const size_t states = c.input_count() - first - scan_inputs;
  if (static_cast<size_t>(body.input_size()) != states + scan_inputs ||
      static_cast<size_t>(body.output_size()) < states || c.proto().output_size() != body.output_size())
    c.refuse("onnx.attribute-value", "the body's inputs and outputs do not match the node's");
  const size_t scans = static_cast<size_t>(body.output_size()) - states;
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             "Scan's sequence length must be known when the model is read (nnref unrolls "
             "it), and the model's inputs have symbolic extents");
  std::vector<std::string> state_names, xs;
  std::vector<int64_t> ranks;
  for (size_t j = 0; j < states; ++j) state_names.push_back(c.proto().input(static_cast<int>(first + j)));
  for (size_t j = 0; j < scan_inputs; ++j) {
    const size_t k = first + states + j;
    xs.push_back(c.proto().input(static_cast<int>(k)));
    ranks.push_back(static_cast<int64_t>(c.rank(k)) - (batched ? 1 : 0));
  }
  ScanPlan p;
  if (batched) {
    p.in_axes.assign(scan_inputs, 0), p.out_axes.assign(scans, 0), p.out_directions.assign(scans, 0);
    p.in_directions = directions_attr(c, "directions", scan_inputs);
  } else {
    p.in_axes = axes_attr(c, "scan_input_axes", scan_inputs, ranks);
    p.in_directions = directions_attr(c, "scan_input_directions", scan_inputs);
    p.out_axes = c.attr_ints("scan_output_axes");
    if (p.out_axes.empty()) p.out_axes.assign(scans, 0);
    if (p.out_axes.size() != scans) c.refuse("onnx.attribute-value", "scan_output_axes must have one entry per output");
    p.out_directions = directions_attr(c, "scan_output_directions", scans);
  }
  int64_t length = -1;
  for (size_t j = 0; j < scan_inputs; ++j) {
    const int64_t l = c.shape(first + states + j)[static_cast<size_t>(p.in_axes[j] + (batched ? 1 : 0))];
    if (length >= 0 && l != length) c.refuse("onnx.input-shape", "the scan inputs have different sequence lengths");
    length = l;
  }
  if (length == 0) c.refuse("onnx.shape-unsupported", "the sequence length is 0: the scan outputs would be empty");
  Unroller u(c);
  std::vector<std::string> outputs;
  for (int k = 0; k < c.proto().output_size(); ++k) outputs.push_back(c.proto().output(k));
  if (!batched) {
    u.require_within_limit(body, length, "the sequence length is " + std::to_string(length));
    const std::vector<std::string> r = scan_steps(c, u, body, state_names, xs, length, p, 0, outputs);
    for (size_t k = 0; k < states; ++k) u.define_output(k, r[k]);
    return;
  }
  const int64_t batch = c.shape(first + states)[0];
  u.require_within_limit(body, batch * length,
                         "the batch of " + std::to_string(batch) + " rows of length " + std::to_string(length));
  std::vector<std::vector<std::string>> rows(states + scans);
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<std::string> row_states, row_xs;
    for (const auto& s : state_names) row_states.push_back(u.element(s, 0, b));
    for (const auto& x : xs) row_xs.push_back(u.element(x, 0, b));
    const std::vector<std::string> r = scan_steps(c, u, body, row_states, row_xs, length, p, b * length, {});
    for (size_t k = 0; k < r.size(); ++k) rows[k].push_back(r[k]);
  }
  for (size_t k = 0; k < rows.size(); ++k) u.stack(rows[k], 0, outputs[k]);
}

}  // namespace

void add_control_ops(OpTable& table) { add_ops(table, {{"If", if_op}, {"Loop", loop_op}, {"Scan", scan_op}}); }

}  // namespace nnref::onnx_format
