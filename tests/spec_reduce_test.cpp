// Reductions (spec/ops/reduce.hpp): sum, mean, max and min over axes. Expected values are
// worked out by hand in the comments.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "spec/ops/reduce.hpp"

#include "op_test_support.hpp"

using nnref::mp50;

namespace {

using namespace nnref;
using namespace nnref::test;

}  // namespace

// x = [[1, 2, 3], [4, 5, 6]] throughout: row sums 6 and 15, column sums 5, 7, 9, total 21.
TEMPLATE_TEST_CASE("sum_reduce and mean_reduce with and without keep_dims", "[reduce]", float, double, mp50) {
  using T = TestType;
  auto x = tensor<T>(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6});
  auto y = run<T>(ReduceAttrs{ReduceOp::Sum, {1}, true}, {x})[0];
  CHECK(y.shape() == Shape::of({2, 1}));
  check_values(y, {6, 15});
  y = run<T>(ReduceAttrs{ReduceOp::Sum, {1}, false}, {x})[0];
  CHECK(y.shape() == Shape::of({2}));
  check_values(y, {6, 15});
  y = run<T>(ReduceAttrs{ReduceOp::Sum, {-2}, true}, {x})[0];
  CHECK(y.shape() == Shape::of({1, 3}));
  check_values(y, {5, 7, 9});
  y = run<T>(ReduceAttrs{ReduceOp::Mean, {0, 1}, true}, {x})[0];
  CHECK(y.shape() == Shape::of({1, 1}));
  check_values(y, {3.5});  // 21/6
  y = run<T>(ReduceAttrs{ReduceOp::Mean, {-1, 0}, false}, {x})[0];
  CHECK(y.shape() == Shape::of({}));
  check_values(y, {3.5});
  y = run<T>(ReduceAttrs{ReduceOp::Mean, {-1}, false}, {x})[0];
  check_values(y, {2, 5});
}

TEMPLATE_TEST_CASE("max_reduce and min_reduce", "[reduce]", float, double, mp50) {
  using T = TestType;
  auto x = tensor<T>(Shape::of({2, 3}), {1, 7, 3, -4, 5, 0});
  auto y = run<T>(ReduceAttrs{ReduceOp::Max, {1}, true}, {x})[0];
  CHECK(y.shape() == Shape::of({2, 1}));
  check_values(y, {7, 5});
  y = run<T>(ReduceAttrs{ReduceOp::Min, {-1}, false}, {x})[0];
  CHECK(y.shape() == Shape::of({2}));
  check_values(y, {1, -4});
  y = run<T>(ReduceAttrs{ReduceOp::Max, {0}, false}, {x})[0];
  check_values(y, {1, 7, 3});
  y = run<T>(ReduceAttrs{ReduceOp::Min, {0, 1}, true}, {x})[0];
  check_values(y, {-4});
}

// x = [[1, 2, 3], [4, 5, 6]]: row products 6 and 120, column products 4, 10, 18, all 720.
TEMPLATE_TEST_CASE("prod_reduce, and the empty product 1", "[reduce]", float, double, mp50) {
  using T = TestType;
  auto x = tensor<T>(Shape::of({2, 3}), {1, 2, 3, 4, 5, 6});
  auto y = run<T>(ReduceAttrs{ReduceOp::Prod, {1}, true}, {x})[0];
  CHECK(y.shape() == Shape::of({2, 1}));
  check_values(y, {6, 120});
  check_values(run<T>(ReduceAttrs{ReduceOp::Prod, {0}, false}, {x})[0], {4, 10, 18});
  check_values(run<T>(ReduceAttrs{ReduceOp::Prod, {0, 1}, false}, {x})[0], {720});
  check_values(run<T>(ReduceAttrs{ReduceOp::Prod, {1}, false}, {tensor<T>(Shape::of({2, 2}), {-2, 0.5, 3, -0.25})})[0],
               {-1, -0.75});
  // An axis of extent 0 is allowed, as for sum_reduce: the product of no factors is 1.
  auto empty = run<T>(ReduceAttrs{ReduceOp::Prod, {1}, false}, {tensor<T>(Shape::of({2, 0}), {})})[0];
  check_values(empty, {1, 1});
  CHECK(code_of(ReduceAttrs{ReduceOp::Mean, {1}, false}, {Shape::of({2, 0})}) == "shape.reduce.empty-axis");
}

