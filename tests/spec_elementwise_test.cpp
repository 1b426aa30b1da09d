// Elementwise ops (spec/ops/unary.hpp, binary.hpp, add_n.hpp, broadcast_to.hpp): unary maps,
// binary maps under the three broadcast rules, add_n, broadcast_to; and the shape rules of these
// and of the affine, normalisation and reduction ops read over a symbolic Dim. Expected values
// are worked out by hand in the comments or are closed forms; ln 2, e and π are the usual
// constants.
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

constexpr double kE = 2.718281828459045235360;
constexpr double kPi = 3.141592653589793238463;

template <class T>
void check_unary(UnaryOp op, double alpha, const std::vector<double>& x, const std::vector<double>& expected) {
  UnaryAttrs a{op, alpha};
  INFO(op_name(a));
  auto y = run<T>(a, {tensor<T>(Shape::of({static_cast<int64_t>(x.size())}), x)});
  REQUIRE(y.size() == 1);
  CHECK(y[0].shape() == Shape::of({static_cast<int64_t>(x.size())}));
  check_values(y[0], expected);
}

}  // namespace

TEMPLATE_TEST_CASE("unary functions at hand-computed points", "[elementwise]", float, double, mp50) {
  using T = TestType;
  check_unary<T>(UnaryOp::Copy, 0, {2.5, -1}, {2.5, -1});
  check_unary<T>(UnaryOp::Neg, 0, {2.5, -1}, {-2.5, 1});
  check_unary<T>(UnaryOp::Rcp, 0, {4, -0.5}, {0.25, -2});
  check_unary<T>(UnaryOp::Exp, 0, {0, 1, kLn2}, {1, kE, 2});
  check_unary<T>(UnaryOp::Log, 0, {1, kE, 8}, {0, 1, 3 * kLn2});
  check_unary<T>(UnaryOp::Sin, 0, {0, kPi / 2, kPi / 6}, {0, 1, 0.5});
  check_unary<T>(UnaryOp::Cos, 0, {0, kPi, kPi / 3}, {1, -1, 0.5});
  check_unary<T>(UnaryOp::Tan, 0, {0, kPi / 4}, {0, 1});
  // sinh 1 = (e − 1/e)/2, cosh 1 = (e + 1/e)/2, tanh 1 = (e² − 1)/(e² + 1).
  check_unary<T>(UnaryOp::Sinh, 0, {0, 1}, {0, (kE - 1 / kE) / 2});
  check_unary<T>(UnaryOp::Cosh, 0, {0, 1}, {1, (kE + 1 / kE) / 2});
  check_unary<T>(UnaryOp::Tanh, 0, {0, 1}, {0, (kE * kE - 1) / (kE * kE + 1)});
  check_unary<T>(UnaryOp::Asin, 0, {0, 1, 0.5}, {0, kPi / 2, kPi / 6});
  check_unary<T>(UnaryOp::Acos, 0, {1, 0, -1}, {0, kPi / 2, kPi});
  check_unary<T>(UnaryOp::Atan, 0, {0, 1}, {0, kPi / 4});
  // asinh 0.75 = ln(0.75 + √1.5625) = ln 2; acosh 1.25 = ln(1.25 + √0.5625) = ln 2;
  // atanh 0.6 = ½·ln(1.6/0.4) = ln 2.
  check_unary<T>(UnaryOp::Asinh, 0, {0, 0.75}, {0, kLn2});
  check_unary<T>(UnaryOp::Acosh, 0, {1, 1.25}, {0, kLn2});
  check_unary<T>(UnaryOp::Atanh, 0, {0, 0.6}, {0, kLn2});
  check_unary<T>(UnaryOp::Abs, 0, {-3, 0, 2}, {3, 0, 2});
  check_unary<T>(UnaryOp::Sign, 0, {-2, 0, 5}, {-1, 0, 1});
  check_unary<T>(UnaryOp::Floor, 0, {-1.5, 1.5, 2}, {-2, 1, 2});
  check_unary<T>(UnaryOp::Ceil, 0, {-1.5, 1.5, 2}, {-1, 2, 2});
  // NNEF round(x) = floor(x + 0.5): halves go up, also below zero.
  check_unary<T>(UnaryOp::Round, 0, {2.5, -2.5, 1.4, -1.6}, {3, -2, 1, -2});
  check_unary<T>(UnaryOp::Sqr, 0, {-3, 0.5}, {9, 0.25});
  check_unary<T>(UnaryOp::Sqrt, 0, {16, 0.25}, {4, 0.5});
  check_unary<T>(UnaryOp::Rsqr, 0, {2, -0.5}, {0.25, 4});
  check_unary<T>(UnaryOp::Rsqrt, 0, {4, 0.25}, {0.5, 2});
  check_unary<T>(UnaryOp::Log2, 0, {8, 0.5, 1}, {3, -1, 0});
  check_unary<T>(UnaryOp::Relu, 0, {-2, 0, 3}, {0, 0, 3});
  // sigmoid(ln 3) = 1/(1 + 1/3) = 0.75; sigmoid(−ln 3) = 1/(1 + 3) = 0.25.
  check_unary<T>(UnaryOp::Sigmoid, 0, {0, kLn3, -kLn3}, {0.5, 0.75, 0.25});
  // elu with α = 2: −ln 2 ↦ 2·(½ − 1) = −1.
  check_unary<T>(UnaryOp::Elu, 2, {-kLn2, 0, 3}, {-1, 0, 3});
  check_unary<T>(UnaryOp::LeakyRelu, 0.1, {-2, 0, 3}, {-0.2, 0, 3});
  check_unary<T>(UnaryOp::LeakyRelu, 0.25, {-8}, {-2});
  // softplus(0) = ln 2, softplus(ln 3) = ln 4.
  check_unary<T>(UnaryOp::Softplus, 0, {0, kLn3}, {kLn2, 2 * kLn2});
}

