// contract (spec/ops/contract.hpp): a contraction program run statement by statement. Expected
// values are worked out by hand in the comments; the programs are written here token by token, as
// the SkriptND front end would build them (its own tests: sknd_lower_test).
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "op_test_support.hpp"
#include "spec/ops/contract.hpp"

using nnref::mp50;
using namespace nnref;
using namespace nnref::test;
using namespace nnref::contract;

namespace {

Node read(int64_t slot) { return {NodeKind::Read, -1, -1, -1, slot}; }
Node number(int64_t slot) { return {NodeKind::Number, -1, -1, -1, slot}; }

// y[i] = b[i] (a row of ones: the table) then y[i] += A[i, j] · x[j] over j: a matrix-vector
// product onto an initial value, A [2, 3], x [3].
Program matvec() {
  Statement init{Assign::Set, 0, {0, 1}, {number(0)}, 0, {}, {{1.0}}};
  Statement sum{Assign::Add,
                0,
                {0, 0, 0, 1, 1, 1},
                {read(0), read(1), {NodeKind::Mul, 0, 1, -1, 0}},
                2,
                {{{0}, {0, 1, 2, 3, 4, 5}}, {{1}, {0, 1, 2, 0, 1, 2}}},
                {}};
  return Program{{{2, 3}, {3}}, {{2}}, {init, sum}};
}

// y[i] <?= x[i, j] and z[i] *= x[i, j] over j (no initial value: the null elements +inf and 1),
// then w[i] = x[i, 0] < 0 ? −x[i, 0] : 2 (a select on the data; a per-point table for 2).
Program reductions() {
  const std::vector<int64_t> rows = {0, 0, 1, 1}, all = {0, 1, 2, 3};
  Statement min{Assign::Min, 0, rows, {read(0)}, 0, {{{0}, all}}, {}};
  Statement prod{Assign::Mul, 1, rows, {read(0)}, 0, {{{0}, all}}, {}};
  Statement select{Assign::Set,
                   2,
                   {0, 1},
                   {read(0),
                    number(0),
                    {NodeKind::Compare, 0, 1, -1, static_cast<int64_t>(CompareOp::Lt)},
                    {NodeKind::Unary, 0, -1, -1, static_cast<int64_t>(UnaryOp::Neg)},
                    number(1),
                    {NodeKind::Select, 2, 3, 4, 0}},
                   5,
                   {{{0}, {0, 2}}},
                   {{0.0}, {2.0, 2.0}}};
  return Program{{{2, 2}}, {{2}, {2}, {2}}, {min, prod, select}};
}

ContractAttrs attrs(const Program& p) { return ContractAttrs{static_cast<int64_t>(p.inputs.size()), encode(p)}; }

// any and all of the rows of a logical b [2, 3] (y[i] |= b[i, j], z[i] &= b[i,
// j] over j), then w[i] = x[i, 0] > x[i, 1] of a real x [2, 2] read as a truth
// value.
Program any_all_compare() {
  const std::vector<int64_t> rows = {0, 0, 0, 1, 1, 1}, all = {0, 1, 2, 3, 4, 5};
  Statement any{Assign::Any, 0, rows, {read(0)}, 0, {{{0}, all}}, {}};
  Statement every{Assign::All, 1, rows, {read(0)}, 0, {{{0}, all}}, {}};
  Statement greater{Assign::Set, 2,
                    {0, 1},      {read(0), read(1), {NodeKind::Compare, 0, 1, -1, static_cast<int64_t>(CompareOp::Gt)}},
                    2,           {{{1}, {0, 2}}, {{1}, {1, 3}}},
                    {}};
  return Program{{{2, 3}, {2, 2}}, {{2}, {2}, {2}}, {any, every, greater}};
}

// argmax of the rows of x [2, 3] as the draft's argmax writes it: y[i] = 0,
// then y[i] := j where x[i, j] > x[i, y[i]], in loop order; the read x[i, y[i]]
// moves by y[i] (a data index, stride 1, extent 3) from the row's start.
Program argmax_rows() {
  Statement init{Assign::Set, 0, {0, 1}, {number(0)}, 0, {}, {{0.0}}};
  Statement update{Assign::Update,
                   0,
                   {0, 0, 0, 1, 1, 1},
                   {number(0), read(0), read(1), {NodeKind::Compare, 1, 2, -1, static_cast<int64_t>(CompareOp::Gt)}},
                   0,
                   {{{0}, {0, 1, 2, 3, 4, 5}}, {{0}, {0, 0, 0, 3, 3, 3}, {{{{-1}, {0, 0, 0, 1, 1, 1}}, 1, 3}}}},
                   {{0, 1, 2, 0, 1, 2}},
                   3};
  return Program{{{2, 3}}, {{2}}, {init, update}};
}

// scatter along the rows of x [2, 3] as the draft's layout.scatter writes it: y = x, then
// y[i, k[i, m]] := u[i, m] over m, in loop order; the target moves by k[i, m] (a data index of the
// int k [2, 2], stride 1, extent 3) from the row's start.
Program scatter_rows() {
  Statement init{Assign::Set, 0, {0, 1, 2, 3, 4, 5}, {read(0)}, 0, {{{0}, {0, 1, 2, 3, 4, 5}}}, {}};
  Statement update{
      Assign::Update, 0, {0, 0, 3, 3}, {read(0)}, 0, {{{2}, {0, 1, 2, 3}}}, {}, -1, {{{{1}, {0, 1, 2, 3}}, 1, 3}}};
  return Program{{{2, 3}, {2, 2}, {2, 2}}, {{2, 3}}, {init, update}};
}

// y[i] = [a, b][c[i]][i] for a, b [3] and an int c [3]: the pack item each point reads is chosen by
// c[i] (the read's first data index, stride 0, names an item of {a, b}).
Program chosen_items() {
  Statement pick{Assign::Set, 0, {0, 1, 2}, {read(0)}, 0, {{{0}, {0, 1, 2}, {{{{2}, {0, 1, 2}}, 0, 2}}, {0, 1}}}, {}};
  return Program{{{3}, {3}, {3}}, {{3}}, {pick}};
}

// The draft's max_idx_2d (§2.11) over x [2, 2], a packed assignment of two lanes: idx[:] = 0, then
// idx[:] := [i, j] where x[i, j] > x[idx[:]..], the row written at once; the read x[idx[0], idx[1]]
// moves by idx[0] (stride 2) and idx[1] (stride 1), elements of the output being updated.
Program argmax_2d() {
  Statement init{Assign::Set, 0, {0}, {number(0)}, 0, {}, {{0.0}}};
  init.lanes = {{0, {1}}};
  const DataIndex row{{{-1}, {0, 0, 0, 0}}, 2, 2}, column{{{-1}, {1, 1, 1, 1}}, 1, 2};
  Statement update{
      Assign::Update,
      0,
      {0, 0, 0, 0},
      {number(0), number(1), read(0), read(1), {NodeKind::Compare, 2, 3, -1, static_cast<int64_t>(CompareOp::Gt)}},
      0,
      {{{0}, {0, 1, 2, 3}}, {{0}, {0, 0, 0, 0}, {row, column}}},
      {{0, 0, 1, 1}, {0, 1, 0, 1}},
      4};
  update.lanes = {{1, {1, 1, 1, 1}}};
  return Program{{{2, 2}}, {{2}}, {init, update}};
}

ContractAttrs typed(const Program& p, std::vector<ElemKind> kinds, ElemKind result) {
  ContractAttrs a = attrs(p);
  a.kinds = std::move(kinds);
  a.result = result;
  return a;
}

}  // namespace

