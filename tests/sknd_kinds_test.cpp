// int and bool tensors in SkriptND graphs: what composition refuses, each refusal coded and located (the
// invocation, or the declaration concerned). The values of the operators mapped onto nnref's integer and
// logical ops are compared with an independent NumPy evaluation by scripts/sknd_single_ops.py (ctest
// nnef2_single_ops) and scripts/sknd_reference.py (the `kinds` model, ctest nnef2_numpy_crosscheck).
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "formats/nnef2_model/nnef2_model.hpp"

using namespace nnref;

namespace {

// A graph with a real, an int and a bool input and an int constant: `output` is the declared output (line 10),
// `component` line 16, `extra` what goes between the imports and the graph (an operator of the document).
std::string graph(const std::string& component, const std::string& output = "y: real[2, 3];",
                  const std::string& extra = "") {
  const std::vector<std::string> lines = {"version 2.0;",
                                          "import math layout nn;",
                                          extra + "graph G {",
                                          "    @input {",
                                          "        x: real[2, 3];",
                                          "        k: int[2, 3];",
                                          "        m: bool[2, 3];",
                                          "    }",
                                          "    @output {",
                                          "        " + output,
                                          "    }",
                                          "    @constant {",
                                          "        c: int[3] = [0, 1, 2];",
                                          "    }",
                                          "    @compose {",
                                          "        " + component,
                                          "    }",
                                          "}"};
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// The first error of a model that must not load: its code and where it is.
struct Refusal {
  std::string code;
  int line = 0, column = 0;
};
Refusal refusal(const std::string& text) {
  const LoadResult r = load_nnef2_text(text, "main.sknd", ".", LoadOptions(WeightsPolicy::Skip));
  REQUIRE(r.has_errors());
  REQUIRE(!r.model);
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) return {d.code, d.loc.line, d.loc.column};
  FAIL("no error");
  return {};
}

void require_refused(const std::string& text, const std::string& code, int line, int column) {
  const Refusal r = refusal(text);
  CHECK(r.code == code);
  CHECK(r.line == line);
  CHECK(r.column == column);
}

constexpr int kCall = 16, kAt = 13;  // the component's line, and the column its invocation starts at

}  // namespace

TEST_CASE("sknd kinds: a graph with int and bool inputs, constants and outputs loads", "[nnef2]") {
  const std::string text = graph(
      "r = layout.cast<real>(k); b = math.lt(x, r); s = math.select(b, x, r); "
      "y = math.argmax{axis = 1}(s); a = math.add(k, c); e = math.and(b, m);",
      "y: int[2, 1]; a: int[2, 3]; e: bool[2, 3];");
  const LoadResult r = load_nnef2_text(text, "main.sknd", ".", LoadOptions(WeightsPolicy::Skip));
  REQUIRE(r.model);
  CHECK(r.model->output_dtypes.at("y") == DType::I64);
  CHECK(r.model->output_dtypes.at("a") == DType::I64);
  CHECK(r.model->output_dtypes.at("e") == DType::Bool);
  std::vector<std::string> ops;
  for (const Node& n : r.model->graph.nodes) ops.push_back(op_name(n.op));
  for (const char* op : {"cast", "lt", "select", "argmax_reduce", "integer_add", "and"})
    CHECK(std::find(ops.begin(), ops.end(), op) != ops.end());
}

TEST_CASE("sknd kinds: a bool tensor where the definition wants a real one is nnef2.compose.type", "[nnef2]") {
  require_refused(graph("y = math.exp(m);"), "nnef2.compose.type", kCall, kAt);
}

TEST_CASE("sknd kinds: operands of one generic with two types are nnef2.compose.type", "[nnef2]") {
  require_refused(graph("y = math.add(x, k);"), "nnef2.compose.type", kCall, kAt);
}

