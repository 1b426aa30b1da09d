// The SkriptND (NNEF 2.0) reader: nnref's standard library parses with 0 errors and as many
// operators per module as the draft defines; the tree of small inputs, written by hand; one located
// diagnostic per code.
#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "formats/nnef2/ast_print.hpp"
#include "formats/nnef2/parser.hpp"
#include "formats/nnef2/stdlib.hpp"

namespace nnef2 = nnref::nnef2;

namespace {

std::string tree(const std::string& src) {
  nnef2::Diags diags;
  nnef2::ExprPtr e = nnef2::parse_expression(src, "t.sknd", diags);
  INFO(src);
  REQUIRE(e);
  REQUIRE_FALSE(diags.has_errors());
  return nnef2::to_sexpr(*e);
}

nnef2::Document document(const std::string& src) {
  nnef2::Diags diags;
  nnef2::Document doc = nnef2::parse_text(src, "t.sknd", diags);
  INFO(src);
  for (const auto& d : diags.list()) INFO(d.code + ": " + d.message);
  REQUIRE_FALSE(diags.has_errors());
  return doc;
}

// The first lowering of a one-operator document whose only block is @lower.
const nnef2::Lowering& first_lowering(const nnef2::Document& doc) {
  REQUIRE(doc.ops.size() == 1);
  REQUIRE(doc.ops[0].blocks.size() == 1);
  REQUIRE(doc.ops[0].blocks[0].lowerings.size() >= 1);
  return doc.ops[0].blocks[0].lowerings[0];
}

struct Located {
  std::string code;
  int line;
  int column;
};

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

Located first_error(const std::string& src) {
  nnef2::Diags diags;
  nnef2::parse_text(src, "bad.sknd", diags);
  INFO(src);
  REQUIRE(diags.has_errors());
  const auto& d = diags.list().front();
  CHECK(d.loc.file == "bad.sknd");
  return {d.code, d.loc.line, d.loc.column};
}

}  // namespace

TEST_CASE("every module of the standard library parses, with the draft's operator count") {
  // Counted in the Revision 8 draft's chapter 4 by scripts/sknd_extract_stdlib.py DRAFT --count
  // (the ``` blocks after each "defined in the <module> module"), not from this parser.
  const std::map<std::string, size_t> draft_counts = {{"layout", 29}, {"math", 71}, {"linalg", 4}, {"nn", 28},
                                                      {"image", 15},  {"quant", 2}, {"algo", 2}};
  size_t total = 0;
  REQUIRE(nnef2::stdlib_modules().size() == draft_counts.size());
  for (const nnef2::StdlibModule& m : nnef2::stdlib_modules()) {
    INFO(std::string(m.name));
    nnef2::Diags diags;
    nnef2::Document doc = nnef2::parse_text(m.text, std::string(m.name) + ".sknd", diags);
    for (const auto& d : diags.list()) UNSCOPED_INFO(d.loc.line << ":" << d.loc.column << " " << d.message);
    CHECK_FALSE(diags.has_errors());
    CHECK(doc.ops.size() == draft_counts.at(std::string(m.name)));
    total += doc.ops.size();
  }
  CHECK(total == 151);
}

TEST_CASE("binary operators bind as docs/nnef2.md says: => && < <? + * ** from loosest") {
  CHECK(tree("a => b && c < d <? e + f * g ** h") == "(=> a (&& b (< c (<? d (+ e (* f (** g h)))))))");
  CHECK(tree("a ** b * c + d <? e < f && g => h") == "(=> (&& (< (<? (+ (* (** a b) c) d) e) f) g) h)");
  CHECK(tree("a => b => c") == "(=> a (=> b c))");
  CHECK(tree("a - b - c") == "(- (- a b) c)");
  CHECK(tree("a ** b ** c") == "(** a (** b c))");
  CHECK(tree("-x ** 2") == "(- (** x 2))");
  CHECK(tree("-x * 2") == "(* (- x) 2)");
  CHECK(tree("a || b && c") == "(&& (|| a b) c)");
  CHECK(tree("x in a && y is b") == "(&& (in x a) (is y b))");
  CHECK(tree("c ? a : d ? b : e") == "(? c a (? d b e))");
  CHECK(tree("x ?? y + 1") == "(?? x (+ y 1))");
  CHECK(tree("!?x") == "(! (?x x))");
}

