// nnref suite: a certified conformance suite on disk. Per case (a model with its inputs, or a data
// set of an ONNX backend test), the model, its inputs, and per output the exact value's enclosure
// and the runtime's envelope as float64 lower and upper arrays, computed by the functions conform
// judges with (cli/verdict.hpp), so that scripts/judge_suite.py, without nnref, gives conform's
// verdict on any runtime's answers. docs/suite.md.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/fuzz_campaign.hpp"
#include "cli/sizes.hpp"
#include "cli/suite_cases.hpp"
#include "cli/tensor_pb.hpp"
#include "cli/verdict.hpp"
#include "formats/tensor_files/npy.hpp"

namespace nnref {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// The model and its inputs, loaded as conform loads them (every problem a diagnostic).
Result<ModelWithInputs> load_case(const SuiteCase& c, int64_t max_memory) {
  if (c.problem) return *c.problem;
  auto given = read_input_files(c.inputs);
  LoadOptions options{WeightsPolicy::Required, max_memory};
  if (given) options.input_shapes = given_shapes(*given);
  LoadResult r = load_model(c.model, options);
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) return d;
  if (!r.model) return make_error("io.read-failed", "the model '" + c.model + "' could not be read");
  return bind_inputs(std::move(*r.model), {}, std::move(given), true);
}

Status copy_into(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to.parent_path(), ec);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
  if (ec) return make_error("io.write", "cannot copy '" + from.string() + "' to '" + to.string() + "': " + ec.message());
  return {};
}

// The model file (or folder) and its weights, at the same place relative to the model as in the
// source (a weights location outside the model's folder goes beside it, under its own name).
Result<Json> copy_model(const Model& m, const fs::path& dir) {
  const fs::path model(m.path);
  const fs::path name = fs::absolute(model).lexically_normal().filename();
  if (Status s = copy_into(model, dir / name); !s) return s.error();
  Json j = {{"file", name.string()}, {"format", m.format}};
  // An ONNX file's weights are inside it (its weights_path names the file itself).
  if (!m.weights_path.empty() && fs::exists(m.weights_path) && !fs::is_directory(model) &&
      !fs::equivalent(m.weights_path, model)) {
    fs::path rel = fs::absolute(m.weights_path).lexically_normal().lexically_relative(
        fs::absolute(model).lexically_normal().parent_path());
    if (rel.empty() || *rel.begin() == "..") rel = fs::path(m.weights_path).filename();
    if (Status s = copy_into(m.weights_path, dir / rel); !s) return s.error();
    j["weights"] = rel.string();
  }
  return j;
}

// Writes t as stem.npy, and stem.pb in the ONNX layout too when `pb` is set.
Status write_array(const fs::path& dir, const std::string& stem, const HostTensor& t, const std::string& name,
                   bool pb) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (Status s = write_npy((dir / (stem + ".npy")).string(), t); !s) return s;
  if (pb) return write_tensor_pb((dir / (stem + ".pb")).string(), t, name);
  return {};
}

// One output's four arrays and its line of the manifest. The envelope's sides are written as conform
// judges them (envelope_side): a judged side as its bound, an overflow side as ±∞ (±∞ and every
// value past the bound are correct answers), a lost side as NaN (bounds nothing: not judged). An
// exact ±∞ is written as that infinity on both sides, an exact NaN as NaN on both sides with its
// flat index in the manifest's "nan" list (judged: only NaN is correct there).
Result<Json> write_output(const Enclosures& e, size_t k, const std::string& name, const LostAt* lost,
                          const fs::path& dir, bool pb) {
  const Tensor<Envelope>& envelope = e.envelope[k];
  const Tensor<Interval>& exact = e.exact[k];
  HostTensor lo{DType::F64, envelope.shape(), {}}, hi = lo, exact_lo = lo, exact_hi = lo;
  int64_t judged = 0, not_judged = 0, overflow_sides = 0;
  std::vector<int64_t> exact_nan;
  for (int64_t i = 0; i < envelope.size(); ++i) {
    const Enclosure b = sc::enclosure(envelope[i]);
    const Enclosure x = sc::enclosure(exact[i]);  // rounded outward to doubles
    exact_lo.values.push_back(x.lo);
    exact_hi.values.push_back(x.hi);
    if (b.special()) {
      if (b.nan) exact_nan.push_back(i);
      lo.values.push_back(b.lo);
      hi.values.push_back(b.hi);
      ++judged;
      continue;
    }
    const Side sl = envelope_side(b.lo, x.lo, e.max_finite, false), sh = envelope_side(b.hi, x.hi, e.max_finite, true);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    lo.values.push_back(sl == Side::Lost ? nan : sl == Side::Overflow ? -HUGE_VAL : b.lo);
    hi.values.push_back(sh == Side::Lost ? nan : sh == Side::Overflow ? HUGE_VAL : b.hi);
    overflow_sides += (sl == Side::Overflow) + (sh == Side::Overflow);
    (sl == Side::Lost || sh == Side::Lost ? not_judged : judged) += 1;
  }
  const std::string stem = "output_" + std::to_string(k);
  for (const auto& [folder, t] : {std::pair{"exact_lower", &exact_lo}, std::pair{"exact_upper", &exact_hi},
                                  std::pair{"envelope_lower", &lo}, std::pair{"envelope_upper", &hi}})
    if (Status s = write_array(dir / folder, stem, *t, name, pb); !s) return s.error();
  Json o = {{"name", name},         {"file", stem},           {"shape", envelope.shape().dims()},
            {"elements", envelope.size()}, {"judged", judged}, {"not_judged", not_judged},
            {"overflow_sides", overflow_sides}};
  o["nan"] = exact_nan;
  o["first_lost_at"] = lost ? Json{{"node", lost->node}, {"op", lost->op}, {"why", lost->why}} : Json(nullptr);
  return o;
}

