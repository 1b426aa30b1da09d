// nnref fuzz: generated models (properties/generate.hpp) judged by nnref's float32 engines and by
// an external runtime, each answer against the float32 envelope as conform judges it; a failure is
// shrunk and written as a reproducer folder, and the campaign goes on. docs/cli.md, docs/testing.md.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/deadline.hpp"
#include "cli/fuzz_campaign.hpp"
#include "cli/fuzz_judge.hpp"
#include "cli/fuzz_reproducer.hpp"
#include "cli/model_files.hpp"
#include "properties/shrink.hpp"

namespace nnref {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

struct Campaign {
  Shard shard;
  double seconds = 0;  // the time budget (0: a count)
  properties::GenOptions gen;
  std::vector<Subject> subjects;
  fs::path out, work;
};

Result<Campaign> plan_campaign(const FuzzOptions& o) {
  Campaign c;
  if (o.time.empty() == (o.count == 0))
    return make_error("usage.fuzz-budget", "give the campaign's size: --count N models or --time DURATION, not both");
  auto shard = parse_shard(o.shard);
  if (!shard) return std::move(shard).error();
  c.shard = *shard;
  if (!o.time.empty()) {
    auto seconds = parse_duration(o.time);
    if (!seconds) return std::move(seconds).error();
    c.seconds = *seconds;
  }
  c.gen.max_nodes = o.max_nodes;
  c.gen.ops = o.ops;
  std::vector<std::string> engines = o.engines;
  if (engines.empty() && o.runtime.empty()) engines = {"oracle", "fast", "hw"};
  for (const std::string& e : engines) c.subjects.push_back({e, EngineChoice{e, 1, ""}, std::nullopt});
  if (!o.runtime.empty()) {
    const std::string format = o.runtime_format.empty() ? reproducer_formats().front() : o.runtime_format;
    c.subjects.push_back({"runtime", {}, ExternalRuntime{o.runtime, format, o.timeout}});
  } else if (!o.runtime_format.empty()) {
    return make_error("usage.runtime-format", "--runtime-format is the format of --runtime's model: give --runtime");
  }
  c.out = o.out;
  c.work = c.out / (".work-" + std::to_string(c.shard.index) + "-of-" + std::to_string(c.shard.count));
  std::error_code ec;
  fs::create_directories(c.work, ec);
  if (ec) return make_error("io.fuzz-out", "cannot create the folder '" + c.work.string() + "': " + ec.message());
  return c;
}

std::string summary_name(const Shard& s) {
  return "summary-" + std::to_string(s.index) + "-of-" + std::to_string(s.count) + ".json";
}

// What the shard has done, for merging with the other shards' (docs/testing.md).
struct Tally {
  int64_t models = 0, last = -1;
  int64_t unexpressible = 0;  // models the runtime was not asked about: its format cannot express them
  int64_t declined = 0;       // models the runtime declined (kRuntimeDeclines)
  Json failures = Json::array();
};

Status write_summary(const FuzzOptions& o, const Campaign& c, const Tally& t, double elapsed) {
  Json j;
  j["seed"] = o.seed;
  j["shard"] = o.shard;
  j["start"] = o.start;
  j["subjects"] = Json::array();
  for (const Subject& s : c.subjects) j["subjects"].push_back(s.name);
  j["max_nodes"] = o.max_nodes;
  j["ops"] = o.ops;
  j["models"] = t.models;
  j["last_model"] = t.last;
  j["unexpressible"] = t.unexpressible;
  j["declined"] = t.declined;
  j["failures"] = t.failures.size();
  j["elapsed_seconds"] = elapsed;
  j["failed"] = t.failures;
  const fs::path path = c.out / summary_name(c.shard);
  std::ofstream f(path, std::ios::trunc);
  f << j.dump(2) << "\n";
  if (!f.good()) return make_error("io.fuzz-out", "cannot write '" + path.string() + "'");
  return {};
}

std::string nnref_binary() {
  std::error_code ec;
  std::string self = fs::read_symlink("/proc/self/exe", ec).string();
  // A binary rebuilt while the campaign runs reads "PATH (deleted)": the path is what to run.
  constexpr std::string_view kDeleted = " (deleted)";
  if (self.ends_with(kDeleted)) self.resize(self.size() - kDeleted.size());
  return ec ? "nnref" : self;
}

// Shrinks a failing model, writes its reproducer folder and returns its line of the summary.
Json report_failure(const FuzzOptions& o, const Campaign& c, int64_t k, const properties::GeneratedModel& model,
                    const ModelOutcome& outcome, std::ostream& err) {
  std::vector<Subject> failing, ordered;
  for (const Subject& s : c.subjects)
    (std::find(outcome.failing.begin(), outcome.failing.end(), s.name) != outcome.failing.end() ? failing : ordered)
        .push_back(s);
  if (failing.empty()) failing = c.subjects;  // the envelope failed: every subject is judged again
  const double seconds = o.timeout * static_cast<double>(c.subjects.size());
  const auto fails = [&](const properties::GeneratedModel& candidate) {
    if (o.no_isolation) return judge_model(candidate.model, candidate.inputs, failing, c.work, o.max_memory).failed();
    return judge_model_isolated(candidate.model, candidate.inputs, failing, c.work, o.max_memory, seconds).failed();
  };
  const properties::GeneratedModel shrunk = properties::shrink(model, c.gen, fails, o.shrink_attempts);

  const FailureOrigin origin{o.seed, k, model.choices, op_node_count(model.model.graph), c.gen};
  const std::string name = std::to_string(o.seed) + "-" + std::to_string(k);
  const fs::path dir = c.out / name;
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  ordered.insert(ordered.begin(), failing.begin(), failing.end());
  const Work write = [&](std::ostream&, std::ostream& child_err) {
    Status s = write_reproducer(dir, origin, shrunk, ordered, nnref_binary(), o.max_memory);
    if (!s) child_err << "error[" << s.error().code << "]: " << s.error().message;
    return s ? 0 : 1;
  };
  ChildEnd written;
  if (o.no_isolation) {
    std::ostringstream ignored, write_err;
    written = {ChildEnd::End::Exited, write(ignored, write_err), {}, write_err.str()};
  } else {
    written = run_in_child(seconds + 60, write);
  }
  std::string note = outcome.note;
  if (!written.succeeded()) {
    const std::string how = written.describe() + (written.err.empty() ? "" : ": " + written.err);
    std::ofstream(dir / "verdict.txt", std::ios::app) << "the process writing this folder " << how << "\n";
    note += (note.empty() ? "" : "; ") + std::string("writing the reproducer ") + how;
  }
  err << "fuzz: model " << k << " fails (" << nlohmann::json(outcome.failing).dump() << (note.empty() ? "" : ", " + note)
      << "): shrunk from " << origin.original_nodes << " to " << op_node_count(shrunk.model.graph) << " op nodes, "
      << (dir / "reproduce.sh").string() << "\n";
  return Json{{"model", k},
              {"folder", name},
              {"subjects", outcome.failing},
              {"note", note},
              {"nodes", origin.original_nodes},
              {"shrunk_nodes", op_node_count(shrunk.model.graph)}};
}

}  // namespace

