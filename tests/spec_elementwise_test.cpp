// Elementwise ops (spec/ops/binary.hpp, add_n.hpp, broadcast_to.hpp): binary maps under the three
// broadcast rules, add_n, broadcast_to; and the shape rules of these and of the unary, affine,
// normalisation and reduction ops read over a symbolic Dim. Expected values are worked out by hand
// in the comments. (The unary maps' values: spec_unary_test.cpp.)
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "spec/ops/add_n.hpp"
#include "spec/ops/batch_norm.hpp"
#include "spec/ops/binary.hpp"
#include "spec/ops/broadcast_to.hpp"
#include "spec/ops/layer_norm.hpp"
#include "spec/ops/linear.hpp"
#include "spec/ops/matmul.hpp"
#include "spec/ops/reduce.hpp"
#include "spec/ops/softmax.hpp"
#include "spec/ops/unary.hpp"

#include "op_test_support.hpp"

using nnref::mp50;

namespace {

using namespace nnref;
using namespace nnref::test;

}  // namespace

TEMPLATE_TEST_CASE("binary ops on equal shapes", "[elementwise]", float, double, mp50) {
  using T = TestType;
  auto x = tensor<T>(Shape::of({2, 2}), {1, 2, 9, -3});
  auto y = tensor<T>(Shape::of({2, 2}), {4, 10, 0.5, 2});
  auto bin = [&](BinaryOp op) { return run<T>(BinaryAttrs{op, Broadcast::Equal}, {x, y})[0]; };
  check_values(bin(BinaryOp::Add), {5, 12, 9.5, -1});
  check_values(bin(BinaryOp::Sub), {-3, -8, 8.5, -5});
  check_values(bin(BinaryOp::Mul), {4, 20, 4.5, -6});
  check_values(bin(BinaryOp::Div), {0.25, 0.2, 18, -1.5});
  check_values(bin(BinaryOp::Pow), {1, 1024, 3, 9});  // 1⁴, 2¹⁰, 9^½, (−3)²
  check_values(bin(BinaryOp::Min), {1, 2, 0.5, -3});
  check_values(bin(BinaryOp::Max), {4, 10, 9, 2});
  CHECK(bin(BinaryOp::Add).shape() == Shape::of({2, 2}));
}

// ONNX Mod with fmod 1, C's fmod: x − y·trunc(x/y) with the exact quotient, x's sign.
TEMPLATE_TEST_CASE("fmod: the remainder of the truncated quotient, exact", "[elementwise]", float, double, mp50) {
  using T = TestType;
  auto x = tensor<T>(Shape::of({5}), {5.5, -5.5, 5.5, -7, 3});
  auto y = tensor<T>(Shape::of({5}), {2, 2, -2, 7, 0});
  auto z = run<T>(BinaryAttrs{BinaryOp::Fmod, Broadcast::Equal}, {x, y})[0];
  CHECK(sc::to_double(z[0]) == 1.5);   // 5.5 = 2·2 + 1.5
  CHECK(sc::to_double(z[1]) == -1.5);  // x's sign
  CHECK(sc::to_double(z[2]) == 1.5);   // not the divisor's
  CHECK(sc::to_double(z[3]) == 0.0);
  CHECK(std::signbit(sc::to_double(z[3])));  // −7 = −1·7 − 0
  CHECK(std::isnan(sc::to_double(z[4])));   // y = 0
}

// The double nearest 0.1 is 0.1000000000000000055511151231257827: 1 = 9·it + r with r =
// 1 − 0.9000000000000000499600361081320443 = 0.0999999999999999500399638918679557, itself a double;
// a composition x − y·trunc(x/y) would take the rounded quotient 10 and give −5.55e-17.
TEST_CASE("fmod uses the exact quotient: fmod(1, 0.1) in double and mp50") {
  const double r = 0.0999999999999999500399638918679557;
  CHECK(sc::fmod(1.0, 0.1) == r);
  CHECK(static_cast<double>(sc::fmod(mp50(1), mp50(0.1))) == r);
}

