// The catalogue of obligation codes (checker/catalogue.hpp) against the sources that raise the
// codes and against docs/obligations.md. The codes are read from the sources here, without the
// catalogue's help: every literal "shape.…", "graph.…", "bind.…", "size.…", "attr.…" in spec/ and
// semantics/, plus the codes the helpers build at run time ("shape." + family + "." + what in the
// conv/pool window rule, "shape." + op + ".axis-out-of-range", "attr." + op + ".epsilon"), each
// instantiated at every call of its helper.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "checker/catalogue.hpp"

using namespace nnref;
namespace fs = std::filesystem;

namespace {

const fs::path kRoot = NNREF_SOURCE_DIR;

// Matched by the code pattern but not obligations: shape.internal is the guard of
// Checked::check for a shape rule that gave no result although all its obligations held (a bug in
// nnref, not a property of the model).
const std::set<std::string> kNotObligations = {"shape.internal"};

const std::set<std::string> kKinds = {"structure", "attribute", "shape", "binding", "size"};

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) FAIL("cannot read " << p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Source {
  std::string path;  // relative to the repository root
  std::string text;
};

// Every .hpp and .cpp under spec/ and semantics/, in path order.
const std::vector<Source>& sources() {
  static const std::vector<Source> all = [] {
    std::vector<Source> out;
    for (const char* dir : {"spec", "semantics"})
      for (const auto& e : fs::recursive_directory_iterator(kRoot / dir)) {
        const auto ext = e.path().extension();
        if (e.is_regular_file() && (ext == ".hpp" || ext == ".cpp"))
          out.push_back({fs::relative(e.path(), kRoot).generic_string(), read_text(e.path())});
      }
    std::sort(out.begin(), out.end(), [](const Source& a, const Source& b) { return a.path < b.path; });
    return out;
  }();
  return all;
}

template <class F>
void each_match(const std::string& text, const std::regex& re, F&& f) {
  for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it) f(*it);
}

// The last match of `re` in text[0, pos), or an empty result.
std::smatch last_match_before(const std::string& text, size_t pos, const std::regex& re) {
  std::smatch last;
  const auto stop = text.begin() + static_cast<std::ptrdiff_t>(pos);
  for (std::sregex_iterator it(text.begin(), stop, re), end; it != end; ++it) last = *it;
  return last;
}

// Splits call arguments at top-level commas.
std::vector<std::string> split_args(const std::string& args) {
  std::vector<std::string> out(1);
  int depth = 0;
  bool quoted = false;
  for (char ch : args) {
    if (ch == '"') quoted = !quoted;
    if (!quoted && (ch == '(' || ch == '[' || ch == '{')) ++depth;
    if (!quoted && (ch == ')' || ch == ']' || ch == '}')) --depth;
    if (!quoted && depth == 0 && ch == ',') {
      out.emplace_back();
      continue;
    }
    out.back() += ch;
  }
  for (auto& a : out) {
    a.erase(0, a.find_first_not_of(" \t\n"));
    a.erase(a.find_last_not_of(" \t\n") + 1);
  }
  return out;
}

std::optional<std::string> string_literal(const std::string& arg) {
  static const std::regex lit(R"rx(^"([a-z0-9_-]+)"$)rx");
  std::smatch m;
  if (std::regex_match(arg, m, lit)) return m[1].str();
  return std::nullopt;
}

const std::regex kLiteralCode(R"rx("((?:shape|graph|bind|size|attr)\.[a-z0-9._-]+)")rx");
const std::regex kAnyDynamicCode(R"rx("(?:shape|graph|bind|size|attr)\."\s*\+)rx");
// "P." + VAR + ".suffix"  or  "P." + VAR + "." + SUFFIXVAR
const std::regex kDynamicCode(
    R"rx("((?:shape|graph|bind|size|attr)\.)"\s*\+\s*(\w+)\s*\+\s*"\.(?:([a-z0-9_-]+)"|"\s*\+\s*(\w+)))rx");