TEMPLATE_TEST_CASE("reducing non-adjacent axes of a rank-3 tensor", "[reduce]", float, double, mp50) {
  using T = TestType;
  // x[i, j, k] = 4i + 2j + k over [2, 2, 2]. Summing over i and k leaves j:
  // j = 0: 0 + 1 + 4 + 5 = 10; j = 1: 2 + 3 + 6 + 7 = 18.
  auto x = tensor<T>(Shape::of({2, 2, 2}), {0, 1, 2, 3, 4, 5, 6, 7});
  auto y = run<T>(ReduceAttrs{ReduceOp::Sum, {0, -1}, false}, {x})[0];
  CHECK(y.shape() == Shape::of({2}));
  check_values(y, {10, 18});
  y = run<T>(ReduceAttrs{ReduceOp::Max, {2, 0}, true}, {x})[0];
  CHECK(y.shape() == Shape::of({1, 2, 1}));
  check_values(y, {5, 7});
}

TEST_CASE("reduce names: one prototype per name", "[reduce]") {
  std::vector<std::string> names;
  for (const ReduceAttrs& a : op_prototypes<ReduceAttrs>()) names.push_back(op_name(a));
  CHECK(names == std::vector<std::string>{"sum_reduce", "mean_reduce", "max_reduce", "min_reduce", "prod_reduce"});
}

TEST_CASE("reduce obligations", "[reduce]") {
  Diagnostic d = failure(ReduceAttrs{ReduceOp::Sum, {}, true}, {Shape::of({2, 3})});
  CHECK(d.code == "attr.axes.empty");
  CHECK(d.message == "sum_reduce: axes must name at least one axis");
  d = failure(ReduceAttrs{ReduceOp::Sum, {2}, true}, {Shape::of({2, 3})});
  CHECK(d.code == "shape.axis.out-of-range");
  CHECK(d.message == "sum_reduce: axis 2 is out of range for an input of rank 2 (valid: -2 to 1)");
  CHECK(failure(ReduceAttrs{ReduceOp::Mean, {-3}, true}, {Shape::of({2, 3})}).code == "shape.axis.out-of-range");
  CHECK(failure(ReduceAttrs{ReduceOp::Max, {0, -2}, true}, {Shape::of({2, 3})}).code == "shape.axis.duplicate");
  d = failure(ReduceAttrs{ReduceOp::Max, {1}, true}, {Shape::of({2, 0})});
  CHECK(d.code == "shape.reduce.empty-axis");
  CHECK(d.message == "max_reduce: reduced axis 1 of input [2, 0] must have extent at least 1, got 0");
  CHECK(failure(ReduceAttrs{ReduceOp::Mean, {1}, true}, {Shape::of({2, 0})}).code == "shape.reduce.empty-axis");
  CHECK(failure(ReduceAttrs{ReduceOp::Min, {0}, true}, {Shape::of({0})}).code == "shape.reduce.empty-axis");
  CHECK(failure(ReduceAttrs{ReduceOp::Sum, {0}, true}, {}).code == "graph.arity");
  // An empty sum is 0.
  auto y = run<double>(ReduceAttrs{ReduceOp::Sum, {1}, false}, {tensor<double>(Shape::of({2, 0}), {})})[0];
  CHECK(y.shape() == Shape::of({2}));
  check_values(y, {0, 0});
}

TEST_CASE("float, double and mp50 agree on reductions within their precision", "[reduce]") {
  // 100 terms k/7: float accumulates ≲ 100·2^-24 relative error on a sum ≈ 707, so 1e-3
  // absolute is a safe bound; double ≲ 100·2^-53.
  std::vector<double> v;
  for (int i = 0; i < 100; ++i) v.push_back(i / 7.0);
  ReduceAttrs sum{ReduceOp::Sum, {0}, true}, mean{ReduceOp::Mean, {0}, true};
  double exact = 4950.0 / 7;  // Σ k for k < 100, over 7
  auto sf = run<float>(sum, {tensor<float>(Shape::of({100}), v)})[0];
  auto sd = run<double>(sum, {tensor<double>(Shape::of({100}), v)})[0];
  auto sm = run<mp50>(sum, {tensor<mp50>(Shape::of({100}), v)})[0];
  auto mm = run<mp50>(mean, {tensor<mp50>(Shape::of({100}), v)})[0];
  CHECK(std::abs(double(sf[0]) - exact) < 1e-3);
  CHECK(std::abs(sd[0] - exact) < 1e-11);
  CHECK(std::abs(double(sm[0]) - exact) < 1e-12);
  CHECK(std::abs(double(mm[0]) - exact / 100) < 1e-14);
}

