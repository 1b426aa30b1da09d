#include "cli/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "formats/tensor_file.hpp"
#include "semantics/evaluate.hpp"
#include "spec/index.hpp"

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

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v + 0.0);  // + 0.0: −0 prints as 0
  return buf;
}

std::string index_str(const Shape& s, int64_t flat) {
  std::string out;
  for (int64_t i : element_index(s, flat)) out += (out.empty() ? "" : ", ") + std::to_string(i);
  return "[" + out + "]";
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

std::vector<int64_t> element_index(const Shape& s, int64_t flat) {
  std::vector<int64_t> idx;
  unflatten(flat, s.dims(), idx);
  return idx;
}

void print_verdicts(std::ostream& out, const std::vector<OutputVerdict>& verdicts, const RuntimeModel& runtime) {
  for (const auto& v : verdicts) {
    out << (v.outside ? "FAIL " : "ok   ") << v.name << ": " << v.elements << " elements, " << v.outside
        << " outside the " << runtime.name << " envelope";
    if (v.unbounded) out << ", " << v.unbounded << " unbounded";
    out << "\n";
    if (v.worst < 0) continue;
    out << "  " << (v.outside ? "worst" : "closest to its bound") << ": element " << index_str(v.shape, v.worst)
        << " = " << num(v.actual) << "; exact value in [" << num(v.exact.lo) << ", " << num(v.exact.hi)
        << "]; envelope [" << num(v.envelope.lo) << ", " << num(v.envelope.hi) << "]; ";
    if (v.excess > 0)
      out << "outside by " << num(distance_outside(v.actual, v.envelope)) << " (" << num(v.excess)
          << " envelope radii)\n";
    else out << "uses " << num(1 + v.excess) << " of the envelope's radius\n";
  }
}

Result<NamedTensors> read_actual(const std::string& path, const Model& m, const std::vector<Shape>& shapes) {
  NamedTensors given;
  if (path.ends_with(".npy") || path.ends_with(".pb")) {
    if (m.graph.outputs.size() != 1)
      return make_error("usage.actual-format", "the model has " + std::to_string(m.graph.outputs.size()) +
                                                   " outputs; give them as an .npz keyed by output name");
    auto t = read_tensor_arg(path);
    if (!t) return std::move(t).error();
    given.emplace_back(m.graph.outputs[0].name, std::move(t).value());
  } else if (path.ends_with(".npz")) {
    auto all = read_npz(path);
    if (!all) return std::move(all).error();
    given = std::move(all).value();
  } else {
    return make_error("usage.actual-format", "--actual must end in .npy, .pb or .npz: " + path);
  }
  NamedTensors ordered;
  for (size_t k = 0; k < m.graph.outputs.size(); ++k) {
    const std::string& name = m.graph.outputs[k].name;
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
  for (const auto& [name, t] : given)
    if (std::none_of(ordered.begin(), ordered.end(), [&](const auto& p) { return p.first == name; }))
      return make_error("usage.actual-unknown", path + " has an array '" + name + "' that is not an output of the model");
  return ordered;
}


}  // namespace nnref