TEMPLATE_TEST_CASE("binary broadcasting, NumPy rule (trailing axes aligned)", "[elementwise]", float, double, mp50) {
  using T = TestType;
  BinaryAttrs add{BinaryOp::Add, Broadcast::NumpyRight};
  // [2, 3] + [3]: the row is added to each row.
  auto z = run<T>(add, {tensor<T>(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6}), tensor<T>(Shape::of({3}), {10, 20, 30})})[0];
  CHECK(z.shape() == Shape::of({2, 3}));
  check_values(z, {11, 22, 33, 14, 25, 36});
  // [2, 1] · [1, 3]: the outer product.
  auto p = run<T>(BinaryAttrs{BinaryOp::Mul, Broadcast::NumpyRight},
                  {tensor<T>(Shape::of({2, 1}), {1, 2}), tensor<T>(Shape::of({1, 3}), {3, 4, 5})})[0];
  CHECK(p.shape() == Shape::of({2, 3}));
  check_values(p, {3, 4, 5, 6, 8, 10});
  // Scalar (rank 0) − [2]: 10 − 1, 10 − 4.
  auto s = run<T>(BinaryAttrs{BinaryOp::Sub, Broadcast::NumpyRight},
                  {tensor<T>(Shape::of({}), {10}), tensor<T>(Shape::of({2}), {1, 4})})[0];
  CHECK(s.shape() == Shape::of({2}));
  check_values(s, {9, 6});
}

TEMPLATE_TEST_CASE("binary broadcasting, NNEF rule (leading axes aligned)", "[elementwise]", float, double, mp50) {
  using T = TestType;
  // [2, 3] + [2] (read as [2, 1]): 10 is added to row 0, 20 to row 1.
  auto z = run<T>(BinaryAttrs{BinaryOp::Add, Broadcast::NnefLeft},
                  {tensor<T>(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6}), tensor<T>(Shape::of({2}), {10, 20})})[0];
  CHECK(z.shape() == Shape::of({2, 3}));
  check_values(z, {11, 12, 13, 24, 25, 26});
  // A [1, 2] bias against [2, 2, 1] (NCHW-style): result [2, 2, 1], channel c gets bias c.
  auto b = run<T>(BinaryAttrs{BinaryOp::Add, Broadcast::NnefLeft},
                  {tensor<T>(Shape::of({2, 2, 1}), {1, 2, 3, 4}), tensor<T>(Shape::of({1, 2}), {100, 200})})[0];
  CHECK(b.shape() == Shape::of({2, 2, 1}));
  check_values(b, {101, 202, 103, 204});
}

TEST_CASE("binary broadcast failures name the shapes and the axis", "[elementwise]") {
  Diagnostic d = failure(BinaryAttrs{BinaryOp::Add, Broadcast::NumpyRight}, {Shape::of({2, 3}), Shape::of({4, 3})});
  CHECK(d.code == "shape.broadcast.incompatible");
  CHECK(d.message ==
        "input 0 of shape [2, 3] and input 1 of shape [4, 3] are not broadcastable (NumPy rule): axis 0 has extents 2 "
        "and 4");
  CHECK(failure(BinaryAttrs{BinaryOp::Add, Broadcast::NumpyRight}, {Shape::of({2, 3}), Shape::of({2})}).code ==
        "shape.broadcast.incompatible");
  // [2, 3] with [3] under the NNEF rule: [3] is read as [3, 1], and 2 ≠ 3 on axis 0.
  d = failure(BinaryAttrs{BinaryOp::Add, Broadcast::NnefLeft}, {Shape::of({2, 3}), Shape::of({3})});
  CHECK(d.code == "shape.broadcast.incompatible");
  CHECK(d.message ==
        "input 0 of shape [2, 3] and input 1 of shape [3] are not broadcastable (NNEF rule): axis 0 has extents 2 "
        "and 3");
  // Equal: different ranks, then different extents.
  CHECK(failure(BinaryAttrs{BinaryOp::Mul, Broadcast::Equal}, {Shape::of({2, 3}), Shape::of({3})}).code ==
        "shape.broadcast.incompatible");
  d = failure(BinaryAttrs{BinaryOp::Mul, Broadcast::Equal}, {Shape::of({2, 3}), Shape::of({2, 1})});
  CHECK(d.code == "shape.broadcast.incompatible");
  CHECK(d.message ==
        "input 0 of shape [2, 3] and input 1 of shape [2, 1] are not broadcastable (identical shapes required): "
        "axis 1 has extents 3 and 1");
  CHECK(failure(BinaryAttrs{}, {Shape::of({2})}).code == "graph.arity");
}

