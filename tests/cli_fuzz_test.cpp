// nnref fuzz: campaigns are functions of their seed, shards partition them, a wrong runtime is
// caught, shrunk and reproduced, a correct one passes, one that declines a model is counted, and
// bad options are usage errors.
#include <sys/wait.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/deadline.hpp"
#include "cli/fuzz_campaign.hpp"
#include "cli/shell_command.hpp"
#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"
#include "properties/generate.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;
namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

Json summary(const fs::path& out, const std::string& shard = "0-of-1") {
  return Json::parse(slurp(out / ("summary-" + shard + ".json")));
}

// A correct runtime reading NAC (every generated model is one; the default format becomes NNL once
// nnref writes it): nnref's float32 oracle, run as a user would run it, which keeps a copy of
// each model it is given in KEEP (numbered in the order it gets them). PERTURB (when not empty)
// is a Python statement run on the outputs `z` (a dict of arrays) before they are written back.
fs::path write_runtime(const fs::path& dir, const std::string& perturb) {
  const fs::path script = dir / "runtime.sh";
  write_text(script,
             "#!/bin/sh\n"
             "n=$(ls \"$4\" | wc -l)\n"
             "cp \"$1\" \"$4/model-$(printf %04d \"$n\").nac\" || exit 3\n"
             "'" NNREF_BINARY "' run \"$1\" --input \"$2\" --output \"$3\" --precision f32 --quiet || exit 4\n" +
                 (perturb.empty() ? std::string()
                                  : "exec /usr/bin/python3 -c 'import sys, numpy as np\n"
                                    "z = dict(np.load(sys.argv[1]))\n" +
                                        perturb +
                                        "\n"
                                        "np.savez(sys.argv[1], **z)' \"$3\"\n"));
  return script;
}

std::string runtime_arg(const fs::path& script, const fs::path& keep) {
  fs::create_directories(keep);
  return "sh " + shell_quoted(script.string()) + " {model} {input} {output} " + shell_quoted(keep.string());
}

std::vector<std::string> kept_models(const fs::path& keep) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(keep)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<std::string> bytes;
  for (const auto& f : files) bytes.push_back(slurp(f));
  return bytes;
}

// Op nodes of a generated graph, counted here: every node but inputs and constants.
int op_nodes(const Graph& g) {
  int n = 0;
  for (const Node& node : g.nodes) n += op_name(node.op) != "input" && op_name(node.op) != "const";
  return n;
}

}  // namespace

TEST_CASE("fuzz: shards partition a campaign and durations parse") {
  for (int64_t n = 1; n <= 5; ++n) {
    for (int64_t from = 0; from < 12; ++from) {
      for (int64_t i = 0; i < n; ++i) {
        const Shard s = *parse_shard(std::to_string(i) + "/" + std::to_string(n));
        int64_t first = from;
        while (first % n != i) ++first;  // by brute force
        CHECK(s.first_from(from) == first);
      }
      for (int64_t k = from; k < from + 20; ++k) {
        int takers = 0;
        for (int64_t i = 0; i < n; ++i) takers += Shard{i, n}.takes(k);
        CHECK(takers == 1);
      }
    }
  }
  for (const char* bad : {"", "1/1", "2/1", "0/0", "-1/2", "a/2", "0/2/3", "0 / 2", "1/"})
    CHECK(parse_shard(bad).error().code == "usage.shard");
  CHECK(*parse_duration("90") == 90);
  CHECK(*parse_duration("90s") == 90);
  CHECK(*parse_duration("10m") == 600);
  CHECK(*parse_duration("2h") == 7200);
  CHECK(*parse_duration("1h30m") == 5400);
  CHECK(*parse_duration("1h0m5s") == 3605);
  for (const char* bad : {"", "0", "0s", "10x", "m", "1h30", "30m1h", "1m1m", "-5s", "1.5h"})
    CHECK(parse_duration(bad).error().code == "usage.time");
  CHECK(seed_of(7, 0) != seed_of(7, 1));
  CHECK(seed_of(7, 3) == seed_of(7, 3));
}

TEST_CASE("fuzz: a child process's crash, exit and hang are told apart") {
  const ChildEnd crash = run_in_child(10, [](std::ostream&, std::ostream&) {
    std::signal(SIGSEGV, SIG_DFL);  // Catch's handler, inherited, would report it as this test's failure
    std::raise(SIGSEGV);
    return 0;
  });
  CHECK(crash.end == ChildEnd::End::Signalled);
  CHECK(crash.code == SIGSEGV);
  const ChildEnd exits = run_in_child(10, [](std::ostream& out, std::ostream&) {
    out << "fast\n";
    return 1;
  });
  CHECK(exits.end == ChildEnd::End::Exited);
  CHECK(exits.code == 1);
  CHECK(exits.out == "fast\n");
  const ChildEnd hangs = run_in_child(0.3, [](std::ostream&, std::ostream&) {
    for (;;) ::pause();
    return 0;
  });
  CHECK(hangs.end == ChildEnd::End::TimedOut);

  test::TempDir tmp("fuzz_shell");
  const std::string log = (tmp / "log").string();
  CHECK(run_shell("exit 3", 10, log).describe() == "exit code 3");
  CHECK(run_shell("echo hello; exit 0", 10, log).succeeded());
  CHECK(slurp(log) == "hello\n");
  const ChildEnd killed = run_shell("kill -9 $$", 10, log);
  CHECK(killed.end == ChildEnd::End::Signalled);
  CHECK(killed.code == 9);
  const auto start = std::chrono::steady_clock::now();
  // The background sleep is in the same process group: the timeout kills it too.
  CHECK(run_shell("sleep 30 & sleep 30", 0.3, log).end == ChildEnd::End::TimedOut);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
}

