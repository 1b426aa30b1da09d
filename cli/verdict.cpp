#include "cli/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "formats/tensor_file.hpp"
#include "semantics/evaluate.hpp"
#include "semantics/oracle.hpp"
#include "semantics/plan.hpp"
#include "spec/index.hpp"

namespace nnref {

namespace {

// How far outside [lo, hi] the value lies, in units of the radius: ≤ 0 inside (−1 at the centre);
// infinite outside an envelope that is a single point or has an infinite side.
double excess_in_radii(double v, const Enclosure& e) {
  const double radius = e.radius();
  if (std::isnan(v)) return std::numeric_limits<double>::infinity();
  const double beyond = v > e.hi ? v - e.hi : v < e.lo ? e.lo - v : std::abs(v - e.midpoint()) - radius;
  if (radius == 0 || !std::isfinite(radius)) return beyond > 0 ? std::numeric_limits<double>::infinity() : -1;
  return beyond / radius;
}

// `exact` is null when the exact value was skipped: its sides are then NaN, which judge no overflow.
OutputVerdict judge(const std::string& name, const Tensor<Envelope>& envelope, const Tensor<Interval>* exact,
                    const HostTensor& actual, double max_finite, const std::optional<LostAt>& lost) {
  OutputVerdict v;
  v.name = name;
  v.shape = envelope.shape();
  v.elements = envelope.size();
  v.exact_known = exact != nullptr;
  for (int64_t i = 0; i < envelope.size(); ++i) {
    const Enclosure e = sc::enclosure(envelope[i]);
    constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
    const Enclosure x = exact ? sc::enclosure((*exact)[i]) : Enclosure{kUnknown, kUnknown};
    const double a = actual.values[static_cast<size_t>(i)];
    const auto note_worst = [&](double excess) {
      if (excess <= v.excess) return;
      v.excess = excess;
      v.worst = i;
      v.actual = a;
      v.exact = x;
      v.envelope = e;
    };
    const bool rejected = e.rejects(a);
    if (rejected) ++v.outside;
    if (e.special()) {  // exactly NaN or ±∞: judged by that value alone, with no radius
      if (rejected) note_worst(std::numeric_limits<double>::infinity());
      continue;
    }
    const Side lo = envelope_side(e.lo, x.lo, max_finite, false), hi = envelope_side(e.hi, x.hi, max_finite, true);
    v.overflow_sides += (lo == Side::Overflow) + (hi == Side::Overflow);
    if (!rejected && (lo == Side::Lost || hi == Side::Lost)) {
      if (v.not_judged++ == 0) v.first_not_judged = i;
      continue;
    }
    if (e.bounded()) {
      v.max_radius = std::max(v.max_radius, e.radius());
      v.max_magnitude = std::max(v.max_magnitude, std::max(std::abs(e.lo), std::abs(e.hi)));
      if (exact) v.max_exact_magnitude = std::max(v.max_exact_magnitude, std::max(std::abs(x.lo), std::abs(x.hi)));
      v.max_midpoint_magnitude = std::max(v.max_midpoint_magnitude, std::abs(e.midpoint()));
    } else if (!rejected) {
      continue;  // accepted on its overflow side, with no radius to say how close it came
    }
    note_worst(excess_in_radii(a, e));
  }
  if (v.not_judged > 0) v.first_lost_at = lost;
  return v;
}

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v + 0.0);  // + 0.0: −0 prints as 0
  return buf;
}

bool lost(const Tensor<Envelope>& t) {
  return std::any_of(t.data().begin(), t.data().end(), [](const Envelope& e) {
    const Enclosure x = sc::enclosure(e);
    return !x.bounded() && !x.special();
  });
}
bool lost(const Value<Envelope>* v) {
  const auto* t = std::get_if<Tensor<Envelope>>(v);
  return t != nullptr && lost(*t);
}
bool holds_nan(const Value<Envelope>* v) {
  const auto* t = std::get_if<Tensor<Envelope>>(v);
  return t != nullptr && std::any_of(t->data().begin(), t->data().end(), [](const Envelope& e) { return e.nan; });
}

// Whether an element's envelope has an infinite side, not being exactly ±∞: only the exact value can
// say whether ±∞ is a correct answer there (envelope_side).
bool overflowed(const std::vector<Tensor<Envelope>>& outputs) {
  for (const Tensor<Envelope>& t : outputs)
    for (const Envelope& e : t.data()) {
      const Enclosure x = sc::enclosure(e);
      if (!x.special() && (std::isinf(x.lo) || std::isinf(x.hi))) return true;
    }
  return false;
}

