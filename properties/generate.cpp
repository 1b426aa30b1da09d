// The generator's loop: per step an op (from the allowed set) or a composite, a candidate (or a
// short sequence of them) from its maker, and the candidate's acceptance through the op's own rule
// (Checked<A>::check) and its values (the kernel run in f64, in the rigorous Interval and in the
// float32 Envelope on the model's input). A value is accepted on its exact value, never because its
// float32 envelope is bounded: the envelope is what the properties judge. docs/testing.md.
#include "properties/generate.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "properties/gen_context.hpp"
#include "semantics/host_values.hpp"
#include "semantics/wellformed.hpp"
#include "spec/truth.hpp"

namespace nnref::properties {

namespace {

constexpr int kOpsPerStep = 8;          // ops tried before a step gives up
constexpr int kTriesPerOp = 4;          // candidates of one op tried
constexpr double kMaxMagnitude = 0x1p16;  // of any real value's exact value: far from float32's overflow

double draw_value(Range r, Choices& c) {
  switch (r) {
    case Range::Any:
    case Range::Exponent: return zigzag(c.below(33)) / 4.0;     // [-4, 4]
    case Range::Positive:
    case Range::Variance: return 1.0 + zigzag(c.below(15)) / 8.0;  // [1/8, 15/8]
    case Range::NonZero: return (c.flip(2) ? -1.0 : 1.0) * (1.0 + zigzag(c.below(13)) / 8.0);  // ±[1/4, 7/4]
    case Range::Unit:
    case Range::Angle: return zigzag(c.below(13)) / 8.0;          // [-3/4, 3/4]
    case Range::AboveOne: return 2.0 + zigzag(c.below(13)) / 8.0;  // [5/4, 11/4]
  }
  return 0.0;
}

// The checked bounds of a range: each keeps 1/8 (or more) from the edge of the op's domain (but
// Variance, positive by construction), applied to the Interval of the exact value and to the
// float32 envelope where it is bounded, so that no float32 rounding the envelope allows crosses it.
bool inside(Range r, const Enclosure& e) {
  if (!e.bounded()) return false;
  switch (r) {
    case Range::Any: return true;
    case Range::Positive: return e.lo >= 0.125;
    case Range::NonZero: return e.lo >= 0.125 || e.hi <= -0.125;
    case Range::Unit: return e.lo >= -0.875 && e.hi <= 0.875;
    case Range::AboveOne: return e.lo >= 1.125;
    case Range::Exponent: return e.lo >= -8.0 && e.hi <= 8.0;
    case Range::Angle: return e.lo >= -1.25 && e.hi <= 1.25;
    case Range::Variance: return e.lo > 0;
  }
  return false;
}

HostTensor draw_leaf(const Leaf& leaf, Choices& c) {
  HostTensor h;
  h.shape = leaf.shape;
  h.dtype = leaf.kind == ElemKind::Real ? DType::F32 : leaf.kind == ElemKind::Integer ? DType::I64 : DType::Bool;
  for (int64_t i = 0; i < leaf.shape.count(); ++i) {
    if (leaf.fill) h.values.push_back(*leaf.fill);
    else if (leaf.kind == ElemKind::Real) h.values.push_back(draw_value(leaf.range, c));
    else if (leaf.kind == ElemKind::Integer) h.values.push_back(static_cast<double>(c.below(static_cast<uint64_t>(std::max<int64_t>(1, leaf.int_bound)))));
    else h.values.push_back(static_cast<double>(c.below(2)));
  }
  return h;
}

// A value of the candidate's operand, resolved: from the pool or a drawn leaf.
struct Resolved {
  const PoolValue* pooled = nullptr;
  HostTensor leaf_value;
  Value<double> f64;
  Value<Interval> exact;
  Value<Envelope> envelope;
  const Value<double>& f64_value() const { return pooled ? pooled->f64 : f64; }
  const Value<Interval>& exact_value() const { return pooled ? pooled->exact : exact; }
  const Value<Envelope>& envelope_value() const { return pooled ? pooled->envelope : envelope; }
};

// A new leaf's value, drawn, and read as the pool holds values.
Resolved drawn(const Leaf& leaf, Choices& c) {
  Resolved r;
  r.leaf_value = draw_leaf(leaf, c);
  r.f64 = to_value<double>(r.leaf_value, leaf.kind);
  r.exact = to_value<Interval>(r.leaf_value, leaf.kind);
  r.envelope = to_value<Envelope>(r.leaf_value, leaf.kind);
  return r;
}

// What the op computes on the resolved operands, in scalar T.
template <Scalar T, class A>
std::vector<Value<T>> run_node(const Checked<A>& op, const std::vector<const Value<T>*>& operands,
                               const std::vector<std::optional<HostTensor>>& params) {
  std::vector<Tensor<T>> param_values;
  param_values.reserve(params.size());
  for (const auto& p : params) param_values.push_back(p ? to_scalar<T>(*p) : Tensor<T>());
  std::vector<Value<T>> out;
  for (const Shape& s : op.outputs()) out.push_back(zeros<T>(op.output_kind(), s));
  OpIO<T> io;
  io.inputs = operands;
  for (size_t i = 0; i < params.size(); ++i) io.params.push_back(params[i] ? &param_values[i] : nullptr);
  for (auto& v : out) io.outputs.push_back(&v);
  run_kernel(op, io);
  return out;
}

// Every element of an integer or logical value decided (no unknown index or truth value).
template <Scalar T>
bool decided(const Value<T>& v) {
  if (const auto* t = std::get_if<Tensor<int64_t>>(&v))
    return std::none_of(t->data().begin(), t->data().end(), [](int64_t x) { return x == kUnknownInteger; });
  if (const auto* t = std::get_if<Tensor<uint8_t>>(&v))
    return std::none_of(t->data().begin(), t->data().end(), [](uint8_t x) { return x == kUnknown; });
  return true;
}

// Whether some element of a real value's float32 envelope has lost its bound (a side infinite or
// NaN): then the envelope decides nothing about it, and is not held against the candidate.
bool lost(const Value<Envelope>& v) {
  const auto* t = std::get_if<Tensor<Envelope>>(&v);
  return t != nullptr && std::any_of(t->data().begin(), t->data().end(), [](const Envelope& e) { return !sc::enclosure(e).bounded(); });
}

// A real value is usable when its exact value is finite and small: the f64 value, and the Interval
// that encloses the exact value rigorously, each of magnitude at most 2^16. Its float32 envelope is
// not asked (the property tests judge it). An integer or logical value is usable when the Interval
// decides every element, and so does the envelope unless an operand's envelope lost its bound (a
// bounded envelope that leaves an index or a truth value open means float32 engines may answer
// differently, and a later op could turn that into a value outside its domain).
bool usable(const Value<double>& f64, const Value<Interval>& exact, const Value<Envelope>& env, bool operands_lost) {
  if (const auto* t = std::get_if<Tensor<double>>(&f64)) {
    const auto& x = std::get<Tensor<Interval>>(exact);
    for (int64_t i = 0; i < t->size(); ++i) {
      const double v = (*t)[i];
      const Enclosure en = sc::enclosure(x[i]);
      if (!std::isfinite(v) || std::abs(v) > kMaxMagnitude || !en.bounded()) return false;
      if (std::max(std::abs(en.lo), std::abs(en.hi)) > kMaxMagnitude) return false;
    }
    return true;
  }
  return decided(exact) && (operands_lost || decided(env));
}

// An operand in its domain: the Interval of its exact value inside the range's checked bounds, and
// its float32 envelope too wherever that is bounded. An element whose envelope lost its bound is
// judged on its exact value alone: the model's meaning stays sound (no log of a value whose exact
// value may be <= 0), and the lost bound is left for the properties to find.
bool operand_inside(Range r, const Value<Interval>& exact, const Value<Envelope>& env) {
  const auto* x = std::get_if<Tensor<Interval>>(&exact);
  if (x == nullptr || r == Range::Any) return true;
  const auto& e = std::get<Tensor<Envelope>>(env);
  for (int64_t i = 0; i < x->size(); ++i) {
    if (!inside(r, sc::enclosure((*x)[i]))) return false;
    const Enclosure en = sc::enclosure(e[i]);
    if (en.bounded() && !inside(r, en)) return false;
  }
  return true;
}

bool within_limits(const Shape& s, const GenOptions& o) {
  if (s.count() > o.max_elements || s.rank() > static_cast<size_t>(o.max_rank)) return false;
  return std::all_of(s.dims().begin(), s.dims().end(), [&](int64_t d) { return d <= o.max_extent; });
}

class Builder {
 public:
  Builder(Choices& c, const GenOptions& o) : c_(c), o_(o) {}

