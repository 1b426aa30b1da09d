// Packed outputs in SkriptND graphs (§2.3, `T[..]..(n)`): layout.split's and layout.unstack's n tensors
// named as a pack (`parts..(n) =`, then `parts[k]`) or unpacked into n names (`[a, b] =`), a loop over
// such a pack whose variable starts from a number (§2.10's uniform start) and a result dropped with
// `~`, their values worked out by hand; and what is refused, coded and located: a pack name of the
// wrong length, a packed output of a `@lower` body, a part of size 0, sizes that do not add up to the
// extent, a uniform start over extents that vary with the sizes.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "formats/nnef2_model/nnef2_model.hpp"
#include "semantics/evaluate.hpp"

using namespace nnref;

namespace {

LoadResult load(const std::string& text) {
  return load_nnef2_text(text, "main.sknd", ".", LoadOptions(WeightsPolicy::Skip));
}

// A graph from x [2, 6] to the outputs declared by `outputs`, computed by `components`; `extra`
// goes before the graph (an operator of the document).
std::string graph(const std::string& outputs, const std::string& components, const std::string& extra = "") {
  return "version 2.0;\nimport layout;\n" + extra + "graph G {\n    @input {\n        x: real[2, 6];\n    }\n" +
         "    @output {\n        " + outputs + "\n    }\n    @compose {\n        " + components + "\n    }\n}\n";
}

// A document of one operator and a graph from x [3] to a [3] composed by `component`.
std::string operator_on_three(const std::string& op, const std::string& component) {
  return "version 2.0;\n" + op +
         "graph G {\n    @input {\n        x: real[3];\n    }\n    @output {\n        a: real[3];\n    }\n"
         "    @compose {\n        " +
         component + "\n    }\n}\n";
}

// The f64 outputs of a document that loads, on x [2, 6] = 0 .. 11 row-major.
std::vector<std::vector<double>> outputs(const std::string& text) {
  const LoadResult r = load(text);
  std::string diagnostics;
  for (const Diagnostic& d : r.diagnostics) diagnostics += d.code + ": " + d.message + "\n";
  INFO(diagnostics);
  REQUIRE(r.model);
  std::vector<double> x;
  for (int i = 0; i < 12; ++i) x.push_back(i);
  const Model& m = *r.model;
  auto out = evaluate<double>(m.graph, m.payload, {HostTensor{DType::F64, Shape::make({2, 6}).value(), x}},
                              EvalOptions{int64_t{1} << 28, m.param_keys});
  REQUIRE(out);
  std::vector<std::vector<double>> values;
  for (const Tensor<double>& t : *out) values.emplace_back(t.data().begin(), t.data().end());
  return values;
}

Diagnostic first_error(const std::string& text) {
  const LoadResult r = load(text);
  REQUIRE(r.has_errors());
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) return d;
  FAIL("no error");
  return {};
}

}  // namespace

TEST_CASE("sknd packs: layout.split's packed output, unpacked or named as a pack", "[nnef2]") {
  const std::string text = graph("a: real[2, 2]; b: real[2, 4]; c: real[2, 3]; d: real[2, 3];",
                                 "[a, b] = layout.split{axis = 1, sizes = [2, 4]}(x); "
                                 "parts..(2) = layout.split{axis = -1, count = 2}(x); c = parts[0]; d = parts[1];");
  const auto y = outputs(text);  // x: rows 0..5 and 6..11
  const auto values = [&](size_t k) { return y[k]; };
  CHECK(values(0) == std::vector<double>{0, 1, 6, 7});                // columns 0, 1
  CHECK(values(1) == std::vector<double>{2, 3, 4, 5, 8, 9, 10, 11});  // columns 2 to 5
  CHECK(values(2) == std::vector<double>{0, 1, 2, 6, 7, 8});          // count 2: sizes [3, 3]
  CHECK(values(3) == std::vector<double>{3, 4, 5, 9, 10, 11});
}

TEST_CASE("sknd packs: unstack, a loop over the pack from a uniform start, a result dropped with ~", "[nnef2]") {
  // The running sums of the columns from 0.5: row 0 0.5 + 0, + 1, + 2, + 3, + 4, + 5; row 1 from 6.
  const auto y = outputs(graph("y: real[2, 6]; last: real[2];",
                               "cols..(6) = layout.unstack{axis = 1, squeeze = false}(x); "
                               "~, sums = with sum: real[2, 1] = 0.5 for col : cols do { next = math.add(sum, col); "
                               "yield next, next; }; y = layout.concat{axis = 1}(sums); "
                               "[a, b, c, d, e, f] = layout.unstack{axis = 1}(x); last = f;",
                               "import math;\n"));
  CHECK(y[0] == std::vector<double>{0.5, 1.5, 3.5, 6.5, 10.5, 15.5, 6.5, 13.5, 21.5, 30.5, 40.5, 51.5});
  CHECK(y[1] == std::vector<double>{5, 11});
}

