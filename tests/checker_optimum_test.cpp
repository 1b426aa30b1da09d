// The checker's optimal answers against brute force: the smallest counterexample (minimised in
// --dim order) is the lexicographically first size at which the concrete reading fails, and the
// largest sizes that fit the memory budget are the lexicographically last at which it passes,
// both found here by enumerating every admissible size small enough to enumerate and checking
// each with check_graph. With a tiny solver budget the answer is the same optimum, or labelled
// as not optimal (and then still a true witness), or the obligation is unknown.
#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <iostream>

#include "checker_sizes_support.hpp"
#include "obligation_cases.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

using Admits = std::function<bool(const Assignment&)>;

// The first size, in lexicographic order of the --dim order (the last symbol fastest; from the
// top when `descending`), that the assumptions admit and `wanted` accepts. With `extent_step`,
// the symbols other than the first (the batch) visit only its multiples (each range's ends being
// multiples).
std::optional<Assignment> first_size(const std::vector<DimRange>& dims, bool descending, const Admits& admits,
                                     const Admits& wanted, int64_t extent_step = 1) {
  Assignment a;
  for (const auto& d : dims) a.emplace_back(d.name, descending ? d.hi : d.lo);
  for (;;) {
    if (admits(a) && wanted(a)) return a;
    size_t k = dims.size();
    for (; k-- > 0;) {  // the odometer: advance the last symbol, carrying leftwards
      const int64_t step = k == 0 ? 1 : extent_step;
      int64_t& v = a[k].second;
      if (descending ? v - step >= dims[k].lo : v + step <= dims[k].hi) {
        v += descending ? -step : step;
        break;
      }
      v = descending ? dims[k].hi : dims[k].lo;
    }
    if (k == static_cast<size_t>(-1)) return std::nullopt;
  }
}

int64_t value(const Assignment& a, const std::string& name) {
  for (const auto& [n, v] : a)
    if (n == name) return v;
  FAIL("no " << name << " in " << show(a));
  return 0;
}

const Admits kAll = [](const Assignment&) { return true; };

std::string example(const std::string& name) {
  return (std::filesystem::path(NNREF_SOURCE_DIR) / "examples" / name / "model.nnl").string();
}

// What the brute force expects of one check: the refuted obligation's code and the optima.
struct Optima {
  Assignment smallest_failing;
  std::optional<Assignment> largest_fitting;  // only for size.budget
};

Optima brute_force(const Subject& s, const Query& q, const std::string& code, const Admits& admits) {
  const Concrete concrete(s, q.dims, q.budget);
  Optima o;
  auto failing = first_size(q.dims, false, admits, [&](const Assignment& a) { return concrete.error_at(a) == code; });
  REQUIRE(failing.has_value());
  o.smallest_failing = *failing;
  if (code == "size.budget")
    o.largest_fitting = first_size(q.dims, true, admits, [&](const Assignment& a) { return concrete.error_at(a).empty(); });
  return o;
}

// The check's answers are exactly the brute-force optima.
void check_optimal(const Subject& s, const Query& q, const std::string& code, const Admits& admits) {
  const Optima want = brute_force(s, q, code, admits);
  const CheckReport r = check_over(s, q);
  const Diagnostic* d = first_error(r, code);
  REQUIRE(d != nullptr);
  INFO(format_diagnostic(*d));
  CHECK(d->counterexample == want.smallest_failing);
  CHECK(d->counterexample_minimised);
  if (want.largest_fitting) {
    const auto fit = fit_in_notes(*d);
    REQUIRE(fit.has_value());
    CHECK(fit->sizes == *want.largest_fitting);
    CHECK(fit->maximised);
  }
  std::cout << "checker_optimum: " << code << " smallest failing " << show(want.smallest_failing)
            << (want.largest_fitting ? ", largest fitting " + show(*want.largest_fitting) : std::string()) << "\n";
}

struct Tally {
  int optimal = 0, labelled = 0, unknown = 0, optimal_fits = 0, labelled_fits = 0;
};

// One check at `units` of solver budget: the refuted obligation's counterexample is the optimum,
// or a true counterexample labelled as not minimised with a note saying why, or the obligation
// is unknown; likewise the sizes that fit.
void check_at_budget(const Subject& s, Query q, unsigned units, const std::string& code, const Optima& want,
                     const Concrete& concrete, Tally& t) {
  q.solver_budget = units;
  const CheckReport r = check_over(s, q);
  const Diagnostic* d = first_error(r, code);
  REQUIRE(d != nullptr);
  INFO("--solver-budget " << units << ": " << format_diagnostic(*d));
  if (d->counterexample.empty()) {  // undecided
    CHECK(r.counts.unknown >= 1);
    CHECK(d->message.find("could not be decided: ") != std::string::npos);
    ++t.unknown;
    return;
  }
  if (d->counterexample_minimised) {
    CHECK(d->counterexample == want.smallest_failing);
    ++t.optimal;
  } else {
    CHECK(concrete.error_at(d->counterexample) == code);  // a true counterexample
    bool said_why = false;
    for (const auto& n : d->notes) said_why = said_why || n.rfind("the counterexample is not minimised: ", 0) == 0;
    CHECK(said_why);
    ++t.labelled;
  }
  if (const auto fit = fit_in_notes(*d)) {
    if (fit->maximised) CHECK(fit->sizes == *want.largest_fitting);
    else CHECK(concrete.error_at(fit->sizes).empty());  // true sizes that fit
    (fit->maximised ? t.optimal_fits : t.labelled_fits) += 1;
  }
}