  // Adds the candidate's leaves, node and parameters when the op's rule and the values accept it.
  bool try_accept(const Candidate& cand) {
    std::vector<Resolved> ops(cand.operands.size());
    std::vector<Shape> shapes;
    std::vector<ElemKind> kinds;
    for (size_t i = 0; i < cand.operands.size(); ++i) {
      const Operand& x = cand.operands[i];
      Resolved& r = ops[i];
      if (x.pool >= 0) {
        r.pooled = &pool_[static_cast<size_t>(x.pool)];
      } else {
        r = drawn(x.leaf, c_);
      }
      if (x.pool < 0 && !within_limits(x.leaf.shape, o_)) return false;
      const Range domain = i < cand.domains.size() ? cand.domains[i] : Range::Any;
      if (!operand_inside(domain, r.exact_value(), r.envelope_value())) return false;
      shapes.push_back(r.pooled ? r.pooled->shape : x.leaf.shape);
      kinds.push_back(r.pooled ? r.pooled->kind : x.leaf.kind);
    }
    return std::visit([&](const auto& attrs) { return accept_checked(cand, attrs, ops, shapes, kinds); }, cand.op);
  }

  // Adds a composite's candidates in order, all or none: an operand naming an earlier step reads
  // that step's first output (or, with step_operand, that step's operand), as a pool value.
  bool try_accept_sequence(const std::vector<Candidate>& seq) {
    const size_t nodes = graph_.nodes.size(), inputs = inputs_.size(), pool = pool_.size();
    std::vector<int> readers;
    for (const PoolValue& v : pool_) readers.push_back(v.readers);
    const Payload payload = payload_;
    const auto keys = keys_;
    std::vector<std::vector<int>> operands;  // per accepted step: its operands' pool indices
    std::vector<int> outputs;                // per accepted step: its first output's pool index
    bool ok = true;
    for (const Candidate& step : seq) {
      Candidate c = step;
      for (Operand& x : c.operands) {
        if (x.step < 0) continue;
        const auto j = static_cast<size_t>(x.step);
        if (j >= outputs.size() || (x.step_operand >= 0 && static_cast<size_t>(x.step_operand) >= operands[j].size())) {
          ok = false;
          break;
        }
        x.pool = x.step_operand >= 0 ? operands[j][static_cast<size_t>(x.step_operand)] : outputs[j];
        x.step = -1;
      }
      const size_t before = pool_.size();
      if (!ok || !try_accept(c)) {
        ok = false;
        break;
      }
      // The node's outputs were pushed last, after its new leaves (in operand order).
      const int first_output = static_cast<int>(pool_.size()) - static_cast<int>(outputs_of_last_);
      std::vector<int> ids;
      int next_leaf = static_cast<int>(before);
      for (const Operand& x : c.operands) ids.push_back(x.pool >= 0 ? x.pool : next_leaf++);
      operands.push_back(std::move(ids));
      outputs.push_back(first_output);
    }
    if (ok) return true;
    graph_.nodes.erase(graph_.nodes.begin() + static_cast<ptrdiff_t>(nodes), graph_.nodes.end());
    inputs_.erase(inputs_.begin() + static_cast<ptrdiff_t>(inputs), inputs_.end());
    pool_.erase(pool_.begin() + static_cast<ptrdiff_t>(pool), pool_.end());
    for (size_t i = 0; i < pool_.size(); ++i) pool_[i].readers = readers[i];
    payload_ = payload;
    keys_ = keys;
    return false;
  }