// A = [[1, 2, 3], [4, 5, 6]], x = [1, 0.5, -1]: y = 1 + [1 + 1 − 3, 4 + 2.5 − 6] = [0, 1.5].
TEMPLATE_TEST_CASE("contract: an initial value, then a sum of products", "[contract]", float, double, mp50) {
  using T = TestType;
  auto y = run<T>(attrs(matvec()),
                  {tensor<T>(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6}), tensor<T>(Shape::of({3}), {1, 0.5, -1})})[0];
  CHECK(y.shape() == Shape::of({2}));
  check_values(y, {0, 1.5});
}

// x = [[3, -1], [-3, 5]]: row minima [-1, -3], row products [-3, -15], and w = [2, 3] (x[0, 0] = 3
// is not below 0: 2; x[1, 0] = −3 is: 3).
TEMPLATE_TEST_CASE("contract: min and product without an initial value, a select on the data", "[contract]", float,
                   double, mp50) {
  using T = TestType;
  auto out = run<T>(attrs(reductions()), {tensor<T>(Shape::of({2, 2}), {3, -1, -3, 5})});
  REQUIRE(out.size() == 3);
  check_values(out[0], {-1, -3});
  check_values(out[1], {-3, -15});
  check_values(out[2], {2, 3});
}

// The select's condition x[i, 0] < 0 over an enclosure holding both signs is undecided: the hull
// of −x[i, 0] and 2 (x[0, 0] ∈ [−1, 1]: −x ∈ [−1, 1], hull [−1, 2]).
TEST_CASE("contract: an undecided condition gives the hull of both values", "[contract]") {
  const Interval x0 = sc::hull(Interval(-1), Interval(1));
  auto in = Tensor<Interval>::from(Shape::of({2, 2}), {x0, Interval(1), Interval(3), Interval(4)}).value();
  auto out = run<Interval>(attrs(reductions()), {in});
  const Enclosure w = sc::enclosure(out[2][0]);
  CHECK(w.lo == -1.0);
  CHECK(w.hi == 2.0);
  const Enclosure p = sc::enclosure(out[1][0]);  // x0 · 1 ∈ [−1, 1]
  CHECK(p.lo == -1.0);
  CHECK(p.hi == 1.0);
}