// resnet_block over small sizes, with a budget that cuts through them: the peak holds about
// 1536 bytes per batch·H·W (three 64-channel f64 tensors) over ~0.6 MB of parameters (74368
// values as read, 8 bytes each) and the running conv's converted.
constexpr int64_t kSmallBudget = 1'300'000;

Query resnet_small(std::vector<DimRange> dims, std::vector<std::string> assume = {}) {
  Query q;
  q.dims = std::move(dims);
  q.assumptions = std::move(assume);
  q.budget = kSmallBudget;
  return q;
}

// x [N, H, W] → reshape [-1, 4] → linear (2 units): needs N·H·W % 4 == 0.
Subject reshape_subject() {
  test::Model m;
  const int64_t x = m.input("x", {1, 4, 4}, 1);
  const int64_t rs = m.op("reshape", ReshapeAttrs{{-1, 4}}, {x}, 2);
  LinearAttrs lin;
  lin.units = 2;
  m.out(m.op("fc", lin, {rs}, 3));
  m.param("fc", "weight", {4, 2});
  m.param("fc", "bias", {2});
  return Subject{m.g, m.p, {}, {}};
}

}  // namespace

TEST_CASE("optimum: the smallest failing and largest fitting sizes are the brute-force lexicographic optima",
          "[optimum]") {
  const Subject s = load_subject(example("resnet_block"));
  const std::vector<DimRange> ranges{{"batch", 1, 4}, {"input.0", 1, 10}, {"input.1", 1, 10}};
  check_optimal(s, resnet_small(ranges), "size.budget", kAll);
  // Another --dim order is another lexicographic order.
  check_optimal(s, resnet_small({ranges[2], ranges[0], ranges[1]}), "size.budget", kAll);
  // Under an assumption, the optima are among the sizes it admits.
  check_optimal(s, resnet_small(ranges, {"input.0 % 3 == 0"}), "size.budget",
                [](const Assignment& a) { return value(a, "input.0") % 3 == 0; });
}

TEST_CASE("optimum: a shape obligation over three symbols, restricted by an assumption", "[optimum]") {
  Query q;
  q.dims = {{"batch", 1, 6}, {"x.0", 1, 10}, {"x.1", 1, 10}};
  q.assumptions = {"batch * x.0 * x.1 >= 50"};
  const Admits admits = [](const Assignment& a) { return value(a, "batch") * value(a, "x.0") * value(a, "x.1") >= 50; };
  check_optimal(reshape_subject(), q, "shape.reshape.count-indivisible", admits);
}