TEST_CASE("sknd kinds: a generic given a type its @dtype does not admit is nnef2.compose.generic", "[nnef2]") {
  require_refused(graph("y = math.add<bool>(m, m);", "y: bool[2, 3];"), "nnef2.compose.generic", kCall, kAt);
  require_refused(graph("y = math.add<int, int>(k, k);", "y: int[2, 3];"), "nnef2.compose.generic", kCall, kAt);
  require_refused(graph("y = math.add<int>(x, x);"), "nnef2.compose.type", kCall, kAt);
}

TEST_CASE("sknd kinds: an output computed of another type than declared is nnef2.graph.output-type", "[nnef2]") {
  require_refused(graph("y = math.lt(x, x);", "y: real[2, 3];"), "nnef2.graph.output-type", 10, 9);
}

TEST_CASE("sknd kinds: a graph tensor of another type than real, int or bool is nnef2.graph.declaration", "[nnef2]") {
  std::string text = graph("y = x;");
  text.replace(text.find("m: bool"), 7, "m: str");
  require_refused(text, "nnef2.graph.declaration", 7, 9);
}

TEST_CASE("sknd kinds: a constant holding values not of its type is nnef2.graph.constant", "[nnef2]") {
  std::string text = graph("y = x;");
  text.replace(text.find("[0, 1, 2]"), 9, "[0, 1.5, 2]");
  require_refused(text, "nnef2.graph.constant", 13, 9);
}

TEST_CASE("sknd kinds: types nnref's ops do not take are nnef2.native.kind", "[nnef2]") {
  // comparisons of ints (nnref's compare takes reals)
  require_refused(graph("y = math.lt(k, k);", "y: bool[2, 3];"), "nnef2.native.kind", kCall, kAt);
  // an int division: the draft's floors, nnref's truncates
  require_refused(graph("y = math.div(k, k);", "y: int[2, 3];"), "nnef2.native.kind", kCall, kAt);
  // an int power
  require_refused(graph("y = math.pow(k, k);", "y: int[2, 3];"), "nnef2.native.kind", kCall, kAt);
  // a real cast to int: the draft does not say how it rounds
  require_refused(graph("y = layout.cast<int>(x);", "y: int[2, 3];"), "nnef2.native.kind", kCall, kAt);
  // gathering int elements (nnref's gather picks reals)
  require_refused(graph("y = layout.gather{axis = 1}(k, c);", "y: int[2, 3];"), "nnef2.native.kind", kCall, kAt);
  // a unary operator of ints (nnref's unary ops take reals)
  require_refused(graph("y = math.sign(k);", "y: int[2, 3];"), "nnef2.native.kind", kCall, kAt);
  // a reduction of ints
  require_refused(graph("y = math.sum_reduce{axes = [1]}(k);", "y: int[2, 1];"), "nnef2.native.kind", kCall, kAt);
}

// The @lower interpreter computes §2.4's int arithmetic but not a power of ints (a real), and moves
// only an update's (:=) target by the data, as scatter's (sknd_lower_test), not a `=`'s.
TEST_CASE("sknd kinds: an int power and a `=` target read from the data are not lowered", "[nnef2]") {
  const std::string twice =
      "operator twice {\n"
      "    @dtype { T: num; }\n"
      "    @input { a: T[s..]; }\n"
      "    @output { b: T[s..]; }\n"
      "    @lower { b[i..] = a[i..] ** 2, i < s; }\n"
      "}\n";
  require_refused(graph("y = twice(k);", "y: int[2, 3];", twice), "nnef2.lower.unsupported", kCall + 6, kAt);
  const std::string put =
      "operator put {\n"
      "    @input { a: real[m, n]; k: int[m, n]; }\n"
      "    @output { b: real[m, n]; }\n"
      "    @lower { b[k[i, j], j] = a[i, j], i < m, j < n; }\n"
      "}\n";
  require_refused(graph("y = put(x, k);", "y: real[2, 3];", put), "nnef2.lower.unsupported", kCall + 5, kAt);
}
