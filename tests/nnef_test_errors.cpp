// A malformed model for every error of the NNEF reader: its code and its location in graph.nnef.
#include "nnef_test_support.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

struct Case {
  std::string text;
  std::string code;
  int line, column;
};

// Line 1 the version, line 2 the graph header (its output at column 23), line 3 the input, then `body`.
std::string flat(const std::string& body) {
  return "version 1.0;\ngraph G( input ) -> ( output ) {\ninput = external(shape = [1, 2]);\n" + body + "\n}\n";
}
// Line 1 the version, line 2 the extensions, then `fragments` (one line each), then the graph.
std::string compositional(const std::string& fragments, const std::string& body) {
  return "version 1.0;\nextension KHR_enable_fragment_definitions, KHR_enable_operator_expressions;\n" + fragments +
         "\ngraph G( input ) -> ( output ) {\ninput = external(shape = [1, 2]);\n" + body + "\n}\n";
}

void expect(const Case& c, WeightsPolicy w = WeightsPolicy::Skip) {
  Folder f;
  const LoadResult r = load_text(c.text, f, w);
  INFO(c.text);
  INFO(dump(r));
  CHECK_FALSE(r.model);
  REQUIRE_FALSE(r.diagnostics.empty());
  const Diagnostic& d = r.diagnostics[0];
  CHECK(d.code == c.code);
  CHECK(d.loc.line == c.line);
  if (c.column > 0) CHECK(d.loc.column == c.column);  // 0: wherever the nesting passes the limit
  CHECK(d.loc.file.ends_with("graph.nnef"));
}

}  // namespace

TEST_CASE("nnef errors: syntax, each with its code and location") {
  for (const Case& c : {
           Case{flat("output = relu(input) @;"), "nnef.syntax.character", 4, 22},
           Case{flat("output = relu(input)"), "nnef.syntax.expected", 5, 1},
           Case{flat("output = relu(input, x = 'abc);"), "nnef.syntax.string", 4, 26},
           Case{flat("tensor = relu(input);"), "nnef.syntax.keyword", 4, 1},
           Case{flat("output = relu(1.5e);"), "nnef.syntax.number", 4, 15},
           Case{flat("output = input + 1.0;"), "nnef.syntax.extension-required", 4, 16},
           Case{flat("output = relu(relu(input));"), "nnef.syntax.extension-required", 4, 15},
           Case{"version 1.0;\nfragment f( x: tensor<scalar> ) -> ( y: tensor<scalar> );\n", "nnef.syntax.extension-required", 2, 1},
           Case{"version 2.0;\n", "nnef.version.unsupported", 1, 1},
           Case{"version 1;\n", "nnef.syntax.version", 1, 9},
           Case{"version 1.0;\nextension KHR_unknown;\n", "nnef.extension.unknown", 2, 11},
           Case{flat("output = relu(input);\n}\nmore"), "nnef.syntax.after-graph", 6, 1},
           Case{compositional("fragment f( x: tensr ) -> ( y: tensor<scalar> );", "output = relu(input);"), "nnef.syntax.type", 3, 16},
           Case{compositional("", "output = input" + std::string(300, '+') + "input;"), "nnef.syntax.too-deep", 6, 0},
       })
    expect(c);
}

TEST_CASE("nnef errors: an unexpected byte is shown escaped, never raw") {
  Folder f;
  // A control byte, then the first byte of a UTF-8 'é' (0xc3 0xa9).
  for (const auto& [text, shown] : {std::pair{std::string("\x01"), std::string("'\\x01'")},
                                    std::pair{std::string("\xc3\xa9"), std::string("'\\xc3'")}}) {
    const LoadResult r = load_text(flat("output = relu(input) " + text + ";"), f, WeightsPolicy::Skip);
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics[0].code == "nnef.syntax.character");
    CHECK(r.diagnostics[0].message == "unexpected character " + shown);
  }
}

