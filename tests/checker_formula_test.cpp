// How the checker prints extents and "needs" formulas: as a person would write them where the
// facts allow (Prover::tidy). The expected strings are derived by hand from the layers' rules:
// a k×k max pool with stride k reads ⌊(H - k)/k⌋ + 1 = ⌊H/k⌋, and a stride-s "same" convolution
// ⌈H/s⌉ = ⌊(H + s - 1)/s⌋; ⌊⌊x/a⌋/b⌋ = ⌊x/(a·b)⌋ and ⌈⌈x/a⌉/b⌉ = ⌈x/(a·b)⌉ for positive a, b;
// and ⌊(x + r)/k⌋ = x/k when k divides x and 0 <= r < k.
#include <catch2/catch.hpp>

#include <filesystem>

#include "checker_sizes_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

// Every message and note of the report, one per line.
std::string all_text(const CheckReport& r) {
  std::string s;
  for (const auto& d : r.diagnostics) s += format_diagnostic(d) + "\n";
  return s;
}

Query over(std::vector<DimRange> dims, std::vector<std::string> assume = {}) {
  Query q;
  q.dims = std::move(dims);
  q.assumptions = std::move(assume);
  return q;
}

}  // namespace

TEST_CASE("formulas: a 4x4 max pool reads input.0 / 4, a stride-4 same conv (3 + input.0) / 4", "[formula]") {
  // examples/downsample_block: MaxPool2D(kernel: 4) gives ⌊(H - 4)/4⌋ + 1 = H / 4.
  const Subject s =
      load_subject((std::filesystem::path(NNREF_SOURCE_DIR) / "examples" / "downsample_block" / "model.nnl").string());
  const CheckReport r = check_over(s, over({{"input.0", 4, 512}}));
  const Diagnostic* d = first_error(r, "shape.add_n.mismatch");
  REQUIRE(d != nullptr);
  INFO(all_text(r));
  CHECK(d->message.find("(input 0) has shape [1, input.0 / 4, 8, 8]") != std::string::npos);
  CHECK(d->message.find("(per-sample axis 0: (3 + input.0) / 4 vs input.0 / 4)") != std::string::npos);
  CHECK(d->notes.at(0) == "needs (3 + input.0) / 4 == input.0 / 4, but --dim allows input.0 = 4..512");
}

TEST_CASE("formulas: two 2x2 max pools compose to input.0 / 4", "[formula]") {
  // cnn64: fc1.weight [8192, 64] against 32 · ⌊⌊H/2⌋/2⌋ · ⌊⌊W/2⌋/2⌋ rows.
  Deployed d("cnn64");
  const CheckReport r = check_over(d.subject, over({{"input.0", 32, 256}, {"input.1", 32, 256}}));
  const Diagnostic* e = first_error(r, "bind.shape-mismatch");
  REQUIRE(e != nullptr);
  INFO(all_text(r));
  CHECK(e->message.find("but the layer needs [32 * (input.0 / 4 * (input.1 / 4)), 64]") != std::string::npos);
  CHECK(e->notes.at(0) ==
        "needs input.0 / 4 * (input.1 / 4) == 256, but --dim allows input.0 = 32..256, input.1 = 32..256");
}

TEST_CASE("formulas: five stride-2 same convs read (31 + input.0) / 32, and input.0 / 32 when assumed divisible",
          "[formula]") {
  Deployed d("halve5");
  const auto needs = [&](std::vector<std::string> assume) {
    const CheckReport r = check_over(d.subject, over({{"input.0", 32, 512}}, std::move(assume)));
    const Diagnostic* e = first_error(r, "bind.shape-mismatch");
    REQUIRE(e != nullptr);
    INFO(all_text(r));
    const std::string from = "but the layer needs [";
    const size_t at = e->message.find(from);
    REQUIRE(at != std::string::npos);
    return e->message.substr(at + from.size(), e->message.find(", 2]", at) - at - from.size());
  };
  CHECK(needs({}) == "8 * ((31 + input.0) / 32)");               // ⌈⌈⌈⌈⌈H/2⌉/2⌉/2⌉/2⌉/2⌉ = ⌈H/32⌉
  CHECK(needs({"input.0 % 32 == 0"}) == "8 * (input.0 / 32)");   // exact
  CHECK(needs({"input.0 % 8 == 0"}) == "8 * ((3 + input.0 / 8) / 4)");  // ⌈(H/8)/4⌉, H/8 exact
}