// Writes the case's folder; its line of the manifest.
Result<Json> write_case(const SuiteCase& c, size_t index, const RuntimeModel& runtime, int64_t max_memory,
                        const fs::path& out) {
  const auto start = std::chrono::steady_clock::now();
  auto loaded = load_case(c, max_memory);
  if (!loaded) return std::move(loaded).error();
  const Model& m = loaded->model;
  auto enclosures = enclose_outputs(m, loaded->inputs, runtime, max_memory);
  if (!enclosures) return std::move(enclosures).error();
  const fs::path dir = out / c.name;
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  if (ec) return make_error("io.suite-out", "cannot create '" + dir.string() + "': " + ec.message());
  Json j = {{"name", c.name}, {"index", index}, {"source", c.source}};
  auto model = copy_model(m, dir);
  if (!model) return std::move(model).error();
  j["model"] = *model;
  const bool pb = m.format == "onnx";
  j["inputs"] = Json::array();
  const std::vector<int64_t> ids = m.graph.input_ids();
  for (size_t k = 0; k < ids.size(); ++k) {
    const std::string& name = m.graph.nodes[static_cast<size_t>(ids[k])].name;
    const HostTensor& t = loaded->inputs[k];
    const std::string stem = "input_" + std::to_string(k);
    if (Status s = write_array(dir, stem, t, name, false); !s) return s.error();
    if (pb)
      if (Status s = write_array(dir / "test_data_set_0", stem, t, name, true); !s) return s.error();
    j["inputs"].push_back({{"name", name}, {"file", stem}, {"shape", t.shape.dims()}, {"dtype", dtype_name(t.dtype)}});
  }
  j["outputs"] = Json::array();
  for (size_t k = 0; k < m.graph.outputs.size(); ++k) {
    const auto& lost = k < enclosures->first_lost.size() ? enclosures->first_lost[k] : std::nullopt;
    auto o = write_output(*enclosures, k, m.graph.outputs[k].name, lost ? &*lost : nullptr, dir, pb);
    if (!o) return std::move(o).error();
    j["outputs"].push_back(*o);
  }
  j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return j;
}

std::string manifest_name(const Shard& s) {
  if (s.count == 1) return "manifest.json";
  return "manifest-" + std::to_string(s.index) + "-of-" + std::to_string(s.count) + ".json";
}

}  // namespace

int suite_command(const SuiteOptions& o, std::ostream& out, std::ostream& err) {
  auto shard = parse_shard(o.shard);
  if (!shard) {
    print_diagnostics(err, {shard.error()});
    return kExitUsage;
  }
  auto cases = suite_cases(o.sources);
  if (!cases) {
    print_diagnostics(err, {cases.error()});
    return exit_code_for(cases.error());
  }
  const fs::path dir(o.out);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    print_diagnostics(err, {make_error("io.suite-out", "cannot create the suite's folder '" + o.out + "'" +
                                                           (ec ? ": " + ec.message() : ""))});
    return kExitUsage;
  }
  const RuntimeModel runtime = *runtime_model(o.runtime_precision, o.ulps);
  Json manifest;
  manifest["nnref_version"] = o.version;
  manifest["runtime_precision"] = runtime.name;
  manifest["unit_roundoff"] = runtime.u;
  manifest["ulps"] = runtime.ulps;
  manifest["tiny"] = runtime.tiny;
  manifest["max_finite"] = runtime.max_finite;
  manifest["shard"] = o.shard;
  manifest["all_cases"] = cases->size();
  manifest["cases"] = Json::array();
  manifest["skipped"] = Json::array();
  std::optional<Diagnostic> first_skip;
  int64_t written = 0;
  for (size_t k = 0; k < cases->size(); ++k) {
    if (!shard->takes(static_cast<int64_t>(k))) continue;
    const SuiteCase& c = (*cases)[k];
    auto j = write_case(c, k, runtime, o.max_memory, dir);
    if (j) {
      manifest["cases"].push_back(std::move(j).value());
      ++written;
      continue;
    }
    const Diagnostic& d = j.error();
    if (!first_skip) first_skip = d;
    manifest["skipped"].push_back({{"name", c.name}, {"index", k}, {"source", c.source}, {"code", d.code},
                                   {"message", d.message}});
    out << "skipped " << c.name << ": " << d.code << ": " << d.message << "\n";
  }
  const fs::path path = dir / manifest_name(*shard);
  std::ofstream f(path, std::ios::trunc);
  f << manifest.dump(2) << "\n";
  if (!f.good()) {
    print_diagnostics(err, {make_error("io.suite-out", "cannot write '" + path.string() + "'")});
    return kExitUsage;
  }
  out << "suite: " << written << " cases written, " << manifest["skipped"].size() << " skipped; " << path.string()
      << "\n";
  // Nothing written although the shard had cases: the command failed, with the first case's reason.
  if (written == 0 && first_skip) {
    print_diagnostics(err, {*first_skip});
    return exit_code_for(*first_skip);
  }
  return kExitOk;
}

}  // namespace nnref