  // What generate() moves into the model when the steps are done.
  Graph graph_;
  Payload payload_;
  std::map<std::pair<std::string, std::string>, std::string> keys_;
  std::vector<HostTensor> inputs_;
  std::vector<PoolValue> pool_;

  ValueRef add_leaf(const Leaf& leaf, const Resolved& r) {
    const bool constant = leaf.constant;
    const std::string name = (constant ? "c" : "x") + std::to_string(graph_.nodes.size());
    int64_t id = 0;
    if (constant) {
      id = graph_.add(name, ConstAttrs{leaf.shape.dims(), leaf.kind});
      HostTensor value = r.leaf_value;  // a parameter is stored as reals, whatever the constant's kind
      value.dtype = DType::F32;
      set_param(name, "value", std::move(value));
    } else {
      id = graph_.add(name, InputAttrs{leaf.shape.dims(), leaf.kind});
      inputs_.push_back(r.leaf_value);
    }
    pool_.push_back(PoolValue{{id, 0}, leaf.shape, leaf.kind, r.f64, r.exact, r.envelope, 1});
    return {id, 0};
  }

 private:
  template <class A>
  bool accept_checked(const Candidate& cand, const A& attrs, const std::vector<Resolved>& ops,
                      const std::vector<Shape>& shapes, const std::vector<ElemKind>& kinds) {
    auto checked = Checked<A>::check(attrs, shapes, kinds);
    if (!checked) return false;
    const Checked<A>& op = *checked;
    if (!std::all_of(op.outputs().begin(), op.outputs().end(), [&](const Shape& s) { return within_limits(s, o_); }))
      return false;
    std::vector<std::optional<HostTensor>> params;
    for (const ParamInfo& p : op.params()) {
      if (p.shape.count() > o_.max_elements) return false;
      if (!p.required && c_.flip(2)) {
        params.emplace_back();
        continue;
      }
      const auto range = cand.param_ranges.find(p.role);
      params.push_back(draw_leaf(Leaf{p.shape, ElemKind::Real, range == cand.param_ranges.end() ? Range::Any : range->second}, c_));
    }
    std::vector<const Value<double>*> f64_in;
    std::vector<const Value<Envelope>*> env_in;
    for (const Resolved& r : ops) {
      f64_in.push_back(&r.f64_value());
      env_in.push_back(&r.envelope_value());
    }
    std::vector<const Value<Interval>*> exact_in;
    bool operands_lost = false;
    for (const Resolved& r : ops) {
      exact_in.push_back(&r.exact_value());
      operands_lost = operands_lost || lost(r.envelope_value());
    }
    std::vector<Value<double>> f64 = run_node<double>(op, f64_in, params);
    for (const Value<double>& v : f64)  // cheap first: most rejections are here
      if (const auto* t = std::get_if<Tensor<double>>(&v))
        for (double x : t->data())
          if (!std::isfinite(x) || std::abs(x) > kMaxMagnitude) return false;
    // No Interval op throws (spec_enclosure_edges_test): an exception here is a bug, not a rejection.
    std::vector<Value<Interval>> exact = run_node<Interval>(op, exact_in, params);
    std::vector<Value<Envelope>> env = run_node<Envelope>(op, env_in, params);
    for (size_t k = 0; k < f64.size(); ++k)
      if (!usable(f64[k], exact[k], env[k], operands_lost)) return false;

    // The pooled operands' refs first: adding a leaf grows the pool, which moves its values.
    std::vector<ValueRef> refs(ops.size());
    for (size_t i = 0; i < ops.size(); ++i)
      if (ops[i].pooled) refs[i] = ops[i].pooled->ref;
    for (size_t i = 0; i < ops.size(); ++i)
      if (!ops[i].pooled) refs[i] = add_leaf(cand.operands[i].leaf, ops[i]);
    for (size_t i = 0; i < ops.size(); ++i)
      if (cand.operands[i].pool >= 0) ++pool_[static_cast<size_t>(cand.operands[i].pool)].readers;
    const std::string name = "n" + std::to_string(graph_.nodes.size());
    const int64_t id = graph_.add(name, attrs, refs);
    for (size_t i = 0; i < params.size(); ++i)
      if (params[i]) set_param(name, op.params()[i].role, std::move(*params[i]));
    for (size_t k = 0; k < f64.size(); ++k)
      pool_.push_back(PoolValue{{id, static_cast<int>(k)}, op.outputs()[k], op.output_kind(), std::move(f64[k]),
                                std::move(exact[k]), std::move(env[k]), 0});
    outputs_of_last_ = f64.size();
    return true;
  }