// b = [[0, 1, 0], [0, 0, 0]]: any [1, 0], all [0, 0]; x = [[2, 1], [1, 1]]:
// x[i, 0] > x[i, 1] is [1, 0] (1 > 1 fails).
TEMPLATE_TEST_CASE("contract: any and all of truth values, a comparison as a result", "[contract]", float, double,
                   mp50) {
  using T = TestType;
  const auto a = typed(any_all_compare(), {ElemKind::Logical, ElemKind::Real}, ElemKind::Logical);
  auto out =
      run_values<T>(a, {logical(Shape::of({2, 3}), {0, 1, 0, 0, 0, 0}), tensor<T>(Shape::of({2, 2}), {2, 1, 1, 1})});
  REQUIRE(out.size() == 3);
  CHECK(std::get<Tensor<uint8_t>>(out[0]).values() == std::vector<uint8_t>{kTrue, kFalse});
  CHECK(std::get<Tensor<uint8_t>>(out[1]).values() == std::vector<uint8_t>{kFalse, kFalse});
  CHECK(std::get<Tensor<uint8_t>>(out[2]).values() == std::vector<uint8_t>{kTrue, kFalse});
}

// x = [[1, 5, 5], [7, -2, 3]]: the first maximum of each row, [1, 0] (the tie
// 5, 5 keeps 1: the update needs a strictly greater value).
TEMPLATE_TEST_CASE("contract: argmax as an update under a condition on the data", "[contract]", float, double, mp50) {
  using T = TestType;
  const auto a = typed(argmax_rows(), {ElemKind::Real}, ElemKind::Integer);
  auto out = run_values<T>(a, {tensor<T>(Shape::of({2, 3}), {1, 5, 5, 7, -2, 3})});
  CHECK(std::get<Tensor<int64_t>>(out[0]).values() == std::vector<int64_t>{1, 0});
}

// Row 0 holds [0, 1] ∋ x[0, 0] against 0.5: the update at j = 1 is undecided,
// so y[0] is unknown; then x[0, 2] = 3 exceeds the hull of the row's elements a
// read x[0, y[0]] may be ([0, 3]) only in part: still unknown. Row 1, [1, 4,
// 2], is decided: 1.
TEST_CASE("contract: an undecided update leaves an integer unknown", "[contract]") {
  const Interval x00 = sc::hull(Interval(0), Interval(1));
  auto x = Tensor<Interval>::from(Shape::of({2, 3}),
                                  {x00, Interval(0.5), Interval(3), Interval(1), Interval(4), Interval(2)})
               .value();
  const auto a = typed(argmax_rows(), {ElemKind::Real}, ElemKind::Integer);
  auto out = run_values<Interval>(a, {Value<Interval>(x)});
  CHECK(std::get<Tensor<int64_t>>(out[0]).values() == std::vector<int64_t>{kUnknownInteger, 1});
  // With x[0, 0] decided below 0.5 and 3 above both, the row is decided: 2.
  x[0] = Interval(0.25);
  out = run_values<Interval>(a, {Value<Interval>(x)});
  CHECK(std::get<Tensor<int64_t>>(out[0]).values() == std::vector<int64_t>{2, 1});
}