TEST_CASE("nnef errors: identifiers, invocations and types") {
  for (const Case& c : {
           Case{flat("output = relu(undefined_id);"), "nnef.identifier.undefined", 4, 15},
           Case{flat("input = relu(input);"), "nnef.identifier.redefined", 4, 1},
           Case{flat("output = relu(input, alpha = 1.0);"), "nnef.argument.unknown", 4, 10},
           Case{flat("output = relu(input, input);"), "nnef.argument.count", 4, 10},
           Case{flat("output = softmax(input, [1]);"), "nnef.argument.positional-attribute", 4, 10},
           Case{flat("output = softmax(input, axes = [1], axes = [1]);"), "nnef.argument.repeated", 4, 10},
           Case{flat("output = max_pool(input, border = 'ignore');"), "nnef.argument.missing", 4, 10},
           Case{flat("output = softmax(axes = [1], input);"), "nnef.argument.positional-after-named", 4, 30},
           Case{flat("output = leaky_relu(input, alpha = 1);"), "nnef.type.mismatch", 4, 10},
           Case{flat("output = frobnicate(input);"), "nnef.fragment.undefined", 4, 10},
           Case{flat("[a, b] = relu(input);"), "nnef.assignment.structure", 4, 1},
           Case{flat("other = relu(input);"), "nnef.graph.output-unassigned", 2, 23},
           Case{flat("other = external(shape = [1]);\noutput = relu(input);"), "nnef.graph.input-not-declared", 4, 9},
           Case{compositional("", "output = relu(input);\nn = 1.0;"), "nnef.type.not-tensor", 7, 1},
           Case{compositional("", "output = input * (2 * 1.0);"), "nnef.type.mismatch", 6, 21},
           Case{compositional("", "output = input * [1.0, 2.0][2];"), "nnef.index.out-of-range", 6, 28},
           Case{compositional("", "output = input * scalar(1 / 0);"), "nnef.arithmetic.division-by-zero", 6, 27},
           Case{compositional("", "output = input * scalar(integer('x1'));"), "nnef.type.conversion", 6, 25},
           Case{compositional("", "output = input * scalar(length_of([for i in [1, 2], j in [3] yield i]));"),
                "nnef.type.length-mismatch", 6, 53},
           Case{compositional("", "output = split(input, axis = 1, ratios = [1, 1]);"), "nnef.type.not-tensor", 6, 1},
           Case{compositional("", "output = input * scalar(length_of([[1] * 100000] * 100000));"),
                "nnef.arithmetic.overflow", 6, 50},
           Case{compositional("", "output = relu(split(input, axis = 1, ratios = [1, 1]));"), "nnef.type.mismatch", 6, 10},
       })
    expect(c);
}

TEST_CASE("nnef errors: fragment declarations and expansion") {
  const std::string relu_body = "output = relu(input);";
  for (const Case& c : {
           Case{compositional("fragment relu( x: tensor<scalar> ) -> ( y: tensor<scalar> );", relu_body),
                "nnef.fragment.redefined", 3, 1},
           Case{compositional("fragment f( x: tensor<scalar>, x: integer ) -> ( y: tensor<scalar> );", relu_body),
                "nnef.fragment.duplicate-parameter", 3, 32},
           Case{compositional("fragment f( a: integer, x: tensor<scalar> ) -> ( y: tensor<scalar> );", relu_body),
                "nnef.fragment.parameter-order", 3, 25},
           Case{compositional("fragment f( x: tensor<scalar>, a: integer = 1 + 1 ) -> ( y: tensor<scalar> );", relu_body),
                "nnef.fragment.bad-default", 3, 47},
           Case{compositional("fragment f( x: tensor<scalar> ) -> ( y: integer );", relu_body),
                "nnef.fragment.result-not-tensor", 3, 38},
           Case{compositional("fragment f( x: tensor<?> ) -> ( y: tensor<?> );", relu_body),
                "nnef.fragment.generic-marker", 3, 1},
           Case{compositional("fragment f( x: tensor<scalar> ) -> ( y: tensor<scalar> ) { z = relu(x); }",
                              "output = f(input);"), "nnef.fragment.result-unassigned", 3, 38},
           Case{compositional("fragment f( x: tensor<scalar> ) -> ( y: tensor<scalar> ) { y = f(x); }",
                              "output = f(input);"), "nnef.fragment.recursion", 3, 64},
           Case{compositional("fragment f( x: tensor<scalar> ) -> ( y: tensor<scalar> ) { x = relu(x); y = x; }",
                              "output = f(input);"), "nnef.identifier.redefined", 3, 60},
           Case{compositional("fragment f( x: tensor<scalar> ) -> ( y: tensor<scalar> );", "output = f(input);"),
                "nnef.op-unsupported", 6, 10},
           Case{compositional("fragment f( x: tensor<scalar> ) -> ( y: tensor<scalar> ) { y = external(shape = [1]); }",
                              "output = f(input);"), "nnef.fragment.introduces-tensor", 3, 64},
       })
    expect(c);
}

