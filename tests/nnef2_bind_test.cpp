// Composition at concrete shapes: the floor semantics of §2.4, and standard
// operators bound to invocations (attributes, affine shape binding, @using,
// @assert, @output), each output shape and each failure worked out by hand from
// the operator's definition in Revision 8's chapter 4.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "formats/nnef2/bind.hpp"
#include "formats/nnef2/library.hpp"
#include "formats/nnef2/parser.hpp"

namespace nnef2 = nnref::nnef2;
using nnef2::Val;

CATCH_TRANSLATE_EXCEPTION(const nnef2::BindError& e) { return e.code + ": " + e.message; }
CATCH_TRANSLATE_EXCEPTION(const nnef2::EvalError& e) { return e.code + ": " + e.message; }

namespace {

Val eval(const std::string& text, std::map<std::string, Val> symbols = {}) {
  nnef2::Diags d;
  const nnef2::ExprPtr e = nnef2::parse_expression(text, "test", d);
  REQUIRE(e);
  nnef2::Evaluator ev;
  ev.symbols = std::move(symbols);
  return ev.eval(*e);
}

Val tensor(std::vector<int64_t> shape) {
  static int64_t handle = 0;
  return Val::of_tensor(handle++, std::move(shape));
}

nnef2::BoundInvocation bind(const std::string& module, const std::string& op, std::vector<Val> inputs,
                            std::map<std::string, Val> attributes = {}) {
  const nnef2::Module* m = nnef2::find_module(module);
  REQUIRE(m);
  const nnef2::OpDef* def = nnef2::find_operator(*m, op);
  REQUIRE(def);
  return nnef2::bind_invocation(*def, module + "." + op, {std::move(attributes), std::move(inputs)}, m->text);
}

std::vector<int64_t> shape_of(const std::string& module, const std::string& op, std::vector<Val> inputs,
                              std::map<std::string, Val> attributes = {}) {
  const nnef2::BoundInvocation b = bind(module, op, std::move(inputs), std::move(attributes));
  REQUIRE(b.output_shapes.size() == 1);
  return b.output_shapes[0];
}

nnef2::BindError bind_error(const std::string& module, const std::string& op, std::vector<Val> inputs,
                            std::map<std::string, Val> attributes = {}) {
  try {
    bind(module, op, std::move(inputs), std::move(attributes));
  } catch (const nnef2::BindError& e) {
    return e;
  }
  FAIL("the invocation bound");
  return {};
}

}  // namespace

TEST_CASE("integer division floors, the ceiling division rounds up, % takes the divisor sign", "[nnef2][eval]") {
  CHECK(eval("7 / 2").i == 3);
  CHECK(eval("-7 / 2").i == -4);
  CHECK(eval("7 / -2").i == -4);
  CHECK(eval("-7 \\ 2").i == -3);
  CHECK(eval("7 \\ 2").i == 4);
  CHECK(eval("-7 % 2").i == 1);
  CHECK(eval("7 % -2").i == -1);
  CHECK(eval("6 / 3").i == 2);
  CHECK_THROWS_AS(eval("1 / 0"), nnef2::EvalError);
  CHECK_THROWS_AS(eval("1 % (2 - 2)"), nnef2::EvalError);
}

TEST_CASE("packs combine item by item, nulls propagate, folds and slices", "[nnef2][eval]") {
  const std::map<std::string, Val> s = {{"a", Val::ints({4, 6, 8})}, {"n", Val{}}};
  CHECK(eval("a / 2", s) == Val::ints({2, 3, 4}));
  CHECK(eval("a + a", s) == Val::ints({8, 12, 16}));
  CHECK(eval("a * ..", s).i == 192);
  CHECK(eval("a + .. + 10", s).i == 28);
  CHECK(eval("a != ..", s).b);
  CHECK(eval("[1, 1] == ..", s).b);
  CHECK(eval("[1, 2] := ..", s).is_null());
  CHECK(eval("[1 ..(3)]", s) == Val::ints({1, 1, 1}));
  CHECK(eval("[0, a.., 9]", s) == Val::ints({0, 4, 6, 8, 9}));
  CHECK(eval("[2:5]", s) == Val::ints({2, 3, 4}));
  CHECK(eval("[4:-1:-1]", s) == Val::ints({4, 3, 2, 1, 0}));
  CHECK(eval("a[1:]", s) == Val::ints({6, 8}));
  CHECK(eval("a[::-1]", s) == Val::ints({8, 6, 4}));
  CHECK(eval("a[-1]", s).i == 8);
  CHECK(eval("a[[0, 2]] <- 0", s) == Val::ints({0, 6, 0}));
  CHECK(eval("a + .. + 1", s).i == 19);
  CHECK(eval("[1, 2] + ...", s) == Val::ints({1, 3}));
  CHECK(eval("n + 1", s).is_null());
  CHECK(eval("n ?? 5", s).i == 5);
  CHECK(!eval("?n", s).b);
  CHECK(eval("a is 6 ? 1 : 0", s) == Val::ints({0, 1, 0}));
  CHECK(eval("2 in a", s).b == false);
  CHECK(eval("\"x = {a[0] + 1}\"", s).s == "x = 5");
}