TEMPLATE_TEST_CASE("add_n of three inputs", "[elementwise]", float, double, mp50) {
  using T = TestType;
  auto y = run<T>(AddNAttrs{}, {tensor<T>(Shape::of({2}), {1, 2}), tensor<T>(Shape::of({2}), {10, 20}),
                                 tensor<T>(Shape::of({2}), {100, 200})})[0];
  CHECK(y.shape() == Shape::of({2}));
  check_values(y, {111, 222});
}

TEST_CASE("add_n obligations", "[elementwise]") {
  CHECK(failure(AddNAttrs{}, {Shape::of({2}), Shape::of({3}), Shape::of({2})}).code == "shape.add_n.mismatch");
  CHECK(failure(AddNAttrs{}, {Shape::of({2}), Shape::of({2, 1})}).code == "shape.add_n.mismatch");
  Diagnostic d = failure(AddNAttrs{}, {Shape::of({2})});
  CHECK(d.code == "graph.arity");
  CHECK(d.message == "add_n takes at least 2 inputs, got 1");
}

TEMPLATE_TEST_CASE("broadcast_to under the three rules", "[elementwise]", float, double, mp50) {
  using T = TestType;
  auto y = run<T>(BroadcastToAttrs{{2, 3}, Broadcast::NumpyRight}, {tensor<T>(Shape::of({3}), {1, 2, 3})})[0];
  CHECK(y.shape() == Shape::of({2, 3}));
  check_values(y, {1, 2, 3, 1, 2, 3});
  y = run<T>(BroadcastToAttrs{{2, 3}, Broadcast::NnefLeft}, {tensor<T>(Shape::of({2}), {1, 2})})[0];
  check_values(y, {1, 1, 1, 2, 2, 2});
  y = run<T>(BroadcastToAttrs{{2, 2}, Broadcast::Equal}, {tensor<T>(Shape::of({2, 2}), {1, 2, 3, 4})})[0];
  check_values(y, {1, 2, 3, 4});
}

TEMPLATE_TEST_CASE("broadcast_to to computed dims", "[elementwise]", float, double, mp50) {
  using T = TestType;
  using namespace size_code;
  // Target [S, 3], S the extent of operand 1 (2 here, its values unread): the row (1, 2, 3) twice.
  const BroadcastToAttrs a{{}, Broadcast::NumpyRight, {kExtent, 0, 0, kConstant, 3}, {ElemKind::Real}};
  auto y = run<T>(a, {tensor<T>(Shape::of({3}), {1, 2, 3}), tensor<T>(Shape::of({2}), {7, 7})})[0];
  CHECK(y.shape() == Shape::of({2, 3}));
  check_values(y, {1, 2, 3, 1, 2, 3});
}

// Integer and logical elements are moved as reals are: [7, −2] to [2, 2] is [[7, −2], [7, −2]];
// to computed dims [S, 2], S = 3 (operand 1's extent): three rows; a truth value [1] to [3].
TEST_CASE("broadcast_to of integers and truth values", "[elementwise]") {
  using namespace size_code;
  BroadcastToAttrs a{{2, 2}, Broadcast::NumpyRight};
  a.kind = ElemKind::Integer;
  const std::vector<Value<double>> x{integers(Shape::of({2}), {7, -2})};
  CHECK(std::get<Tensor<int64_t>>(run_values<double>(a, x)[0]).values() == std::vector<int64_t>{7, -2, 7, -2});
  BroadcastToAttrs c{{}, Broadcast::NumpyRight, {kExtent, 0, 0, kConstant, 2}, {ElemKind::Real}, ElemKind::Integer};
  const std::vector<Value<double>> xs{integers(Shape::of({2}), {7, -2}), tensor(Shape::of({3}), {0, 0, 0})};
  CHECK(std::get<Tensor<int64_t>>(run_values<double>(c, xs)[0]).values() == std::vector<int64_t>{7, -2, 7, -2, 7, -2});
  BroadcastToAttrs l{{3}, Broadcast::NumpyRight};
  l.kind = ElemKind::Logical;
  const std::vector<Value<double>> t{logical(Shape::of({1}), {1})};
  CHECK(std::get<Tensor<uint8_t>>(run_values<double>(l, t)[0]).values() == std::vector<uint8_t>{1, 1, 1});
  // The operand must be of the op's kind.
  CHECK(code_of(a, {Shape::of({2})}, {ElemKind::Real}) == "kind.operand");
}