// Why a node whose operands all bound their values gave a result that does not, when none of its
// operations noted why.
std::string unnoted_loss(const CheckedOp& op, const OpIO<Envelope>& io) {
  if (std::holds_alternative<Checked<InputAttrs>>(op))
    return "the input holds a value past the largest finite number of the runtime's format";
  if (std::any_of(io.inputs.begin(), io.inputs.end(), [](const auto* v) { return holds_nan(v); }))
    return "an operand is NaN, which this operation's envelope does not carry";
  return "the result has a side that is not finite (an undecided comparison or index read as a real, or a constant "
         "that is not finite)";
}

// The largest midpoint magnitude and the largest width of a real value's bounded elements.
struct Spread {
  double scale = 0, width = 0;
  // Width over twice the scale: the radius in units of the values; 0 when the midpoints are all 0.
  double relative() const { return scale > 0 ? width / (2 * scale) : 0; }
};
Spread spread(const Tensor<Envelope>& t) {
  Spread s;
  for (const Envelope& e : t.data()) {
    const Enclosure x = sc::enclosure(e);
    if (!x.bounded() || x.special()) continue;
    s.scale = std::max(s.scale, std::abs(x.midpoint()));
    s.width = std::max(s.width, x.hi - x.lo);
  }
  return s;
}

// An envelope wider than the values it encloses judges nothing of their size: an answer of either
// sign, or 0, lies inside. Interval propagation gets there on deep models by compounding: each
// layer adds every rounding error up along each path to a value, where a real evaluation's errors
// partly cancel (the wrapping effect, docs/conformance.md "How tight an envelope can be"), so the
// relative width grows by a factor per layer (about 13 per convolution of resnet18). So where a
// node's operand is already wider than 1/16 of its values and an element of its result is wider
// than the result's largest midpoint magnitude, that element loses its bound (NaN sides), noted:
// what depends on it is not judged, never counted as conforming. One cancellation of narrow
// operands ((x + 10⁸) − 10⁸) keeps its wide envelope: it is the range of the correct answers.
void lose_compounded_width(const OpIO<Envelope>& io) {
  constexpr double kWideOperand = 1.0 / 16;
  const bool wide_operand = std::any_of(io.inputs.begin(), io.inputs.end(), [&](const Value<Envelope>* v) {
    const auto* t = std::get_if<Tensor<Envelope>>(v);
    return t != nullptr && spread(*t).relative() >= kWideOperand;
  });
  if (!wide_operand) return;
  for (Value<Envelope>* v : io.outputs) {
    auto* t = std::get_if<Tensor<Envelope>>(v);
    if (t == nullptr) continue;
    const Spread result = spread(*t);
    if (result.scale == 0 || result.relative() <= 1) continue;
    for (Envelope& e : t->data()) {
      const Enclosure x = sc::enclosure(e);
      if (x.bounded() && !x.special() && x.hi - x.lo > 2 * result.scale)
        e = ScalarOps<Envelope>::from_double(std::numeric_limits<double>::quiet_NaN());
    }
    envelope::note_lost("its envelope grew wider than its values (radius up to " + num(result.width / 2) +
                        ", midpoints up to " + num(result.scale) +
                        ") from operands already wide: interval propagation adds every rounding error up along each "
                        "path, where a real evaluation's partly cancel (the wrapping effect); judge at the runtime's "
                        "intermediate values (conform --intermediates)");
  }
}

// The float32 envelope of every output, and the nodes at which a result lost a bound (in id order):
// the first note of its Envelope operations, or, without one, what it was given.
struct Origin {
  int64_t node;
  std::string why;
};
// The real operands of the casts to integers whose integers are outputs (keyed by the cast's node).
using TruncatedReals = std::map<int64_t, Tensor<Envelope>>;

bool real_dtype(DType t) { return t == DType::F16 || t == DType::BF16 || t == DType::F32 || t == DType::F64; }

// The cut points of an envelope evaluation: each node output a runtime gave is judged against the
// envelope its op computed, then replaced by the runtime's value, as points, for everything downstream.
class CutPoints {
 public:
  explicit CutPoints(const std::vector<Cut>* cuts) {
    if (cuts == nullptr) return;
    verdicts_.given = static_cast<int64_t>(cuts->size());
    for (const Cut& c : *cuts) at_.insert({{c.at.node, c.at.output}, &c});
  }

