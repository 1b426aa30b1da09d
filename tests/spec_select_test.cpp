// select (spec/ops/select.hpp): true_value where the logical condition holds, else false_value,
// the three operands broadcast; its condition's kind proved by the concrete check and by the
// checker, and a logical model input read from bool data. Expected values are worked out by hand
// in the comments.
#include <catch2/catch.hpp>

#include <vector>

#include "checker/check_model.hpp"
#include "semantics/evaluate.hpp"
#include "spec/ops/select.hpp"
#include "spec/scalar_envelope.hpp"
#include "spec/truth.hpp"

#include "op_test_support.hpp"

using nnref::mp50;
using namespace nnref;
using namespace nnref::test;

// condition [[1, 0], [0, 1]], true_value [[1, 2], [3, 4]], false_value [10] (broadcast):
// [[1, 10], [10, 4]].
TEMPLATE_TEST_CASE("select per element", "[select]", float, double, mp50) {
  using T = TestType;
  const std::vector<Value<T>> in = {logical(Shape::of({2, 2}), {1, 0, 0, 1}), tensor<T>(Shape::of({2, 2}), {1, 2, 3, 4}),
                                    tensor<T>(Shape::of({1}), {10})};
  auto y = run_values<T>(SelectAttrs{}, in);
  REQUIRE(y.size() == 1);
  const auto& t = std::get<Tensor<T>>(y[0]);
  CHECK(t.shape() == Shape::of({2, 2}));
  check_values(t, {1, 10, 10, 4});
}

// Integer and logical values are chosen as they are: condition [1, 0, 1], true_value
// [2^24 + 1, −5, 9] and false_value [7] (broadcast) give [2^24 + 1, 7, 9] (past float32's 2^24,
// exact); truth values [1, 1, 0] and [0] give [1, 0, 0]. In double the fast path runs too.
TEMPLATE_TEST_CASE("select of integers and truth values", "[select]", float, double, mp50) {
  using T = TestType;
  const Value<T> c = logical(Shape::of({3}), {1, 0, 1});
  const std::vector<Value<T>> in = {c, integers(Shape::of({3}), {16777217, -5, 9}), integers(Shape::of({1}), {7})};
  const auto y = run_values<T>(SelectAttrs{Broadcast::NumpyRight, ElemKind::Integer}, in);
  CHECK(std::get<Tensor<int64_t>>(y[0]).values() == std::vector<int64_t>{16777217, 7, 9});
  const std::vector<Value<T>> truths = {c, logical(Shape::of({3}), {1, 1, 0}), logical(Shape::of({1}), {0})};
  const auto z = run_values<T>(SelectAttrs{Broadcast::NumpyRight, ElemKind::Logical}, truths);
  CHECK(std::get<Tensor<uint8_t>>(z[0]).values() == std::vector<uint8_t>{1, 0, 0});
  CHECK(failure(SelectAttrs{Broadcast::NumpyRight, ElemKind::Integer}, {Shape::of({3}), Shape::of({3}), Shape::of({3})},
                {ElemKind::Logical, ElemKind::Integer, ElemKind::Real})
            .code == "kind.operand");
}

// Under an unknown condition (kUnknown, an enclosure's undecided comparison) an integer or truth
// value is itself where both agree and unknown where they differ: [4, 4] and [4, 5] give
// [4, unknown]; truth values [1, 1] and [1, 0] give [1, unknown].
TEST_CASE("select of integers under an unknown condition", "[select]") {
  const Value<Envelope> c = logical(Shape::of({2}), {kUnknown, kUnknown});
  const auto y = run_values<Envelope>(SelectAttrs{Broadcast::NumpyRight, ElemKind::Integer},
                                      {c, integers(Shape::of({2}), {4, 4}), integers(Shape::of({2}), {4, 5})});
  CHECK(std::get<Tensor<int64_t>>(y[0]).values() == std::vector<int64_t>{4, kUnknownInteger});
  const auto z = run_values<Envelope>(SelectAttrs{Broadcast::NumpyRight, ElemKind::Logical},
                                      {c, logical(Shape::of({2}), {1, 1}), logical(Shape::of({2}), {1, 0})});
  CHECK(std::get<Tensor<uint8_t>>(z[0]).values() == std::vector<uint8_t>{1, kUnknown});
}

