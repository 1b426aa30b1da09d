// nnref check as a user runs it: --dim, --assume, the three output formats, --explain, and the
// exit codes (0 proved, 1 refuted or unknown, 2 usage or I/O).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/app.hpp"

using namespace nnref;

namespace {

struct Run {
  int code;
  std::string out, err;
};

Run check(std::vector<std::string> args) {
  args.insert(args.begin(), "check");
  std::ostringstream out, err;
  int code = run_app(args, out, err);
  return {code, out.str(), err.str()};
}

const std::string kDownsample = std::string(NNREF_SOURCE_DIR) + "/examples/downsample_block/model.nnl";

}  // namespace

TEST_CASE("check: the multiple-of-4 example is refuted without the assumption, proved with it") {
  // ⌊H/4⌋ (the pool) = ⌈H/4⌉ (the stride-4 same conv) exactly when 4 | H; the smallest H ≥ 4
  // that is not a multiple of 4 is 5.
  Run refuted = check({kDownsample, "--dim", "input.0=4..512"});
  INFO(refuted.err);
  CHECK(refuted.code == 1);
  CHECK(refuted.err.find("downsample_block/model.nnl:18:9: error[shape.add_n.mismatch]") != std::string::npos);
  CHECK(refuted.err.find("counterexample: input.0 = 5\n") != std::string::npos);
  CHECK(refuted.err.find("but --dim allows input.0 = 4..512") != std::string::npos);
  CHECK(refuted.out.find("1 refuted, 0 unknown") != std::string::npos);

  Run proved = check({kDownsample, "--dim", "input.0=4..512", "--assume", "input.0 % 4 == 0"});
  INFO(proved.err);
  CHECK(proved.code == 0);
  CHECK(proved.err.empty());
  CHECK(proved.out.find(": ok, ") != std::string::npos);

  // Both axes symbolic and both assumed: still proved; one assumption missing: refuted at W.
  CHECK(check({kDownsample, "--dim", "input.0=4..64", "--dim", "input.1=4..64", "--assume",
               "input.0 % 4 == 0 && input.1 % 4 == 0"})
            .code == 0);
  Run w = check({kDownsample, "--dim", "input.0=4..64", "--dim", "input.1=4..64", "--assume", "input.0 % 4 == 0"});
  CHECK(w.code == 1);
  CHECK(w.err.find("counterexample: input.0 = 4, input.1 = 5\n") != std::string::npos);
}

TEST_CASE("check: the declared sizes alone are decided without --dim") {
  Run r = check({kDownsample});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find(": ok, ") != std::string::npos);
}

TEST_CASE("check --format json: diagnostics with their counterexample, and the counts") {
  Run r = check({kDownsample, "--dim", "input.0=4..512", "--format", "json"});
  CHECK(r.code == 1);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["diagnostics"].size() == 1);
  const auto& d = j["diagnostics"][0];
  CHECK(d["code"] == "shape.add_n.mismatch");
  CHECK(d["severity"] == "error");
  CHECK(d["line"] == 18);
  CHECK(d["column"] == 9);
  CHECK(d["node"] == "merge");
  CHECK(d["counterexample"] == nlohmann::json{{"input.0", 5}});
  CHECK(j["obligations"]["refuted"] == 1);
  CHECK(j["obligations"]["unknown"] == 0);
  CHECK(j["obligations"]["total"] == j["obligations"]["proved"].get<int>() + 1);
}

TEST_CASE("check --format sarif: one result per diagnostic") {
  Run r = check({kDownsample, "--dim", "input.0=4..512", "--format", "sarif"});
  CHECK(r.code == 1);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["version"] == "2.1.0");
  REQUIRE(j["runs"][0]["results"].size() == 1);
  CHECK(j["runs"][0]["results"][0]["ruleId"] == "shape.add_n.mismatch");
  CHECK(j["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 18);
}

TEST_CASE("check --explain prints an obligation's meaning; an unknown code is a usage error") {
  Run r = check({"--explain", "shape.conv.window-exceeds-input"});
  CHECK(r.code == 0);
  CHECK(r.out.rfind("shape.conv.window-exceeds-input (", 0) == 0);
  CHECK(r.out.find("formula:") != std::string::npos);
  Run bad = check({"--explain", "no.such.code"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("no.such.code") != std::string::npos);
}

TEST_CASE("check: usage errors exit 2 with a message naming the problem") {
  const auto usage = [](std::vector<std::string> args, const std::string& says) {
    Run r = check(std::move(args));
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.err.find(says) != std::string::npos);
  };
  usage({kDownsample, "--dim", "input.0"}, "expected NAME=LO..HI");
  usage({kDownsample, "--dim", "input.0=0..5"}, "1 <= LO <= HI");
  usage({kDownsample, "--dim", "input.0=9..5"}, "1 <= LO <= HI");
  usage({kDownsample, "--dim", "input.0=a..5"}, "must be integers");
  usage({kDownsample, "--dim", "input.9=1..5"}, "no input extent has this name");
  usage({kDownsample, "--dim", "input.0=1..5", "--dim", "input.0=1..6"}, "already has a range");
  usage({kDownsample, "--dim", "input.0=4..8", "--assume", "input.0 %% 4"}, "error[usage.assume]");
  usage({kDownsample, "--dim", "input.0=4..8", "--assume", "input.0 > 8"}, "no size satisfies");
  usage({kDownsample, "--assume", "input.0 == 31"}, "false for the declared sizes");
  usage({kDownsample, "--format", "xml"}, "xml");
  usage({}, "needs a model file");
  usage({"/nonexistent/model.nnl"}, "error[io.");
}

TEST_CASE("check: an obligation Z3 cannot decide is reported as unknown and fails the check") {
  // x² = 2y² has no positive solution, which Z3's integer arithmetic cannot establish, so under
  // this assumption neither the branches' agreement nor the memory budget is decided.
  Run r = check({kDownsample, "--dim", "input.0=4..100000", "--dim", "input.1=4..100000", "--assume",
                 "input.0 * input.0 == 2 * input.1 * input.1", "--timeout-ms", "50", "--format", "json"});
  CHECK(r.code == 1);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["obligations"]["unknown"].get<int>() >= 1);
  CHECK(j["obligations"]["refuted"] == 0);
  for (const auto& d : j["diagnostics"]) {
    CHECK(d["message"].get<std::string>().find("could not be decided") != std::string::npos);
    CHECK(d.count("counterexample") == 0);
  }
}
