#include "cli/verdict.hpp"

#include <algorithm>
#include <cmath>

#include "semantics/evaluate.hpp"

namespace nnref {

namespace {

template <Scalar T>
Result<std::vector<Tensor<T>>> run(const Model& m, const std::vector<HostTensor>& inputs, int64_t max_memory) {
  return evaluate<T>(m.graph, m.payload, inputs, EvalOptions{max_memory, m.param_keys});
}

// How far outside [lo, hi] the value lies, in units of the radius: ≤ 0 inside (−1 at the centre);
// infinite outside an envelope that is a single point or has an infinite side.
double excess_in_radii(double v, const Enclosure& e) {
  const double radius = e.radius();
  if (std::isnan(v)) return std::numeric_limits<double>::infinity();
  const double beyond = v > e.hi ? v - e.hi : v < e.lo ? e.lo - v : std::abs(v - e.midpoint()) - radius;
  if (radius == 0 || !std::isfinite(radius)) return beyond > 0 ? std::numeric_limits<double>::infinity() : -1;
  return beyond / radius;
}

OutputVerdict judge(const std::string& name, const Tensor<Envelope>& envelope, const Tensor<Interval>& exact,
                    const HostTensor& actual) {
  OutputVerdict v;
  v.name = name;
  v.shape = envelope.shape();
  v.elements = envelope.size();
  for (int64_t i = 0; i < envelope.size(); ++i) {
    const Enclosure e = sc::enclosure(envelope[i]);
    const double a = actual.values[static_cast<size_t>(i)];
    const bool rejected = e.rejects(a);
    if (rejected) ++v.outside;
    if (e.bounded()) {
      v.max_radius = std::max(v.max_radius, e.radius());
      v.max_magnitude = std::max(v.max_magnitude, std::max(std::abs(e.lo), std::abs(e.hi)));
    } else {
      ++v.unbounded;
      if (!rejected) continue;  // accepted, with no radius to say how close it came
    }
    const double excess = excess_in_radii(a, e);
    if (excess > v.excess) {
      v.excess = excess;
      v.worst = i;
      v.actual = a;
      v.exact = sc::enclosure(exact[i]);
      v.envelope = e;
    }
  }
  return v;
}

}  // namespace

std::vector<Shape> Enclosures::shapes() const {
  std::vector<Shape> s;
  for (const auto& t : envelope) s.push_back(t.shape());
  return s;
}

Result<Enclosures> enclose_outputs(const Model& m, const std::vector<HostTensor>& inputs, const RuntimeModel& runtime,
                                   int64_t max_memory) {
  Result<std::vector<Tensor<Envelope>>> envelope = [&] {
    RuntimeScope scope(runtime);
    return run<Envelope>(m, inputs, max_memory);
  }();
  if (!envelope) return std::move(envelope).error();
  auto exact = run<Interval>(m, inputs, max_memory);
  if (!exact) return std::move(exact).error();
  return Enclosures{std::move(envelope).value(), std::move(exact).value()};
}

std::vector<OutputVerdict> judge_outputs(const Enclosures& e, const NamedTensors& actual) {
  std::vector<OutputVerdict> verdicts;
  for (size_t k = 0; k < e.envelope.size(); ++k)
    verdicts.push_back(judge(actual[k].first, e.envelope[k], e.exact[k], actual[k].second));
  return verdicts;
}

bool all_conform(const std::vector<OutputVerdict>& verdicts) {
  return std::all_of(verdicts.begin(), verdicts.end(), [](const OutputVerdict& v) { return v.outside == 0; });
}

NamedTensors named_outputs(const Graph& g, const std::vector<Tensor<float>>& outputs) {
  NamedTensors named;
  for (size_t k = 0; k < outputs.size(); ++k) {
    HostTensor h{DType::F32, outputs[k].shape(), {}};
    for (float v : outputs[k].data()) h.values.push_back(v);
    named.emplace_back(g.outputs[k].name, std::move(h));
  }
  return named;
}

double distance_outside(double v, const Enclosure& e) { return v > e.hi ? v - e.hi : v < e.lo ? e.lo - v : 0.0; }

}  // namespace nnref