// x = [[1, 2, 3], [4, 5, 6]], k = [[2, 0], [1, 1]], u = [[10, 20], [30, 40]]: row 0 takes 10 at
// 2 and 20 at 0; row 1 takes 30 then 40 at 1 (loop order: the later update stays).
TEMPLATE_TEST_CASE("contract: an update whose target the data moves (scatter)", "[contract]", float, double, mp50) {
  using T = TestType;
  const auto a = typed(scatter_rows(), {ElemKind::Real, ElemKind::Integer, ElemKind::Real}, ElemKind::Real);
  const auto x = tensor<T>(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6});
  const auto u = tensor<T>(Shape::of({2, 2}), {10, 20, 30, 40});
  auto out = run_values<T>(a, {Value<T>(x), Value<T>(integers(Shape::of({2, 2}), {2, 0, 1, 1})), Value<T>(u)});
  check_values(std::get<Tensor<T>>(out[0]), {20, 2, 10, 4, 40, 6});
  // An index outside [0, 3) names no element: the whole output is unknown (NaN).
  out = run_values<T>(a, {Value<T>(x), Value<T>(integers(Shape::of({2, 2}), {2, 0, 3, 1})), Value<T>(u)});
  for (const T& v : std::get<Tensor<T>>(out[0]).data()) CHECK(std::isnan(sc::to_double(v)));
  out = run_values<T>(a, {Value<T>(x), Value<T>(integers(Shape::of({2, 2}), {-1, 0, 1, 1})), Value<T>(u)});
  CHECK(std::isnan(sc::to_double(std::get<Tensor<T>>(out[0]).data()[4])));
}

// An index an enclosure leaves unknown (k[0, 0]) may name any element of row 0: each joins 10
// (hulls [1, 10], [2, 10], [3, 10]); the next update, decided, sets y[0, 0] = 20.
TEST_CASE("contract: an unknown target index joins the update into every element it may name", "[contract]") {
  const auto a = typed(scatter_rows(), {ElemKind::Real, ElemKind::Integer, ElemKind::Real}, ElemKind::Real);
  const auto x = tensor<Interval>(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6});
  const auto u = tensor<Interval>(Shape::of({2, 2}), {10, 20, 30, 40});
  const auto k = integers(Shape::of({2, 2}), {kUnknownInteger, 0, 1, 1});
  auto out = run_values<Interval>(a, {Value<Interval>(x), Value<Interval>(k), Value<Interval>(u)});
  const auto& y = std::get<Tensor<Interval>>(out[0]).data();
  const std::vector<std::pair<double, double>> want = {{20, 20}, {2, 10}, {3, 10}, {4, 4}, {40, 40}, {6, 6}};
  for (size_t e = 0; e < want.size(); ++e) {
    INFO("element " << e);
    const Enclosure w = sc::enclosure(y[e]);
    CHECK(w.lo == want[e].first);
    CHECK(w.hi == want[e].second);
  }
}

// a = [1, 2, 3], b = [10, 20, 30]: c = [1, 0, 1] reads [10, 2, 30]; an item outside {a, b} reads NaN.
TEMPLATE_TEST_CASE("contract: a read of the pack item the data choose", "[contract]", float, double, mp50) {
  using T = TestType;
  const auto a = typed(chosen_items(), {ElemKind::Real, ElemKind::Real, ElemKind::Integer}, ElemKind::Real);
  const auto x = tensor<T>(Shape::of({3}), {1, 2, 3}), z = tensor<T>(Shape::of({3}), {10, 20, 30});
  auto out = run_values<T>(a, {Value<T>(x), Value<T>(z), Value<T>(integers(Shape::of({3}), {1, 0, 1}))});
  check_values(std::get<Tensor<T>>(out[0]), {10, 2, 30});
  out = run_values<T>(a, {Value<T>(x), Value<T>(z), Value<T>(integers(Shape::of({3}), {1, 2, 0}))});
  CHECK(std::isnan(sc::to_double(std::get<Tensor<T>>(out[0]).data()[1])));
}