TEST_CASE("folds, cumulative folds, expansions and packs") {
  CHECK(tree("a + .. + 42") == "(fold + a 42)");
  CHECK(tree("x <? ...") == "(cumfold <? x)");
  CHECK(tree("axes != ..") == "(fold != axes)");
  CHECK(tree("x && .. ? a : b") == "(? (fold && x) a b)");
  CHECK(tree("[1 ..(5)]") == "(list (expand 1 5))");
  CHECK(tree("[(a, b)..]") == "(list (expand (zip a b)))");
  CHECK(tree("[1, s[::-1]..] * ...") == "(cumfold * (list 1 (expand (slice s _ _ (- 1)))))");
  CHECK(tree("[0 : n : 2, x..]") == "(list (range 0 n 2) (expand x))");
}

TEST_CASE("subscripts, slices, substitutions and tensor accesses") {
  CHECK(tree("a[::-1]") == "(slice a _ _ (- 1))");
  CHECK(tree("a[1:]") == "(slice a 1 _ _)");
  CHECK(tree("a[:n]") == "(slice a _ n _)");
  CHECK(tree("a[i] <- b") == "(<- (index a i) b)");
  CHECK(tree("s[axes] <- s[axes] * f") == "(<- (index s axes) (* (index s axes) f))");
  CHECK(tree("c ? a") == "(? c a)");
  CHECK(tree("x[i,]") == "(access x i ,)");
  CHECK(tree("x[|i <> 0 : n - 1|, j]") == "(access x (| i 0 (- n 1)) j)");
  CHECK(tree("x[|i|..]") == "(access x (expand (| i)))");
  CHECK(tree("x[k][i, j]") == "(access x [k] i j)");
  CHECK(tree("x[]") == "(access x)");
  CHECK(tree("x.shape[0] + x.rank") == "(+ (index (. x shape) 0) (. x rank))");
}

TEST_CASE("literals, casts, built-ins and formatted strings") {
  CHECK(tree("int(r) + real(1) * T()") == "(+ (cast int r) (* (cast real 1) (cast T)))");
  CHECK(tree("abs(x) + erf(y)") == "(+ (abs x) (erf y))");
  CHECK(tree("[true, inf, pi, 1.5, 2e3]") == "(list true inf pi 1.5 2e3)");
  CHECK(tree("\"a {x + 1} b\"") == "(str \"a \" {(+ x 1)} \" b\")");
  CHECK(tree("\"ab\" 'cd'") == "(str \"abcd\")");
}

TEST_CASE("Revision 6's spellings give Revision 8's tree") {
  CHECK(tree("a << b >> c") == tree("a <? b >? c"));
  CHECK(tree("x << ..") == tree("x <? .."));
  CHECK(tree("`abs`(x) + `floor`(y)") == tree("abs(x) + floor(y)"));
  const char* rev6 = "operator p { @lower { zi = si - b, y[si] <<= x[|zi <> 0 : n - 1|], si < m; } }";
  const char* rev8 = "operator p { @lower { with zi = si - b: y[si] <?= x[|zi <> 0 : n - 1|], si < m; } }";
  nnef2::Document d6 = document(rev6);
  nnef2::Document d8 = document(rev8);
  const nnef2::Lowering& l6 = first_lowering(d6);
  const nnef2::Lowering& l8 = first_lowering(d8);
  CHECK(l6.op == "<?=");
  CHECK(l8.op == "<?=");
  REQUIRE(l6.locals.size() == 1);
  REQUIRE(l8.locals.size() == 1);
  CHECK(nnef2::to_sexpr(*l6.locals[0].value) == nnef2::to_sexpr(*l8.locals[0].value));
  CHECK(nnef2::to_sexpr(*l6.value) == nnef2::to_sexpr(*l8.value));
  CHECK(nnef2::to_sexpr(*l6.target) == nnef2::to_sexpr(*l8.target));
}