TEST_CASE("sknd packs: what is refused, coded and located", "[nnef2]") {
  // The pack name says 3 tensors; split gives 2 (line 11 is the component's, column 9 its name).
  Diagnostic d =
      first_error(graph("c: real[2, 3];", "parts..(3) = layout.split{axis = 1, count = 2}(x); c = parts[0];"));
  CHECK(d.code == "nnef2.compose.results");
  CHECK(d.loc.line == 11);
  CHECK(d.loc.column == 9);
  CHECK(d.message == "'parts..' names a pack of 3 tensors, and the result holds 2");
  // A part of size 0: nnref's split gives each part one index at least.
  d = first_error(graph("a: real[2, 6];", "[e, a] = layout.split{axis = 1, sizes = [0, 6]}(x);"));
  CHECK(d.code == "nnef2.native.attribute");
  CHECK(d.loc.line == 11);
  // Sizes that do not add up to the extent: the definition's assertion.
  d = first_error(graph("a: real[2, 2];", "[a, b] = layout.split{axis = 1, sizes = [2, 3]}(x);"));
  CHECK(d.code == "nnef2.assert.failed");
  // An update (:=) of several items of a packed output: its points, in loop order across the items,
  // would be split item by item.
  const std::string pick =
      "operator pick {\n    @input {\n        x: real[n];\n    }\n    @output {\n        ys: real[n]..(2);\n"
      "    }\n    @lower {\n        ys[k][i] = 0.0, k < 2, i < n;\n        ys[k][i] := x[i], k < 2, i < n | x[i] > "
      "0.0;\n"
      "    }\n}\n";
  d = first_error(operator_on_three(pick, "[a, b] = pick(x);"));
  CHECK(d.code == "nnef2.lower.unsupported");
  CHECK(d.message.find("an update (:=) of several items of a packed output") != std::string::npos);
  // An operator of the document composing itself: refused 32 bodies deep, at the graph's invocation.
  const std::string again =
      "operator again {\n    @input {\n        x: real[n];\n    }\n    @output {\n        y: real[n];\n    }\n"
      "    @compose {\n        y = again(x);\n    }\n}\n";
  d = first_error(operator_on_three(again, "a = again(x);"));
  CHECK(d.code == "nnef2.compose.unsupported");
  CHECK(d.message.find("nested more than 32 deep") != std::string::npos);
  CHECK(d.loc.line == 21);  // `a = again(x);`
  CHECK(d.notes.size() == 32);
}

// A packed output of a @lower body (§2.11: pack items as targets), the draft's `unroll..(ki -> k)
// ys[ki][…]`: one statement per item; and a loop variable started from a number over a size the
// graph declares (its extents the declared ones, a condition check --dim states).
TEST_CASE("sknd packs: a packed output of a @lower body, a uniform start over a size", "[nnef2]") {
  const std::string scaled =
      "operator scaled {\n    @input {\n        x: real[m, n];\n    }\n    @output {\n        ys: real[m, n]..(2);\n"
      "    }\n    @lower {\n        unroll..(ki -> 2)\n            ys[ki][i, j] = x[i, j] * real(ki + 1), i < m, j < "
      "n;\n"
      "    }\n}\n";
  const auto y = outputs(graph("a: real[2, 6]; b: real[2, 6];", "[a, b] = scaled(x);", scaled));
  std::vector<double> x, twice;
  for (int i = 0; i < 12; ++i) x.push_back(i), twice.push_back(2 * i);
  CHECK(y[0] == x);
  CHECK(y[1] == twice);
  // 0 + x + x over rows of 6 given as the graph's size n.
  const std::string sum =
      "version 2.0;\nimport math;\ngraph G {\n    @attrib {\n        n: int = 6;\n    }\n    @input {\n"
      "        x: real[2, n];\n    }\n    @output {\n        y: real[2, n];\n    }\n    @compose {\n"
      "        y = with s: real[2, n] = 0.0 for t : [x, x] do math.add(s, t);\n    }\n}\n";
  CHECK(outputs(sum)[0] == twice);
}
