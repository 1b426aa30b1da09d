// --assume parsing: parsed predicates are checked with Z3 itself (equivalence proofs and values at
// points), independently of the printer; every error path is checked for its code and column.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include <z3++.h>

#include "checker/assume_expr.hpp"

using namespace nnref;

namespace {

// Size names: input.0, input.1 and conv_in.2 are symbols; batch is the known extent 8.
struct Sizes {
  z3::context c;
  z3::expr x = c.int_const("input.0");
  z3::expr y = c.int_const("input.1");
  z3::expr w = c.int_const("conv_in.2");

  SizeLookup lookup() {
    return [this](const std::string& name) -> std::optional<SymDim> {
      if (name == "input.0") return SymDim(x);
      if (name == "input.1") return SymDim(y);
      if (name == "conv_in.2") return SymDim(w);
      if (name == "batch") return SymDim(int64_t{8});
      return std::nullopt;
    };
  }

  SymPred parse(const std::string& text) {
    Result<SymPred> r = parse_assumption(text, lookup());
    INFO(text);
    if (!r) FAIL(r.error().message);
    return *r;
  }

  // Whether p is equivalent to expected wherever domain holds (no counterexample exists).
  bool equivalent(const SymPred& p, const z3::expr& expected, const z3::expr& domain) {
    z3::solver s(c);
    s.add(domain);
    s.add(!(p.term(c) == expected));
    return s.check() == z3::unsat;
  }
  bool equivalent(const SymPred& p, const z3::expr& expected) { return equivalent(p, expected, c.bool_val(true)); }

  // Whether p holds at the point given by at (a conjunction of equalities).
  bool holds_at(const SymPred& p, const z3::expr& at) {
    z3::solver s(c);
    s.add(at);
    s.add(!p.term(c));
    return s.check() == z3::unsat;
  }

  // Whether text folds to the known value expected.
  bool known(const std::string& text, bool expected) {
    SymPred p = parse(text);
    return p.is_known() && p.known() == expected;
  }
};

// The error for text, with its code and the column its message names.
void expect_error(const std::string& text, size_t column, const std::string& what) {
  Sizes s;
  Result<SymPred> r = parse_assumption(text, s.lookup());
  INFO(text);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == "usage.assume");
  CHECK_THAT(r.error().message, Catch::Matchers::StartsWith("--assume '" + text + "': column " +
                                                            std::to_string(column) + ": "));
  CHECK_THAT(r.error().message, Catch::Matchers::Contains(what));
}

}  // namespace

TEST_CASE("remainder: input.0 % 4 == 0 is Z3's mod over positive sizes", "[assume]") {
  Sizes s;
  SymPred p = s.parse("input.0 % 4 == 0");
  REQUIRE_FALSE(p.is_known());
  CHECK(s.equivalent(p, z3::mod(s.x, 4) == 0, s.x >= 1));
  CHECK_FALSE(s.holds_at(p, s.x == 5));
  CHECK(s.holds_at(p, s.x == 8));
}

TEST_CASE("names with dotted parts and a known name", "[assume]") {
  Sizes s;
  CHECK(s.equivalent(s.parse("conv_in.2 >= 1"), s.w >= 1));
  CHECK(s.equivalent(s.parse("  input.0+input.1<=batch  "), s.x + s.y <= 8));
}

TEST_CASE("arithmetic precedence and left associativity", "[assume]") {
  Sizes s;
  CHECK(s.known("1 + 2 * 3 == 7", true));
  CHECK(s.known("1 + 2 * 3 == 9", false));
  CHECK(s.known("(1 + 2) * 3 == 9", true));
  CHECK(s.known("10 - 3 - 2 == 5", true));
  CHECK(s.known("100 / 10 / 5 == 2", true));
  CHECK(s.known("17 % 5 * 2 == 4", true));
  CHECK(s.equivalent(s.parse("input.0 + input.1 * 2 == 10"), s.x + s.y * 2 == 10));
}

TEST_CASE("'&&' binds tighter than '||'", "[assume]") {
  Sizes s;
  SymPred p = s.parse("input.0 == 1 || input.0 == 2 && input.1 == 3");
  CHECK(s.equivalent(p, s.x == 1 || (s.x == 2 && s.y == 3)));
  // Where the other grouping, (a || b) && c, would be false.
  CHECK(s.holds_at(p, s.x == 1 && s.y == 0));
  CHECK(s.equivalent(s.parse("(input.0 == 1 || input.0 == 2) && input.1 == 3"),
                     (s.x == 1 || s.x == 2) && s.y == 3));
}

TEST_CASE("unary minus", "[assume]") {
  Sizes s;
  CHECK(s.equivalent(s.parse("-input.0 < -2"), s.x > 2));
  CHECK(s.known("- -3 == 3", true));
  CHECK(s.known("-3 * 2 == -6", true));
  CHECK(s.known("2 - -3 == 5", true));
}

TEST_CASE("negation and every comparison", "[assume]") {
  Sizes s;
  CHECK(s.equivalent(s.parse("!(input.0 == 3)"), s.x != 3));
  CHECK(s.known("!!(1 == 1)", true));
  CHECK(s.equivalent(s.parse("input.0 == 4"), s.x == 4));
  CHECK(s.equivalent(s.parse("input.0 != 4"), s.x != 4));
  CHECK(s.equivalent(s.parse("input.0 < 4"), s.x < 4));
  CHECK(s.equivalent(s.parse("input.0 <= 4"), s.x <= 4));
  CHECK(s.equivalent(s.parse("input.0 > 4"), s.x > 4));
  CHECK(s.equivalent(s.parse("input.0 >= 4"), s.x >= 4));
  CHECK(s.known("3 != 3", false));
  CHECK(s.known("3 < 3", false));
  CHECK(s.known("3 <= 3", true));
  CHECK(s.known("3 > 3", false));
  CHECK(s.known("3 >= 3", true));
}

