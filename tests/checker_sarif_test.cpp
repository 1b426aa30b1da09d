// The SARIF format of a check's report, validated against the official OASIS schema
// (tests/data/sarif/) by python3-jsonschema, with the expected content.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "report_test_support.hpp"
#include "semantics/catalogue.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

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
  r.diagnostics.back().counterexample = {{"batch", 5}};
  r.diagnostics.back().counterexample_minimised = false;  // the search for the smallest gave up
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
    CHECK(res[0]["properties"] ==
          Json{{"counterexample", {{"batch", 2}, {"x.1", 7}}}, {"counterexample_minimised", true}});

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
    CHECK(res[3]["message"]["text"] == "fc: rank mismatch\ncounterexample (not minimised): batch = 5");
    CHECK(res[3]["properties"] == Json{{"counterexample", {{"batch", 5}}}, {"counterexample_minimised", false}});
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