TEST_CASE("optimum: with a small solver budget, the optimum, a labelled true witness, or unknown", "[optimum]") {
  Tally t;
  {
    const Subject s = load_subject(example("resnet_block"));
    const Query base = resnet_small({{"batch", 1, 4}, {"input.0", 1, 10}, {"input.1", 1, 10}});
    const Optima want = brute_force(s, base, "size.budget", kAll);
    const Concrete concrete(s, base.dims, base.budget);
    for (unsigned units : {1u, 10u, 25u, 50u, 100u, 200u, 1000u, 50'000u})
      check_at_budget(s, base, units, "size.budget", want, concrete, t);
  }
  {
    // add_n of a [1, a.0, 4] and b [1, b.0, 4] where a.0 · b.0 = 10403 = 101 · 103, or a.0 = 20000:
    // they never match. Z3 finds a.0 = 20000 at once, but a smaller a.0 is a factor of 10403,
    // which it does not find within these budgets; nor does the interval search (the sizes lie on
    // a hyperbola). The smallest is 101.
    Build two = two_inputs({1, 101, 4}, {1, 103, 4}, AddNAttrs{}, {{"a.0", 2, 20000}, {"b.0", 1, 20000}},
                           {"a.0 * b.0 == 10403 || a.0 == 20000"});
    const test::Model m = two();
    const Subject s{m.g, m.p, {}, {}};
    Query base;
    base.dims = m.s.dims;
    base.assumptions = m.s.assumptions;
    const Concrete concrete(s, base.dims, base.budget);
    Optima want;
    for (int64_t a = 2; want.smallest_failing.empty(); ++a)
      if (10403 % a == 0 && concrete.error_at({{"a.0", a}, {"b.0", 10403 / a}}) == "shape.add_n.mismatch")
        want.smallest_failing = {{"a.0", a}, {"b.0", 10403 / a}};
    for (unsigned units : {200u, 1000u, 5000u, 20'000u})
      check_at_budget(s, base, units, "shape.add_n.mismatch", want, concrete, t);
  }
  std::cout << "checker_optimum: small budgets: counterexamples " << t.optimal << " optimal, " << t.labelled
            << " labelled, " << t.unknown << " unknown; fits " << t.optimal_fits << " optimal, " << t.labelled_fits
            << " labelled\n";
  // Each kind of answer occurs (Z3's rlimit is deterministic): the test reaches every path.
  CHECK(t.optimal >= 1);
  CHECK(t.labelled >= 1);
  CHECK(t.unknown >= 1);
}

// The example: resnet_block over batch 1..64 and H, W 32..1024. The peak holds, for each
// of its tensors, a positive multiple of batch·H·W ("same" padding keeps H and W), so whether it
// fits is monotone in each size: a size fits when a larger one (on every symbol) does. That turns
// a few concrete checks into the lexicographic optima.
TEST_CASE("optimum: resnet_block over the issue's ranges, derived by concrete checks", "[optimum]") {
  const Subject s = load_subject(example("resnet_block"));
  const std::vector<DimRange> ranges{{"batch", 1, 64}, {"input.0", 32, 1024}, {"input.1", 32, 1024}};
  const Concrete concrete(s, ranges, int64_t{4} << 30);
  const auto fits = [&](int64_t n, int64_t h, int64_t w) {
    return concrete.error_at({{"batch", n}, {"input.0", h}, {"input.1", w}}).empty();
  };

  SECTION("multiples of 32, at the default budget and at 1 GiB (where the largest H is inside its range)") {
    for (const int64_t budget : {int64_t{4} << 30, int64_t{1} << 30}) {
      Query q;
      q.dims = ranges;
      q.assumptions = {"input.0 % 32 == 0", "input.1 % 32 == 0"};
      q.budget = budget;
      const Concrete at_budget(s, ranges, budget);
      const auto fits_at = [&](const Assignment& a) { return at_budget.error_at(a).empty(); };
      // Only multiples of 32 are visited.
      const Optima want{*first_size(ranges, false, kAll, [&](const Assignment& a) { return !fits_at(a); }, 32),
                        first_size(ranges, true, kAll, fits_at, 32)};
      const CheckReport r = check_over(s, q);
      const Diagnostic* d = first_error(r, "size.budget");
      REQUIRE(d != nullptr);
      INFO("--max-memory " << budget << ": " << format_diagnostic(*d));
      CHECK(d->counterexample == want.smallest_failing);
      CHECK(d->counterexample_minimised);
      const auto fit = fit_in_notes(*d);
      REQUIRE(fit.has_value());
      CHECK(fit->maximised);
      CHECK(fit->sizes == *want.largest_fitting);
      std::cout << "checker_optimum: resnet_block, multiples of 32, --max-memory " << budget << ": smallest failing "
                << show(want.smallest_failing) << ", largest fitting " << show(*want.largest_fitting) << "\n";
    }
  }

  SECTION("every size") {
    Query q;
    q.dims = ranges;
    const CheckReport r = check_over(s, q);
    const Diagnostic* d = first_error(r, "size.budget");
    REQUIRE(d != nullptr);
    INFO(format_diagnostic(*d));
    REQUIRE(d->counterexample.size() == 3);
    const int64_t n = value(d->counterexample, "batch"), h = value(d->counterexample, "input.0"),
                  w = value(d->counterexample, "input.1");
    CHECK_FALSE(fits(n, h, w));
    // Lexicographically smallest: every smaller batch fits at the largest H and W, every smaller H
    // fits with this batch at the largest W, and the next smaller W fits.
    CHECK(fits(n - 1, 1024, 1024));
    CHECK(fits(n, h - 1, 1024));
    CHECK(fits(n, h, w - 1));
    CHECK(d->counterexample_minimised);
    // The largest: batch 64 and H 1024 fit with the smallest W, and W is the last that fits there.
    const auto fit = fit_in_notes(*d);
    REQUIRE(fit.has_value());
    CHECK(fit->maximised);
    CHECK(value(fit->sizes, "batch") == 64);
    CHECK(value(fit->sizes, "input.0") == 1024);
    CHECK(fits(64, 1024, 32));
    CHECK(fits(64, 1024, value(fit->sizes, "input.1")));
    CHECK_FALSE(fits(64, 1024, value(fit->sizes, "input.1") + 1));
    std::cout << "checker_optimum: resnet_block, every size: smallest failing " << show(d->counterexample)
              << ", largest fitting " << show(fit->sizes) << "\n";
  }
}
