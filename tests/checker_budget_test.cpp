// The memory budget of CNNs whose Dense weight pins the flattened size, checked over ranges of
// sizes (tests/data/deploy/cnn64, cnn224): Z3 alone leaves such a budget unknown, since it is
// nonlinear (batch · H · W) under a nonlinear fact (⌊H/4⌋ · ⌊W/4⌋ · 32 = the weight's rows). The
// verdicts, counterexamples and largest fitting sizes are compared with the concrete reading at
// every admissible size, found by hand: two 2×2 max pools after "same" convolutions take H to
// ⌊⌊H/2⌋/2⌋ = ⌊H/4⌋, so the binding admits exactly the H, W with ⌊H/4⌋ · ⌊W/4⌋ · 32 = rows.
// When the check is left undecided, its error is located at the node holding the largest tensor.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "checker_sizes_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

struct Cnn {
  std::string name;
  int64_t rows;  // fc1.weight is [rows, 64]: 32 channels times ⌊H/4⌋ · ⌊W/4⌋
  std::vector<DimRange> dims;
};

const Cnn kCnn64{"cnn64", 8192, {{"batch", 1, 64}, {"input.0", 32, 256}, {"input.1", 32, 256}}};
const Cnn kCnn224{"cnn224", 100352, {{"batch", 1, 64}, {"input.0", 32, 1024}, {"input.1", 32, 1024}}};

// The (H, W) the binding admits within the ranges, in lexicographic order.
std::vector<std::pair<int64_t, int64_t>> admitted_extents(const Cnn& c) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (int64_t h = c.dims[1].lo; h <= c.dims[1].hi; ++h)
    for (int64_t w = c.dims[2].lo; w <= c.dims[2].hi; ++w)
      if (32 * (h / 4) * (w / 4) == c.rows) out.emplace_back(h, w);
  return out;
}

Assignment sizes(int64_t n, int64_t h, int64_t w) { return {{"batch", n}, {"input.0", h}, {"input.1", w}}; }

// The lexicographically first admissible size (last, when `descending`) where the concrete
// reading's verdict is `code` ("" for accepted), or nullopt.
std::optional<Assignment> first_concrete(const Cnn& c, const Concrete& concrete, bool descending, const std::string& code) {
  auto extents = admitted_extents(c);
  if (descending) std::reverse(extents.begin(), extents.end());
  for (int64_t k = 0; k <= c.dims[0].hi - c.dims[0].lo; ++k) {
    const int64_t n = descending ? c.dims[0].hi - k : c.dims[0].lo + k;
    for (const auto& [h, w] : extents)
      if (concrete.error_at(sizes(n, h, w)) == code) return sizes(n, h, w);
  }
  return std::nullopt;
}

const Diagnostic* budget_error(const CheckReport& r) { return first_error(r, "size.budget"); }

}  // namespace

TEST_CASE("budget: the weights pin the sizes, and the admitted sizes are the hand-derived ones", "[budget]") {
  // The binding fails exactly off the hand-derived set (checked on every extent of a window
  // around one block of admitted sizes, and at the ranges' corners).
  for (const Cnn& c : {kCnn64, kCnn224}) {
    Deployed d(c.name);
    const Concrete concrete(d.subject, c.dims, int64_t{4} << 30);
    const auto admitted = admitted_extents(c);
    REQUIRE_FALSE(admitted.empty());
    const auto [h0, w0] = admitted.front();
    for (int64_t h = h0 - 4; h <= h0 + 8; ++h)
      for (int64_t w = w0 - 4; w <= w0 + 8; ++w) {
        if (h < c.dims[1].lo || w < c.dims[2].lo) continue;
        const bool in = 32 * (h / 4) * (w / 4) == c.rows;
        INFO(c.name << " at H = " << h << ", W = " << w);
        CHECK((concrete.error_at(sizes(1, h, w)) != "bind.shape-mismatch") == in);
      }
    CHECK(concrete.error_at(sizes(1, c.dims[1].hi, c.dims[2].hi)) == "bind.shape-mismatch");
    CHECK(concrete.error_at(sizes(1, 4 * 32, 4 * (c.rows / 32 / 32))).empty());  // ⌊H/4⌋ = 32
  }
}