int fuzz_command(const FuzzOptions& o, std::ostream& out, std::ostream& err) {
  auto campaign = plan_campaign(o);
  if (!campaign) {
    print_diagnostics(err, {campaign.error()});
    return kExitUsage;
  }
  const Campaign& c = *campaign;
  Tally tally;
  if (Status s = write_summary(o, c, tally, 0); !s) {
    print_diagnostics(err, {s.error()});
    return kExitUsage;
  }
  const auto started = Clock::now();
  auto last_progress = started;
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };
  const auto progress = [&] {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.1f", static_cast<double>(tally.models) / std::max(elapsed(), 1e-9));
    err << "fuzz: " << tally.models << " models, " << rate << " models/s, " << tally.failures.size() << " failures\n";
  };
  const int64_t end = c.seconds > 0 ? INT64_MAX : o.start + o.count;
  for (int64_t k = c.shard.first_from(o.start); k < end; k += c.shard.count) {
    if (c.seconds > 0 && elapsed() >= c.seconds) break;
    properties::Choices choices = properties::Choices::fresh(seed_of(o.seed, k));
    auto model = properties::generate(choices, c.gen);
    if (!model) {
      print_diagnostics(err, {model.error()});
      return kExitUsage;
    }
    const double seconds = o.timeout * static_cast<double>(c.subjects.size());
    const ModelOutcome outcome =
        o.no_isolation ? judge_model(model->model, model->inputs, c.subjects, c.work, o.max_memory)
                       : judge_model_isolated(model->model, model->inputs, c.subjects, c.work, o.max_memory, seconds);
    ++tally.models;
    tally.last = k;
    tally.unexpressible += !outcome.skipped.empty();
    tally.declined += !outcome.declined.empty();
    if (outcome.failed()) {
      tally.failures.push_back(report_failure(o, c, k, *model, outcome, err));
      if (Status s = write_summary(o, c, tally, elapsed()); !s) {
        print_diagnostics(err, {s.error()});
        return kExitUsage;
      }
    }
    if (Clock::now() - last_progress >= std::chrono::seconds(1)) {
      progress();
      last_progress = Clock::now();
    }
  }
  progress();  // the campaign's last line
  std::error_code ignored;
  fs::remove_all(c.work, ignored);
  if (Status s = write_summary(o, c, tally, elapsed()); !s) {
    print_diagnostics(err, {s.error()});
    return kExitUsage;
  }
  out << tally.models << " models judged, " << tally.failures.size() << " failures; "
      << (c.out / summary_name(c.shard)).string() << "\n";
  return tally.failures.empty() ? kExitOk : kExitInvalid;
}

}  // namespace nnref