TEST_CASE("'/' and '%' are floor division and its remainder", "[assume]") {
  Sizes s;
  CHECK(s.known("-7 / 2 == -4", true));
  CHECK(s.known("-7 % 2 == 1", true));
  CHECK(s.known("7 / 2 == 3", true));
  SymPred p = s.parse("input.0 / 2 == -4");
  CHECK(s.holds_at(p, s.x == -7));
  CHECK(s.holds_at(p, s.x == -8));
  CHECK_FALSE(s.holds_at(p, s.x == -6));
  // A divisor that is a term is allowed.
  CHECK(s.equivalent(s.parse("input.0 % input.1 == 0"), z3::mod(s.x, s.y) == 0, s.y >= 1));
}

TEST_CASE("a known-only expression folds to a known predicate", "[assume]") {
  Sizes s;
  CHECK(s.known("batch * 2 == 16", true));
  CHECK(s.known("batch > 8 || batch % 3 == 0", false));
  // A known conjunct folds away, leaving the symbolic one.
  SymPred p = s.parse("batch == 8 && input.0 > 0");
  REQUIRE_FALSE(p.is_known());
  CHECK(s.equivalent(p, s.x > 0));
}

TEST_CASE("integers up to the int64 maximum", "[assume]") {
  Sizes s;
  CHECK(s.equivalent(s.parse("input.0 < 9223372036854775807"), s.x < s.c.int_val(int64_t{9223372036854775807})));
}

TEST_CASE("errors: names and characters", "[assume]") {
  expect_error("inpt.0 > 1", 1, "unknown size name 'inpt.0'");
  expect_error("1 + input.9 > 1", 5, "unknown size name 'input.9'");
  expect_error("input.0 $ 4", 9, "unexpected character '$'");
  expect_error("input.0 = 4", 9, "did you mean '=='?");
  expect_error("input. > 1", 6, "unexpected character '.'");
}

TEST_CASE("errors: structure", "[assume]") {
  expect_error("(input.0 + 1 == 2", 18, "expected ')' to close the '(' at column 1");
  expect_error("input.0 == 4 5", 14, "unexpected '5'");
  expect_error("input.0 == 4)", 13, "unexpected ')'");
  expect_error("1 < 2 < 3", 7, "comparisons do not chain");
  expect_error("input.0 == * 2", 12, "expected a number, a name or '(', found '*'");
  Sizes s;
  Result<SymPred> r = parse_assumption("input.0 % ", s.lookup());
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message == "--assume 'input.0 % ': column 11: expected a number, a name or '('");
}

TEST_CASE("errors: integers and divisors", "[assume]") {
  expect_error("input.0 < 99999999999999999999", 11, "the integer 99999999999999999999 does not fit in 64 bits");
  expect_error("input.0 < 9223372036854775808", 11, "does not fit in 64 bits");
  expect_error("input.0 / 0 == 1", 11, "the divisor of '/' must be positive, not 0");
  expect_error("input.0 % -2 == 1", 11, "the divisor of '%' must be positive, not -2");
  expect_error("input.0 / (3 - 3) == 1", 11, "must be positive, not 0");
}

TEST_CASE("errors: types", "[assume]") {
  expect_error("(input.0 == 1) + 1 == 2", 16, "'+' needs numbers on both sides");
  expect_error("2 * (input.0 == 1) == 2", 3, "'*' needs numbers on both sides");
  expect_error("(1 == 1) == (2 == 2)", 10, "'==' needs numbers on both sides");
  expect_error("input.0 && input.0 == 1", 9, "'&&' needs comparisons on both sides");
  expect_error("input.0 == 1 || 2", 14, "'||' needs comparisons on both sides");
  expect_error("-(1 == 1)", 1, "'-' needs a number");
  expect_error("!input.0", 1, "'!' needs a comparison");
}

TEST_CASE("errors: the whole expression must be a predicate, and not empty", "[assume]") {
  Sizes s;
  Result<SymPred> r = parse_assumption("input.0 + 1", s.lookup());
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == "usage.assume");
  CHECK(r.error().message ==
        "--assume 'input.0 + 1': column 1: the assumption must be a comparison, e.g. 'input.0 % 4 == 0'");
  expect_error("batch", 1, "must be a comparison");
  expect_error("", 1, "the assumption is empty");
  expect_error("   ", 4, "the assumption is empty");
}

TEST_CASE("nesting is bounded: hostile depth is an error, not a crash", "[assume]") {
  Sizes s;
  // 200 levels are fine.
  CHECK(s.known(std::string(200, '(') + "1 == 1" + std::string(200, ')'), true));
  CHECK(s.known(std::string(199, '!') + "(1 == 1)", false));
  // The 201st level is refused at its column.
  expect_error(std::string(10000, '(') + "1 == 1" + std::string(10000, ')'), 201, "nested");
  expect_error(std::string(10000, '-') + "1 == 1", 201, "nested");
  expect_error(std::string(10000, '!') + "(1 == 1)", 201, "nested");
}