TEST_CASE("fuzz: bad options are usage errors") {
  test::TempDir tmp("fuzz_usage");
  const std::string out = (tmp / "out").string();
  const auto fails_with = [&](std::vector<std::string> args, const std::string& text) {
    args.insert(args.begin(), "fuzz");
    Run r = nnref_cli(args);
    INFO(args.back() << ": " << r.err);
    CHECK(r.code == 2);
    CHECK(r.err.find(text) != std::string::npos);
  };
  fails_with({"--seed", "1", "--out", out}, "usage.fuzz-budget");
  fails_with({"--seed", "1", "--count", "3", "--time", "1m", "--out", out}, "excludes");
  fails_with({"--seed", "1", "--count", "0", "--out", out}, "--count");
  fails_with({"--seed", "1", "--time", "10x", "--out", out}, "usage.time");
  fails_with({"--seed", "1", "--count", "3", "--shard", "2/2", "--out", out}, "usage.shard");
  fails_with({"--seed", "1", "--count", "3", "--shard", "1", "--out", out}, "usage.shard");
  fails_with({"--seed", "1", "--count", "3", "--engines", "oracle,turbo", "--out", out}, "turbo");
  fails_with({"--seed", "1", "--count", "3", "--ops", "no_such_op", "--out", out}, "no_such_op");
  fails_with({"--seed", "1", "--count", "3", "--max-nodes", "0", "--out", out}, "--max-nodes");
  fails_with({"--seed", "1", "--count", "3", "--runtime-format", "onnx", "--out", out}, "usage.runtime-format");
  fails_with({"--seed", "1", "--count", "3", "--runtime", "true", "--runtime-format", "tflite", "--out", out},
             "tflite");
  fails_with({"--seed", "1", "--count", "3"}, "--out");
  write_text(tmp / "a_file", "");
  fails_with({"--seed", "1", "--count", "3", "--out", (tmp / "a_file" / "out").string()}, "io.fuzz-out");
}

TEST_CASE("fuzz: a campaign is a function of its seed, and shards partition it") {
  test::TempDir tmp("fuzz_seed");
  const fs::path script = write_runtime(tmp.path, "");
  const auto campaign = [&](const std::string& name, const std::string& shard) {
    const fs::path keep = tmp / (name + "-kept");
    Run r = nnref_cli({"fuzz", "--seed", "11", "--count", "8", "--shard", shard, "--max-nodes", "6", "--runtime-format", "nac", "--runtime",
                       runtime_arg(script, keep), "--out", (tmp / name).string()});
    INFO(r.err);
    CHECK(r.code == 0);
    return kept_models(keep);
  };
  const std::vector<std::string> first = campaign("a", "0/1"), again = campaign("b", "0/1");
  REQUIRE(first.size() == 8);
  CHECK(first == again);  // byte for byte
  CHECK(std::set<std::string>(first.begin(), first.end()).size() > 4);  // different models, not one repeated
  const std::vector<std::string> even = campaign("even", "0/2"), odd = campaign("odd", "1/2");
  REQUIRE(even.size() == 4);
  REQUIRE(odd.size() == 4);
  for (size_t j = 0; j < 4; ++j) {
    CHECK(even[j] == first[2 * j]);
    CHECK(odd[j] == first[2 * j + 1]);
  }
  const Json s = summary(tmp / "odd", "1-of-2");
  CHECK(s["models"] == 4);
  CHECK(s["last_model"] == 7);
  CHECK(s["failures"] == 0);
}

TEST_CASE("fuzz: a correct runtime gives no failure") {
  test::TempDir tmp("fuzz_correct");
  const fs::path script = write_runtime(tmp.path, "");
  Run r = nnref_cli({"fuzz", "--seed", "5", "--count", "12", "--max-nodes", "10", "--runtime-format", "nac", "--runtime",
                     runtime_arg(script, tmp / "kept"), "--out", (tmp / "out").string()});
  INFO(r.err);
  CHECK(r.code == 0);
  const Json s = summary(tmp / "out");
  CHECK(s["models"] == 12);
  CHECK(s["failures"] == 0);
  CHECK(s["subjects"] == Json::array({"runtime"}));
  for (const auto& e : fs::directory_iterator(tmp / "out")) CHECK(e.path().extension() == ".json");
}