  // Every name the reader gives one IR value (an Identity's output and its operand's name) is
  // judged against that value's envelope; the first is cut in.
  void take(const Node& n, const OpIO<Envelope>& io) {
    for (size_t k = 0; k < io.outputs.size() && !at_.empty(); ++k) {
      const auto [first, last] = at_.equal_range({n.id, static_cast<int>(k)});
      auto* t = std::get_if<Tensor<Envelope>>(io.outputs[k]);
      const Cut* cut = nullptr;
      for (auto it = first; it != last; ++it)
        if (fits(*it->second, t)) {
          judge(*it->second, n, *t);
          if (cut == nullptr) cut = it->second;
        }
      at_.erase(first, last);
      if (cut == nullptr) continue;
      for (size_t i = 0; i < cut->value.values.size(); ++i)
        t->data()[i] = ScalarOps<Envelope>::from_double(cut->value.values[i]);
    }
  }

  // The verdicts, or the first cut whose shape or type is not its value's.
  Result<CutVerdicts> finish() {
    if (misfit_) return std::move(*misfit_);
    for (const auto& [at, c] : at_)
      verdicts_.notes.push_back("'" + c->name + "' is not computed on the way to an output: not judged");
    return std::move(verdicts_);
  }

 private:
  // Whether the cut gives a real value of the shape the IR value has: a note for an integer or bool
  // value, usage.intermediate-shape (the first) for another shape or type.
  bool fits(const Cut& c, const Tensor<Envelope>* t) {
    if (t == nullptr) {
      verdicts_.notes.push_back("'" + c.name + "' is an integer or bool value: not cut (only real values are)");
      return false;
    }
    if (t->shape() == c.value.shape && real_dtype(c.value.dtype)) return true;
    if (!misfit_)
      misfit_ = make_error("usage.intermediate-shape", "intermediate '" + c.name + "' is a real value of shape " +
                                                           t->shape().str() + ", but the runtime gives " +
                                                           dtype_name(c.value.dtype) + " " + c.value.shape.str());
    return false;
  }

  void judge(const Cut& c, const Node& n, const Tensor<Envelope>& envelope) {
    ++verdicts_.judged;
    verdicts_.elements += envelope.size();
    for (int64_t i = 0; i < envelope.size(); ++i) {
      const Enclosure e = sc::enclosure(envelope[i]);
      const double a = c.value.values[static_cast<size_t>(i)];
      if (e.rejects(a)) {
        if (verdicts_.outside++ == 0)
          verdicts_.first_outside = Culprit{c.name, op_name(n.op), element_index(envelope.shape(), i), a, e};
      } else if (!e.special() && !e.bounded()) {
        ++verdicts_.not_judged;
      }
    }
  }

  std::multimap<std::pair<int64_t, int>, const Cut*> at_;
  CutVerdicts verdicts_;
  std::optional<Diagnostic> misfit_;
};

Result<std::vector<Tensor<Envelope>>> run_envelope(const Model& m, const std::vector<HostTensor>& inputs,
                                                   int64_t max_memory, std::vector<Origin>& origins,
                                                   TruncatedReals& truncated, CutPoints& cuts,
                                                   CompoundedWidth compounded) {
  auto plan = make_plan<Envelope>(m.graph, m.payload, PlanOptions{max_memory, m.param_keys, &inputs, ParamHolding::WhileNodeRuns});
  if (!plan) return std::move(plan).error();
  size_t next = 0;
  return run_plan<Envelope>(*plan, inputs, [&](const CheckedOp& op, const OpIO<Envelope>& io) {
    const PlannedNode<Envelope>& p = plan->nodes[next++];
    if (const auto it = truncated.find(p.node->id); it != truncated.end())
      it->second = std::get<Tensor<Envelope>>(*io.inputs[0]);
    envelope::take_lost();
    std::visit([&](const auto& o) { run_kernel(o, io); }, op);
    cuts.take(*p.node, io);
    if (compounded == CompoundedWidth::Lost) lose_compounded_width(io);
    std::string why = envelope::take_lost();
    if (std::none_of(io.outputs.begin(), io.outputs.end(), [](const Value<Envelope>* v) { return lost(v); })) return;
    if (why.empty()) {
      const bool given = std::any_of(io.inputs.begin(), io.inputs.end(), [](const auto* v) { return lost(v); }) ||
                         std::any_of(io.params.begin(), io.params.end(), [](const auto* t) { return t && lost(*t); });
      if (given) return;  // carried from an operand
      why = unnoted_loss(op, io);
    }
    origins.push_back({p.node->id, std::move(why)});
  });
}

