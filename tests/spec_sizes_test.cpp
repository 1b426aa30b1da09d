// Sizes computed from extents (spec/size_program.hpp): the sizes op, reshape's computed dims and
// slice's computed bounds, against values computed by hand, and every failure of a program.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "spec/ops/reshape.hpp"
#include "spec/ops/sizes.hpp"
#include "spec/ops/slice.hpp"

#include "op_test_support.hpp"

using namespace nnref;
using namespace nnref::test;
using namespace nnref::size_code;

namespace {

template <class T>
std::vector<int64_t> integers(const Value<T>& v) {
  const auto& t = std::get<Tensor<int64_t>>(v);
  return {t.data().begin(), t.data().end()};
}

}  // namespace

TEMPLATE_TEST_CASE("sizes: extents, their arithmetic, truncating division and Mod's sign", "[sizes]", float, double,
                   mp50) {
  using T = TestType;
  const Value<T> x = Tensor<T>(Shape::of({6, 4}));
  // [x.0, x.1, x.0·x.1, x.0/4 = 1, (0 − x.0)/4 = −1 (truncated), (0 − x.0) mod 4 = 2, fmod: −2,
  //  min(x.0, x.1) = 4, max = 6, x.0 − 7 = −1].
  const SizesAttrs a{{kExtent, 0, 0,  kExtent, 0, 1,  kExtent, 0, 0, kExtent, 0, 1, kMul,
                      kExtent, 0, 0, kConstant, 4, kDiv,
                      kConstant, 0, kExtent, 0, 0, kSub, kConstant, 4, kDiv,
                      kConstant, 0, kExtent, 0, 0, kSub, kConstant, 4, kMod,
                      kConstant, 0, kExtent, 0, 0, kSub, kConstant, 4, kFmod,
                      kExtent, 0, 0, kExtent, 0, 1, kMin,
                      kExtent, 0, 0, kExtent, 0, 1, kMax,
                      kExtent, 0, 0, kConstant, 7, kSub},
                     {ElemKind::Real}};
  const auto y = run_values<T>(a, {x});
  CHECK(shape_of(y[0]) == Shape::of({10}));
  CHECK(integers(y[0]) == std::vector<int64_t>{6, 4, 24, 1, -1, 2, -2, 4, 6, -1});
}

TEST_CASE("sizes: a program that reads what its operands lack, or divides by less than 1, fails", "[sizes]") {
  const std::vector<Shape> x{Shape::of({6, 4})};
  const std::vector<ElemKind> real{ElemKind::Real};
  CHECK(code_of(SizesAttrs{{kExtent, 0, 2}, real}, x, real) == "shape.size-program");  // no axis 2
  CHECK(code_of(SizesAttrs{{kExtent, 1, 0}, real}, x, real) == "shape.size-program");  // no operand 2
  CHECK(code_of(SizesAttrs{{kExtent, 0}, real}, x, real) == "shape.size-program");     // cut short
  CHECK(code_of(SizesAttrs{{kConstant, 1, kAdd}, real}, x, real) == "shape.size-program");  // one value
  CHECK(code_of(SizesAttrs{{42}, real}, x, real) == "shape.size-program");             // no such token
  CHECK(code_of(SizesAttrs{{}, real}, x, real) == "shape.size-program");               // no value
  const Diagnostic d = failure(SizesAttrs{{kExtent, 0, 0, kExtent, 0, 1, kConstant, 4, kSub, kDiv}, real}, x, real);
  CHECK(d.message == "sizes: computed sizes divide 6 by 0, which may be below 1");
  CHECK(code_of(SizesAttrs{{kExtent, 0, 0}, {ElemKind::Integer}}, x, real) == "kind.operand");
}

TEST_CASE("reshape's computed dims: constants read as dims, computed entries at least 1", "[sizes]") {
  const Shape x = Shape::of({2, 3, 4});
  const std::vector<ElemKind> kinds{ElemKind::Real, ElemKind::Real};
  // x.view(x.size(0), -1): [x.0, -1] → [2, 12].
  const ReshapeAttrs view{{}, ElemKind::Real, {kExtent, 0, 0, kConstant, -1}, {ElemKind::Real}};
  CHECK(out_shape(view, {x, x}) == Shape::of({2, 12}));
  const auto y = run_values<double>(view, {Value<double>(tensor(x, iota(24))), Value<double>(Tensor<double>(x))});
  CHECK(doubles(std::get<Tensor<double>>(y[0])) == iota(24));
  // [x.0 − 2, -1]: the computed 0 is not read as "copy".
  const ReshapeAttrs zero{{}, ElemKind::Real, {kExtent, 0, 0, kConstant, 2, kSub, kConstant, -1}, {ElemKind::Real}};
  CHECK(code_of(zero, {x, x}, kinds) == "shape.reshape.computed-extent");
  CHECK(code_of(ReshapeAttrs{{}, ElemKind::Real, {kExtent, 0, 0}, {ElemKind::Real}}, {x, x}, kinds) ==
        "shape.reshape.count-mismatch");
  CHECK(code_of(ReshapeAttrs{{}, ElemKind::Real, {kExtent, 0, 0}, {ElemKind::Real}}, {x}, {ElemKind::Real}) ==
        "graph.arity");
}

TEST_CASE("slice's computed bounds: every begin then every end, negative from the extent", "[sizes]") {
  const Shape x = Shape::of({2, 6});
  // x[:, x.0 : x.1 − 1] = columns 2..4; with a computed end of x.0 − 2 = 0, nothing (not "to the end").
  const SliceAttrs s{{1}, {}, {}, {}, ElemKind::Real, {kExtent, 0, 0, kExtent, 0, 1, kConstant, 1, kSub},
                     {ElemKind::Real}};
  const auto y = run_values<double>(s, {Value<double>(tensor(x, iota(12))), Value<double>(Tensor<double>(x))});
  CHECK(shape_of(y[0]) == Shape::of({2, 3}));
  CHECK(doubles(std::get<Tensor<double>>(y[0])) == std::vector<double>{2, 3, 4, 8, 9, 10});
  const std::vector<ElemKind> kinds{ElemKind::Real, ElemKind::Real};
  const SliceAttrs empty{{1}, {}, {}, {}, ElemKind::Real, {kConstant, 0, kExtent, 0, 0, kConstant, 2, kSub},
                         {ElemKind::Real}};
  CHECK(code_of(empty, {x, x}, kinds) == "shape.slice.empty");
  // −x.0 = −2 counts from the end: [4, 6).
  const SliceAttrs from_end{{1}, {}, {}, {}, ElemKind::Real,
                            {kConstant, 0, kExtent, 0, 0, kSub, kConstant, 6}, {ElemKind::Real}};
  CHECK(out_shape(from_end, {x, x}) == Shape::of({2, 2}));
  // Three values for one axis: the lengths do not match.
  const SliceAttrs odd{{1}, {}, {}, {}, ElemKind::Real, {kConstant, 0, kConstant, 1, kConstant, 2}, {ElemKind::Real}};
  CHECK(code_of(odd, {x, x}, kinds) == "attr.slice.attribute-length");
}
