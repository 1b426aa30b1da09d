// int and bool tensors in SkriptND graphs: what composition refuses, each refusal coded and located (the
// invocation, or the declaration concerned). The values of the operators mapped onto nnref's integer and
// logical ops are compared with an independent NumPy evaluation by scripts/sknd_single_ops.py (ctest
// nnef2_single_ops) and scripts/sknd_reference.py (the `kinds` model, ctest nnef2_numpy_crosscheck).
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "formats/nnef2_model/nnef2_model.hpp"
#include "semantics/evaluate.hpp"

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

namespace {

// The values of a graph's output y in f64, at x = [[-2.5, 1.9, 0.2], [3.7, -0.4, -1]], k = [[-7, 7, -8],
// [3, 0, 2]] and m all true, the constant c being `constant`; and whether y is computed by a contract node.
std::vector<double> lowered_values(const std::string& component, const std::string& output,
                                   const std::string& constant = "[0, 1, 2]", const std::string& extra = "") {
  std::string text = graph(component, output, extra);
  text.replace(text.find("[0, 1, 2]"), 9, constant);
  const LoadResult r = load_nnef2_text(text, "main.sknd", ".", LoadOptions(WeightsPolicy::Skip));
  std::string diagnostics;
  for (const Diagnostic& d : r.diagnostics) diagnostics += d.code + ": " + d.message + "\n";
  INFO(diagnostics);
  REQUIRE(r.model);
  const Model& model = *r.model;
  CHECK(std::any_of(model.graph.nodes.begin(), model.graph.nodes.end(),
                    [](const Node& n) { return op_name(n.op) == std::string("contract"); }));
  const auto host = [](DType t, std::vector<double> v) {
    return HostTensor{t, Shape::make({2, 3}).value(), std::move(v)};
  };
  auto out = evaluate<double>(model.graph, model.payload,
                              {host(DType::F64, {-2.5, 1.9, 0.2, 3.7, -0.4, -1.0}),
                               host(DType::I64, {-7, 7, -8, 3, 0, 2}), host(DType::Bool, {1, 1, 1, 1, 1, 1})},
                              EvalOptions{int64_t{1} << 28, model.param_keys});
  if (!out) FAIL(out.error().message);
  return {out->at(0).data().begin(), out->at(0).data().end()};
}

}  // namespace

// What nnref's ops do not take (their native mappings refuse the tensors' kinds: nnef2.native.kind) runs
// from the operator's @lower body, §2.4's arithmetic worked out by hand.
TEST_CASE("sknd kinds: types nnref's ops do not take run from their @lower bodies", "[nnef2]") {
  using V = std::vector<double>;
  // comparisons of ints, exactly: k < [0, 1, 2]
  CHECK(lowered_values("y = math.lt(k, c);", "y: bool[2, 3];") == V{1, 0, 1, 0, 1, 0});
  // the draft's int division floors: k / [-3, 1, 2] is [⌊7/3⌋, 7, −4; −1, 0, 1]
  CHECK(lowered_values("y = math.div(k, c);", "y: int[2, 3];", "[-3, 1, 2]") == V{2, 7, -4, -1, 0, 1});
  // an int power: k ** [0, 1, 2]
  CHECK(lowered_values("y = math.pow(k, c);", "y: int[2, 3];") == V{1, 7, 64, 1, 0, 4});
  // a real cast to int truncates toward 0 (docs/nnef2.md: the draft does not say how a real rounds)
  CHECK(lowered_values("y = layout.cast<int>(x);", "y: int[2, 3];") == V{-2, 1, 0, 3, 0, -1});
  // gathering int elements: the columns [2, 0, 2] of k
  CHECK(lowered_values("y = layout.gather{axis = 1}(k, c);", "y: int[2, 3];", "[2, 0, 2]") == V{-8, -7, -8, 2, 3, 2});
  // a unary operator of ints, and a reduction of ints
  CHECK(lowered_values("y = math.sign(k);", "y: int[2, 3];") == V{-1, 1, -1, 1, 0, 1});
  CHECK(lowered_values("y = math.sum_reduce{axes = [1]}(k);", "y: int[2, 1];") == V{-8, 5});
  // an int power in an operator of the document
  const std::string twice =
      "operator twice {\n"
      "    @dtype { T: num; }\n"
      "    @input { a: T[s..]; }\n"
      "    @output { b: T[s..]; }\n"
      "    @lower { b[i..] = a[i..] ** 2, i < s; }\n"
      "}\n";
  CHECK(lowered_values("y = twice(k);", "y: int[2, 3];", "[0, 1, 2]", twice) == V{49, 49, 64, 9, 0, 4});
}

// The @lower interpreter moves only an update's (:=) target by the data, as scatter's (sknd_lower_test),
// not a `=`'s.
TEST_CASE("sknd kinds: a `=` target read from the data is not lowered", "[nnef2]") {
  const std::string put =
      "operator put {\n"
      "    @input { a: real[m, n]; k: int[m, n]; }\n"
      "    @output { b: real[m, n]; }\n"
      "    @lower { b[k[i, j], j] = a[i, j], i < m, j < n; }\n"
      "}\n";
  require_refused(graph("y = put(x, k);", "y: real[2, 3];", put), "nnef2.lower.unsupported", kCall + 5, kAt);
}