TEST_CASE("nnef errors: tensors the graph introduces, memory, labels and unsupported operations") {
  for (const Case& c : {
           Case{"version 1.0;\ngraph G( input ) -> ( output ) {\ninput = external(shape = [100000, 100000, 1000]);\n"
                "output = relu(input);\n}\n", "nnef.size.over-budget", 3, 9},
           Case{"version 1.0;\ngraph G( input ) -> ( output ) {\ninput = external(shape = [1, 0]);\noutput = relu(input);\n}\n",
                "nnef.shape.nonpositive", 3, 9},
           Case{flat("w = variable(shape = [1, 2], label = '../outside');\noutput = add(input, w);"), "nnef.label.escapes", 4, 5},
           Case{flat("w = variable(shape = [1, 2], label = '/etc/passwd');\noutput = add(input, w);"), "nnef.label.escapes", 4, 5},
           Case{flat("w = variable(shape = [1, 2], label = 'a b');\noutput = add(input, w);"), "nnef.label.invalid", 4, 5},
           Case{flat("w = variable(shape = [1], label = 'W');\nv = variable(shape = [2], label = 'w');\noutput = relu(input);"),
                "nnef.label.shape-conflict", 5, 5},
           Case{flat("c = constant(shape = [2, 2], value = [1.0, 2.0]);\noutput = add(input, c);"), "nnef.constant.value-count", 4, 5},
           Case{flat("w = variable(shape = [1, 2], label = 'w');\noutput = update(w, input);"),
                "nnef.variable.update-unsupported", 5, 10},
           // select<?> chooses values of one type: a logical and a scalar are two.
           Case{flat("c = lt(input, 0.0);\noutput = select(c, true, 0.0);"), "nnef.type.mismatch", 5, 10},
           Case{flat("i = constant<integer>(shape = [1], value = [9007199254740993]);\noutput = gather(input, i, axis = 1);"),
                "nnef.literal.range", 4, 5},
           Case{flat("i = constant<integer>(shape = [1], value = [0]);\noutput = gather(input, i, axis = -1);"),
                "nnef.argument.value", 5, 10},
           Case{flat("output = cast(input);"), "nnef.type.generic-ambiguous", 4, 10},
           Case{flat("output = deconv(input, input);"), "nnef.op-unsupported", 4, 10},
           Case{flat("output = pad(input, padding = [(0, 0), (1, 1)], border = 'ignore');"), "nnef.argument.value", 4, 10},
           Case{flat("output = pad(input, padding = [(0, 0), (3, 0)], border = 'reflect-even');"),
                "shape.pad.reflect-even-too-wide", 4, 10},
           Case{flat("output = slice(input, axes = [1], begin = [0], end = [2], stride = [0]);"), "attr.slice.stride-zero", 4, 10},
           Case{flat("c = constant(shape = [1, 3], value = [1.0]);\noutput = add(input, c);"), "shape.broadcast.incompatible", 5, 10},
       })
    expect(c);
}

TEST_CASE("nnef errors: deconv's ranks, groups, output_shape, border and attribute bounds") {
  // A [1, 2, 3] input and a filter [2, 1, 2] (line 4); the deconv on line 5.
  const auto deconv = [](const std::string& call) {
    return "version 1.0;\ngraph G( input ) -> ( output ) {\ninput = external(shape = [1, 2, 3]);\n"
           "f = constant(shape = [2, 1, 2], value = [1.0]);\noutput = " + call + ";\n}\n";
  };
  for (const Case& c : {
           Case{flat("f = constant(shape = [2, 1], value = [1.0]);\noutput = deconv(input, f);"), "nnef.argument.value", 5, 10},
           Case{deconv("deconv(input, f, groups = 3)"), "nnef.argument.value", 5, 10},
           Case{deconv("deconv(input, f, output_shape = [1, 3, 4])"), "nnef.argument.value", 5, 10},
           Case{deconv("deconv(input, f, output_shape = [1, 1])"), "nnef.argument.value", 5, 10},
           // ceil(9/2) = 5 is not 3; floor((0 + 5 + 0 - 2)/1) + 1 = 4 is not 3
           Case{deconv("deconv(input, f, stride = [2], output_shape = [1, 1, 9])"), "nnef.argument.value", 5, 10},
           Case{deconv("deconv(input, f, padding = [(0, 0)], output_shape = [1, 1, 5])"), "nnef.argument.value", 5, 10},
           Case{deconv("deconv(input, f, stride = [4294967296])"), "nnef.argument.value", 5, 10},
           Case{deconv("deconv(input, f, border = 'ignore')"), "nnef.argument.value", 5, 10},
           Case{deconv("deconv(input, f, stride = [0])"), "attr.window.stride-nonpositive", 5, 10},
           Case{deconv("deconv(input, f, dilation = [1, 1])"), "attr.window.attribute-length", 5, 10},
           Case{deconv("deconv(input, f, padding = [(2, 3)])"), "shape.negative-extent", 5, 10},
       })
    expect(c);
}

TEST_CASE("nnef errors: an op with no IR counterpart inside a standard fragment is located at the document's call") {
  Folder f;
  // separable_conv's body calls conv, here with a filter the graph computes (the input itself),
  // which nnref's conv does not take: it reads its filter as data (docs/nnef.md).
  const LoadResult r = load_text(flat("output = separable_conv(input, input, input);"), f, WeightsPolicy::Skip);
  REQUIRE_FALSE(r.diagnostics.empty());
  const Diagnostic& d = r.diagnostics[0];
  CHECK(d.code == "nnef.op-unsupported");
  CHECK(d.message.find("conv with a computed filter") != std::string::npos);
  CHECK(d.loc.line == 4);
  CHECK(d.loc.column == 10);
  REQUIRE_FALSE(d.notes.empty());
  CHECK(d.notes.back().find("'separable_conv'") != std::string::npos);
}