// An item the enclosure leaves unknown may be either: the hull [2, 20] of a[1] and b[1].
TEST_CASE("contract: an unknown pack item joins every item", "[contract]") {
  const auto a = typed(chosen_items(), {ElemKind::Real, ElemKind::Real, ElemKind::Integer}, ElemKind::Real);
  const auto x = tensor<Interval>(Shape::of({3}), {1, 2, 3}), z = tensor<Interval>(Shape::of({3}), {10, 20, 30});
  const auto c = integers(Shape::of({3}), {0, kUnknownInteger, 1});
  auto out = run_values<Interval>(a, {Value<Interval>(x), Value<Interval>(z), Value<Interval>(c)});
  const Enclosure w = sc::enclosure(std::get<Tensor<Interval>>(out[0]).data()[1]);
  CHECK(w.lo == 2.0);
  CHECK(w.hi == 20.0);
}

// x = [[1, 3], [2, 0]]: in loop order only (0, 1) beats the element idx names, so idx = [0, 1]. Had
// the lanes been updated one after the other, the first would have seen x[·, 0] alone and ended at 1.
TEMPLATE_TEST_CASE("contract: a packed update writes its lanes at once", "[contract]", float, double, mp50) {
  using T = TestType;
  const auto a = typed(argmax_2d(), {ElemKind::Real}, ElemKind::Integer);
  auto out = run_values<T>(a, {tensor<T>(Shape::of({2, 2}), {1, 3, 2, 0})});
  CHECK(std::get<Tensor<int64_t>>(out[0]).values() == std::vector<int64_t>{0, 1});
  // [[4, 3], [1, 4]]: the tie at (1, 1) does not beat (0, 0).
  out = run_values<T>(a, {tensor<T>(Shape::of({2, 2}), {4, 3, 1, 4})});
  CHECK(std::get<Tensor<int64_t>>(out[0]).values() == std::vector<int64_t>{0, 0});
}

// x[0, 0] ∈ [0, 4] against 3 at (0, 1): undecided, so idx[1] joins 0 and 1 (unknown) and idx[0] stays
// 0 (both values are 0); at (1, 0), 2 against the hull of x[0, ·] is undecided too: both unknown.
TEST_CASE("contract: an undecided packed update joins every lane", "[contract]") {
  const auto a = typed(argmax_2d(), {ElemKind::Real}, ElemKind::Integer);
  auto x = Tensor<Interval>::from(Shape::of({2, 2}),
                                  {sc::hull(Interval(0), Interval(4)), Interval(3), Interval(2), Interval(0)})
               .value();
  auto out = run_values<Interval>(a, {Value<Interval>(x)});
  CHECK(std::get<Tensor<int64_t>>(out[0]).values() == std::vector<int64_t>{kUnknownInteger, kUnknownInteger});
  x[0] = Interval(1);
  out = run_values<Interval>(a, {Value<Interval>(x)});
  CHECK(std::get<Tensor<int64_t>>(out[0]).values() == std::vector<int64_t>{0, 1});
}