TEST_CASE("a lowering keeps its target, operator, loop bounds and condition") {
  nnef2::Document doc = document(
      "operator nz { @lower { unroll ..(t -> 3) index[:, k] += i[0] * 2, i < s, j < n | input[i..] != T(0); } }");
  const nnef2::Lowering& l = first_lowering(doc);
  REQUIRE(l.unroll);
  CHECK(l.unroll->index == "t");
  CHECK(nnef2::to_sexpr(*l.unroll->count) == "3");
  CHECK(nnef2::to_sexpr(*l.target) == "(access index : k)");
  CHECK(l.op == "+=");
  CHECK(nnef2::to_sexpr(*l.value) == "(* (index i 0) 2)");
  REQUIRE(l.bounds.size() == 2);
  CHECK(l.bounds[0].index == "i");
  CHECK(nnef2::to_sexpr(*l.bounds[0].limit) == "s");
  CHECK(l.bounds[1].index == "j");
  CHECK(nnef2::to_sexpr(*l.bounds[1].limit) == "n");
  REQUIRE(l.condition);
  CHECK(nnef2::to_sexpr(*l.condition) == "(!= (access input (expand i)) (cast T 0))");
  CHECK(l.loc.line == 1);
  CHECK(l.loc.column == 24);
}

TEST_CASE("a compose with if … then … else, labels, generics, attributes and ~") {
  nnef2::Document doc = document(
      "operator f {\n"
      "  @compose {\n"
      "    y = if r == 1 then x elif ?b then m.g<T>{a = 1, b = [2, 3]}(x, ~) else l: flatten{axis = 0}(x);\n"
      "  }\n"
      "}\n");
  const nnef2::Block& b = doc.ops[0].blocks.at(0);
  CHECK(b.kind == nnef2::BlockKind::Compose);
  REQUIRE(b.components.size() == 1);
  const nnef2::Component& c = b.components[0];
  CHECK(c.loc.line == 3);
  CHECK(c.loc.column == 5);
  REQUIRE(c.form == nnef2::Component::Form::Branch);
  REQUIRE(c.branch->cases.size() == 2);
  CHECK(nnef2::to_sexpr(*c.branch->cases[0].first.expr) == "(== r 1)");
  CHECK(nnef2::to_sexpr(*c.branch->cases[0].second.expr) == "x");
  CHECK(nnef2::to_sexpr(*c.branch->cases[1].first.expr) == "(?x b)");
  const nnef2::Invocation& g = *c.branch->cases[1].second.call;
  CHECK(g.op == "m.g");
  CHECK(g.generics == std::vector<std::string>{"T"});
  REQUIRE(g.attributes.size() == 2);
  CHECK(g.attributes[1].name == "b");
  CHECK(nnef2::to_sexpr(*g.attributes[1].value) == "(list 2 3)");
  REQUIRE(g.args.size() == 2);
  CHECK(g.args[1]->kind == nnef2::ExprKind::Wildcard);
  const nnef2::Invocation& e = *c.branch->otherwise.call;
  CHECK(e.label == "l");
  CHECK(e.op == "flatten");
}

