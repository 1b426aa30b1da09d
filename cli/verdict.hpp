// The judgement behind `nnref conform`, as a library: the model's float32 (or f16, bf16) envelope
// and rigorous interval for one input, and the verdict on a runtime's outputs against them. conform,
// the property tests and `nnref fuzz` all judge through it. docs/conformance.md.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cli/outputs.hpp"
#include "formats/model.hpp"
#include "formats/tensor_files/npy.hpp"
#include "spec/host_tensor.hpp"
#include "spec/result.hpp"
#include "spec/scalar_envelope.hpp"
#include "spec/scalar_interval.hpp"
#include "spec/tensor.hpp"

namespace nnref {

// Where an output's envelope first lost a bound: the first node, in the graph's order, on a path to
// that output whose result got a side that bounds nothing (NaN or infinite) where its operands had
// none, and why (the note of the Envelope operation, envelope::note_lost).
struct LostAt {
  std::string node, op, why;
};

// A runtime's value of an intermediate ONNX value (conform --intermediates): a cut point of the
// envelope evaluation, judged against its op's envelope and then taken as a point downstream.
struct Cut {
  std::string name;
  ValueRef at;  // the IR node output that holds it (Model::source_values)
  HostTensor value;
};

// The first cut point, in the graph's order, whose given value leaves its op's envelope, at its first
// element outside: the diagnosis of a rejected answer.
struct Culprit {
  std::string name, op;
  std::vector<int64_t> index;
  double actual = 0;
  Enclosure envelope;
};

// The cut points' judgement. An element with a side that bounds nothing (NaN or infinite) and no
// finite side it fails is not judged; every given value is taken downstream all the same (sound: a
// correct runtime's value lies in its op's envelope, judged or not).
struct CutVerdicts {
  int64_t given = 0, judged = 0;  // cut points given; of them, those the envelope evaluation computed
  int64_t elements = 0, outside = 0, not_judged = 0;
  std::optional<Culprit> first_outside;
  std::vector<std::string> notes;  // the names given that are not cut, and why
};

// The cut points `path` (an .npz keyed by ONNX value name) gives for an ONNX model: a name the model
// does not compute is usage.intermediate-unknown; one it folded to a constant is not cut (a note).
// An archive whose members state more than max_bytes, summed, is size.budget before it is inflated.
Result<std::vector<Cut>> read_cuts(const std::string& path, const Model& m, std::vector<std::string>& notes,
                                   uint64_t max_bytes);
// The same for values given by name in memory (the Python module); `source` names where they came
// from in the messages.
Result<std::vector<Cut>> cuts_of(NamedTensors given, const std::string& source, const Model& m,
                                 std::vector<std::string>& notes);

// Per output of the model: the envelope of every answer a runtime of the given precision may give,
// the enclosure of the exact value (none when skipped: ExactValue::Skipped), and where the envelope
// first lost a bound (if it did).
struct Enclosures {
  std::vector<Tensor<Envelope>> envelope;
  std::vector<Tensor<Interval>> exact;  // empty when the exact value was not computed
  std::vector<std::optional<LostAt>> first_lost;
  double max_finite = 0;  // the runtime's largest finite number: past it a correct answer may be ±∞
  ExactPrecision exact_precision;  // the precision `exact` was computed at (exact_outputs)
  // The model's empty outputs, after the graph's: no element to enclose, their shape the whole answer.
  std::vector<EmptyOutput> empty;
  std::vector<Shape> shapes() const;  // the graph's outputs', then the empty ones'
  CutVerdicts cuts;                   // with cut points: their judgement
};

// With `cuts`, each is judged against its op's envelope and replaces it downstream (docs/conformance.md,
// "Judged at intermediate values"); a cut of another shape or type than its value is usage.intermediate-shape.
// The exact value's enclosure (exact_outputs: MPFR intervals, 15 to 25 times the envelope's time on a
// deep model) is computed always, only when the verdict needs it (some element's envelope has an
// infinite side, which only the exact value can judge: Side::Overflow), or never: an envelope side that
// overflowed the runtime's range is then not judged (whether the exact value lies past it is unknown).
// Not computed, Enclosures::exact_precision.not_computed says why.
enum class ExactValue { Computed, WhenNeeded, Skipped };
// An element whose envelope grew wider than its node's values from operands already wide (the
// wrapping effect of interval propagation on deep models) judges nothing of their size: it is made
// lost there, noted (conform's rule), or kept as the envelope arithmetic gives it (the property
// tests of that arithmetic).
enum class CompoundedWidth { Lost, Kept };
Result<Enclosures> enclose_outputs(const Model& m, const std::vector<HostTensor>& inputs, const RuntimeModel& runtime,
                                   int64_t max_memory, const std::vector<Cut>* cuts = nullptr,
                                   ExactValue exact = ExactValue::Computed,
                                   CompoundedWidth compounded = CompoundedWidth::Lost);

// How a side of an element's envelope judges: a finite side does; an infinite one does when the
// exact value itself (its enclosure's side `exact`) lies past the runtime's largest finite number,
// where ±∞ is a correct answer (an overflow side); any other side, ±∞ or NaN, bounds nothing (lost).
// conform's verdict and `nnref suite`'s files (docs/suite.md) classify sides by this one rule.
enum class Side { Judged, Overflow, Lost };
Side envelope_side(double bound, double exact, double max_finite, bool upper);

// One output's verdict. Each side of an element's envelope is judged when it is finite, or when it
// is infinite because the exact value itself lies past the runtime's largest finite number (an
// overflow side: a correct answer may be ±∞ there). An element with a side that is neither is not
// judged, unless its other side already rejects the answer. `worst` is the element that lies
// farthest outside its envelope or, when all lie inside, the one that uses most of its radius.
struct OutputVerdict {
  std::string name;
  Shape shape;
  int64_t elements = 0, outside = 0, not_judged = 0, overflow_sides = 0;
  int64_t first_not_judged = -1;       // flat index
  std::optional<LostAt> first_lost_at;  // of the output, when an element is not judged
  int64_t worst = -1;
  double actual = 0, excess = -std::numeric_limits<double>::infinity();  // excess: in radii beyond the envelope
  Enclosure exact, envelope;
  bool exact_known = true;  // false when the exact value was skipped (ExactValue::Skipped)
  double max_radius = 0, max_magnitude = 0;
  double max_exact_magnitude = 0;     // of the judged elements' exact values: what max_radius is measured against
  double max_midpoint_magnitude = 0;  // of their envelopes' midpoints: the same, when the exact value is unknown
};

// The verdict on each output; `actual` holds the runtime's outputs in the graph's output order, then
// the empty outputs, with the enclosures' shapes (an empty output's verdict: 0 elements, conforming).
std::vector<OutputVerdict> judge_outputs(const Enclosures& e, const NamedTensors& actual);

// conforms: every element judged on both sides and inside; does not conform: some element outside
// a judged side; inconclusive: none outside, but some element not judged.
enum class Verdict { Conforms, DoesNotConform, Inconclusive };
// With `cuts`, a given intermediate outside its envelope makes the answer not conform too.
Verdict overall_verdict(const std::vector<OutputVerdict>& verdicts, const CutVerdicts* cuts = nullptr);
const char* verdict_name(Verdict v);
bool none_outside(const std::vector<OutputVerdict>& verdicts);

// A float32 engine's value as a host tensor, and its outputs named as the graph's outputs.
HostTensor float32_host(const Tensor<float>& t);
NamedTensors named_outputs(const Graph& g, const std::vector<Tensor<float>>& outputs);

// How far outside [lo, hi] the value lies: 0 inside.
double distance_outside(double v, const Enclosure& e);

// The index of element `flat` of a tensor of shape `s`.
std::vector<int64_t> element_index(const Shape& s, int64_t flat);

// The verdicts as conform prints them: one line per output, then its worst element; with `exact`,
// first the precision the exact value took (print_exact_precision).
void print_verdicts(std::ostream& out, const std::vector<OutputVerdict>& verdicts, const RuntimeModel& runtime,
                    const ExactPrecision* exact = nullptr, const CutVerdicts* cuts = nullptr);

// The verdicts as conform --format json prints them: the overall verdict, the runtime model, and
// per output its counts, its worst element and where its envelope first lost a bound; with `exact`,
// exact_precision_bits, exact_over_target, exact_unbounded and exact_stopped (null when none is over).
// With `cuts`, an "intermediates" object: the counts and the first culprit (null when none).
std::string verdicts_json(const std::vector<OutputVerdict>& verdicts, const RuntimeModel& runtime,
                          const ExactPrecision* exact = nullptr, const CutVerdicts* cuts = nullptr);

// The inconclusive verdict where a size the model computes from its data is undetermined in the
// envelope (run.size-undetermined: a count of elements compared across a near tie): no output has a
// shape to judge against. As text, one line; as JSON, verdicts_json's keys with no outputs and
// `undetermined_size` giving the diagnostic's message.
std::string undetermined_size_text(const Diagnostic& d);
std::string undetermined_size_json(const Diagnostic& d, const RuntimeModel& runtime);

// A runtime's outputs read from `path` (Y.npy or Y.pb for a model with one output, Y.npz keyed by
// output name), checked against the model's output names and the enclosures' shapes, in the graph's
// output order, then the empty outputs (output_names).
Result<NamedTensors> read_actual(const std::string& path, const Model& m, const std::vector<Shape>& shapes);

// A runtime's outputs given by name (read from `path`, or in memory: `path` names where they came
// from in the messages), checked against the model's output names and the enclosures' shapes (a
// per-sample array for a batch-1 output gets its batch axis), in the graph's output order.
Result<NamedTensors> match_actual(NamedTensors given, const std::string& path, const Model& m,
                                  const std::vector<Shape>& shapes);

}  // namespace nnref
