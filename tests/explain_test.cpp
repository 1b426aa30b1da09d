// `nnref check --explain` knows every code nnref can print: each code written in the sources
// (as a string literal, or inside "error[...]" text) is explained, by the obligation catalogue or
// by the table of other codes (cli/codes.cpp).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "cli/app.hpp"

using namespace nnref;
namespace fs = std::filesystem;

namespace {

// The codes in one source text: "prefix.rest" literals with a code's prefix, and error[...] text.
void collect(const std::string& text, std::set<std::string>& codes) {
  static const std::regex literal(
      R"re("((?:io|usage|npy|npz|pb|onnx|nnl|nnef|input|eval|check|internal|size|shape|graph|attr|bind|kind|hw)(?:\.[a-z0-9-]+)+)")re");
  static const std::regex printed(R"re(error\[([a-z]+(?:\.[a-z0-9-]+)+)\])re");
  // File names that look like codes: NNEF models' (graph. prefix), nnref fuzz's inputs (input.).
  static const std::set<std::string> file_names = {"graph.nnef", "graph.quant", "input.npy", "input.npz"};
  for (const std::regex* re : {&literal, &printed})
    for (std::sregex_iterator it(text.begin(), text.end(), *re), end; it != end; ++it)
      if (!file_names.count((*it)[1])) codes.insert((*it)[1]);
}

std::set<std::string> codes_in_sources() {
  std::set<std::string> codes;
  for (const char* dir : {"spec", "semantics", "checker", "formats", "hw", "cli", "python"})
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(NNREF_SOURCE_DIR) / dir)) {
      const std::string ext = entry.path().extension().string();
      if (ext != ".cpp" && ext != ".hpp") continue;
      std::ifstream in(entry.path());
      std::stringstream text;
      text << in.rdbuf();
      collect(text.str(), codes);
    }
  return codes;
}

int explain(const std::string& code, std::string& out) {
  std::ostringstream o, e;
  const int status = run_app({"check", "--explain", code}, o, e);
  out = o.str() + e.str();
  return status;
}

}  // namespace

TEST_CASE("explain: every code in the sources is explained") {
  const std::set<std::string> codes = codes_in_sources();
  // The scan finds the codes of every layer (a guard against a regex that finds nothing).
  for (const char* known : {"io.not-a-file", "npy.truncated", "nnl.syntax.expected", "shape.axis.out-of-range",
                            "usage.model", "check.no-weights", "bind.unused", "hw.sram.capacity", "hw.config.type"})
    CHECK(codes.count(known) == 1);
  CHECK(codes.size() > 120);
  for (const std::string& code : codes) {
    std::string text;
    INFO(code);
    CHECK(explain(code, text) == kExitOk);
    CHECK(text.find(code) != std::string::npos);
  }
}

TEST_CASE("explain: a code that is not an obligation says what it means, how it ends and where it is documented") {
  std::string text;
  REQUIRE(explain("npy.truncated", text) == kExitOk);
  CHECK(text == "npy.truncated: a .npy file ends early: inside its header or its data\n"
                "an error, exit code 2; see docs/tensor-files.md\n");
  REQUIRE(explain("nnl.layer.arity", text) == kExitOk);
  CHECK(text.find("an error, exit code 1; see docs/nnl.md") != std::string::npos);
  REQUIRE(explain("check.no-weights", text) == kExitOk);
  CHECK(text.find("a warning; see docs/cli.md") != std::string::npos);
  CHECK(explain("no.such-code", text) == kExitUsage);
  CHECK(text.find("error[usage.explain]") != std::string::npos);
}
