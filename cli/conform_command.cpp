// nnref conform: is another runtime's output a correct answer for this model and input? Every
// element must lie in the float32 (or f16, bf16) envelope of the model (spec/scalar_envelope.hpp);
// the rigorous interval gives the exact value's enclosure next to it (--exact; by default only where
// the verdict needs it: an envelope side past the largest finite number). docs/conformance.md.
#include <optional>
#include <ostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/engine_cuts.hpp"
#include "cli/engines.hpp"
#include "cli/sizes.hpp"
#include "cli/verdict.hpp"

namespace nnref {

namespace {

int exit_code(Verdict v, bool inconclusive_ok) {
  switch (v) {
    case Verdict::Conforms: return kExitOk;
    case Verdict::DoesNotConform: return kExitInvalid;
    case Verdict::Inconclusive: return inconclusive_ok ? kExitOk : kExitInconclusive;
  }
  return kExitInvalid;
}

}  // namespace

int conform_command(const ConformOptions& o, std::ostream& out, std::ostream& err) {
  if (o.actual.empty() == o.engine.engine.empty()) {
    print_diagnostics(err, {make_error("usage.conform-subject", "give the runtime's output (--actual Y.npy) or one of "
                                                                "nnref's engines (--engine f32|fast|hw), not both")});
    return kExitUsage;
  }
  const EngineChoice engine{o.engine.engine == "f32" ? "oracle" : o.engine.engine, o.engine.threads, o.engine.target};
  if (Status chosen = prepare_engine_choice(engine); !chosen) {
    print_diagnostics(err, {chosen.error()});
    return kExitUsage;
  }
  int exit = kExitOk;
  const RuntimeModel runtime = *runtime_model(o.runtime_precision, o.ulps);
  auto loaded =
      load_with_inputs(o.model, LoadOptions{WeightsPolicy::Required, o.max_memory}, o.dims, o.inputs, err, exit, &runtime);
  if (!loaded) return exit;
  const Model& model = loaded->model;
  const std::vector<HostTensor>& inputs = loaded->inputs;
  std::vector<std::string> cut_notes;
  std::optional<std::vector<Cut>> cuts;
  // The given intermediates are held as doubles while the model is judged: their bytes come out of the
  // budget, and an archive that could not fit (float32 items take twice their size) is refused before
  // it is inflated.
  int64_t budget = o.max_memory;
  NamedTensors actual;
  if (!o.engine.engine.empty() && !model.graph.outputs.empty()) {
    // The engine's own values of every real intermediate are its cut points (cli/engine_cuts.hpp).
    auto answer = engine_answer(loaded->model, inputs, budget, engine);
    if (!answer) {
      print_diagnostics(err, {answer.error()});
      return exit_code_for(answer.error());
    }
    actual = std::move(answer->outputs);
    if (!answer->cuts.empty()) cuts = std::move(answer->cuts);
  } else if (!o.intermediates.empty()) {
    auto read = read_cuts(o.intermediates, model, cut_notes, static_cast<uint64_t>(o.max_memory / 2));
    if (!read) {
      print_diagnostics(err, {read.error()});
      return exit_code_for(read.error());
    }
    cuts = std::move(read).value();
  }
  if (cuts)
    for (const Cut& c : *cuts) budget -= static_cast<int64_t>(c.value.values.size() * sizeof(double));
  const ExactValue exact_value = o.skip_exact ? ExactValue::Skipped
                                 : o.exact    ? ExactValue::Computed
                                              : ExactValue::WhenNeeded;
  auto enclosures = enclose_outputs(model, inputs, runtime, budget, cuts ? &*cuts : nullptr, exact_value);
  if (!enclosures) {
    Diagnostic d = std::move(enclosures).error();
    note_given_sizes(d, loaded->model.graph, loaded->sizes);
    print_diagnostics(err, {d});
    // No evidence against the answer: the envelope cannot say which shape a correct one has.
    if (d.code == "run.size-undetermined") {
      out << (o.format == "json" ? undetermined_size_json(d, runtime) : undetermined_size_text(d));
      return exit_code(Verdict::Inconclusive, o.inconclusive_ok);
    }
    return exit_code_for(d);
  }
  const std::vector<Shape> shapes = enclosures->shapes();

  if (!o.engine.engine.empty()) {
    append_empty_outputs(model, actual, DType::F32);
  } else {
    auto given = read_actual(o.actual, model, shapes);
    if (!given) {
      print_diagnostics(err, {given.error()});
      return exit_code_for(given.error());
    }
    actual = std::move(given).value();
  }
  const std::vector<OutputVerdict> verdicts = judge_outputs(*enclosures, actual);
  CutVerdicts& judged_cuts = enclosures->cuts;
  judged_cuts.notes.insert(judged_cuts.notes.begin(), cut_notes.begin(), cut_notes.end());
  const CutVerdicts* shown = cuts ? &judged_cuts : nullptr;
  const ExactPrecision* exact = &enclosures->exact_precision;
  if (o.format == "json")
    out << verdicts_json(verdicts, runtime, exact, shown);
  else
    print_verdicts(out, verdicts, runtime, exact, shown);
  return exit_code(overall_verdict(verdicts, shown), o.inconclusive_ok);
}

}  // namespace nnref
