// The text and JSON formats of a check's report: the exact text, every key and value of the JSON.
// (SARIF: checker_sarif_test.cpp.)
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "report_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

TEST_CASE("report_summary: the counts, or ok when nothing failed") {
  CHECK(report_summary(small_report(), "model.nnl") == "model.nnl: 5 obligations: 3 proved, 1 refuted, 1 unknown\n");
  CheckReport fine;
  fine.counts = {7, 7, 0, 0};
  CHECK(report_summary(fine, "m.nnl") == "m.nnl: ok, 7 obligations proved\n");
  fine.counts = {7, 6, 0, 1};
  CHECK(report_summary(fine, "m.nnl") == "m.nnl: 7 obligations: 6 proved, 0 refuted, 1 unknown\n");
  fine.bindings_checked = false;
  CHECK(report_summary(fine, "m.nnl") ==
        "m.nnl: 7 obligations: 6 proved, 0 refuted, 1 unknown; bindings not checked (no weights)\n");
  fine.counts = {7, 7, 0, 0};
  CHECK(report_summary(fine, "m.nnl") == "m.nnl: ok, 7 obligations proved; bindings not checked (no weights)\n");
  CheckReport unread;
  unread.model_read = false;
  CHECK(report_summary(unread, "m.nnl") == "m.nnl: not checked: the model could not be read\n");
}

TEST_CASE("fixed_sizes_note: the sizes a check without --dim read, and which the file leaves open") {
  CheckReport r;
  CHECK(fixed_sizes_note(r, "m.nnl").empty());  // no size names: nothing to say
  r.fixed_sizes = {{"batch", 1, false, {}}, {"x.0", 28, false, {}}};
  CHECK(fixed_sizes_note(r, "m.nnl") == "m.nnl: note: checked at one size, without --dim: batch = 1, x.0 = 28 (the "
                                        "model's own extents); --dim NAME=LO..HI proves a range\n");
  r.fixed_sizes = {{"N", 1, true, {}}, {"x.0", 28, false, {}}, {"M", 1, true, {}}};
  CHECK(fixed_sizes_note(r, "m.onnx") == "m.onnx: note: checked at one size, without --dim: N = 1, x.0 = 28, M = 1; "
                                         "the file leaves N, M open, so their values are placeholders; --dim "
                                         "NAME=LO..HI proves a range\n");
  // A name whose extents differ gives each input's.
  r.fixed_sizes = {{"batch", 2, false, {{"x", 2}, {"y", 1}, {"t", 1}}}};
  CHECK(fixed_sizes_note(r, "g") == "g: note: checked at one size, without --dim: batch = 2 in input 'x', 1 in input "
                                    "'y' and 1 in input 't' (the model's own extents); --dim NAME=LO..HI proves a "
                                    "range\n");
  CHECK(Json::parse(report_json(r, "g"))["fixed_sizes"][0] ==
        Json{{"name", "batch"}, {"value", 2}, {"left_open", false}, {"by_input", {{"x", 2}, {"y", 1}, {"t", 1}}}});
}

TEST_CASE("report_json: every key and value") {
  CheckReport r = small_report();
  r.diagnostics.push_back(diag(Severity::Error, "nnl.parse", "expected ')'"));  // no location at all
  const std::string text = report_json(r, "models/model.nnl");

  // Pretty-printed with a 2-space indent and a trailing newline.
  Json j = Json::parse(text);
  CHECK(text == j.dump(2) + "\n");
  CHECK(text.rfind("{\n  \"", 0) == 0);

  CHECK(keys(j) == std::set<std::string>{"model", "diagnostics", "obligations", "model_read", "bindings_checked",
                                         "symbols", "fixed_sizes"});
  CHECK(j["model"] == "models/model.nnl");
  CHECK(j["model_read"] == true);
  CHECK(j["bindings_checked"] == true);

  REQUIRE(j["diagnostics"].is_array());
  REQUIRE(j["diagnostics"].size() == 3);
  const Json& e = j["diagnostics"][0];
  CHECK(keys(e) == std::set<std::string>{"code", "severity", "message", "file", "line", "column", "node",
                                         "counterexample", "counterexample_minimised", "notes"});
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
  CHECK(e["counterexample_minimised"] == true);
  CHECK(e["notes"] == Json::array({"the kernel is 5 wide"}));

  const Json& w = j["diagnostics"][1];  // only a file; no counterexample key at all
  CHECK(keys(w) == std::set<std::string>{"code", "severity", "message", "file", "line", "column", "node", "notes"});
  CHECK_FALSE(w.contains("counterexample_minimised"));
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
  CHECK_FALSE(p.contains("counterexample_minimised"));

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

  // The sizes no --dim ranges over, each with its value and whether the file leaves it open.
  r.fixed_sizes = {{"x.0", 28, false, {}}, {"N", 1, true, {}}};
  Json fixed = Json::parse(report_json(r, "m.nnl"));
  REQUIRE(fixed["fixed_sizes"].size() == 2);
  CHECK(fixed["fixed_sizes"][0] == Json{{"name", "x.0"}, {"value", 28}, {"left_open", false}});
  CHECK(fixed["fixed_sizes"][1] == Json{{"name", "N"}, {"value", 1}, {"left_open", true}});

  // An empty report still has every key.
  Json empty = Json::parse(report_json(CheckReport{}, "m.nnl"));
  CHECK(empty["diagnostics"] == Json::array());
  CHECK(empty["symbols"] == Json::array());
  CHECK(empty["fixed_sizes"] == Json::array());
  CHECK(empty["obligations"] == Json{{"total", 0}, {"proved", 0}, {"refuted", 0}, {"unknown", 0}});
}

TEST_CASE("a counterexample that is not proved the smallest is labelled in text and JSON") {
  CheckReport r = small_report();
  r.diagnostics[0].counterexample_minimised = false;
  CHECK(format_diagnostic(r.diagnostics[0]) ==
        "model.nnl:4:7: error[shape.window.exceeds-input]: conv1: the window (5) exceeds the padded input\n"
        "  counterexample (not minimised): batch = 1, x.1 = 3\n"
        "  note: the kernel is 5 wide");
  r.diagnostics[0].counterexample_minimised = true;
  CHECK(format_diagnostic(r.diagnostics[0]) ==
        "model.nnl:4:7: error[shape.window.exceeds-input]: conv1: the window (5) exceeds the padded input\n"
        "  counterexample: batch = 1, x.1 = 3\n"
        "  note: the kernel is 5 wide");
  r.diagnostics[0].counterexample_minimised = false;
  const Json j = Json::parse(report_json(r, "m.nnl"));
  CHECK(j["diagnostics"][0]["counterexample"] == Json{{"batch", 1}, {"x.1", 3}});
  CHECK(j["diagnostics"][0]["counterexample_minimised"] == false);
}