TEST_CASE("unary functions in mp50 are accurate to ~45 digits", "[elementwise]") {
  auto y = run<mp50>(UnaryAttrs{UnaryOp::Exp}, {tensor<mp50>(Shape::of({1}), {1})});
  mp50 e("2.71828182845904523536028747135266249775724709369995957");  // e to 54 digits
  CHECK(abs(y[0][0] - e) < mp50("1e-45"));
  auto s = run<mp50>(UnaryAttrs{UnaryOp::Sigmoid}, {tensor<mp50>(Shape::of({1}), {0.5})});
  mp50 expected("0.622459331201854564638900565745508478753279365308910");  // 1/(1 + e^−0.5)
  CHECK(abs(s[0][0] - expected) < mp50("1e-45"));
  auto l = run<mp50>(UnaryAttrs{UnaryOp::Log2}, {tensor<mp50>(Shape::of({1}), {1024})});
  CHECK(abs(l[0][0] - 10) < mp50("1e-45"));
}

TEST_CASE("unary obligations: alpha and arity", "[elementwise]") {
  double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(failure(UnaryAttrs{UnaryOp::LeakyRelu, nan}, {Shape::of({2})}).code == "attr.unary.alpha");
  CHECK(failure(UnaryAttrs{UnaryOp::Elu, INFINITY}, {Shape::of({2})}).code == "attr.unary.alpha");
  CHECK(Checked<UnaryAttrs>::check(UnaryAttrs{UnaryOp::Relu, nan}, {Shape::of({2})}).ok());  // alpha unused
  Diagnostic d = failure(UnaryAttrs{UnaryOp::Relu}, {Shape::of({2}), Shape::of({2})});
  CHECK(d.code == "graph.arity");
  CHECK(d.message == "relu takes 1 input, got 2");
}

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
        "operands of shapes [2, 3] and [4, 3] are not broadcastable (NumPy rule): axis 0 has extents 2 and 4");
  CHECK(failure(BinaryAttrs{BinaryOp::Add, Broadcast::NumpyRight}, {Shape::of({2, 3}), Shape::of({2})}).code ==
        "shape.broadcast.incompatible");
  // [2, 3] with [3] under the NNEF rule: [3] is read as [3, 1], and 2 ≠ 3 on axis 0.
  d = failure(BinaryAttrs{BinaryOp::Add, Broadcast::NnefLeft}, {Shape::of({2, 3}), Shape::of({3})});
  CHECK(d.code == "shape.broadcast.incompatible");
  CHECK(d.message == "operands of shapes [2, 3] and [3] are not broadcastable (NNEF rule): axis 0 has extents 2 and 3");
  // Equal: different ranks, then different extents.
  CHECK(failure(BinaryAttrs{BinaryOp::Mul, Broadcast::Equal}, {Shape::of({2, 3}), Shape::of({3})}).code ==
        "shape.broadcast.incompatible");
  d = failure(BinaryAttrs{BinaryOp::Mul, Broadcast::Equal}, {Shape::of({2, 3}), Shape::of({2, 1})});
  CHECK(d.code == "shape.broadcast.incompatible");
  CHECK(d.message ==
        "operands of shapes [2, 3] and [2, 1] are not broadcastable (identical shapes required): axis 1 "
        "has extents 3 and 1");
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

TEST_CASE("broadcast_to obligations", "[elementwise]") {
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