TEST_CASE("contract: typed programs that are not well formed", "[contract]") {
  const std::vector<Shape> x23 = {Shape::of({2, 3})};
  // An update with no `=` before it.
  Program p = argmax_rows();
  p.statements.erase(p.statements.begin());
  Diagnostic d = failure(typed(p, {ElemKind::Real}, ElemKind::Integer), x23);
  CHECK(d.message.find("statement 0 updates an output no `=` wrote before") != std::string::npos);
  // A data index read from a real tensor: the program's output as a real.
  d = failure(typed(argmax_rows(), {ElemKind::Real}, ElemKind::Real), x23);
  CHECK(d.message.find("indexes with a tensor that is not an integer one") != std::string::npos);
  // A data index whose extent reaches past the row: 3 · stride 2 from offset 3
  // of 6 elements.
  p = argmax_rows();
  p.statements[1].reads[1].data_indices[0].stride = 2;
  CHECK(code_of(typed(p, {ElemKind::Real}, ElemKind::Integer), x23) == "attr.contract.program");
  // `|=` into a real output, and a condition on a statement other than an
  // update.
  d = failure(typed(any_all_compare(), {ElemKind::Logical, ElemKind::Real}, ElemKind::Real),
              {Shape::of({2, 3}), Shape::of({2, 2})});
  CHECK(d.message.find("accumulates in a way its output's kind does not take") != std::string::npos);
  // A target moved by the data outside an update, and moved past its output (stride 2 from offset 3).
  const std::vector<ElemKind> scatter_kinds = {ElemKind::Real, ElemKind::Integer, ElemKind::Real};
  const std::vector<Shape> scatter_shapes = {Shape::of({2, 3}), Shape::of({2, 2}), Shape::of({2, 2})};
  p = scatter_rows();
  p.statements[1].op = Assign::Add;
  d = failure(typed(p, scatter_kinds, ElemKind::Real), scatter_shapes);
  CHECK(d.message.find("statement 1 moves a target by the data outside an update (:=)") != std::string::npos);
  p = scatter_rows();
  p.statements[1].target_indices[0].stride = 2;
  d = failure(typed(p, scatter_kinds, ElemKind::Real), scatter_shapes);
  CHECK(d.message.find("statement 1 writes outside its output") != std::string::npos);
  // A pack item chosen by an index that moves the offset too, and an item read past its tensor.
  const std::vector<ElemKind> chosen_kinds = {ElemKind::Real, ElemKind::Real, ElemKind::Integer};
  const std::vector<Shape> chosen_shapes = {Shape::of({3}), Shape::of({3}), Shape::of({3})};
  p = chosen_items();
  p.statements[0].reads[0].data_indices[0].stride = 1;
  d = failure(typed(p, chosen_kinds, ElemKind::Real), chosen_shapes);
  CHECK(d.message.find("chooses a pack item without an index of the pack's length") != std::string::npos);
  p = chosen_items();
  p.statements[0].reads[0].offsets[2] = 3;
  d = failure(typed(p, chosen_kinds, ElemKind::Real), chosen_shapes);
  CHECK(d.message.find("reads outside a tensor") != std::string::npos);
  // A lane with fewer targets than the statement has points, and one past the output.
  const std::vector<Shape> x22 = {Shape::of({2, 2})};
  p = argmax_2d();
  p.statements[1].lanes[0].targets.pop_back();
  d = failure(typed(p, {ElemKind::Real}, ElemKind::Integer), x22);
  CHECK(d.message.find("statement 1 has a lane of the wrong length") != std::string::npos);
  p = argmax_2d();
  p.statements[0].lanes[0].targets[0] = 2;
  d = failure(typed(p, {ElemKind::Real}, ElemKind::Integer), x22);
  CHECK(d.message.find("statement 0 writes outside its output") != std::string::npos);
  p = matvec();
  p.statements[1].condition = 0;
  CHECK(failure(attrs(p), {Shape::of({2, 3}), Shape::of({3})}).message.find("has a condition it cannot have") !=
        std::string::npos);
}

TEST_CASE("contract: every obligation", "[contract]") {
  // An operand of another shape than the program's: its offsets were computed for [2, 3].
  Diagnostic d = failure(attrs(matvec()), {Shape::of({3, 2}), Shape::of({3})});
  CHECK(d.code == "shape.contract.operand");
  CHECK(d.message.find("operand 0 axis 0 must have extent 2") != std::string::npos);
  // A read past its tensor: offset 6 of A [2, 3].
  Program p = matvec();
  p.statements[1].reads[0].offsets[5] = 6;
  d = failure(attrs(p), {Shape::of({2, 3}), Shape::of({3})});
  CHECK(d.code == "attr.contract.program");
  CHECK(d.message.find("statement 1 reads outside a tensor") != std::string::npos);
  // A node reading a later node, and tokens that do not decode.
  p = matvec();
  p.statements[1].nodes[0] = {NodeKind::Unary, 2, -1, -1, 0};
  CHECK(code_of(attrs(p), {Shape::of({2, 3}), Shape::of({3})}) == "attr.contract.program");
  ContractAttrs truncated = attrs(matvec());
  truncated.program.pop_back();
  CHECK(code_of(truncated, {Shape::of({2, 3}), Shape::of({3})}) == "attr.contract.program");
}