// Per output, the first origin on a path to it.
std::vector<std::optional<LostAt>> first_lost(const Graph& g, const std::vector<Origin>& origins) {
  std::vector<std::optional<LostAt>> out;
  for (const GraphOutput& o : g.outputs) {
    std::vector<bool> reaches(g.nodes.size(), false);
    reaches[static_cast<size_t>(o.value.node)] = true;
    for (auto id = static_cast<int64_t>(g.nodes.size()) - 1; id >= 0; --id)
      if (reaches[static_cast<size_t>(id)])
        for (const ValueRef& r : g.nodes[static_cast<size_t>(id)].inputs) reaches[static_cast<size_t>(r.node)] = true;
    const auto first = std::find_if(origins.begin(), origins.end(),
                                    [&](const Origin& x) { return reaches[static_cast<size_t>(x.node)]; });
    if (first == origins.end()) out.emplace_back();
    else {
      const Node& n = g.nodes[static_cast<size_t>(first->node)];
      out.push_back(LostAt{n.name, op_name(n.op), first->why});
    }
  }
  return out;
}

// An output cast from a logical holds truth values; an element whose envelope holds both 0 and 1
// admits every answer, so it judges nothing: it is made lost (NaN), so that conform counts it as
// not judged and `nnref suite` writes it so, and the output's first loss names the cast.
void undecided_truth_values(const Graph& g, std::vector<Tensor<Envelope>>& envelope,
                            std::vector<std::optional<LostAt>>& lost) {
  for (size_t k = 0; k < g.outputs.size() && k < envelope.size(); ++k) {
    const Node& n = g.nodes[static_cast<size_t>(g.outputs[k].value.node)];
    const auto* cast = std::get_if<CastAttrs>(&n.op);
    if (cast == nullptr || cast->from != ElemKind::Logical) continue;
    bool undecided = false;
    for (Envelope& e : envelope[k].data()) {
      const Enclosure x = sc::enclosure(e);
      if (x.lo <= 0 && x.hi >= 1) {
        e = ScalarOps<Envelope>::from_double(std::numeric_limits<double>::quiet_NaN());
        undecided = true;
      }
    }
    if (undecided && !lost[k])
      lost[k] = LostAt{n.name, op_name(n.op), "a truth value the envelope leaves undecided: both 0 and 1 lie in it"};
  }
}

// The node of the cast of a real to integers that output k reads through its cast to reals, if any.
std::optional<int64_t> truncation_read_by(const Graph& g, size_t k) {
  const Node& n = g.nodes[static_cast<size_t>(g.outputs[k].value.node)];
  const auto* cast = std::get_if<CastAttrs>(&n.op);
  if (cast == nullptr || cast->from != ElemKind::Integer || n.inputs.empty()) return std::nullopt;
  const Node& source = g.nodes[static_cast<size_t>(n.inputs[0].node)];
  const auto* inner = std::get_if<CastAttrs>(&source.op);
  if (inner == nullptr || inner->from != ElemKind::Real) return std::nullopt;
  return source.id;
}

TruncatedReals truncations_read(const Graph& g) {
  TruncatedReals out;
  for (size_t k = 0; k < g.outputs.size(); ++k)
    if (const auto id = truncation_read_by(g, k)) out.emplace(*id, Tensor<Envelope>());
  return out;
}

// An integer output element the envelope left undecided (its real's floor is not one integer):
// every integer ⌊r⌋ of a real r in the real's envelope [lo, hi] lies in [⌊lo⌋, ⌊hi⌋], the range
// it is judged by (docs/conformance.md, "Integers truncated from reals"); unbounded: not judged.
void truncated_integer_ranges(const Graph& g, const TruncatedReals& truncated,
                              std::vector<Tensor<Envelope>>& envelope) {
  constexpr double kLimit = 0x1p63;  // the reals floor_to_integer reads as int64 (spec/ops/cast.hpp)
  for (size_t k = 0; k < g.outputs.size() && k < envelope.size(); ++k) {
    const auto id = truncation_read_by(g, k);
    if (!id) continue;
    const Tensor<Envelope>& real = truncated.at(*id);
    for (int64_t i = 0; i < envelope[k].size() && i < real.size(); ++i) {
      const Enclosure y = sc::enclosure(envelope[k][i]), r = sc::enclosure(real[i]);
      const double lo = std::floor(r.lo), hi = std::floor(r.hi);
      if (y.bounded() || y.special() || !r.bounded() || !(lo >= -kLimit && hi < kLimit)) continue;
      envelope[k][i] = Envelope(lo, hi);
    }
  }
}

