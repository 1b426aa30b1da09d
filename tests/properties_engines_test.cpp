// nnref's engines on generated models, judged as `nnref conform` judges (cli/verdict.hpp): the
// f32 oracle, the fast path and the hardware model inside the float32 envelope; the mp50 oracle
// inside the rigorous interval of the exact value; the f64 oracle inside the float64 envelope
// (runtime model "f64", u = 2^-53: docs/conformance.md), the rigorous interval of every answer a
// float64 evaluation may give, which must meet the exact value's. Never a widened bound.
#include "properties_support.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "cli/engines.hpp"
#include "cli/verdict.hpp"
#include "semantics/evaluate.hpp"

using namespace nnref;
using namespace nnref::properties;

namespace {

constexpr int64_t kMemory = int64_t{1} << 30;

// Every output element of `outputs` inside its envelope of `runtime` (conform's rule).
void assert_conforms(const GeneratedModel& g, const std::vector<Tensor<float>>& outputs, const RuntimeModel& runtime) {
  auto enclosures = enclose_outputs(g.model, g.inputs, runtime, kMemory);
  RC_ASSERT(enclosures.ok());
  for (const OutputVerdict& v : judge_outputs(*enclosures, named_outputs(g.model.graph, outputs))) {
    RC_LOG() << v.name << ": " << v.outside << " of " << v.elements << " outside; worst element " << v.worst
             << " = " << v.actual << " in [" << v.envelope.lo << ", " << v.envelope.hi << "]\n";
    RC_ASSERT(v.outside == 0);
  }
}

void check_engine(const std::string& engine, int count) {
  check_models("the " + engine + " engine inside the float32 envelope", count, GenOptions{}, [&](const GeneratedModel& g) {
    auto out = run_float32(g.model, g.inputs, kMemory, EngineChoice{engine, 1, ""});
    if (!out) RC_LOG() << out.error().code << ": " << out.error().message << "\n";
    RC_ASSERT(out.ok());
    assert_conforms(g, *out, *runtime_model("f32"));
  });
}

// The outputs of the f64 oracle as float32 answers would be held: doubles, exactly (the verdict
// reads answers as doubles).
NamedTensors named_f64(const Graph& graph, const std::vector<Tensor<double>>& outputs) {
  NamedTensors named;
  for (size_t k = 0; k < outputs.size(); ++k) {
    HostTensor h{DType::F64, outputs[k].shape(), outputs[k].values()};
    named.emplace_back(graph.outputs[k].name, std::move(h));
  }
  return named;
}

}  // namespace

TEST_CASE("properties: the f32 oracle inside the float32 envelope") { check_engine("oracle", 500); }

TEST_CASE("properties: the fast path inside the float32 envelope") { check_engine("fast", 500); }

TEST_CASE("properties: the hardware model inside the float32 envelope") { check_engine("hw", 300); }

TEST_CASE("properties: the f64 oracle inside the float64 envelope") {
  check_models("the f64 oracle inside the float64 envelope", 500, GenOptions{}, [](const GeneratedModel& g) {
    auto out = evaluate<double>(g.model.graph, g.model.payload, g.inputs, EvalOptions{kMemory, g.model.param_keys});
    RC_ASSERT(out.ok());
    auto enclosures = enclose_outputs(g.model, g.inputs, *runtime_model("f64"), kMemory);
    RC_ASSERT(enclosures.ok());
    for (const OutputVerdict& v : judge_outputs(*enclosures, named_f64(g.model.graph, *out))) {
      RC_LOG() << v.name << ": worst element " << v.worst << " = " << v.actual << " in [" << v.envelope.lo << ", "
               << v.envelope.hi << "]\n";
      RC_ASSERT(v.outside == 0);
    }
    // The float64 envelope and the Interval are two rigorous enclosures of the same exact value,
    // computed apart: each element's two must meet, else one of them is wrong.
    for (size_t k = 0; k < enclosures->envelope.size(); ++k) {
      for (int64_t i = 0; i < enclosures->envelope[k].size(); ++i) {
        const Enclosure envelope = sc::enclosure(enclosures->envelope[k][i]);
        const Enclosure exact = sc::enclosure(enclosures->exact[k][i]);
        RC_ASSERT((envelope.bounded() && exact.bounded()));
        RC_ASSERT(std::max(envelope.lo, exact.lo) <= std::min(envelope.hi, exact.hi));
      }
    }
  });
}

TEST_CASE("properties: the mp50 oracle inside the rigorous interval") {
  check_models("the mp50 oracle inside the rigorous interval", 300, GenOptions{}, [](const GeneratedModel& g) {
    const EvalOptions options{kMemory, g.model.param_keys};
    auto mp = evaluate<mp50>(g.model.graph, g.model.payload, g.inputs, options);
    auto exact = evaluate<Interval>(g.model.graph, g.model.payload, g.inputs, options);
    RC_ASSERT((mp.ok() && exact.ok()));
    RC_ASSERT(mp->size() == exact->size());
    for (size_t k = 0; k < mp->size(); ++k) {
      const Tensor<mp50>& y = (*mp)[k];
      const Tensor<Interval>& e = (*exact)[k];
      RC_ASSERT(y.shape() == e.shape());
      for (int64_t i = 0; i < y.size(); ++i) {
        // Both sides compared in 50 digits: the interval's bounds are doubles, exact in mp50.
        const Enclosure bounds = sc::enclosure(e[i]);
        RC_ASSERT(bounds.bounded());
        RC_ASSERT(y[i] >= mp50(bounds.lo));
        RC_ASSERT(y[i] <= mp50(bounds.hi));
      }
    }
  });
}
