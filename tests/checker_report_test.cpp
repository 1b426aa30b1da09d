// The three formats of a check's report: the exact text, every key and value of the JSON, and
// SARIF validated against the official OASIS schema (tests/data/sarif/) by python3-jsonschema.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "semantics/catalogue.hpp"
#include "checker/report.hpp"
#include "temp_dir.hpp"

using namespace nnref;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

Diagnostic diag(Severity s, std::string code, std::string message, SourceLoc loc = {},
                std::string node = {}) {
  Diagnostic d;
  d.severity = s;
  d.code = std::move(code);
  d.message = std::move(message);
  d.loc = std::move(loc);
  d.node = std::move(node);
  return d;
}

std::set<std::string> keys(const Json& j) {
  std::set<std::string> out;
  for (auto it = j.begin(); it != j.end(); ++it) out.insert(it.key());
  return out;
}

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

const fs::path kSchema = fs::path(NNREF_SOURCE_DIR) / "tests" / "data" / "sarif" / "sarif-schema-2.1.0.json";

// Exit status of `python3 -c "jsonschema.validate(...)"` on the document at `doc`: 0 when valid.
int validate_sarif(const fs::path& doc) {
  std::string cmd =
      "/usr/bin/python3 -c \"import json,jsonschema,sys; "
      "jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))\" '" +
      doc.string() + "' '" + kSchema.string() + "' 2>'" + doc.string() + ".err'";
  int status = std::system(cmd.c_str());
  if (status == -1 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A small report: an error with everything (location, node, counterexample, note) and a
// warning with only a file.
CheckReport small_report() {
  CheckReport r;
  Diagnostic e = diag(Severity::Error, "shape.window.exceeds-input",
                      "conv1: the window (5) exceeds the padded input", {"model.nnl", 4, 7}, "conv1");
  e.counterexample = {{"batch", 1}, {"x.1", 3}};
  e.notes = {"the kernel is 5 wide"};
  r.diagnostics.push_back(e);
  r.diagnostics.push_back(
      diag(Severity::Warning, "binding.unused", "parameter fc.bias is never used", {"model.nnl", 0, 0}));
  r.counts = {5, 3, 1, 1};
  r.ranges = {{"batch", 1, 64}, {"x.1", 1, 32}};
  return r;
}

}  // namespace

TEST_CASE("report_summary: the counts, or ok when nothing failed") {
  CHECK(report_summary(small_report(), "model.nnl") == "model.nnl: 5 obligations: 3 proved, 1 refuted, 1 unknown\n");
  CheckReport fine;
  fine.counts = {7, 7, 0, 0};
  CHECK(report_summary(fine, "m.nnl") == "m.nnl: ok, 7 obligations proved\n");
  fine.counts = {7, 6, 0, 1};
  CHECK(report_summary(fine, "m.nnl") == "m.nnl: 7 obligations: 6 proved, 0 refuted, 1 unknown\n");
}

TEST_CASE("report_json: every key and value") {
  CheckReport r = small_report();
  r.diagnostics.push_back(diag(Severity::Error, "nnl.parse", "expected ')'"));  // no location at all
  const std::string text = report_json(r, "models/model.nnl");

  // Pretty-printed with a 2-space indent and a trailing newline.
  Json j = Json::parse(text);
  CHECK(text == j.dump(2) + "\n");
  CHECK(text.rfind("{\n  \"", 0) == 0);

  CHECK(keys(j) == std::set<std::string>{"model", "diagnostics", "obligations", "symbols"});
  CHECK(j["model"] == "models/model.nnl");

  REQUIRE(j["diagnostics"].is_array());
  REQUIRE(j["diagnostics"].size() == 3);
  const Json& e = j["diagnostics"][0];
  CHECK(keys(e) == std::set<std::string>{"code", "severity", "message", "file", "line", "column", "node",
                                         "counterexample", "notes"});
  CHECK(e["code"] == "shape.window.exceeds-input");
  CHECK(e["severity"] == "error");
  CHECK(e["message"] == "conv1: the window (5) exceeds the padded input");
  CHECK(e["file"] == "model.nnl");
  CHECK(e["line"].is_number_integer());
  CHECK(e["line"] == 4);
  CHECK(e["column"].is_number_integer());
  CHECK(e["column"] == 7);
  CHECK(e["node"] == "conv1");
  REQUIRE(e["counterexample"].is_object());
  CHECK(keys(e["counterexample"]) == std::set<std::string>{"batch", "x.1"});
  CHECK(e["counterexample"]["batch"].is_number_integer());
  CHECK(e["counterexample"]["batch"] == 1);
  CHECK(e["counterexample"]["x.1"] == 3);
  CHECK(e["notes"] == Json::array({"the kernel is 5 wide"}));

  const Json& w = j["diagnostics"][1];  // only a file; no counterexample key at all
  CHECK(keys(w) == std::set<std::string>{"code", "severity", "message", "file", "line", "column", "node", "notes"});
  CHECK(w["code"] == "binding.unused");
  CHECK(w["severity"] == "warning");
  CHECK(w["message"] == "parameter fc.bias is never used");
  CHECK(w["file"] == "model.nnl");
  CHECK(w["line"] == 0);
  CHECK(w["column"] == 0);
  CHECK(w["node"] == "");
  CHECK(w["notes"] == Json::array());

  const Json& p = j["diagnostics"][2];  // unknown everything: "", 0, 0, ""
  CHECK(p["code"] == "nnl.parse");
  CHECK(p["severity"] == "error");
  CHECK(p["message"] == "expected ')'");
  CHECK(p["file"] == "");
  CHECK(p["line"].is_number_integer());
  CHECK(p["line"] == 0);
  CHECK(p["column"] == 0);
  CHECK(p["node"] == "");
  CHECK_FALSE(p.contains("counterexample"));

  const Json& o = j["obligations"];
  CHECK(keys(o) == std::set<std::string>{"total", "proved", "refuted", "unknown"});
  CHECK(o["total"].is_number_integer());
  CHECK(o["total"] == 5);
  CHECK(o["proved"] == 3);
  CHECK(o["refuted"] == 1);
  CHECK(o["unknown"] == 1);

  REQUIRE(j["symbols"].size() == 2);
  CHECK(j["symbols"][0] == Json{{"name", "batch"}, {"lo", 1}, {"hi", 64}});
  CHECK(j["symbols"][1] == Json{{"name", "x.1"}, {"lo", 1}, {"hi", 32}});

  // An empty report still has every key.
  Json empty = Json::parse(report_json(CheckReport{}, "m.nnl"));
  CHECK(empty["diagnostics"] == Json::array());
  CHECK(empty["symbols"] == Json::array());
  CHECK(empty["obligations"] == Json{{"total", 0}, {"proved", 0}, {"refuted", 0}, {"unknown", 0}});
}

TEST_CASE("report_sarif: valid SARIF 2.1.0 under the OASIS schema, with the expected content") {
  const auto& cat = obligation_catalogue();
  REQUIRE(cat.size() >= 2);
  const ObligationSpec& a = *cat[0];
  const ObligationSpec& b = *cat[1];
  REQUIRE(find_obligation("nnl.parse") == nullptr);

  CheckReport r;
  Diagnostic e = diag(Severity::Error, std::string(a.code), "conv1: the window exceeds the input", {"models/my model.nnl", 12, 5},
                      "conv1");
  e.counterexample = {{"batch", 2}, {"x.1", 7}};
  e.notes = {"the window is 5 wide"};
  r.diagnostics.push_back(e);
  r.diagnostics.push_back(diag(Severity::Warning, std::string(b.code), "parameter w is never used", {"models/my model.nnl", 0, 0}));
  r.diagnostics.push_back(diag(Severity::Error, "nnl.parse", "unexpected end of input"));  // no location at all
  r.diagnostics.push_back(diag(Severity::Error, std::string(a.code), "fc: rank mismatch", {"/abs/dir/m#1.nnl", 3, 0}));
  r.counts = {7, 4, 2, 1};
  r.ranges = {{"batch", 1, 8}};
  const std::string text = report_sarif(r, "models/my model.nnl");

  test::TempDir dir("checker_report_sarif");
  REQUIRE(fs::exists(kSchema));

  SECTION("the schema accepts it, and rejects broken documents") {
    write_text(dir / "out.sarif", text);
    int rc = validate_sarif(dir / "out.sarif");
    INFO(read_text(dir / "out.sarif.err"));
    CHECK(rc == 0);

    // The validator is not vacuous: a wrong version, and a region with startLine 0, fail.
    Json broken = Json::parse(text);
    broken["version"] = "9";
    write_text(dir / "bad_version.sarif", broken.dump(2));
    CHECK(validate_sarif(dir / "bad_version.sarif") == 1);
    CHECK(read_text(dir / "bad_version.sarif.err").find("ValidationError") != std::string::npos);

    Json bad_region = Json::parse(text);
    bad_region["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0;
    write_text(dir / "bad_region.sarif", bad_region.dump(2));
    CHECK(validate_sarif(dir / "bad_region.sarif") == 1);
  }

  SECTION("the content") {
    CHECK(text.back() == '\n');
    Json j = Json::parse(text);
    CHECK(text == j.dump(2) + "\n");
    CHECK(keys(j) == std::set<std::string>{"$schema", "version", "runs"});
    CHECK(j["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json");
    CHECK(j["version"] == "2.1.0");
    REQUIRE(j["runs"].size() == 1);
    const Json& run = j["runs"][0];

    const Json& driver = run["tool"]["driver"];
    CHECK(driver["name"] == "nnref");
    CHECK_FALSE(driver.contains("informationUri"));
    REQUIRE(driver["rules"].size() == 3);  // one per code used, in order of first use
    CHECK(driver["rules"][0] == Json{{"id", std::string(a.code)},
                                     {"shortDescription", {{"text", std::string(a.summary)}}},
                                     {"fullDescription", {{"text", std::string(a.formula)}}},
                                     {"help", {{"text", explain(a)}}}});
    CHECK(driver["rules"][1]["id"] == std::string(b.code));
    CHECK(driver["rules"][1]["help"]["text"] == explain(b));
    CHECK(driver["rules"][2] == Json{{"id", "nnl.parse"}});  // not in the catalogue: only the id

    CHECK(run["properties"]["obligations"] == Json{{"total", 7}, {"proved", 4}, {"refuted", 2}, {"unknown", 1}});

    const Json& res = run["results"];
    REQUIRE(res.size() == 4);

    CHECK(res[0]["ruleId"] == a.code);
    CHECK(res[0]["ruleIndex"] == 0);
    CHECK(res[0]["level"] == "error");
    CHECK(res[0]["message"]["text"] ==
          "conv1: the window exceeds the input\ncounterexample: batch = 2, x.1 = 7\nnote: the window is 5 wide");
    REQUIRE(res[0]["locations"].size() == 1);
    CHECK(res[0]["locations"][0] ==
          Json{{"physicalLocation",
                {{"artifactLocation", {{"uri", "models/my%20model.nnl"}}},
                 {"region", {{"startLine", 12}, {"startColumn", 5}}}}},
               {"logicalLocations", Json::array({Json{{"name", "conv1"}, {"kind", "object"}}})}});
    CHECK(res[0]["properties"] == Json{{"counterexample", {{"batch", 2}, {"x.1", 7}}}});

    CHECK(res[1]["ruleId"] == b.code);
    CHECK(res[1]["ruleIndex"] == 1);
    CHECK(res[1]["level"] == "warning");
    CHECK(res[1]["message"]["text"] == "parameter w is never used");
    CHECK(res[1]["locations"] ==
          Json::array({Json{{"physicalLocation", {{"artifactLocation", {{"uri", "models/my%20model.nnl"}}}}}}}));
    CHECK_FALSE(res[1].contains("properties"));

    CHECK(res[2]["ruleId"] == "nnl.parse");
    CHECK(res[2]["ruleIndex"] == 2);
    CHECK(res[2]["level"] == "error");
    CHECK_FALSE(res[2].contains("locations"));

    CHECK(res[3]["ruleIndex"] == 0);
    CHECK(res[3]["locations"][0]["physicalLocation"] ==
          Json{{"artifactLocation", {{"uri", "file:///abs/dir/m%231.nnl"}}}, {"region", {{"startLine", 3}}}});
  }
}

TEST_CASE("report_sarif: file names become valid URI references") {
  auto uri_of = [](const std::string& file) {
    CheckReport r;
    r.diagnostics.push_back(diag(Severity::Error, "nnl.parse", "x", {file, 1, 1}));
    Json j = Json::parse(report_sarif(r, file));
    return j["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        .get<std::string>();
  };
  CHECK(uri_of("model.nnl") == "model.nnl");
  CHECK(uri_of("a b/c-d_e.f~g.nnl") == "a%20b/c-d_e.f~g.nnl");
  CHECK(uri_of("100%?#[x].nnl") == "100%25%3F%23%5Bx%5D.nnl");
  CHECK(uri_of("c:model.nnl") == "c%3Amodel.nnl");  // a relative reference cannot hold ':' in its first segment
  CHECK(uri_of("caf\xC3\xA9.nnl") == "caf%C3%A9.nnl");
  CHECK(uri_of("dir\\m.nnl") == "dir%5Cm.nnl");
  CHECK(uri_of("/tmp/my model.nnl") == "file:///tmp/my%20model.nnl");
  CHECK(uri_of("//server/m.nnl") == "file:////server/m.nnl");
}