TEST_CASE("nn.conv: output extents of §4.4.1 at given, default and ceil padding", "[nnef2][bind]") {
  // (10 + 2 - 3) / 2 + 1 = 5 with padding 1 on each side and stride 2.
  CHECK(shape_of("nn", "conv", {tensor({1, 3, 10, 10}), tensor({4, 3, 3, 3}), tensor({4})},
                 {{"padding", Val::integer(1)}, {"stride", Val::integer(2)}}) == std::vector<int64_t>{1, 4, 5, 5});
  // No padding: the total is (10 / 1 - 1) * 1 + 3 - 10 = 2, so the extent
  // stays 10.
  CHECK(shape_of("nn", "conv", {tensor({2, 3, 10, 12}), tensor({8, 3, 3, 5})}) == std::vector<int64_t>{2, 8, 10, 12});
  // Stride 3, no padding given: the draft's total is ((10 / 3) - 1) * 3 + 3 -
  // 10 = -1 (the floor mode crops), so (10 - 1 - 3) / 3 + 1 = 3.
  CHECK(shape_of("nn", "conv", {tensor({1, 3, 10, 10}), tensor({4, 3, 3, 3})}, {{"stride", Val::integer(3)}}) ==
        std::vector<int64_t>{1, 4, 3, 3});
  // Padding 0 and ceil mode: (7 - 2) \ 2 + 1 = 4.
  CHECK(shape_of("nn", "conv", {tensor({1, 2, 7}), tensor({2, 1, 2})},
                 {{"padding", Val::integer(0)},
                  {"stride", Val::integer(2)},
                  {"ceil_mode", Val::boolean(true)},
                  {"groups", Val::integer(2)}}) == std::vector<int64_t>{1, 2, 4});
  const nnef2::BoundInvocation b = bind("nn", "conv", {tensor({1, 4, 9, 9}), tensor({6, 2, 3, 3})},
                                        {{"padding", Val::ints({1, 0, 2, 1})}, {"groups", Val::integer(2)}});
  CHECK(b.env.symbols.at("paddings") == Val::ints({3, 1}));
  CHECK(b.env.symbols.at("offset") == Val::ints({1, 0}));
  CHECK(b.output_shapes[0] == std::vector<int64_t>{1, 6, 10, 8});
}

TEST_CASE(
    "nn.conv: a failed @assert names the operator, its condition and the "
    "values",
    "[nnef2][bind]") {
  const nnef2::BindError e = bind_error("nn", "conv", {tensor({1, 4, 8, 8}), tensor({6, 3, 3, 3})});
  CHECK(e.code == "nnef2.assert.failed");
  CHECK(e.message.find("nn.conv: @assert `ic == fc * g` fails: input-channels "
                       "must equal filter-channels * groups") == 0);
  CHECK(e.message.find("input-channels = 4, filter-channels = 3, groups = 1") != std::string::npos);
  CHECK(e.where.file == "nn.sknd");
  const nnef2::BindError window =
      bind_error("nn", "conv", {tensor({1, 3, 2, 2}), tensor({4, 3, 3, 3})}, {{"padding", Val::integer(0)}});
  CHECK(window.message.find("`ix + paddings >= fd`") != std::string::npos);
  const nnef2::BindError bias = bind_error("nn", "conv", {tensor({1, 3, 5, 5}), tensor({4, 3, 3, 3}), tensor({5})});
  CHECK(bias.message.find("`bs == n`") != std::string::npos);
}

TEST_CASE("shape binding: agreement, rank and affine lengths", "[nnef2][bind]") {
  CHECK(shape_of("nn", "linear", {tensor({2, 5}), tensor({3, 5}), tensor({3})}) == std::vector<int64_t>{2, 3});
  const nnef2::BindError e = bind_error("nn", "linear", {tensor({2, 5}), tensor({3, 4})});
  CHECK(e.code == "nnef2.compose.shape");
  CHECK(e.message.find("extent 1 of input 'filter' is 4, but the definition requires 5") != std::string::npos);
  // conv's input is real[s..(d+2)]: rank 1 would make d = -1.
  CHECK(bind_error("nn", "conv", {tensor({3}), tensor({3})}).code == "nnef2.compose.shape");
  CHECK(bind_error("nn", "conv", {tensor({1, 3, 8, 8}), tensor({4, 3, 3})}).code == "nnef2.compose.shape");
  CHECK(bind_error("nn", "linear", {tensor({2, 5})}).code == "nnef2.compose.argument");
  CHECK(bind_error("nn", "relu", {tensor({2})}, {{"beta", Val::real(1.0)}}).code == "nnef2.compose.attribute");
}