TEST_CASE("budget: proved over the ranges when every admitted size fits", "[budget]") {
  for (const Cnn& c : {kCnn64, kCnn224}) {
    Deployed d(c.name);
    Query q;
    q.dims = c.dims;
    const CheckReport r = check_over(d.subject, q);
    std::string report;
    for (const auto& diag : r.diagnostics) report += format_diagnostic(diag) + "\n";
    INFO(c.name << "\n" << report);
    CHECK(budget_error(r) == nullptr);
    CHECK(r.counts.unknown == 0);
    CHECK(r.counts.refuted == 1);  // the binding of fc1.weight, for the sizes it does not admit
    // Brute force: every admitted size fits, and the largest batch at each admitted H, W suffices
    // (the peak grows with the batch).
    const Concrete concrete(d.subject, c.dims, q.budget);
    for (const auto& [h, w] : admitted_extents(c)) CHECK(concrete.error_at(sizes(c.dims[0].hi, h, w)).empty());
  }
}

TEST_CASE("budget: refuted at the brute-force smallest size, with the largest that fit", "[budget]") {
  struct Case {
    Cnn cnn;
    int64_t budget;
  };
  for (const Case& k :
       {Case{kCnn64, 10 << 20}, Case{kCnn64, 40 << 20}, Case{kCnn224, 200 << 20}, Case{kCnn224, 400 << 20}}) {
    Deployed d(k.cnn.name);
    Query q;
    q.dims = k.cnn.dims;
    q.budget = k.budget;
    const auto start = std::chrono::steady_clock::now();
    const CheckReport r = check_over(d.subject, q);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const Diagnostic* e = budget_error(r);
    REQUIRE(e != nullptr);
    INFO(k.cnn.name << " --max-memory " << k.budget << ": " << format_diagnostic(*e));
    CHECK(r.counts.unknown == 0);
    const Concrete concrete(d.subject, k.cnn.dims, k.budget);
    const auto smallest = first_concrete(k.cnn, concrete, false, "size.budget");
    const auto largest = first_concrete(k.cnn, concrete, true, "");
    REQUIRE(smallest.has_value());
    CHECK(e->counterexample == *smallest);
    CHECK(e->counterexample_minimised);
    CHECK(concrete.error_at(e->counterexample) == "size.budget");
    const auto fit = fit_in_notes(*e);
    REQUIRE(fit.has_value());
    REQUIRE(largest.has_value());
    CHECK(fit->maximised);
    CHECK(fit->sizes == *largest);
    CHECK(e->loc.line > 0);  // located at the node of the largest tensor at the counterexample
    CHECK_FALSE(e->node.empty());
    std::cout << "checker_budget: " << k.cnn.name << " --max-memory " << k.budget << ": smallest over "
              << show(*smallest) << ", largest fitting " << show(*largest) << " (check " << seconds << " s)\n";
  }
}

TEST_CASE("budget: left undecided, the error is located at the largest tensor and says what to do", "[budget]") {
  // A budget of 100 units: Z3 gives up, and so does the interval search after its 20 boxes.
  Deployed d(kCnn224.name);
  Query q;
  q.dims = kCnn224.dims;
  q.budget = 100 << 20;
  q.solver_budget = 100;
  const CheckReport r = check_over(d.subject, q);
  const Diagnostic* e = budget_error(r);
  REQUIRE(e != nullptr);
  INFO(format_diagnostic(*e));
  CHECK(e->counterexample.empty());
  CHECK(e->message.rfind("could not be decided: ", 0) == 0);
  CHECK(r.counts.unknown >= 1);

  // The note names an admissible size, and the largest tensor there, by hand: conv1's output
  // (and relu1's, the same size) N·H·W·16 at 8 bytes each, or fc1.weight, rows·64 at 8 (as read, and
  // again converted while fc1 runs), whichever is larger.
  std::optional<Assignment> at;
  std::string largest;
  for (const auto& n : e->notes) {
    const std::string prefix = "the largest tensor is ";
    if (n.rfind(prefix, 0) == 0) {
      largest = n;
      at = parse_sizes(n.substr(n.find("at the admissible size ") + std::string("at the admissible size ").size()));
    }
  }
  REQUIRE(at.has_value());
  const Concrete concrete(d.subject, q.dims, int64_t{1} << 40);
  CHECK(concrete.error_at(*at).empty());  // admissible (and within a huge budget)
  const int64_t n = (*at)[0].second, h = (*at)[1].second, w = (*at)[2].second;
  const int64_t conv_bytes = 8 * n * h * w * 16, weight_bytes = 8 * kCnn224.rows * 64;
  const int64_t bytes = std::max(conv_bytes, weight_bytes);
  CHECK(largest.find(", " + std::to_string(bytes) + " bytes at the admissible size") != std::string::npos);
  if (conv_bytes > weight_bytes) CHECK((e->node == "conv1" || e->node == "relu1"));
  else CHECK(e->node == "fc1");
  CHECK(e->loc.line > 0);
  bool advice = false;
  for (const auto& note : e->notes) advice = advice || note.rfind("to decide it, narrow the --dim ranges", 0) == 0;
  CHECK(advice);
}
