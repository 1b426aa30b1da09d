// contract (spec/ops/contract.hpp): a contraction program run statement by statement. Expected
// values are worked out by hand in the comments; the programs are written here token by token, as
// the SkriptND front end would build them (its own tests: sknd_lower_test).
#include <catch2/catch.hpp>
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