TEST_CASE("a loop with carried variables, scan inputs, a count and a block body") {
  nnef2::Document doc = document(
      "operator s { @compose { ~, sums = with sum: real[z..] = 0.0 for item : items do..(i -> n) {\n"
      "  next = add(sum, item); yield next, sum; }; } }");
  const nnef2::Component& c = doc.ops[0].blocks[0].components.at(0);
  REQUIRE(c.lhs.size() == 2);
  CHECK(c.lhs[0].items[0].form == nnef2::LvalueItem::Form::Drop);
  REQUIRE(c.form == nnef2::Component::Form::Loop);
  const nnef2::Loop& l = *c.loop;
  REQUIRE(l.with.size() == 1);
  REQUIRE(l.with[0].type);
  CHECK(l.with[0].type->type == "real");
  CHECK(nnef2::to_sexpr(*l.with[0].value) == "0.0");
  REQUIRE(l.for_each.size() == 1);
  CHECK(l.for_each[0].name == "item");
  CHECK_FALSE(l.unroll);
  REQUIRE(l.count);
  CHECK(l.count->index == "i");
  REQUIRE(l.body.block);
  CHECK(l.body.block->components.size() == 1);
  CHECK(l.body.block->yields.size() == 2);
}

TEST_CASE("declarations: generics, type specs with shapes, packs, rank captures and defaults") {
  nnef2::Document doc = document(
      "version 2.0;\nimport layout math;\n"
      "public operator t {\n"
      "  @dtype { T: num = real; }\n"
      "  @attrib { shape: int..(d) = []; c: optional real; }\n"
      "  @input { x: T^(r)[s..(d), ~|8, ..z]..(n); }\n"
      "  @constant { k: int[n] = i * 2, i < n; }\n"
      "  @assert { d > 0: \"d must be positive, not {d}\", 'shape': shape, d; }\n"
      "}\n");
  REQUIRE(doc.version);
  CHECK(*doc.version == std::pair<int, int>{2, 0});
  REQUIRE(doc.imports.size() == 1);
  CHECK(doc.imports[0] == std::vector<std::string>{"layout", "math"});
  const nnef2::OpDef& op = doc.ops.at(0);
  CHECK(op.is_public);
  REQUIRE(op.blocks.size() == 5);
  CHECK(op.blocks[0].dtypes.at(0).default_type == "real");
  const nnef2::ParamDef& shape = op.blocks[1].params.at(0);
  REQUIRE(shape.type.pack);
  CHECK(nnef2::to_sexpr(*shape.type.pack->count) == "d");
  CHECK(nnef2::to_sexpr(*shape.value) == "(list)");
  CHECK(op.blocks[1].params.at(1).type.optional);
  const nnef2::TypeSpec& x = op.blocks[2].params.at(0).type;
  CHECK(nnef2::to_sexpr(*x.rank) == "r");
  REQUIRE(x.shape.size() == 3);
  CHECK(nnef2::to_sexpr(*x.shape[0].pack->count) == "d");
  CHECK(x.shape[1].extent->kind == nnef2::ExprKind::Wildcard);
  CHECK(nnef2::to_sexpr(*x.shape[1].bound) == "8");
  CHECK(x.shape[2].spread);
  REQUIRE(x.pack);
  CHECK(op.blocks[3].params.at(0).bounds.at(0).index == "i");
  const nnef2::Assertion& a = op.blocks[4].assertions.at(0);
  CHECK(nnef2::to_sexpr(*a.message) == "(str \"d must be positive, not \" {d})");
  REQUIRE(a.args.size() == 2);
  CHECK(a.args[0].label == "shape");
  CHECK(a.args[1].label.empty());
}

TEST_CASE("integers and reals: `1 ..(5)` is an integer and an expansion") {
  CHECK(tree("[1..(5)]") == "(list (expand 1 5))");
  CHECK(tree("[1.5..]") == "(list (expand 1.5))");
}