std::string index_str(const std::vector<int64_t>& index) {
  std::string out;
  for (int64_t i : index) out += (out.empty() ? "" : ", ") + std::to_string(i);
  return "[" + out + "]";
}
std::string index_str(const Shape& s, int64_t flat) { return index_str(element_index(s, flat)); }

}  // namespace

Side envelope_side(double bound, double exact, double max_finite, bool upper) {
  if (std::isfinite(bound)) return Side::Judged;
  if (std::isnan(bound) || std::isnan(exact)) return Side::Lost;
  if (upper ? bound == std::numeric_limits<double>::infinity() && exact >= max_finite
            : bound == -std::numeric_limits<double>::infinity() && exact <= -max_finite)
    return Side::Overflow;
  return Side::Lost;
}

std::vector<Shape> Enclosures::shapes() const {
  std::vector<Shape> s;
  for (const auto& t : envelope) s.push_back(t.shape());
  for (const EmptyOutput& o : empty) s.push_back(o.shape);
  return s;
}

Result<Enclosures> enclose_outputs(const Model& m, const std::vector<HostTensor>& inputs, const RuntimeModel& runtime,
                                   int64_t max_memory, const std::vector<Cut>* cuts, ExactValue exact_value,
                                   CompoundedWidth compounded) {
  if (m.graph.outputs.empty()) {  // every output is empty (Model::empty_outputs)
    if (Status checked = check_inputs_only(m, inputs); !checked) return std::move(checked).error();
    return Enclosures{{}, {}, {}, runtime.max_finite, {}, m.empty_outputs, {}};
  }
  std::vector<Origin> origins;
  TruncatedReals truncated = truncations_read(m.graph);
  CutPoints cut_points(cuts);
  Result<std::vector<Tensor<Envelope>>> envelope = [&] {
    RuntimeScope scope(runtime);
    return run_envelope(m, inputs, max_memory, origins, truncated, cut_points, compounded);
  }();
  if (!envelope) return std::move(envelope).error();
  Result<CutVerdicts> cut_verdicts = cut_points.finish();
  if (!cut_verdicts) return std::move(cut_verdicts).error();
  ExactOutputs exact;
  if (exact_value == ExactValue::Skipped) {
    exact.precision.not_computed = "--skip-exact: an envelope side past the largest finite number is not judged";
  } else if (exact_value == ExactValue::WhenNeeded && !overflowed(*envelope)) {
    exact.precision.not_computed =
        "no envelope side lies past the largest finite number, where the verdict needs it; --exact encloses it";
  } else {
    auto computed = exact_outputs(m, inputs, max_memory);
    if (!computed) return std::move(computed).error();
    exact = std::move(computed).value();
  }
  std::vector<std::optional<LostAt>> lost = first_lost(m.graph, origins);
  undecided_truth_values(m.graph, envelope.value(), lost);
  truncated_integer_ranges(m.graph, truncated, envelope.value());
  return Enclosures{std::move(envelope).value(),
                    std::move(exact.outputs),
                    std::move(lost),
                    runtime.max_finite,
                    exact.precision,
                    m.empty_outputs,
                    std::move(cut_verdicts).value()};
}

