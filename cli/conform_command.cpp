// nnref conform: is another runtime's output a correct answer for this model and input? Every
// element must lie in the float32 (or f16, bf16) envelope of the model (spec/scalar_envelope.hpp);
// the rigorous interval gives the exact value's enclosure next to it. docs/conformance.md.
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/engines.hpp"
#include "cli/inputs.hpp"
#include "cli/verdict.hpp"
#include "formats/tensor_file.hpp"
#include "formats/tensor_files/npy.hpp"
#include "spec/index.hpp"

namespace nnref {

namespace {

using Json = nlohmann::ordered_json;

// The runtime's outputs, checked against the model's names and shapes.
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

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v + 0.0);  // + 0.0: −0 prints as 0
  return buf;
}

std::vector<int64_t> index_of(const Shape& s, int64_t flat) {
  std::vector<int64_t> idx;
  unflatten(flat, s.dims(), idx);
  return idx;
}

std::string index_str(const Shape& s, int64_t flat) {
  std::string out;
  for (int64_t i : index_of(s, flat)) out += (out.empty() ? "" : ", ") + std::to_string(i);
  return "[" + out + "]";
}

void print_text(std::ostream& out, const std::vector<OutputVerdict>& verdicts, const RuntimeModel& runtime) {
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

void print_json(std::ostream& out, const std::vector<OutputVerdict>& verdicts, const RuntimeModel& runtime,
                bool conforms) {
  Json j;
  j["verdict"] = conforms ? "conforms" : "does-not-conform";
  j["runtime_precision"] = runtime.name;
  j["unit_roundoff"] = runtime.u;
  j["ulps"] = runtime.ulps;
  j["outputs"] = Json::array();
  for (const auto& v : verdicts) {
    Json o;
    o["name"] = v.name;
    o["shape"] = v.shape.dims();
    o["elements"] = v.elements;
    o["outside"] = v.outside;
    o["unbounded"] = v.unbounded;
    o["max_radius"] = v.max_radius;
    o["max_magnitude"] = v.max_magnitude;
    if (v.worst >= 0) {
      o["worst"] = {{"index", index_of(v.shape, v.worst)},
                    {"actual", v.actual},
                    {"exact", {v.exact.lo, v.exact.hi}},
                    {"envelope", {v.envelope.lo, v.envelope.hi}},
                    {"distance", distance_outside(v.actual, v.envelope)},
                    // null (JSON has no infinity) outside a point envelope or one with an infinite side
                    {"excess_radii", v.excess}};
    }
    j["outputs"].push_back(o);
  }
  out << j.dump(2) << "\n";
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
  auto model = load_reporting(o.model, LoadOptions{WeightsPolicy::Required, o.max_memory}, err, exit);
  if (!model) return exit;
  auto inputs = read_inputs(model->graph, o.inputs);
  if (!inputs) {
    print_diagnostics(err, {inputs.error()});
    return exit_code_for(inputs.error());
  }
  const RuntimeModel runtime = *runtime_model(o.runtime_precision, o.ulps);
  auto enclosures = enclose_outputs(*model, *inputs, runtime, o.max_memory);
  if (!enclosures) {
    print_diagnostics(err, {enclosures.error()});
    return exit_code_for(enclosures.error());
  }
  const std::vector<Shape> shapes = enclosures->shapes();

  NamedTensors actual;
  if (!o.engine.engine.empty()) {
    auto f32 = run_float32(*model, *inputs, o.max_memory, engine);
    if (!f32) {
      print_diagnostics(err, {f32.error()});
      return exit_code_for(f32.error());
    }
    actual = named_outputs(model->graph, *f32);
  } else {
    auto given = read_actual(o.actual, *model, shapes);
    if (!given) {
      print_diagnostics(err, {given.error()});
      return exit_code_for(given.error());
    }
    actual = std::move(given).value();
  }
  const std::vector<OutputVerdict> verdicts = judge_outputs(*enclosures, actual);
  const bool conforms = all_conform(verdicts);
  if (o.format == "json") print_json(out, verdicts, runtime, conforms);
  else print_text(out, verdicts, runtime);
  return conforms ? kExitOk : kExitInvalid;
}

}  // namespace nnref