// Integer reductions (ONNX's ReduceSum, ReduceProd, ReduceMax, ReduceMin of integer tensors):
// x = [[3, −2, 7], [5, 0, −4]]: row sums 8 and 1, column products [15, 0, −28], row max [7, 5],
// row min [−2, −4].
TEMPLATE_TEST_CASE("integer reductions", "[reduce]", float, double, mp50) {
  using T = TestType;
  const std::vector<Value<T>> x{integers(Shape::of({2, 3}), {3, -2, 7, 5, 0, -4})};
  const auto apply = [&](ReduceOp op, std::vector<int64_t> axes, bool keep, IntegerType type = {}) {
    const auto y = run_values<T>(ReduceAttrs{op, std::move(axes), keep, ElemKind::Integer, type}, x);
    return std::get<Tensor<int64_t>>(y[0]);
  };
  CHECK(apply(ReduceOp::Sum, {1}, false).values() == std::vector<int64_t>{8, 1});
  CHECK(apply(ReduceOp::Sum, {1}, true).shape() == Shape::of({2, 1}));
  CHECK(apply(ReduceOp::Prod, {0}, false).values() == std::vector<int64_t>{15, 0, -28});
  CHECK(apply(ReduceOp::Max, {-1}, false).values() == std::vector<int64_t>{7, 5});
  CHECK(apply(ReduceOp::Min, {1}, false).values() == std::vector<int64_t>{-2, -4});
  // Over both axes: Σ = 9, Π = 0.
  CHECK(apply(ReduceOp::Sum, {0, 1}, false).values() == std::vector<int64_t>{9});
  CHECK(apply(ReduceOp::Prod, {0, 1}, true).values() == std::vector<int64_t>{0});
}

// Wrap-around at the type's width. int32: 2147483647 + 1 = 2^31, which int32 holds as −2^31 =
// −2147483648; 65536 · 65536 = 2^32 ≡ 0 (mod 2^32); 65536 · 32768 = 2^31 → −2147483648. uint8:
// 200 + 100 = 300 − 256 = 44. int64: 2^62 · 4 = 2^64 ≡ 0; (2^63 − 1) + 2 = 2^63 + 1 ≡ −2^63 + 1.
TEST_CASE("integer reductions wrap at the element type's width", "[reduce]") {
  const IntegerType int32{IntegerWidth::Bits32, true}, uint8{IntegerWidth::Bits8, false};
  const auto apply = [](ReduceOp op, IntegerType type, std::vector<int64_t> v) {
    const auto n = static_cast<int64_t>(v.size());
    const std::vector<Value<double>> x{integers(Shape::of({n}), std::move(v))};
    const auto y = run_values<double>(ReduceAttrs{op, {0}, false, ElemKind::Integer, type}, x);
    return std::get<Tensor<int64_t>>(y[0]).values()[0];
  };
  CHECK(apply(ReduceOp::Sum, int32, {2147483647, 1}) == -2147483648LL);
  CHECK(apply(ReduceOp::Prod, int32, {65536, 65536}) == 0);
  CHECK(apply(ReduceOp::Prod, int32, {65536, 32768}) == -2147483648LL);
  CHECK(apply(ReduceOp::Sum, uint8, {200, 100}) == 44);
  CHECK(apply(ReduceOp::Prod, {}, {int64_t{1} << 62, 4}) == 0);
  CHECK(apply(ReduceOp::Sum, {}, {INT64_MAX, 2}) == INT64_MIN + 1);
  // Max and min are elements: no wrap. An unknown element gives an unknown result.
  CHECK(apply(ReduceOp::Max, int32, {-2147483648LL, 2147483647}) == 2147483647);
  CHECK(apply(ReduceOp::Sum, {}, {1, kUnknownInteger}) == kUnknownInteger);
}

TEST_CASE("integer mean_reduce is refused", "[reduce]") {
  CHECK(code_of(ReduceAttrs{ReduceOp::Mean, {0}, false, ElemKind::Integer}, {Shape::of({3})}, {ElemKind::Integer}) ==
        "attr.reduce.integer-mean");
  // The kind is checked: an integer sum_reduce of a real operand is kind.operand.
  CHECK(code_of(ReduceAttrs{ReduceOp::Sum, {0}, false, ElemKind::Integer}, {Shape::of({3})}, {ElemKind::Real}) ==
        "kind.operand");
}
