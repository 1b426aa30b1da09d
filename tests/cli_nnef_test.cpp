// nnref's commands on NNEF models, as a user runs them: a folder or its graph.nnef, AlexNet of
// the specification's Appendix B checked for symbolic sizes, and located errors on stderr.
#include <catch2/catch.hpp>

#include "cli_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::string data(const std::string& rel) { return std::string(NNREF_SOURCE_DIR) + "/tests/data/nnef/" + rel; }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("cli nnef: AlexNet of Appendix B is proved for every batch from 1 to 64, folder or file") {
  for (const std::string& path : {data("alexnet"), data("alexnet/graph.nnef")}) {
    const Run r = nnref_cli({"check", path, "--dim", "batch=1..64"});
    INFO(r.err);
    // Everything proved; no .dat files, so the bindings are not checked: exit code 3.
    CHECK(r.code == kExitBindingsNotChecked);
    CHECK(has(r.out, "519 obligations proved"));
  }
}

TEST_CASE("cli nnef: AlexNet over image sizes names the smallest sizes its windows do not fit") {
  const Run r = nnref_cli({"check", data("alexnet"), "--dim", "batch=1..8", "--dim", "input.2=32..512", "--dim",
                           "input.3=224..224"});
  CHECK(r.code == kExitInvalid);
  // pool2's 3x3 window needs (H - 11)/8 >= 3 after conv1 (stride 4) and pool1 (stride 2): H = 32 fails.
  CHECK(has(r.err, "graph.nnef:19:13: error[shape.window.exceeds-input]: node 'pool2' (max_pool)"));
  CHECK(has(r.err, "counterexample: batch = 1, input.2 = 32, input.3 = 224"));
  // conv6's 5x5 window: the smallest failing height above pool3's limit.
  CHECK(has(r.err, "node 'conv6' (conv)"));
  const Run fits = nnref_cli({"check", data("alexnet"), "--dim", "batch=1..8", "--dim", "input.2=195..512", "--dim",
                              "input.3=195..512"});
  INFO(fits.err);
  CHECK(fits.code == kExitBindingsNotChecked);
}

TEST_CASE("cli nnef: a malformed model is a located error with exit code 1") {
  const auto dir = std::filesystem::temp_directory_path() / ("nnref_cli_nnef_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  write_text(dir / "graph.nnef", "version 1.0;\ngraph G( input ) -> ( output ) {\ninput = external(shape = [1, 2]);\n"
                                 "w = variable(shape = [1, 2], label = '../../etc/passwd');\noutput = add(input, w);\n}\n");
  const Run r = nnref_cli({"check", dir.string()});
  CHECK(r.code == kExitInvalid);
  CHECK(has(r.err, "graph.nnef:4:5: error[nnef.label.escapes]: variable 'w' has label '../../etc/passwd'"));
  std::filesystem::remove_all(dir);
  const Run explain = nnref_cli({"check", "--explain", "nnef.label.escapes"});
  CHECK(explain.code == kExitOk);
  CHECK(has(explain.out, "see docs/nnef.md"));
}

TEST_CASE("cli nnef: deconvs are proved for every batch and image size, and inspect counts their MACs") {
  const Run r = nnref_cli({"check", data("crosscheck/deconvnet"), "--dim", "batch=1..64", "--dim", "input.2=1..100",
                           "--dim", "input.3=1..100"});
  INFO(r.err);
  CHECK(r.code == kExitBindingsNotChecked);  // no .dat files: everything else proved
  const Run i = nnref_cli({"inspect", data("crosscheck/deconvnet")});
  INFO(i.err);
  REQUIRE(i.code == kExitOk);
  // Each input element meets the weights of its group's output channels, [C, M/G, k...] / C:
  // d1 2·4·5·6 = 240 inputs × 3·3·3 = 6480; d2 [2, 3, 9, 12] = 648 × 2·2·3 = 7776; output
  // [2, 6, 18, 12] = 2592 × 1·3·3 = 23328.
  CHECK(has(i.out, "6480"));
  CHECK(has(i.out, "7776"));
  CHECK(has(i.out, "23328"));
}