// A function definition's head: name(params) {
const std::regex kFunctionHead(R"rx(\b(\w+)\((?:[^;{}()]|\([^()]*\))*\)\s*(?:const\s*)?\{)rx");
const std::regex kLambdaHead(R"rx(\b(\w+)\s*=\s*\[[^\]]*\]\(([^)]*)\))rx");
const std::regex kShapeRuleHead(R"rx(\bshape_rule\(const (\w+)&)rx");
const std::regex kOpName(R"rx(\bop_name\(const (\w+)&\s*\w*\)\s*\{\s*return "([a-z_]+)";)rx");

// Attribute struct → op name, from every `op_name(const A&) { return "name"; }`.
std::map<std::string, std::string> op_names() {
  std::map<std::string, std::string> out;
  for (const auto& s : sources()) each_match(s.text, kOpName, [&](const std::smatch& m) { out[m[1]] = m[2]; });
  return out;
}

// The value of a helper's op/family argument at each call of `helper` in the sources: a string
// literal, or op_name(a) inside the shape_rule of an attribute struct.
std::set<std::string> helper_instances(const std::string& helper, const std::string& param) {
  const auto names = op_names();
  const std::regex call("\\b" + helper + R"rx(\(([^;{]*)\);)rx");
  std::set<std::string> out;
  for (const auto& s : sources()) {
    each_match(s.text, call, [&](const std::smatch& m) {
      const size_t at = static_cast<size_t>(m.position(0));
      INFO(s.path << ": " << m.str(0));
      for (const auto& arg : split_args(m[1])) {
        if (auto lit = string_literal(arg)) {
          out.insert(*lit);
          return;
        }
        if (arg == "op_name(a)") {
          const auto rule = last_match_before(s.text, at, kShapeRuleHead);
          REQUIRE(!rule.empty());
          REQUIRE(names.count(rule[1]) == 1);
          out.insert(names.at(rule[1]));
          return;
        }
      }
      FAIL("cannot tell the " << param << " argument of this call of " << helper);
    });
  }
  return out;
}

// The suffixes a code-building lambda is called with: L("what") directly, or L(var) inside another
// lambda M(…, var, …) whose calls pass a literal in that position.
std::set<std::string> lambda_suffixes(const std::string& text, const std::string& lambda) {
  std::set<std::string> out;
  const std::regex direct("\\b" + lambda + R"rx(\("([a-z0-9_-]+)"\))rx");
  each_match(text, direct, [&](const std::smatch& m) { out.insert(m[1]); });
  const std::regex forwarded("\\b" + lambda + R"rx(\((\w+)\))rx");
  each_match(text, forwarded, [&](const std::smatch& fm) {
    const std::string var = fm[1];
    each_match(text, kLambdaHead, [&](const std::smatch& lm) {
      const auto params = split_args(lm[2]);
      for (size_t i = 0; i < params.size(); ++i) {
        const std::regex named(".*\\b" + var + "$");
        if (!std::regex_match(params[i], named)) continue;
        const std::regex call("\\b" + lm[1].str() + R"rx(\(([^;{]*)\);)rx");
        each_match(text, call, [&](const std::smatch& cm) {
          const auto args = split_args(cm[1]);
          if (i < args.size())
            if (auto lit = string_literal(args[i])) out.insert(*lit);
        });
      }
    });
  });
  return out;
}

// Every obligation code the sources can raise.
const std::set<std::string>& source_codes() {
  static const std::set<std::string> codes = [] {
    std::set<std::string> out;
    for (const auto& s : sources()) {
      each_match(s.text, kLiteralCode, [&](const std::smatch& m) { out.insert(m[1]); });
      size_t dynamic = 0, understood = 0;
      each_match(s.text, kAnyDynamicCode, [&](const std::smatch&) { ++dynamic; });
      each_match(s.text, kDynamicCode, [&](const std::smatch& m) {
        ++understood;
        INFO(s.path << ": " << m.str(0));
        const size_t at = static_cast<size_t>(m.position(0));
        const auto head = last_match_before(s.text, at, kFunctionHead);
        REQUIRE(!head.empty());
        const std::set<std::string> instances = helper_instances(head[1], m[2]);
        std::set<std::string> suffixes;
        if (m[3].matched) {
          suffixes.insert(m[3]);
        } else {
          const auto lambda = last_match_before(s.text, at, kLambdaHead);
          REQUIRE(!lambda.empty());
          suffixes = lambda_suffixes(s.text, lambda[1]);
        }
        CHECK(!instances.empty());
        CHECK(!suffixes.empty());
        for (const auto& i : instances)
          for (const auto& x : suffixes) out.insert(m[1].str() + i + "." + x);
      });
      INFO(s.path << " builds a code in a way this test does not read; teach source_codes() about it");
      CHECK(dynamic == understood);
    }
    for (const auto& c : kNotObligations) out.erase(c);
    return out;
  }();
  return codes;
}

}  // namespace