TEST_CASE("fuzz: a wrong runtime is caught, shrunk and reproduced") {
  test::TempDir tmp("fuzz_wrong");
  // Wrong on every model with an even number of output elements, by far more than any envelope.
  const fs::path script = write_runtime(
      tmp.path, "if sum(v.size for v in z.values()) % 2 == 0: z = {k: v + 1 + 4 * abs(v) for k, v in z.items()}");
  const fs::path out = tmp / "campaign";  // not "out": nnref_process keeps its stdout there
  const uint64_t seed = 23;
  Run r = nnref_process({"fuzz", "--seed", std::to_string(seed), "--count", "6", "--max-nodes", "8",
                         "--shrink-attempts", "30", "--runtime-format", "nac", "--runtime",
                         runtime_arg(script, tmp / "kept"), "--out", out.string()},
                        tmp.path);
  INFO(r.err);
  REQUIRE(r.code == 1);
  const Json s = summary(out);
  CHECK(s["models"] == 6);
  REQUIRE(s["failures"] >= 1);
  int smaller = 0, larger_than_one = 0;  // a one-node model cannot shrink further
  for (const Json& f : s["failed"]) {
    const fs::path dir = out / f["folder"].get<std::string>();
    INFO(dir.string());
    CHECK(f["subjects"] == Json::array({"runtime"}));
    // The original regenerated from the campaign's seed, the shrunk model from its recorded choices.
    const int64_t k = f["model"];
    properties::Choices fresh = properties::Choices::fresh(seed_of(seed, k));
    properties::GenOptions options;
    options.max_nodes = 8;
    auto original = properties::generate(fresh, options);
    REQUIRE(original.ok());
    const Json choices = Json::parse(slurp(dir / "choices.json"));
    properties::Choices replay = properties::Choices::replay(choices["choices"].get<std::vector<uint64_t>>());
    auto shrunk = properties::generate(replay, options);
    REQUIRE(shrunk.ok());
    CHECK(op_nodes(shrunk->model.graph) <= op_nodes(original->model.graph));
    smaller += op_nodes(shrunk->model.graph) < op_nodes(original->model.graph);
    larger_than_one += op_nodes(original->model.graph) > 1;
    CHECK(choices["original_choices"].get<std::vector<uint64_t>>() == original->choices);
    CHECK(fs::exists(dir / "model.nac"));
    CHECK(fs::exists(dir / "output-runtime.npz"));
    CHECK(slurp(dir / "verdict.txt").find("FAIL") != std::string::npos);
    // The verdict reproduces: reproduce.sh runs the runtime again and conform judges its answer.
    const int status = std::system(("sh " + shell_quoted((dir / "reproduce.sh").string()) + " >/dev/null 2>&1").c_str());
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 1);
  }
  REQUIRE(larger_than_one >= 1);
  CHECK(smaller >= 1);
}

TEST_CASE("fuzz: a runtime that fails to answer fails the model") {
  test::TempDir tmp("fuzz_no_answer");
  for (const std::string& runtime : {std::string("sleep 20"), std::string("echo not-npz > {output}"),
                                     std::string("exit 7"), std::string("true")}) {
    const fs::path out = tmp / ("out" + std::to_string(runtime.size()));
    Run r = nnref_cli({"fuzz", "--seed", "2", "--count", "1", "--timeout", "0.5", "--shrink-attempts", "0",
                       "--runtime-format", "nac", "--runtime", runtime, "--out", out.string()});
    INFO(runtime << ": " << r.err);
    CHECK(r.code == 1);
    const Json s = summary(out);
    REQUIRE(s["failures"] == 1);
    const std::string verdict = slurp(out / s["failed"][0]["folder"].get<std::string>() / "verdict.txt");
    INFO(verdict);
    CHECK(verdict.find("== runtime: FAILS ==") != std::string::npos);
  }
}

// Exit code 77 (kRuntimeDeclines): the runtime does not run the model (a kernel it lacks); the
// model is counted as declined, neither judged nor failed, and leaves no reproducer.
TEST_CASE("fuzz: a runtime that declines a model is counted, not failed") {
  test::TempDir tmp("fuzz_declined");
  const fs::path out = tmp / "out";
  Run r = nnref_cli({"fuzz", "--seed", "2", "--count", "3", "--runtime-format", "nac", "--runtime", "exit 77", "--out",
                     out.string()});
  INFO(r.err);
  CHECK(r.code == 0);
  const Json s = summary(out);
  CHECK(s["models"] == 3);
  CHECK(s["declined"] == 3);
  CHECK(s["unexpressible"] == 0);
  CHECK(s["failures"] == 0);
  for (const auto& e : fs::directory_iterator(out)) CHECK(e.path().extension() == ".json");
}
