// The stdlib audit (cli/audit_stdlib.cpp, docs/nnef2.md "The stdlib audit") on operators written
// here, each with a defect worked out by hand and its repair: an access past the end, an output
// extent that can be negative, a composition whose shape is not the declared one, assertions no
// size satisfies. The audit of the standard library itself is the ctest nnef2_audit_stdlib.
#include <catch2/catch.hpp>

#include <deque>
#include <string>

#include "cli/audit_stdlib.hpp"
#include "formats/nnef2/parser.hpp"

using namespace nnref;

namespace {

// The audit of operator `name` of a module whose text is `text` (it may invoke math's operators).
OperatorAudit audit(const std::string& text, const std::string& name) {
  static std::deque<std::string> texts;  // a module quotes from its text: kept for the test's run
  static std::deque<nnef2::Module> modules;
  texts.push_back(text);
  nnef2::Diags diags;
  modules.push_back(nnef2::Module{"t", "t.sknd", texts.back(), nnef2::parse_text(texts.back(), "t.sknd", diags)});
  REQUIRE(diags.list().empty());
  for (const nnef2::OpDef& def : modules.back().doc.ops)
    if (def.name == name) return audit_operator(modules.back(), def);
  FAIL("no operator " << name);
  return {};
}

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& l : lines)
    if (l.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("audit: an access one past the end is refuted, a guarded or bounded one proved", "[sknd][audit]") {
  const char* shifted = R"(
operator shift {
    @input { x: real[n]; }
    @output { y: real[n]; }
    @lower { y[i,] = x[i + 1,], i < n; }
}
operator guarded {
    @input { x: real[n]; }
    @output { y: real[n]; }
    @lower { y[i,] = x[|i + 1|,], i < n; }
}
operator bounded {
    @input { x: real[n]; }
    @output { y: real[n - 1]; }
    @lower { y[i,] = x[i + 1,], i < n - 1; }
}
)";
  const OperatorAudit bad = audit(shifted, "shift");
  CHECK(bad.not_audited.empty());
  // x[i + 1] at i = n - 1 reads x[n]: index 0 of the access is refuted; y[i] is in bounds, and so
  // is the output extent n >= 0.
  REQUIRE(bad.refuted.size() == 1);
  INFO(bad.refuted[0]);
  CHECK(mentions(bad.refuted, "(access x (+ i 1) ,) at t.sknd:5:22: index 0 in bounds (counterexample: "));
  CHECK(bad.proved == 2);
  const OperatorAudit guarded = audit(shifted, "guarded");
  CHECK(guarded.refuted.empty());
  CHECK(guarded.proved == 2);  // y's extent and y[i]; the guarded index needs no proof
  // y: real[n - 1] can be -1 < 0 at n = 0... but extents are at least 1: n - 1 >= 0 holds.
  const OperatorAudit bounded = audit(shifted, "bounded");
  CHECK(bounded.refuted.empty());
  CHECK(bounded.proved == 3);
}

TEST_CASE("audit: an output extent that can be negative, and the assertion that repairs it", "[sknd][audit]") {
  const char* text = R"(
operator crop {
    @input { x: real[n]; }
    @output { y: real[n - 3]; }
}
operator checked_crop {
    @input { x: real[n]; }
    @output { y: real[n - 3]; }
    @assert { n >= 3: "at least 3 items"; }
}
)";
  const OperatorAudit bad = audit(text, "crop");
  REQUIRE(bad.refuted.size() == 1);
  CHECK(mentions(bad.refuted, "extent 0 of output 'y' >= 0 (counterexample: x.0 = "));
  const OperatorAudit good = audit(text, "checked_crop");
  CHECK(good.refuted.empty());
  CHECK(good.proved == 1);
}

TEST_CASE("audit: a composition whose shape is not the declared one is refuted", "[sknd][audit]") {
  const char* text = R"(
operator twice {
    @input { x: real[n]; }
    @output { y: real[n]; }
    @compose { y = math.add(x, x); }
}
operator widened {
    @input { x: real[n]; }
    @output { y: real[n + 1]; }
    @compose { y = math.add(x, x); }
}
)";
  const OperatorAudit good = audit(text, "twice");
  CHECK(good.refuted.empty());
  CHECK(good.skipped.empty());
  const OperatorAudit bad = audit(text, "widened");
  REQUIRE(bad.refuted.size() == 1);
  CHECK(mentions(bad.refuted, "output 'y' as @compose computes it has the declared shape"));
}

TEST_CASE("audit: an operator whose assertions the sample fails is not audited, and says why", "[sknd][audit]") {
  const char* text = R"(
operator never {
    @input { x: real[n]; }
    @output { y: real[n]; }
    @assert { n < 0: "impossible"; }
    @lower { y[i,] = x[i + 5,], i < n; }
}
)";
  const OperatorAudit a = audit(text, "never");
  CHECK(a.not_audited.find("no sample binds: t.never: @assert `n < 0` fails: impossible") != std::string::npos);
  CHECK(a.proved == 0);
  CHECK(a.refuted.empty());
}