TEST_CASE("each diagnostic code, located") {
  auto check = [](const std::string& src, const std::string& code, int line, int column) {
    Located e = first_error(src);
    INFO(src);
    CHECK(e.code == code);
    CHECK(e.line == line);
    CHECK(e.column == column);
  };
  check("operator a {\n  @using { x = 1 $ 2; }\n}", "nnef2.lex.character", 2, 18);
  check("operator a {\n  @using { x = 'ab; }\n}", "nnef2.lex.string", 2, 16);
  check("operator a { @using { x = 1e+; } }", "nnef2.lex.number", 1, 27);
  check("operator a { @using { x = 1 } }", "nnef2.syntax.expected", 1, 29);
  check("operator a { @using { x = ; } }", "nnef2.syntax.expression", 1, 27);
  check("operator a { @usage { } }", "nnef2.syntax.block", 1, 15);
  check("version 2;", "nnef2.syntax.version", 1, 9);
  check("version 99999999999.0;", "nnef2.syntax.version", 1, 9);
  check("version 2.0e1;", "nnef2.syntax.version", 1, 9);
  check("operator a { @lower { y[i] - x[i], i < n; } }", "nnef2.syntax.lowering-op", 1, 28);
  check("operator a { @using { x = y - ..; } }", "nnef2.syntax.fold-op", 1, 31);
  check("operator a { @assert { x: \"bad {x\"; } }", "nnef2.syntax.string-format", 1, 32);
  check("operator a { @using { x = [y][i, j]; } }", "nnef2.syntax.tensor-access", 1, 30);
  // A level of parentheses counts 4 (expression, binary operand, prefix operand, postfix) of the
  // 300: the 76th '(' (column 27 + 75) is refused.
  check("operator a { @using { x = " + std::string(200, '(') + "1" + std::string(200, ')') + "; } }",
        "nnef2.syntax.too-deep", 1, 102);
}

TEST_CASE("a character outside ASCII is one diagnostic, named with its code point") {
  // U+2212 (a minus sign pasted from the draft's text) is three bytes: one error, at its first.
  const std::string minus = "\xE2\x88\x92";
  nnef2::Diags diags;
  nnef2::parse_text("operator a {\n  @using { x = " + minus + "1; }\n}", "bad.sknd", diags);
  REQUIRE(diags.list().size() == 1);
  const nnref::Diagnostic& d = diags.list()[0];
  CHECK(d.code == "nnef2.lex.character");
  CHECK((d.loc.line == 2 && d.loc.column == 16));
  CHECK(d.message == "unexpected character '" + minus + "' (U+2212)");
  // A byte that starts no UTF-8 character is named as such.
  nnef2::Diags stray;
  nnef2::parse_text("x = \x80;", "bad.sknd", stray);
  REQUIRE(stray.list().size() == 1);
  CHECK(stray.list()[0].message == "unexpected character (a byte that starts no UTF-8 character)");
}

TEST_CASE("each imported name keeps where it is written") {
  const nnef2::Document doc = document("version 2.0;\nimport nn;\nimport layout  math;\n");
  REQUIRE(doc.import_locs.size() == 2);
  REQUIRE(doc.import_locs[1].size() == 2);
  CHECK((doc.import_locs[0][0].line == 2 && doc.import_locs[0][0].column == 8));
  CHECK((doc.import_locs[1][1].line == 3 && doc.import_locs[1][1].column == 16));
}

TEST_CASE("deep or long input gives a diagnostic, never a stack overflow") {
  for (const std::string& src :
       {std::string(100000, '-') + "x", std::string(100000, '[') + "x", repeat("c ? ", 50000) + "x",
        "a" + repeat(" => a", 50000), "a" + repeat(" + a", 50000), "a" + repeat("[0]", 50000)}) {
    nnef2::Diags diags;
    CHECK_FALSE(nnef2::parse_expression(src, "deep.sknd", diags));
    REQUIRE(diags.has_errors());
    CHECK(diags.list().front().code == "nnef2.syntax.too-deep");
  }
  nnef2::Diags diags;
  CHECK(nnef2::parse_expression("a" + repeat(" + a", 250), "long.sknd", diags));
  CHECK_FALSE(diags.has_errors());
}