std::vector<OutputVerdict> judge_outputs(const Enclosures& e, const NamedTensors& actual) {
  std::vector<OutputVerdict> verdicts;
  for (size_t k = 0; k < e.envelope.size(); ++k)
    verdicts.push_back(judge(actual[k].first, e.envelope[k], e.exact.empty() ? nullptr : &e.exact[k],
                             actual[k].second, e.max_finite,
                             k < e.first_lost.size() ? e.first_lost[k] : std::nullopt));
  for (const EmptyOutput& o : e.empty) {  // its shape, which match_actual checked, is the whole answer
    OutputVerdict v;
    v.name = o.name;
    v.shape = o.shape;
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

bool none_outside(const std::vector<OutputVerdict>& verdicts) {
  return std::all_of(verdicts.begin(), verdicts.end(), [](const OutputVerdict& v) { return v.outside == 0; });
}

Verdict overall_verdict(const std::vector<OutputVerdict>& verdicts, const CutVerdicts* cuts) {
  if (!none_outside(verdicts) || (cuts && cuts->outside > 0)) return Verdict::DoesNotConform;
  const bool judged =
      std::all_of(verdicts.begin(), verdicts.end(), [](const OutputVerdict& v) { return v.not_judged == 0; }) &&
      (!cuts || cuts->not_judged == 0);
  return judged ? Verdict::Conforms : Verdict::Inconclusive;
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Conforms: return "conforms";
    case Verdict::DoesNotConform: return "does not conform";
    case Verdict::Inconclusive: return "inconclusive";
  }
  return "?";
}

HostTensor float32_host(const Tensor<float>& t) {
  HostTensor h{DType::F32, t.shape(), {}};
  h.values.assign(t.data().begin(), t.data().end());
  return h;
}

NamedTensors named_outputs(const Graph& g, const std::vector<Tensor<float>>& outputs) {
  NamedTensors named;
  for (size_t k = 0; k < outputs.size(); ++k) named.emplace_back(g.outputs[k].name, float32_host(outputs[k]));
  return named;
}

double distance_outside(double v, const Enclosure& e) {
  if (e.special()) return e.rejects(v) ? std::numeric_limits<double>::infinity() : 0.0;
  return v > e.hi ? v - e.hi : v < e.lo ? e.lo - v : 0.0;
}

std::vector<int64_t> element_index(const Shape& s, int64_t flat) {
  std::vector<int64_t> idx;
  unflatten(flat, s.dims(), idx);
  return idx;
}

namespace {

void print_cuts(std::ostream& out, const CutVerdicts& c, const RuntimeModel& runtime) {
  for (const std::string& note : c.notes) out << "note: " << note << "\n";
  out << (c.outside      ? "FAIL "
          : c.not_judged ? "??   "
                         : "ok   ")
      << "intermediates: " << c.judged << " of " << c.given << " given values judged, " << c.elements << " elements, "
      << c.outside << " outside the " << runtime.name << " envelope of their op";
  if (c.not_judged) out << ", " << c.not_judged << " not judged";
  out << "\n";
  if (!c.first_outside) return;
  const Culprit& f = *c.first_outside;
  out << "  first outside: '" << f.name << "' (" << f.op << ") element " << index_str(f.index) << " = " << num(f.actual)
      << "; envelope [" << num(f.envelope.lo) << ", " << num(f.envelope.hi) << "]; outside by "
      << num(distance_outside(f.actual, f.envelope)) << "\n";
}

}  // namespace

void print_verdicts(std::ostream& out, const std::vector<OutputVerdict>& verdicts, const RuntimeModel& runtime,
                    const ExactPrecision* exact, const CutVerdicts* cuts) {
  if (exact && !exact->not_computed.empty())
    out << "exact value: not computed (" << exact->not_computed << ")\n";
  else if (exact && exact->bits > 0)
    print_exact_precision(out, *exact);  // 0: no output has elements
  if (cuts) print_cuts(out, *cuts, runtime);
  for (const auto& v : verdicts) {
    if (v.elements == 0) {  // an empty output (no IR value has none)
      out << "ok   " << v.name << ": an empty output: the answer has its shape " << v.shape.str()
          << ", and no element to judge\n";
      continue;
    }
    out << (v.outside ? "FAIL " : v.not_judged ? "??   " : "ok   ") << v.name << ": " << v.elements << " elements, "
        << v.outside << " outside the " << runtime.name << " envelope";
    if (v.not_judged) out << ", " << v.not_judged << " not judged";
    if (v.overflow_sides) out << ", " << v.overflow_sides << " sides past the largest finite number (±∞ is correct there)";
    out << "\n";
    if (v.not_judged) {
      out << "  not judged: element " << index_str(v.shape, v.first_not_judged) << " first";
      if (v.first_lost_at)
        out << "; its envelope lost a bound at node '" << v.first_lost_at->node << "' (" << v.first_lost_at->op
            << "): " << v.first_lost_at->why;
      out << "\n";
    }
    // Judged, yet loose: a radius beyond every value rejects only answers off by more than the values
    // themselves (cancellation of wide operands, docs/conformance.md).
    const double values = v.exact_known ? v.max_exact_magnitude : v.max_midpoint_magnitude;
    if (v.max_radius > values && values > 0)
      out << "  note: the largest envelope radius, " << num(v.max_radius) << ", exceeds every "
          << (v.exact_known ? "exact value's" : "envelope midpoint's") << " magnitude (at most " << num(values)
          << "): only answers off by more than that are rejected\n";
    if (v.worst < 0) continue;
    out << "  " << (v.outside ? "worst" : "closest to its bound") << ": element " << index_str(v.shape, v.worst)
        << " = " << num(v.actual) << "; ";
    if (!v.exact_known) out << "exact value not computed";
    else out << "exact value in [" << num(v.exact.lo) << ", " << num(v.exact.hi) << "]";
    out << "; envelope [" << num(v.envelope.lo) << ", " << num(v.envelope.hi) << "]; ";
    if (v.excess > 0)
      out << "outside by " << num(distance_outside(v.actual, v.envelope)) << " (" << num(v.excess)
          << " envelope radii)\n";
    else out << "uses " << num(1 + v.excess) << " of the envelope's radius\n";
  }
  const Verdict verdict = overall_verdict(verdicts, cuts);
  out << verdict_name(verdict);
  if (verdict == Verdict::Inconclusive) out << ": no element outside, but not every element judged";
  out << "\n";
}

namespace {

using Json = nlohmann::ordered_json;

Json lost_at(const std::optional<LostAt>& l) {
  if (!l) return nullptr;
  return {{"node", l->node}, {"op", l->op}, {"why", l->why}};
}

Json cuts_json(const CutVerdicts& c) {
  Json first = nullptr;
  if (c.first_outside) {
    const Culprit& f = *c.first_outside;
    first = {{"name", f.name},
             {"op", f.op},
             {"index", f.index},
             {"actual", f.actual},
             {"envelope", {f.envelope.lo, f.envelope.hi}},
             {"distance", distance_outside(f.actual, f.envelope)}};
  }
  return {{"given", c.given},           {"judged", c.judged},     {"elements", c.elements}, {"outside", c.outside},
          {"not_judged", c.not_judged}, {"first_outside", first}, {"notes", c.notes}};
}

}  // namespace

std::string undetermined_size_text(const Diagnostic& d) {
  return std::string("verdict: inconclusive, no output judged: ") + d.message + "\n";
}

std::string undetermined_size_json(const Diagnostic& d, const RuntimeModel& runtime) {
  Json j;
  j["verdict"] = verdict_name(Verdict::Inconclusive);
  j["runtime_precision"] = runtime.name;
  j["unit_roundoff"] = runtime.u;
  j["ulps"] = runtime.ulps;
  j["outputs"] = Json::array();
  j["undetermined_size"] = d.message;
  return j.dump(2) + "\n";
}

std::string verdicts_json(const std::vector<OutputVerdict>& verdicts, const RuntimeModel& runtime,
                          const ExactPrecision* exact, const CutVerdicts* cuts) {
  Json j;
  j["verdict"] = verdict_name(overall_verdict(verdicts, cuts));
  j["runtime_precision"] = runtime.name;
  j["unit_roundoff"] = runtime.u;
  j["ulps"] = runtime.ulps;
  if (exact && !exact->not_computed.empty()) {
    j["exact_not_computed"] = exact->not_computed;
  } else if (exact) {
    j["exact_precision_bits"] = exact->bits;
    j["exact_over_target"] = exact->over_target;
    j["exact_unbounded"] = exact->unbounded;
    j["exact_stopped"] = exact->stopped.empty() ? Json(nullptr) : Json(exact->stopped);
  }
  if (cuts) j["intermediates"] = cuts_json(*cuts);
  j["outputs"] = Json::array();
  for (const auto& v : verdicts) {
    Json o;
    o["name"] = v.name;
    o["shape"] = v.shape.dims();
    o["elements"] = v.elements;
    o["outside"] = v.outside;
    o["not_judged"] = v.not_judged;
    o["overflow_sides"] = v.overflow_sides;
    o["first_not_judged"] = v.not_judged ? Json(element_index(v.shape, v.first_not_judged)) : Json(nullptr);
    o["first_lost_at"] = lost_at(v.first_lost_at);
    o["max_radius"] = v.max_radius;
    o["max_magnitude"] = v.max_magnitude;
    o["max_exact_magnitude"] = v.exact_known ? Json(v.max_exact_magnitude) : Json(nullptr);
    if (v.worst >= 0) {
      o["worst"] = {{"index", element_index(v.shape, v.worst)},
                    {"actual", v.actual},
                    {"exact", v.exact_known ? Json{v.exact.lo, v.exact.hi} : Json(nullptr)},
                    {"envelope", {v.envelope.lo, v.envelope.hi}},
                    {"distance", distance_outside(v.actual, v.envelope)},
                    // null (JSON has no infinity) outside a point envelope or one with an infinite side
                    {"excess_radii", v.excess}};
    }
    j["outputs"].push_back(o);
  }
  return j.dump(2) + "\n";
}

namespace {

// Intermediate values are named as ONNX values or SkriptND components (Model::source_values).
Status named_values(const Model& m) {
  if (m.format == "onnx" || m.format == "nnef2") return {};
  return make_error(
      "usage.intermediate-format",
      "intermediate values name the values of ONNX nodes or SkriptND components: " + m.path + " is neither");
}

}  // namespace

Result<std::vector<Cut>> read_cuts(const std::string& path, const Model& m, std::vector<std::string>& notes,
                                   uint64_t max_bytes) {
  if (Status named = named_values(m); !named) return std::move(named).error();
  auto given = read_npz(path, max_bytes);
  if (!given) return std::move(given).error();
  return cuts_of(std::move(given).value(), path, m, notes);
}

Result<std::vector<Cut>> cuts_of(NamedTensors given, const std::string& source, const Model& m,
                                 std::vector<std::string>& notes) {
  if (Status named = named_values(m); !named) return std::move(named).error();
  std::vector<Cut> cuts;
  for (auto& [name, value] : given) {
    const auto it = m.source_values.find(name);
    if (it == m.source_values.end())
      return make_error("usage.intermediate-unknown",
                        source + " has an array '" + name + "' that no node of the model computes");
    if (!it->second) {
      notes.push_back("'" + name + "' is folded to a constant or an empty value when the model is read: not cut");
      continue;
    }
    cuts.push_back(Cut{name, *it->second, std::move(value)});
  }
  return cuts;
}

Result<NamedTensors> read_actual(const std::string& path, const Model& m, const std::vector<Shape>& shapes) {
  NamedTensors given;
  const std::vector<std::string> names = output_names(m);
  if (path.ends_with(".npy") || path.ends_with(".pb")) {
    if (names.size() != 1)
      return make_error("usage.actual-format", "the model has " + std::to_string(names.size()) +
                                                   " outputs; give them as an .npz keyed by output name");
    auto t = read_tensor_arg(path);
    if (!t) return std::move(t).error();
    given.emplace_back(names[0], std::move(t).value());
  } else if (path.ends_with(".npz")) {
    auto all = read_npz(path);
    if (!all) return std::move(all).error();
    given = std::move(all).value();
  } else {
    return make_error("usage.actual-format", "--actual must end in .npy, .pb or .npz: " + path);
  }
  return match_actual(std::move(given), path, m, shapes);
}

Result<NamedTensors> match_actual(NamedTensors given, const std::string& path, const Model& m,
                                  const std::vector<Shape>& shapes) {
  NamedTensors ordered;
  const std::vector<std::string> names = output_names(m);
  for (size_t k = 0; k < names.size(); ++k) {
    const std::string& name = names[k];
    auto it = std::find_if(given.begin(), given.end(), [&](const auto& p) { return p.first == name; });
    if (it == given.end())
      return make_error("usage.actual-missing", path + " has no array named '" + name + "', an output of the model");
    HostTensor t = it->second;
    // A per-sample array for a batch-1 output gets its batch axis, as run's inputs do.
    if (t.shape.rank() + 1 == shapes[k].rank() && shapes[k][0] == 1 &&
        std::equal(t.shape.dims().begin(), t.shape.dims().end(), shapes[k].dims().begin() + 1))
      t.shape = shapes[k];
    if (t.shape != shapes[k])
      return make_error("usage.actual-shape", "output '" + name + "' has shape " + shapes[k].str() + ", but " + path +
                                                  " gives " + t.shape.str());
    ordered.emplace_back(name, std::move(t));
  }
  for (const auto& entry : given) {
    const std::string& name = entry.first;
    if (std::none_of(ordered.begin(), ordered.end(), [&](const auto& p) { return p.first == name; }))
      return make_error("usage.actual-unknown", path + " has an array '" + name + "' that is not an output of the model");
  }
  return ordered;
}

}  // namespace nnref
