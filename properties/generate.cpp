// The generator's loop: per step an op (from the allowed set), a candidate from its maker, and the
// candidate's acceptance through the op's own rule (Checked<A>::check) and its values (the kernel
// run in f64 and in the float32 Envelope on the model's input). docs/testing.md.
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
constexpr double kMaxMagnitude = 0x1p16;  // of any real value: far from float32's overflow
constexpr double kMaxRelativeRadius = 0x1p-8;  // of a real value's envelope: not across a jump

// 0, 1, -1, 2, -2, ...: the k-th simplest integer offset, |offset| <= n / 2.
double zigzag(uint64_t k) {
  const auto m = static_cast<double>((k + 1) / 2);
  return k % 2 == 1 ? m : -m;
}

double draw_value(Range r, Choices& c) {
  switch (r) {
    case Range::Any:
    case Range::Exponent: return zigzag(c.below(33)) / 4.0;     // [-4, 4]
    case Range::Positive: return 1.0 + zigzag(c.below(15)) / 8.0;  // [1/8, 15/8]
    case Range::NonZero: return (c.flip(2) ? -1.0 : 1.0) * (1.0 + zigzag(c.below(13)) / 8.0);  // ±[1/4, 7/4]
    case Range::Unit:
    case Range::Angle: return zigzag(c.below(13)) / 8.0;          // [-3/4, 3/4]
    case Range::AboveOne: return 2.0 + zigzag(c.below(13)) / 8.0;  // [5/4, 11/4]
  }
  return 0.0;
}

// The checked bounds of a range: each keeps 1/8 (or more) from the edge of the op's domain, far
// more than the float32 envelope's radius may grow by, so no float32 rounding crosses it.
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
  }
  return false;
}

HostTensor draw_leaf(const Leaf& leaf, Choices& c) {
  HostTensor h;
  h.shape = leaf.shape;
  h.dtype = leaf.kind == ElemKind::Real ? DType::F32 : leaf.kind == ElemKind::Integer ? DType::I64 : DType::Bool;
  for (int64_t i = 0; i < leaf.shape.count(); ++i) {
    if (leaf.kind == ElemKind::Real) h.values.push_back(draw_value(leaf.range, c));
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
  Value<Envelope> envelope;
  const Value<double>& f64_value() const { return pooled ? pooled->f64 : f64; }
  const Value<Envelope>& envelope_value() const { return pooled ? pooled->envelope : envelope; }
};

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

// A real value is usable when its f64 value is finite and small, and its float32 envelope is
// bounded and narrow; an integer or logical value when the envelope decides every element.
bool usable(const Value<double>& f64, const Value<Envelope>& env) {
  if (const auto* t = std::get_if<Tensor<double>>(&f64)) {
    const auto& e = std::get<Tensor<Envelope>>(env);
    for (int64_t i = 0; i < t->size(); ++i) {
      const double v = (*t)[i];
      const Enclosure en = sc::enclosure(e[i]);
      if (!std::isfinite(v) || std::abs(v) > kMaxMagnitude || !en.bounded()) return false;
      if (en.radius() > kMaxRelativeRadius * (1.0 + std::abs(v))) return false;
    }
    return true;
  }
  if (const auto* t = std::get_if<Tensor<int64_t>>(&env))
    return std::none_of(t->data().begin(), t->data().end(), [](int64_t v) { return v == kUnknownInteger; });
  const auto& t = std::get<Tensor<uint8_t>>(env);
  return std::none_of(t.data().begin(), t.data().end(), [](uint8_t v) { return v == kUnknown; });
}

bool operand_inside(Range r, const Value<Envelope>& v) {
  const auto* t = std::get_if<Tensor<Envelope>>(&v);
  if (t == nullptr || r == Range::Any) return true;
  return std::all_of(t->data().begin(), t->data().end(), [&](const Envelope& e) { return inside(r, sc::enclosure(e)); });
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
        r.leaf_value = draw_leaf(x.leaf, c_);
        r.f64 = to_value<double>(r.leaf_value, x.leaf.kind);
        r.envelope = to_value<Envelope>(r.leaf_value, x.leaf.kind);
      }
      if (x.pool < 0 && !within_limits(x.leaf.shape, o_)) return false;
      const Range domain = i < cand.domains.size() ? cand.domains[i] : Range::Any;
      if (!operand_inside(domain, r.envelope_value())) return false;
      shapes.push_back(r.pooled ? r.pooled->shape : x.leaf.shape);
      kinds.push_back(r.pooled ? r.pooled->kind : x.leaf.kind);
    }
    return std::visit([&](const auto& attrs) { return accept_checked(cand, attrs, ops, shapes, kinds); }, cand.op);
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
    pool_.push_back(PoolValue{{id, 0}, leaf.shape, leaf.kind, r.f64, r.envelope, 1});
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
    std::vector<Value<double>> f64 = run_node<double>(op, f64_in, params);
    std::vector<Value<Envelope>> env = run_node<Envelope>(op, env_in, params);
    for (size_t k = 0; k < f64.size(); ++k)
      if (!usable(f64[k], env[k])) return false;

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
      pool_.push_back(PoolValue{{id, static_cast<int>(k)}, op.outputs()[k], op.output_kind(), std::move(f64[k]), std::move(env[k]), 0});
    return true;
  }

  void set_param(const std::string& node, const std::string& role, HostTensor value) {
    payload_.set(node, role, ParamEntry{std::move(value), node + "." + role});
    keys_[{node, role}] = node + "." + role;
  }

  Choices& c_;
  const GenOptions& o_;
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

Status check_options(const GenOptions& o, const std::vector<std::string>& known) {
  if (o.max_nodes < 1) return make_error("gen.options", "max_nodes must be at least 1");
  if (o.max_rank < 1 || o.max_extent < 1 || o.max_elements < 1)
    return make_error("gen.options", "max_rank, max_extent and max_elements must be at least 1");
  for (const std::string& op : o.ops)
    if (std::find(known.begin(), known.end(), op) == known.end())
      return make_error("gen.options", "the generator knows no op '" + op + "'");
  return {};
}

}  // namespace

std::vector<std::string> generated_op_names() { return maker_op_names(); }

Result<GeneratedModel> generate(Choices& choices, const GenOptions& options) {
  const std::vector<std::string> known = generated_op_names();
  if (auto s = check_options(options, known); !s) return std::move(s).error();
  const std::vector<std::string>& allowed = options.ops.empty() ? known : options.ops;

  Builder b(choices, options);
  const int64_t target = choices.between(1, options.max_nodes);
  for (int64_t step = 0; step < target; ++step) {
    bool added = false;
    for (int t = 0; t < kOpsPerStep && !added; ++t) {
      const std::string& op = allowed[choices.below(allowed.size())];
      for (int k = 0; k < kTriesPerOp && !added; ++k) {
        GenContext ctx(choices, options, b.pool_);
        auto cand = make_candidate(op, ctx);
        added = cand && b.try_accept(*cand);
      }
    }
  }
  // A model needs a real output: when nothing real exists (only logical ops allowed), a real input.
  if (std::none_of(b.pool_.begin(), b.pool_.end(), [](const PoolValue& v) { return v.kind == ElemKind::Real; })) {
    Leaf leaf{Shape(), ElemKind::Real};
    Resolved r;
    r.leaf_value = draw_leaf(leaf, choices);
    r.f64 = to_value<double>(r.leaf_value, leaf.kind);
    r.envelope = to_value<Envelope>(r.leaf_value, leaf.kind);
    b.add_leaf(leaf, r);
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