TEST_CASE("broadcast_to obligations", "[elementwise]") {
  using namespace size_code;
  // A computed target S − 1 with S = 1: no rows.
  const BroadcastToAttrs none{{}, Broadcast::NumpyRight, {kExtent, 0, 0, kConstant, 1, kSub, kConstant, 3},
                              {ElemKind::Real}};
  CHECK(failure(none, {Shape::of({3}), Shape::of({1})}).code == "shape.broadcast_to.computed-extent");
  Diagnostic d = failure(BroadcastToAttrs{{2, 3}, Broadcast::NumpyRight}, {Shape::of({2})});
  CHECK(d.code == "shape.broadcast_to.incompatible");
  CHECK(d.message ==
        "broadcast_to: input of shape [2] does not broadcast to [2, 3] (NumPy rule): axis 1 has extent 2, "
        "target 3");
  // One-directional: a target extent 1 does not absorb an input extent 3.
  CHECK(failure(BroadcastToAttrs{{1}, Broadcast::NumpyRight}, {Shape::of({3})}).code ==
        "shape.broadcast_to.incompatible");
  CHECK(failure(BroadcastToAttrs{{3}, Broadcast::NumpyRight}, {Shape::of({2, 3})}).code == "shape.broadcast_to.rank");
  CHECK(failure(BroadcastToAttrs{{1, 3}, Broadcast::Equal}, {Shape::of({3})}).code == "shape.broadcast_to.rank");
  CHECK(failure(BroadcastToAttrs{{-1, 3}, Broadcast::NumpyRight}, {Shape::of({3})}).code ==
        "attr.broadcast_to.negative-extent");
}

TEST_CASE("absurd sizes are a size diagnostic, never an allocation", "[elementwise]") {
  const int64_t huge = int64_t{1} << 62;
  // [huge, 4] has 2^64 elements: the witness is refused before any tensor exists.
  CHECK(failure(BroadcastToAttrs{{huge, 4}, Broadcast::NumpyRight}, {Shape::of({1})}).code == "size.overflow");
  CHECK(failure(BinaryAttrs{BinaryOp::Add, Broadcast::NumpyRight}, {Shape::of({huge, 1}), Shape::of({1, 4})}).code ==
        "size.overflow");
  CHECK(failure(BinaryAttrs{BinaryOp::Add, Broadcast::NnefLeft}, {Shape::of({huge}), Shape::of({1, 8})}).code ==
        "size.overflow");
}

// ---- The shape rules over a Dim that is not an integer --------------------------------------
//
// ExprDim stands in for the checker's symbolic Dim: its comparisons yield an ExprPred that does
// not convert to bool, so a rule that branched in C++ on a Dim comparison would not compile. An
// ExprPred converts from bool, as the checker's predicate does, so that structural facts (ranks,
// axis indices) are stated through the same sink. The sink records the symbolic predicates it is
// handed, as text, and the structural facts that were false. (Only the operations these rules use
// are defined; a rule that needed another would fail to compile here.)

