// The libFuzzer harnesses' bodies (fuzz/targets.hpp), uninstrumented: every seed of fuzz/corpus/
// keeps the readers' invariants, and every crashing input the fuzzers found (fuzz/regressions/
// <target>/<name>) now gets a diagnostic instead, with the code named here. docs/testing.md,
// "Hardened readers".
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "fuzz/targets.hpp"

namespace fs = std::filesystem;
using nnref::fuzz::Outcome;

namespace {

const fs::path kFuzzDir = fs::path(NNREF_SOURCE_DIR) / "fuzz";

std::vector<uint8_t> slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::set<std::string> entries(const fs::path& dir) {
  std::set<std::string> out;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

// A crash a fuzzer found, and the error the reader now reports on it.
struct Regression {
  const char* target;
  const char* file;
  const char* code;
};

const std::vector<Regression> kRegressions = {
    // [2^31, 2^28] float32 items: volume × 32 bits wrapped to 0, which matched the header's 0 data
    // bytes, and the reader then reserved 2^59 values.
    {"nnef_dat", "bit-count-wraps", "nnef.dat.data-length"},
    // 107 bytes of one bad character after another: the note that caps the list at 100 errors
    // named no file.
    {"nnef_quant", "over-100-errors", "nnl.too-many-errors"},
    {"nnef", "over-100-errors", "nnl.too-many-errors"},
    // logarithmic_quantize with max = 0: log2(0) = -inf made every exponent -inf, converted to int
    // (undefined behaviour, found by the CI smoke run).
    {"nnef_quant", "log-quantize-max-zero", "nnef.quant.argument"},
    // A TensorProto .pb of 0 bytes (an empty TensorProto): its error named no file.
    {"onnx_pb", "empty-tensor-unlocated", "pb.tensor-type-unsupported"},
    // A ModelProto whose graph is empty: the model loaded without outputs and failed check_structure.
    {"onnx", "no-graph-outputs", "graph.no-outputs"},
};

Outcome replay(const std::string& target, const fs::path& file) {
  const nnref::fuzz::Target* t = nnref::fuzz::find_target(target);
  REQUIRE(t != nullptr);
  const std::vector<uint8_t> bytes = slurp(file);
  return t->run(bytes);
}

}  // namespace

TEST_CASE("fuzz targets: one per folder of fuzz/corpus, each with seeds") {
  std::set<std::string> names;
  for (const auto& t : nnref::fuzz::targets()) {
    names.insert(t.name);
    INFO(t.name);
    CHECK(!entries(kFuzzDir / "corpus" / t.name).empty());
  }
  CHECK(entries(kFuzzDir / "corpus") == names);
  for (const std::string& folder : entries(kFuzzDir / "regressions")) CHECK(names.count(folder) == 1);
}

TEST_CASE("fuzz targets: every seed keeps the invariants, and the valid ones are read") {
  for (const auto& t : nnref::fuzz::targets()) {
    size_t accepted = 0;
    for (const std::string& seed : entries(kFuzzDir / "corpus" / t.name)) {
      INFO(t.name << " on " << seed);
      const Outcome o = replay(t.name, kFuzzDir / "corpus" / t.name / seed);
      CHECK(o.broken.empty());
      accepted += o.accepted;
    }
    INFO(t.name);
    CHECK(accepted > 0);  // each corpus holds at least one input its reader accepts, to mutate from
  }
}

TEST_CASE("fuzz regressions: each crashing input now gets its diagnostic") {
  std::set<std::string> listed;
  for (const Regression& r : kRegressions) {
    const fs::path file = kFuzzDir / "regressions" / r.target / r.file;
    INFO(r.target << "/" << r.file);
    listed.insert(std::string(r.target) + "/" + r.file);
    const Outcome o = replay(r.target, file);
    std::string codes;
    for (const std::string& c : o.codes) codes += c + " ";
    INFO("codes: " << codes);
    CHECK(o.broken.empty());
    CHECK_FALSE(o.accepted);
    CHECK(std::find(o.codes.begin(), o.codes.end(), r.code) != o.codes.end());
  }
  // Every kept input is listed above with its code.
  for (const std::string& target : entries(kFuzzDir / "regressions"))
    for (const std::string& file : entries(kFuzzDir / "regressions" / target)) {
      INFO(target << "/" << file);
      CHECK(listed.count(target + "/" + file) == 1);
    }
}