TEST_CASE("layout and math operators: output shapes", "[nnef2][bind]") {
  CHECK(shape_of("nn", "max_pool", {tensor({1, 64, 55, 55})},
                 {{"size", Val::integer(3)}, {"stride", Val::integer(2)}, {"padding", Val::integer(0)}}) ==
        std::vector<int64_t>{1, 64, 27, 27});
  CHECK(shape_of("nn", "avg_pool", {tensor({1, 2, 6, 6})}, {{"size", Val::integer(2)}, {"stride", Val::integer(2)}}) ==
        std::vector<int64_t>{1, 2, 3, 3});
  CHECK(shape_of("layout", "reshape", {tensor({2, 3, 4})}, {{"shape", Val::ints({-1, 4})}}) ==
        std::vector<int64_t>{6, 4});
  CHECK(shape_of("layout", "reshape", {tensor({2, 3, 4})}, {{"axis", Val::integer(1)}, {"shape", Val::ints({12})}}) ==
        std::vector<int64_t>{2, 12});
  CHECK(shape_of("layout", "flatten", {tensor({2, 3, 4, 5})}, {{"axis", Val::integer(1)}}) ==
        std::vector<int64_t>{2, 60});
  CHECK(shape_of("layout", "concat", {Val::pack({tensor({2, 3}), tensor({2, 5})})}, {{"axis", Val::integer(1)}}) ==
        std::vector<int64_t>{2, 8});
  CHECK(shape_of("layout", "transpose", {tensor({2, 3, 4})}) == std::vector<int64_t>{4, 3, 2});
  CHECK(shape_of("layout", "transpose", {tensor({2, 3, 4})}, {{"perm", Val::ints({0, 2, 1})}}) ==
        std::vector<int64_t>{2, 4, 3});
  CHECK(shape_of("math", "add", {tensor({2, 3}), tensor({3})}) == std::vector<int64_t>{2, 3});
  CHECK(shape_of("math", "mul", {tensor({4, 1, 3}), tensor({5, 1})}) == std::vector<int64_t>{4, 5, 3});
  CHECK(bind_error("math", "add", {tensor({2, 3}), tensor({4})}).code == "nnef2.assert.failed");
  CHECK(shape_of("linalg", "matmul", {tensor({2, 3}), tensor({3, 4})}) == std::vector<int64_t>{2, 4});
  CHECK(shape_of("nn", "softmax", {tensor({2, 7})}) == std::vector<int64_t>{2, 7});
}

TEST_CASE("generics: given, deduced from inputs and attributes, defaulted, and element types checked",
          "[nnef2][bind]") {
  using nnef2::ElemType;
  const auto typed = [](std::vector<int64_t> shape, ElemType t) {
    Val v = tensor(std::move(shape));
    v.elem = t;
    return v;
  };
  const auto output_type = [](const nnef2::BoundInvocation& b) {
    REQUIRE(b.output_types.size() == 1);
    return b.output_types[0];
  };
  const Val x = typed({2, 3}, ElemType::Real), k = typed({2, 3}, ElemType::Int), m = typed({2, 3}, ElemType::Bool);
  // math.add's T deduced from x: int ints give int, reals real
  CHECK(output_type(bind("math", "add", {k, k})) == ElemType::Int);
  CHECK(output_type(bind("math", "add", {x, x})) == ElemType::Real);
  // comparisons give bool whatever X and Y are; select's T is its values'
  CHECK(output_type(bind("math", "lt", {x, x})) == ElemType::Bool);
  CHECK(output_type(bind("math", "select", {m, k, k})) == ElemType::Int);
  // argmax gives int; layout.range's T from its attribute `first` (an int)
  CHECK(output_type(bind("math", "argmax", {x}, {{"axis", Val::integer(1)}})) == ElemType::Int);
  CHECK(output_type(bind("layout", "range", {}, {{"first", Val::integer(0)}, {"last", Val::integer(4)}})) ==
        ElemType::Int);
  // layout.cast<R, T>: R given, T deduced
  const nnef2::Module* layout = nnef2::find_module("layout");
  const nnef2::OpDef* cast = nnef2::find_operator(*layout, "cast");
  nnef2::InvocationArgs args;
  args.inputs = {m};
  args.generics = {"int"};
  CHECK(output_type(nnef2::bind_invocation(*cast, "layout.cast", args, layout->text)) == ElemType::Int);
  // a bool where a real is declared; two types for one generic; a generic its base type does not admit
  CHECK(bind_error("math", "exp", {m}).code == "nnef2.compose.type");
  CHECK(bind_error("math", "add", {x, k}).code == "nnef2.compose.type");
  CHECK(bind_error("math", "add", {m, m}).code == "nnef2.compose.type");  // T: num
  CHECK(bind_error("layout", "gather", {x, x}, {{"axis", Val::integer(0)}}).code == "nnef2.compose.type");
  args.generics = {"str"};
  CHECK_THROWS_AS(nnef2::bind_invocation(*cast, "layout.cast", args, layout->text), nnef2::BindError);
}