namespace {

struct ExprPred {
  std::string text;
  std::optional<bool> fact;  // set when converted from a bool: a structural fact
  ExprPred(bool holds) : text(holds ? "true" : "false"), fact(holds) {}  // NOLINT: as the checker's predicate
  ExprPred(std::string t) : text(std::move(t)) {}
};
struct ExprDim {
  std::string text;
  ExprDim(int64_t v) : text(std::to_string(v)) {}  // NOLINT: as CDim
  ExprDim(std::string t) : text(std::move(t)) {}
};
ExprPred operator==(const ExprDim& a, const ExprDim& b) { return {a.text + " = " + b.text}; }
ExprPred operator>=(const ExprDim& a, const ExprDim& b) { return {a.text + " >= " + b.text}; }
ExprDim dim_select(const ExprPred& c, const ExprDim& a, const ExprDim& b) {
  return {"(" + c.text + " ? " + a.text + " : " + b.text + ")"};
}
std::string dim_str(const ExprDim& a) { return a.text; }
// Size programs (broadcast_to's computed dims) compute with these.
ExprDim operator+(const ExprDim& a, const ExprDim& b) { return {"(" + a.text + " + " + b.text + ")"}; }
ExprDim operator-(const ExprDim& a, const ExprDim& b) { return {"(" + a.text + " - " + b.text + ")"}; }
ExprDim operator*(const ExprDim& a, const ExprDim& b) { return {"(" + a.text + " * " + b.text + ")"}; }
ExprDim floor_div(const ExprDim& a, const ExprDim& b) { return {"floor(" + a.text + " / " + b.text + ")"}; }
ExprPred operator<(const ExprDim& a, const ExprDim& b) { return {a.text + " < " + b.text}; }
ExprDim dim_max(const ExprDim& a, const ExprDim& b) { return {"max(" + a.text + ", " + b.text + ")"}; }

static_assert(std::is_same_v<PredOf<ExprDim>, ExprPred>);

struct ExprSink final : ObligationSink<ExprDim> {
  std::vector<std::string> symbolic;  // obligations handed over as predicates
  std::vector<std::string> failed;    // structural facts that were false
  void require(const ExprPred& p, const ObligationSpec& obligation, std::string) override {
    if (!p.fact)
      symbolic.push_back(std::string(obligation.code) + ": " + p.text);
    else if (!*p.fact)
      failed.emplace_back(obligation.code);
  }
};

using XDims = std::vector<Dims<ExprDim>>;

}  // namespace

TEST_CASE("every shape rule of these families reads over a symbolic Dim", "[elementwise][symbolic]") {
  ExprDim n(std::string("n")), c(std::string("c"));
  ExprSink sink;
  auto bin = shape_rule(BinaryAttrs{BinaryOp::Add, Broadcast::NumpyRight}, XDims{{n, 3}, {c}}, sink);
  REQUIRE(bin);
  CHECK(dim_str(bin->outputs[0][1]) == "(3 = 1 ? c : 3)");
  REQUIRE(sink.symbolic.size() == 2);
  CHECK(sink.symbolic[1] == "shape.broadcast.incompatible: (3 = 1 ? c : 3) = (c = 1 ? 3 : c)");
  CHECK(shape_rule(BinaryAttrs{BinaryOp::Add, Broadcast::Equal}, XDims{{n}, {c}}, sink));
  CHECK(shape_rule(BinaryAttrs{BinaryOp::Add, Broadcast::NnefLeft}, XDims{{n, c}, {n}}, sink));
  CHECK(shape_rule(UnaryAttrs{UnaryOp::Exp}, XDims{{n, c}}, sink));
  CHECK(shape_rule(AddNAttrs{}, XDims{{n, c}, {n, c}, {n, c}}, sink));
  CHECK(shape_rule(BroadcastToAttrs{{4, 3}, Broadcast::NumpyRight}, XDims{{c}}, sink));
  auto lin = shape_rule(LinearAttrs{10, WeightLayout::OutIn, true}, XDims{{n, c}}, sink);
  REQUIRE(lin);
  CHECK(dims_str(lin->params[0].dims) == "[10, c]");
  CHECK(shape_rule(MatMulAttrs{true, false}, XDims{{n, c, 3}, {n, c, 5}}, sink));
  CHECK(shape_rule(BatchNormAttrs{1e-5, -1}, XDims{{n, c}}, sink));
  CHECK(shape_rule(LayerNormAttrs{{-1}, 1e-5, true}, XDims{{n, c}}, sink));
  CHECK(shape_rule(SoftmaxAttrs{{1}}, XDims{{n, c}}, sink));
  auto red = shape_rule(ReduceAttrs{ReduceOp::Max, {0}, false}, XDims{{n, c}}, sink);
  REQUIRE(red);
  CHECK(dims_str(red->outputs[0]) == "[c]");
  CHECK(sink.symbolic.back() == "shape.reduce.empty-axis: n >= 1");
  CHECK(sink.failed.empty());
  // A structural fact reaches the sink as a predicate converted from bool: recorded as failed,
  // never as a symbolic obligation.
  ExprSink rank_sink;
  CHECK_FALSE(shape_rule(LinearAttrs{10}, XDims{{n, c, 3}}, rank_sink));
  CHECK(rank_sink.failed == std::vector<std::string>{"shape.linear.input-rank"});
  CHECK(rank_sink.symbolic.empty());
}