// NNEF's rule aligns leading axes: a condition [2] chooses per row of [2, 3].
// condition [0, 1], true_value [[1, 2, 3], [4, 5, 6]], false_value [[-1, -2, -3], [-4, -5, -6]]:
// [[-1, -2, -3], [4, 5, 6]].
TEST_CASE("select with a condition per row", "[select]") {
  const std::vector<Value<double>> in = {logical(Shape::of({2}), {0, 1}), tensor(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6}),
                                         tensor(Shape::of({2, 3}), {-1, -2, -3, -4, -5, -6})};
  check_values(std::get<Tensor<double>>(run_values<double>(SelectAttrs{}, in)[0]), {-1, -2, -3, 4, 5, 6});
}

TEST_CASE("select obligations: the condition is logical, the values real, the shapes broadcast", "[select]") {
  const Shape x = Shape::of({2, 3});
  const std::vector<ElemKind> kinds = {ElemKind::Logical, ElemKind::Real, ElemKind::Real};
  CHECK(code_of(SelectAttrs{}, {x, x, x}, kinds) == "ok");
  CHECK(code_of(SelectAttrs{}, {x, x}, {ElemKind::Logical, ElemKind::Real}) == "graph.arity");
  CHECK(code_of(SelectAttrs{}, {x, x, Shape::of({3})}, kinds) == "shape.broadcast.incompatible");
  CHECK(code_of(SelectAttrs{Broadcast::NumpyRight}, {x, x, Shape::of({3})}, kinds) == "ok");
  auto real_condition = failure(SelectAttrs{}, {x, x, x}, {ElemKind::Real, ElemKind::Real, ElemKind::Real});
  CHECK(real_condition.code == "kind.operand");
  CHECK(real_condition.message == "select input 0 must be logical, got real");
  auto logical_value = failure(SelectAttrs{}, {x, x, x}, {ElemKind::Logical, ElemKind::Real, ElemKind::Logical});
  CHECK(logical_value.message == "select input 2 must be real, got logical");
}

namespace {

HostTensor host(std::vector<int64_t> dims, std::vector<double> values, DType t) {
  return HostTensor{t, Shape::make(std::move(dims)).value(), std::move(values)};
}

// c (logical [2]) and x (real [2, 2]) → y = select(c, x, -x), a model built by hand.
Graph select_graph(ElemKind condition_kind) {
  Graph g;
  const int64_t c = g.add("c", InputAttrs{{2}, condition_kind}, {}, SourceLoc{"m", 1, 1});
  const int64_t x = g.add("x", InputAttrs{{2, 2}}, {}, SourceLoc{"m", 2, 1});
  const int64_t n = g.add("n", UnaryAttrs{UnaryOp::Neg, 0.0}, {{x, 0}}, SourceLoc{"m", 3, 1});
  const int64_t y = g.add("y", SelectAttrs{}, {{c, 0}, {x, 0}, {n, 0}}, SourceLoc{"m", 4, 1});
  g.outputs.push_back({"y", {y, 0}});
  return g;
}

}  // namespace

// c = [true, false], x = [[1, 2], [3, 4]]: row 0 from x, row 1 from -x: [[1, 2], [-3, -4]].
TEST_CASE("select in a model: a logical input read from bool data", "[select]") {
  const Graph g = select_graph(ElemKind::Logical);
  const HostTensor x = host({2, 2}, {1, 2, 3, 4}, DType::F32);
  auto y = evaluate<double>(g, {}, {host({2}, {1, 0}, DType::Bool), x}, {});
  INFO((y ? "" : format_diagnostic(y.error())));
  REQUIRE(y.ok());
  check_values((*y)[0], {1, 2, -3, -4});

  // A logical input takes bool data only.
  auto floats = evaluate<double>(g, {}, {host({2}, {1, 0}, DType::F32), x}, {});
  REQUIRE_FALSE(floats.ok());
  CHECK(floats.error().code == "input.kind-mismatch");
  CHECK(floats.error().node == "c");
}

TEST_CASE("select in a model: the condition's kind is proved, or refuted at the select", "[select]") {
  auto ok = check_model(select_graph(ElemKind::Logical), {}, {}, CheckSettings{});
  REQUIRE(ok.ok());
  CHECK(ok->counts.refuted == 0);
  CHECK(ok->counts.unknown == 0);

  auto real = check_model(select_graph(ElemKind::Real), {}, {}, CheckSettings{});
  REQUIRE(real.ok());
  REQUIRE(real->diagnostics.size() == 1);
  CHECK(real->diagnostics[0].code == "kind.operand");
  CHECK(real->diagnostics[0].node == "y");
  CHECK(real->diagnostics[0].loc.line == 4);

  // The concrete check every engine runs says the same.
  auto run = evaluate<double>(select_graph(ElemKind::Real), {}, {}, {});
  REQUIRE_FALSE(run.ok());
  CHECK(run.error().code == "kind.operand");
}