TEST_CASE("the source scan finds the literal and the built codes") {
  const auto& codes = source_codes();
  for (const char* c : {"graph.topology", "bind.shape-mismatch", "size.budget", "size.overflow", "shape.empty-extent",
                        "shape.negative-extent", "shape.conv.groups-nonpositive", "shape.conv.window-exceeds-input",
                        "shape.pool.window-exceeds-input", "shape.conv.kernel-nonpositive",
                        "shape.pool.dilation-nonpositive", "shape.pool.attribute-length",
                        "shape.slice.duplicate-axis", "shape.unsqueeze.axis-out-of-range",
                        "attr.batch_normalization.epsilon", "attr.layer_normalization.epsilon"}) {
    INFO(c);
    CHECK(codes.count(c) == 1);
  }
  for (const auto& c : codes) {
    INFO(c);
    CHECK(c.rfind("eval.", 0) != 0);
    CHECK(kNotObligations.count(c) == 0);
  }
}

TEST_CASE("every code raised by the sources has a catalogue entry") {
  for (const auto& c : source_codes()) {
    INFO(c);
    CHECK(find_obligation(c) != nullptr);
  }
}

TEST_CASE("no catalogue entry is stale: every code is raised by the sources") {
  const auto& codes = source_codes();
  for (const auto& e : obligation_catalogue()) {
    INFO(e.code);
    CHECK(codes.count(e.code) == 1);
  }
}

TEST_CASE("every catalogue entry is complete, of a known kind, and listed once") {
  std::set<std::string> seen;
  REQUIRE(!obligation_catalogue().empty());
  for (const auto& e : obligation_catalogue()) {
    INFO(e.code);
    CHECK(!e.code.empty());
    CHECK(kKinds.count(e.kind) == 1);
    CHECK(!e.summary.empty());
    CHECK(!e.formula.empty());
    CHECK(!e.example.empty());
    CHECK(e.code.find('{') == std::string::npos);  // no unfilled placeholder
    CHECK(e.summary.find('{') == std::string::npos);
    CHECK(e.example.find("{layer}") == std::string::npos);
    CHECK(seen.insert(e.code).second);
  }
}

TEST_CASE("docs/obligations.md lists every catalogue code, and no other") {
  const std::string doc = read_text(kRoot / "docs" / "obligations.md");
  for (const auto& e : obligation_catalogue()) {
    INFO(e.code);
    CHECK(doc.find("`" + e.code + "`") != std::string::npos);
  }
  const std::regex quoted(R"rx(`((?:shape|graph|bind|size|attr)\.[a-z0-9._-]+)`)rx");
  each_match(doc, quoted, [&](const std::smatch& m) {
    INFO(m[1].str());
    if (kNotObligations.count(m[1].str()) == 0) CHECK(find_obligation(m[1].str()) != nullptr);
  });
}

TEST_CASE("find_obligation and explain") {
  const ObligationEntry* e = find_obligation("shape.conv.window-exceeds-input");
  REQUIRE(e != nullptr);
  CHECK(e->code == "shape.conv.window-exceeds-input");
  CHECK(e->kind == "shape");
  CHECK(e->example.find("counterexample: input.0 = 1") != std::string::npos);
  CHECK(find_obligation("no.such.code") == nullptr);
  CHECK(find_obligation("") == nullptr);
  CHECK(find_obligation("shape.conv") == nullptr);
  for (const auto& entry : obligation_catalogue()) CHECK(find_obligation(entry.code) == &entry);

  const std::string text = explain(*e);
  CHECK(text.rfind("shape.conv.window-exceeds-input (shape)\n  " + e->summary + "\n", 0) == 0);
  CHECK(text.find("\n  formula: " + e->formula + "\n") != std::string::npos);
  CHECK(text.find("\n  example: " + e->example + "\n") != std::string::npos);
  CHECK(text.back() == '\n');
}