  void set_param(const std::string& node, const std::string& role, HostTensor value) {
    payload_.set(node, role, ParamEntry{std::move(value), node + "." + role});
    keys_[{node, role}] = node + "." + role;
  }

  Choices& c_;
  const GenOptions& o_;
  size_t outputs_of_last_ = 0;  // how many outputs the last accepted node pushed
};

// The graph outputs: the most recent real value an op computed (or, failing that, a real leaf),
// and sometimes every other real op value nothing reads.
std::vector<GraphOutput> choose_outputs(const Graph& g, const std::vector<PoolValue>& pool, Choices& c) {
  std::vector<GraphOutput> outs;
  int last = -1;
  for (int i = static_cast<int>(pool.size()) - 1; i >= 0 && last < 0; --i)
    if (pool[static_cast<size_t>(i)].kind == ElemKind::Real) last = i;
  if (last < 0) return outs;
  std::set<int> chosen{last};
  const bool several = c.flip(3);
  for (size_t i = 0; i < pool.size() && several; ++i) {
    const PoolValue& v = pool[i];
    const bool op_value = !std::holds_alternative<InputAttrs>(g.nodes[static_cast<size_t>(v.ref.node)].op) &&
                          !std::holds_alternative<ConstAttrs>(g.nodes[static_cast<size_t>(v.ref.node)].op);
    if (v.kind == ElemKind::Real && v.readers == 0 && op_value) chosen.insert(static_cast<int>(i));
  }
  for (int i : chosen) {
    const PoolValue& v = pool[static_cast<size_t>(i)];
    outs.push_back({"y" + std::to_string(outs.size()), v.ref});
  }
  return outs;
}

// The composites this run may build: every one when no op list is given, else those the list names
// or whose ops it all allows.
std::vector<std::string> allowed_composites(const GenOptions& o) {
  std::vector<std::string> names;
  for (const CompositeInfo& c : composites()) {
    const auto allowed = [&](const std::string& op) { return std::find(o.ops.begin(), o.ops.end(), op) != o.ops.end(); };
    if (o.ops.empty() || allowed(c.name) || std::all_of(c.ops.begin(), c.ops.end(), allowed)) names.push_back(c.name);
  }
  return names;
}

const CompositeInfo* composite_named(const std::string& name) {
  for (const CompositeInfo& c : composites())
    if (c.name == name) return &c;
  return nullptr;
}

Status check_options(const GenOptions& o, const std::vector<std::string>& known) {
  if (o.max_nodes < 1) return make_error("gen.options", "max_nodes must be at least 1");
  if (o.max_rank < 1 || o.max_extent < 1 || o.max_elements < 1)
    return make_error("gen.options", "max_rank, max_extent and max_elements must be at least 1");
  for (const std::string& op : o.ops)
    if (std::find(known.begin(), known.end(), op) == known.end() && composite_named(op) == nullptr)
      return make_error("gen.options", "the generator knows no op '" + op + "'");
  return {};
}

}  // namespace

std::vector<std::string> generated_op_names() { return maker_op_names(); }

std::vector<std::string> generated_composite_names() {
  std::vector<std::string> names;
  for (const CompositeInfo& c : composites()) names.push_back(c.name);
  return names;
}

int op_node_count(const Graph& g) {
  return static_cast<int>(std::count_if(g.nodes.begin(), g.nodes.end(), [](const Node& n) {
    return !std::holds_alternative<InputAttrs>(n.op) && !std::holds_alternative<ConstAttrs>(n.op);
  }));
}

Result<GeneratedModel> generate(Choices& choices, const GenOptions& options) {
  const std::vector<std::string> known = generated_op_names();
  if (auto s = check_options(options, known); !s) return std::move(s).error();
  // The draw: the allowed ops (a composite named in --ops is not an op), then the composites.
  std::vector<std::string> allowed;
  for (const std::string& op : options.ops.empty() ? known : options.ops)
    if (composite_named(op) == nullptr) allowed.push_back(op);
  const size_t ops = allowed.size();
  for (const std::string& c : allowed_composites(options)) allowed.push_back(c);

  Builder b(choices, options);
  const int64_t target = choices.between(1, options.max_nodes);
  for (int64_t step = 0; step < target;) {
    int64_t added = 0;  // op nodes
    for (int t = 0; t < kOpsPerStep && added == 0; ++t) {
      const size_t pick = choices.below(allowed.size());
      const std::string& op = allowed[pick];
      // A composite adds at least min_nodes op nodes: only where the model has room for them all.
      if (pick >= ops && target - step < composite_named(op)->min_nodes) continue;
      for (int k = 0; k < kTriesPerOp && added == 0; ++k) {
        GenContext ctx(choices, options, b.pool_);
        if (pick >= ops) {
          const size_t before = b.graph_.nodes.size();
          auto seq = make_sequence(op, ctx);
          if (seq && static_cast<int64_t>(seq->size()) <= target - step && b.try_accept_sequence(*seq))
            added = static_cast<int64_t>(std::count_if(b.graph_.nodes.begin() + static_cast<ptrdiff_t>(before), b.graph_.nodes.end(),
                                                       [](const Node& n) { return !std::holds_alternative<InputAttrs>(n.op) && !std::holds_alternative<ConstAttrs>(n.op); }));
        } else {
          auto cand = make_candidate(op, ctx);
          added = cand && b.try_accept(*cand) ? 1 : 0;
        }
      }
    }
    step += std::max<int64_t>(added, 1);
  }
  // A model needs a real output: when nothing real exists (only logical ops allowed), a real input.
  if (std::none_of(b.pool_.begin(), b.pool_.end(), [](const PoolValue& v) { return v.kind == ElemKind::Real; })) {
    const Leaf leaf{Shape(), ElemKind::Real};
    b.add_leaf(leaf, drawn(leaf, choices));
  }

  GeneratedModel g;
  g.model.graph = std::move(b.graph_);
  g.model.graph.outputs = choose_outputs(g.model.graph, b.pool_, choices);
  g.model.payload = std::move(b.payload_);
  g.model.param_keys = std::move(b.keys_);
  g.model.path = "generated";
  g.model.format = "generated";
  g.model.weights_loaded = true;
  g.inputs = std::move(b.inputs_);
  g.choices = choices.recorded();
  if (auto info = check_graph(g.model.graph, g.model.payload, 8, int64_t{1} << 40, g.model.param_keys); !info)
    return make_error("gen.internal", "the generator built a model check_graph rejects: " + info.error().message);
  return g;
}

}  // namespace nnref::properties
