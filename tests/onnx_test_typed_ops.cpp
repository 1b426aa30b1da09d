// The ONNX ops with integer or bool operands or results (formats/onnx/ops/typed.cpp), against
// values computed by hand. nnref's outputs are reals: an integer or bool graph output is read
// through a cast, so indices and truth values come out as the numbers they are.
#include <algorithm>
#include <cmath>
#include <limits>

#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

HostTensor typed(DType t, const std::vector<int64_t>& dims, std::vector<double> v) {
  return HostTensor{t, Shape::make(dims).value(), std::move(v)};
}

void set_to(onnx::NodeProto& n, int64_t to) { set_int(n, "to", to); }

// The one output of a model with one node `op` over the inputs, each (name, dims, ONNX type).
struct OneNode {
  OnnxModel m;
  onnx::NodeProto* node;
  OneNode(const std::string& op, const std::vector<std::tuple<std::string, std::vector<std::string>, int32_t>>& inputs,
          int64_t opset = 13) : m(opset) {
    std::vector<std::string> names;
    for (const auto& [name, dims, type] : inputs) {
      m.input(name, dims, type);
      names.push_back(name);
    }
    node = &m.node(op, names, {"Y"}, "n");
    m.output("Y");
  }
};

}  // namespace

TEST_CASE("onnx typed ops: ArgMax and ArgMin give the first index of the extremum, NaN beyond every number") {
  TempDir tmp("onnx_argmax");
  const HostTensor x = host({2, 3}, {1, 5, 5, 7, 2, 7});
  {
    OneNode a("ArgMax", {{"X", {"2", "3"}, onnx::TensorProto::FLOAT}});
    set_int(*a.node, "axis", 1);
    auto y = run_f64(load_onnx(a.m, tmp / "m.onnx"), {x});
    CHECK(y[0].shape().dims() == std::vector<int64_t>{2, 1});  // keepdims 1 by default
    CHECK(values(y[0]) == std::vector<double>{1, 0});          // the first of two equal maxima
  }
  {
    OneNode a("ArgMin", {{"X", {"2", "3"}, onnx::TensorProto::FLOAT}});
    set_int(*a.node, "keepdims", 0);  // axis 0 by default
    auto y = run_f64(load_onnx(a.m, tmp / "m.onnx"), {x});
    CHECK(y[0].shape().dims() == std::vector<int64_t>{3});
    CHECK(values(y[0]) == std::vector<double>{0, 1, 0});
  }
  {
    OneNode a("ArgMax", {{"X", {"1", "4"}, onnx::TensorProto::FLOAT}});
    set_int(*a.node, "axis", -1);
    CHECK(values(run_f64(load_onnx(a.m, tmp / "m.onnx"), {host({1, 4}, {1, kNaN, 9, kNaN})})[0]) == std::vector<double>{1});
  }
}

// select_last_index 1 (opset 12 on): the last index of the extremum, and of NaN (ONNX's reference:
// the argmax of the flipped data); before opset 12 the attribute does not exist and is refused.
TEST_CASE("onnx typed ops: ArgMax and ArgMin with select_last_index give the last index of the extremum") {
  TempDir tmp("onnx_argmax_last");
  const HostTensor x = host({2, 3}, {1, 5, 5, 7, 2, 7});
  for (const auto& [op, want] : std::vector<std::pair<std::string, std::vector<double>>>{{"ArgMax", {2, 2}}, {"ArgMin", {0, 1}}}) {
    INFO(op);
    OneNode a(op, {{"X", {"2", "3"}, onnx::TensorProto::FLOAT}});
    set_int(*a.node, "axis", 1);
    set_int(*a.node, "keepdims", 0);
    set_int(*a.node, "select_last_index", 1);
    auto y = run_f64(load_onnx(a.m, tmp / "m.onnx"), {x});
    CHECK(y[0].shape().dims() == std::vector<int64_t>{2});
    CHECK(values(y[0]) == want);
  }
  OneNode nan("ArgMin", {{"X", {"1", "4"}, onnx::TensorProto::FLOAT}});
  set_int(*nan.node, "axis", 1);
  set_int(*nan.node, "select_last_index", 1);
  CHECK(values(run_f64(load_onnx(nan.m, tmp / "m.onnx"), {host({1, 4}, {1, kNaN, 9, kNaN})})[0]) == std::vector<double>{3});
  OneNode old("ArgMax", {{"X", {"2", "3"}, onnx::TensorProto::FLOAT}}, 11);
  set_int(*old.node, "axis", 1);
  set_int(*old.node, "select_last_index", 1);
  const auto d = load_errors(old.m, tmp / "m.onnx");
  REQUIRE(find_code(d, "onnx.attribute-unsupported"));
  CHECK(find_code(d, "onnx.attribute-unsupported")->message.find("select_last_index") != std::string::npos);
}

TEST_CASE("onnx typed ops: comparisons broadcast as NumPy, NaN compares false, integers and bools as numbers") {
  TempDir tmp("onnx_compare");
  const HostTensor x = host({4}, {1, 2, 3, kNaN}), two = host({1}, {2});
  const std::vector<std::pair<std::string, std::vector<double>>> cases = {{"Less", {1, 0, 0, 0}},
                                                                          {"Greater", {0, 0, 1, 0}},
                                                                          {"LessOrEqual", {1, 1, 0, 0}},
                                                                          {"GreaterOrEqual", {0, 1, 1, 0}},
                                                                          {"Equal", {0, 1, 0, 0}}};
  for (const auto& [op, want] : cases) {
    INFO(op);
    OneNode c(op, {{"A", {"4"}, onnx::TensorProto::FLOAT}, {"B", {"1"}, onnx::TensorProto::FLOAT}}, 16);
    CHECK(values(run_f64(load_onnx(c.m, tmp / "m.onnx"), {x, two})[0]) == want);
  }
  OneNode ints("Equal", {{"A", {"3"}, onnx::TensorProto::INT32}, {"B", {"3"}, onnx::TensorProto::INT32}});
  CHECK(values(run_f64(load_onnx(ints.m, tmp / "m.onnx"),
                       {typed(DType::I32, {3}, {1, 2, 3}), typed(DType::I32, {3}, {3, 2, 1})})[0]) ==
        std::vector<double>{0, 1, 0});
  OneNode bools("Equal", {{"A", {"2"}, onnx::TensorProto::BOOL}, {"B", {"2"}, onnx::TensorProto::BOOL}});
  CHECK(values(run_f64(load_onnx(bools.m, tmp / "m.onnx"),
                       {typed(DType::Bool, {2}, {1, 0}), typed(DType::Bool, {2}, {1, 1})})[0]) == std::vector<double>{1, 0});
}

TEST_CASE("onnx typed ops: Not, And, Or and Xor are their truth tables, under NumPy broadcasting") {
  TempDir tmp("onnx_logic");
  const HostTensor a = typed(DType::Bool, {2, 2}, {1, 1, 0, 0}), b = typed(DType::Bool, {2}, {1, 0});
  const std::vector<std::pair<std::string, std::vector<double>>> cases = {
      {"And", {1, 0, 0, 0}}, {"Or", {1, 1, 1, 0}}, {"Xor", {0, 1, 1, 0}}};
  for (const auto& [op, want] : cases) {
    INFO(op);
    OneNode l(op, {{"A", {"2", "2"}, onnx::TensorProto::BOOL}, {"B", {"2"}, onnx::TensorProto::BOOL}});
    auto y = run_f64(load_onnx(l.m, tmp / "m.onnx"), {a, b});
    CHECK(y[0].shape().dims() == std::vector<int64_t>{2, 2});
    CHECK(values(y[0]) == want);
  }
  OneNode n("Not", {{"A", {"2", "2"}, onnx::TensorProto::BOOL}});
  CHECK(values(run_f64(load_onnx(n.m, tmp / "m.onnx"), {a})[0]) == std::vector<double>{0, 0, 1, 1});
  // A float operand is no truth value.
  OneNode f("Not", {{"A", {"2"}, onnx::TensorProto::FLOAT}});
  CHECK(find_code(load_errors(f.m, tmp / "m.onnx"), "onnx.type-unsupported"));
}

TEST_CASE("onnx typed ops: Where picks X where the condition holds, Y elsewhere, broadcasting") {
  TempDir tmp("onnx_where");
  OneNode w("Where", {{"C", {"3"}, onnx::TensorProto::BOOL},
                      {"X", {"3"}, onnx::TensorProto::FLOAT},
                      {"Y", {"1"}, onnx::TensorProto::FLOAT}});
  CHECK(values(run_f64(load_onnx(w.m, tmp / "m.onnx"),
                       {typed(DType::Bool, {3}, {1, 0, 1}), host({3}, {1, 2, 3}), host({1}, {10})})[0]) ==
        std::vector<double>{1, 10, 3});
  // The condition from a comparison: relu as Where(x > 0, x, 0).
  OnnxModel m;
  m.input("X", {"4"});
  m.init("zero", {}, {0.0f});
  m.node("Greater", {"X", "zero"}, {"positive"});
  m.node("Where", {"positive", "X", "zero"}, {"Y"});
  m.output("Y");
  CHECK(values(run_f64(load_onnx(m, tmp / "relu.onnx"), {host({4}, {-2, 0.5, 0, 3})})[0]) ==
        std::vector<double>{0, 0.5, 0, 3});
}

// Where of integers and bools chooses them as they are: an int64 past float32's 2^24 and
// 2^53 − 1 stay exact: [1, 0, 1] over [2^24 + 1, −2, 3] and [2^53 − 1] (broadcast) gives
// [2^24 + 1, 2^53 − 1, 3]; bools [1, 1, 0] and [0] give [1, 0, 0].
TEST_CASE("onnx typed ops: Where of integer and bool values") {
  TempDir tmp("onnx_where_kinds");
  const HostTensor c = typed(DType::Bool, {3}, {1, 0, 1});
  OneNode w("Where", {{"C", {"3"}, onnx::TensorProto::BOOL},
                      {"X", {"3"}, onnx::TensorProto::INT64},
                      {"Y", {"1"}, onnx::TensorProto::INT64}});
  CHECK(values(run_f64(load_onnx(w.m, tmp / "m.onnx"),
                       {c, typed(DType::I64, {3}, {16777217, -2, 3}), typed(DType::I64, {1}, {9007199254740991.0})})[0]) ==
        std::vector<double>{16777217, 9007199254740991.0, 3});
  OneNode b("Where", {{"C", {"3"}, onnx::TensorProto::BOOL},
                      {"X", {"3"}, onnx::TensorProto::BOOL},
                      {"Y", {"1"}, onnx::TensorProto::BOOL}});
  CHECK(values(run_f64(load_onnx(b.m, tmp / "b.onnx"), {c, typed(DType::Bool, {3}, {1, 1, 0}), typed(DType::Bool, {1}, {0})})[0]) ==
        std::vector<double>{1, 0, 0});
}

// Pad of int32 data, pads [0, 1, 0, 1] (one before and one after each row): x = [[1, 2, 3], [4, 5, 6]];
// reflect [2, 1, 2, 3, 2], [5, 4, 5, 6, 5]; edge [1, 1, 2, 3, 3], [4, 4, 5, 6, 6]; constant (0)
// [0, 1, 2, 3, 0], [0, 4, 5, 6, 0].
TEST_CASE("onnx typed ops: Pad of integers in every mode") {
  TempDir tmp("onnx_pad_ints");
  const HostTensor x = typed(DType::I32, {2, 3}, {1, 2, 3, 4, 5, 6});
  const std::vector<std::pair<std::string, std::vector<double>>> modes = {
      {"reflect", {2, 1, 2, 3, 2, 5, 4, 5, 6, 5}}, {"edge", {1, 1, 2, 3, 3, 4, 4, 5, 6, 6}}, {"constant", {0, 1, 2, 3, 0, 0, 4, 5, 6, 0}}};
  for (const auto& [mode, want] : modes) {
    INFO(mode);
    OnnxModel m;
    m.input("X", {"2", "3"}, onnx::TensorProto::INT32);
    ints_of(m, "pads", {4}, {0, 1, 0, 1});
    set_string(m.node("Pad", {"X", "pads"}, {"Y"}), "mode", mode);
    m.output("Y");
    const auto y = run_f64(load_onnx(m, tmp / "m.onnx"), {x});
    CHECK(y[0].shape().dims() == std::vector<int64_t>{2, 5});
    CHECK(values(y[0]) == want);
  }
}

// Clip of int8 is min(max(x, lo), hi) in integers: x = [−128, −5, 0, 5, 127] with lo −3 and hi 4
// gives [−3, −3, 0, 4, 4]; with hi alone [−128, −5, 0, 4, 4]; with neither, x itself.
TEST_CASE("onnx typed ops: Clip of integers") {
  TempDir tmp("onnx_clip_ints");
  const HostTensor x = typed(DType::I8, {5}, {-128, -5, 0, 5, 127});
  const HostTensor lo = typed(DType::I8, {}, {-3}), hi = typed(DType::I8, {}, {4});
  const auto clip = [&](const std::vector<std::string>& in, const std::vector<HostTensor>& data) {
    OnnxModel m;
    m.input("X", {"5"}, onnx::TensorProto::INT8);
    for (const std::string& b : {std::string("lo"), std::string("hi")})
      if (std::find(in.begin(), in.end(), b) != in.end()) m.input(b, {}, onnx::TensorProto::INT8);
    m.node("Clip", in, {"Y"});
    m.output("Y");
    return values(run_f64(load_onnx(m, tmp / "m.onnx"), data)[0]);
  };
  CHECK(clip({"X", "lo", "hi"}, {x, lo, hi}) == std::vector<double>{-3, -3, 0, 4, 4});
  CHECK(clip({"X", "", "hi"}, {x, hi}) == std::vector<double>{-128, -5, 0, 4, 4});
  CHECK(clip({"X"}, {x}) == std::vector<double>{-128, -5, 0, 5, 127});
}

// MaxPool of uint8, a 2 × 2 window over [[1, 2, 3], [4, 5, 6], [7, 8, 255]]: [[5, 6], [8, 255]].
// Of int32 it is refused: nnref takes the maximum as reals, which float32 holds to 2^24 only.
TEST_CASE("onnx typed ops: MaxPool of 8-bit integers, int32 refused") {
  TempDir tmp("onnx_maxpool_ints");
  OneNode p("MaxPool", {{"X", {"1", "1", "3", "3"}, onnx::TensorProto::UINT8}});
  set_ints(*p.node, "kernel_shape", {2, 2});
  CHECK(values(run_f64(load_onnx(p.m, tmp / "m.onnx"), {typed(DType::U8, {1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 255})})[0]) ==
        std::vector<double>{5, 6, 8, 255});
  OneNode wide("MaxPool", {{"X", {"1", "1", "3", "3"}, onnx::TensorProto::INT32}});
  set_ints(*wide.node, "kernel_shape", {2, 2});
  const auto d = load_errors(wide.m, tmp / "w.onnx");
  REQUIRE(find_code(d, "onnx.type-unsupported"));
  CHECK(find_code(d, "onnx.type-unsupported")->message.find("INT32") != std::string::npos);
}

// Pow with integers. int32^int32, ONNX Runtime's static_cast<int32_t>(std::pow(x, y)): 2^5 = 32,
// (−2)^3 = −8, 3^−1 = 0.33… → 0, 2^−1 = 0.5 → 0 (truncated, as rounding half to even gives).
// float^int64: 2^3 = 8, 0.5^−2 = 4. int64^float: 4^0.5 = 2, 2^1.5 = 2.83… → 2 (truncated).
TEST_CASE("onnx typed ops: Pow of integer bases and exponents") {
  TempDir tmp("onnx_pow_types");
  OneNode ii("Pow", {{"X", {"4"}, onnx::TensorProto::INT32}, {"E", {"4"}, onnx::TensorProto::INT32}});
  CHECK(values(run_f64(load_onnx(ii.m, tmp / "ii.onnx"),
                       {typed(DType::I32, {4}, {2, -2, 3, 2}), typed(DType::I32, {4}, {5, 3, -1, -1})})[0]) ==
        std::vector<double>{32, -8, 0, 0});
  OneNode fi("Pow", {{"X", {"2"}, onnx::TensorProto::FLOAT}, {"E", {"2"}, onnx::TensorProto::INT64}});
  CHECK(values(run_f64(load_onnx(fi.m, tmp / "fi.onnx"), {host({2}, {2, 0.5}), typed(DType::I64, {2}, {3, -2})})[0]) ==
        std::vector<double>{8, 4});
  OneNode i_f("Pow", {{"X", {"2"}, onnx::TensorProto::INT64}, {"E", {"2"}, onnx::TensorProto::FLOAT}});
  CHECK(values(run_f64(load_onnx(i_f.m, tmp / "if.onnx"), {typed(DType::I64, {2}, {4, 2}), host({2}, {0.5, 1.5})})[0]) ==
        std::vector<double>{2, 2});
}

TEST_CASE("onnx typed ops: Cast truncates floats to integers, tests floats against 0, refuses what wraps or rounds") {
  TempDir tmp("onnx_cast");
  {
    OneNode c("Cast", {{"X", {"5"}, onnx::TensorProto::FLOAT}});
    set_to(*c.node, onnx::TensorProto::INT64);
    CHECK(values(run_f64(load_onnx(c.m, tmp / "m.onnx"), {host({5}, {-2.5, -0.5, 0.5, 2.75, -3})})[0]) ==
          std::vector<double>{-2, 0, 0, 2, -3});
  }
  {
    OneNode c("Cast", {{"X", {"4"}, onnx::TensorProto::FLOAT}});
    set_to(*c.node, onnx::TensorProto::BOOL);
    CHECK(values(run_f64(load_onnx(c.m, tmp / "m.onnx"), {host({4}, {0, -0.0, 2, kNaN})})[0]) ==
          std::vector<double>{0, 0, 1, 1});
  }
  {
    OneNode c("Cast", {{"X", {"3"}, onnx::TensorProto::INT8}});
    set_to(*c.node, onnx::TensorProto::INT32);  // widening: every int8 is an int32
    CHECK(values(run_f64(load_onnx(c.m, tmp / "m.onnx"), {typed(DType::I8, {3}, {-128, 0, 127})})[0]) ==
          std::vector<double>{-128, 0, 127});
  }
  {
    OneNode c("Cast", {{"X", {"2"}, onnx::TensorProto::BOOL}});
    set_to(*c.node, onnx::TensorProto::DOUBLE);
    CHECK(values(run_f64(load_onnx(c.m, tmp / "m.onnx"), {typed(DType::Bool, {2}, {1, 0})})[0]) == std::vector<double>{1, 0});
  }
  {
    OneNode c("Cast", {{"X", {"2"}, onnx::TensorProto::DOUBLE}});
    set_to(*c.node, onnx::TensorProto::FLOAT);
    CHECK(values(run_f64(load_onnx(c.m, tmp / "m.onnx"), {host({2}, {0.25, -3})})[0]) == std::vector<double>{0.25, -3});
  }
  for (auto [from, to] : {std::pair{onnx::TensorProto::INT32, onnx::TensorProto::INT8},
                          {onnx::TensorProto::INT64, onnx::TensorProto::UINT32},
                          {onnx::TensorProto::FLOAT, onnx::TensorProto::COMPLEX64},
                          {onnx::TensorProto::FLOAT, onnx::TensorProto::STRING}}) {
    INFO(from << " to " << to);
    OneNode c("Cast", {{"X", {"2"}, from}});
    set_to(*c.node, to);
    const auto d = load_errors(c.m, tmp / "m.onnx");
    REQUIRE(find_code(d, "onnx.attribute-unsupported"));
    CHECK(find_code(d, "onnx.attribute-unsupported")->loc.line == 1);
  }
}

// binary16 has 11 significand bits (ulp 2^-10 at 1), bfloat16 8 (ulp 2^-7): each value by hand.
TEST_CASE("onnx typed ops: Cast to float16 and bfloat16 rounds to the format's nearest value, ties to even") {
  TempDir tmp("onnx_cast_narrow");
  {
    OneNode c("Cast", {{"X", {"4"}, onnx::TensorProto::DOUBLE}});
    set_to(*c.node, onnx::TensorProto::FLOAT16);
    // 1 + 2^-11 halfway: to 1; 0.1 to binary16 0x2E66; 65520 past the largest finite: ∞.
    CHECK(values(run_f64(load_onnx(c.m, tmp / "m.onnx"), {host({4}, {1 + 0x1p-11, 0.1, 65520, -2.5})})[0]) ==
          std::vector<double>{1, 0.0999755859375, std::numeric_limits<double>::infinity(), -2.5});
  }
  {
    OneNode c("Cast", {{"X", {"3"}, onnx::TensorProto::FLOAT}});
    set_to(*c.node, onnx::TensorProto::BFLOAT16);
    // 1 + 3·2^-8 halfway between 1 + 2^-7 (odd) and 1 + 2^-6: up; 257 = 256·(1 + 2^-8) halfway: to 256.
    CHECK(values(run_f64(load_onnx(c.m, tmp / "m.onnx"), {host({3}, {1 + 3 * 0x1p-8, 257, 3})})[0]) ==
          std::vector<double>{1 + 0x1p-6, 256, 3});
  }
  {
    OneNode c("Cast", {{"X", {"2"}, onnx::TensorProto::INT32}});
    set_to(*c.node, onnx::TensorProto::FLOAT16);  // 2049 halfway between 2048 and 2050: to 2048 (even)
    CHECK(values(run_f64(load_onnx(c.m, tmp / "m.onnx"), {typed(DType::I32, {2}, {2049, -7})})[0]) ==
          std::vector<double>{2048, -7});
  }
}

TEST_CASE("onnx typed ops: Mod of reals with fmod 1 is C's fmod, with fmod 0 refused") {
  TempDir tmp("onnx_mod_real");
  OneNode c("Mod", {{"X", {"3"}, onnx::TensorProto::FLOAT}, {"Y", {"3"}, onnx::TensorProto::FLOAT}});
  set_int(*c.node, "fmod", 1);
  CHECK(values(run_f64(load_onnx(c.m, tmp / "m.onnx"), {host({3}, {5.5, -5.5, 7}), host({3}, {2, 2, -3})})[0]) ==
        std::vector<double>{1.5, -1.5, 1});  // the dividend's sign
  OneNode d("Mod", {{"X", {"3"}, onnx::TensorProto::FLOAT}, {"Y", {"3"}, onnx::TensorProto::FLOAT}});
  REQUIRE(find_code(load_errors(d.m, tmp / "m.onnx"), "onnx.attribute-value"));
}

TEST_CASE("onnx typed ops: Gather with computed or constant indices, negative ones from the axis's end, of any rank") {
  TempDir tmp("onnx_gather_computed");
  {
    OneNode g("Gather", {{"X", {"3", "2"}, onnx::TensorProto::FLOAT}, {"I", {"2"}, onnx::TensorProto::INT64}});
    auto y = run_f64(load_onnx(g.m, tmp / "m.onnx"), {host({3, 2}, {0, 1, 2, 3, 4, 5}), typed(DType::I64, {2}, {-1, 0})});
    CHECK(y[0].shape().dims() == std::vector<int64_t>{2, 2});
    CHECK(values(y[0]) == std::vector<double>{4, 5, 0, 1});
  }
  {
    OneNode g("Gather", {{"X", {"2", "3"}, onnx::TensorProto::FLOAT}, {"I", {"2", "2"}, onnx::TensorProto::INT32}});
    set_int(*g.node, "axis", 1);
    auto y = run_f64(load_onnx(g.m, tmp / "m.onnx"),
                     {host({2, 3}, {0, 1, 2, 3, 4, 5}), typed(DType::I32, {2, 2}, {0, 2, 1, -3})});
    CHECK(y[0].shape().dims() == std::vector<int64_t>{2, 2, 2});
    CHECK(values(y[0]) == std::vector<double>{0, 2, 1, 0, 3, 5, 4, 3});
  }
  {
    // Constant indices of rank 2 (an initializer, as the ONNX writer writes an IR gather of a
    // constant): the same gather, [[2, -1], [0, 1]] on axis 0 of [[0, 1], [2, 3], [4, 5]].
    OnnxModel c;
    c.input("X", {"3", "2"});
    onnx::TensorProto* i = c.init("I", {2, 2}, {});
    i->set_data_type(onnx::TensorProto::INT64);
    for (int64_t v : {2, -1, 0, 1}) i->add_int64_data(v);
    c.node("Gather", {"X", "I"}, {"Y"});
    c.output("Y");
    auto y = run_f64(load_onnx(c, tmp / "constant.onnx"), {host({3, 2}, {0, 1, 2, 3, 4, 5})});
    CHECK(y[0].shape().dims() == std::vector<int64_t>{2, 2, 2});
    CHECK(values(y[0]) == std::vector<double>{4, 5, 4, 5, 0, 1, 2, 3});
  }
  // The indices from an ArgMax: the row of each column's maximum.
  OnnxModel m;
  m.input("X", {"3", "2"});
  set_int(m.node("ArgMax", {"X"}, {"rows"}), "keepdims", 0);
  m.node("Gather", {"X", "rows"}, {"Y"});
  m.output("Y");
  auto y = run_f64(load_onnx(m, tmp / "argmax.onnx"), {host({3, 2}, {0, 9, 8, 1, 2, 3})});
  CHECK(y[0].shape().dims() == std::vector<int64_t>{2, 2});
  CHECK(values(y[0]) == std::vector<double>{8, 1, 0, 9});
  // A negative index counts from the end of an extent read at load time: symbolic extents are refused.
  OneNode sym("Gather", {{"X", {"N", "2"}, onnx::TensorProto::FLOAT}, {"I", {"2"}, onnx::TensorProto::INT64}});
  CHECK(find_code(load_errors(sym.m, tmp / "m.onnx"), "onnx.shape-unsupported"));
}

// The IR ops that move elements hold any kind: an integer stays exact past float32's 2^24, a bool
// stays 0 or 1.
TEST_CASE("onnx typed ops: Reshape, Transpose, Concat, Split, Slice and Tile move integer and bool tensors") {
  TempDir tmp("onnx_moved_kinds");
  const HostTensor x = typed(DType::I64, {2, 3}, {16777217, -2, 3, 4, 5, -6});
  const HostTensor z = typed(DType::I64, {2, 1}, {7, -16777219});
  const HostTensor b = typed(DType::Bool, {4}, {1, 0, 0, 1});
  const auto x_in = std::make_tuple(std::string("X"), std::vector<std::string>{"2", "3"}, int32_t{onnx::TensorProto::INT64});
  {
    OneNode t("Transpose", {x_in});
    auto y = run_f64(load_onnx(t.m, tmp / "m.onnx"), {x});
    CHECK(y[0].shape().dims() == std::vector<int64_t>{3, 2});
    CHECK(values(y[0]) == std::vector<double>{16777217, 4, -2, 5, 3, -6});
  }
  {
    OneNode c("Concat", {x_in, {"Z", {"2", "1"}, onnx::TensorProto::INT64}});
    set_int(*c.node, "axis", 1);
    CHECK(values(run_f64(load_onnx(c.m, tmp / "m.onnx"), {x, z})[0]) ==
          std::vector<double>{16777217, -2, 3, 7, 4, 5, -6, -16777219});
  }
  {
    OnnxModel m;
    m.input("X", {"2", "3"}, onnx::TensorProto::INT64);
    m.ints("s", {1});
    m.ints("e", {3});
    m.ints("a", {1});
    m.ints("shape", {3, 2});
    m.node("Slice", {"X", "s", "e", "a"}, {"Y"}, "slice");
    m.node("Reshape", {"X", "shape"}, {"R"}, "reshape");
    m.output("Y");
    m.output("R");
    auto y = run_f64(load_onnx(m, tmp / "m.onnx"), {x});
    CHECK(values(y[0]) == std::vector<double>{-2, 3, 5, -6});
    CHECK(y[1].shape().dims() == std::vector<int64_t>{3, 2});
    CHECK(values(y[1]) == std::vector<double>{16777217, -2, 3, 4, 5, -6});
  }
  {
    OnnxModel m;
    m.input("B", {"4"}, onnx::TensorProto::BOOL);
    m.ints("repeats", {2});
    m.node("Split", {"B"}, {"P", "Q"}, "split");
    m.node("Tile", {"B", "repeats"}, {"T"}, "tile");
    m.output("P");
    m.output("Q");
    m.output("T");
    auto y = run_f64(load_onnx(m, tmp / "m.onnx"), {b});
    CHECK(values(y[0]) == std::vector<double>{1, 0});
    CHECK(values(y[1]) == std::vector<double>{0, 1});
    CHECK(values(y[2]) == std::vector<double>{1, 0, 0, 1, 1, 0, 0, 1});
  }
  // Inputs of two kinds: the second is not what concat moves.
  OneNode mixed("Concat", {x_in, {"F", {"2", "1"}, onnx::TensorProto::FLOAT}});
  set_int(*mixed.node, "axis", 1);
  CHECK(find_code(load_errors(mixed.m, tmp / "m.onnx"), "onnx.type-unsupported"));
}

TEST_CASE("onnx typed ops: an integer or bool value where nnref computes with reals is refused at the node") {
  TempDir tmp("onnx_typed_refused");
  OneNode relu("Relu", {{"X", {"2"}, onnx::TensorProto::INT64}});
  const auto d = load_errors(relu.m, tmp / "m.onnx");
  REQUIRE(find_code(d, "onnx.type-unsupported"));
  CHECK(find_code(d, "onnx.type-unsupported")->node == "n");
  OneNode u64("Relu", {{"X", {"2"}, onnx::TensorProto::UINT64}});
  const auto e = load_errors(u64.m, tmp / "m.onnx");
  REQUIRE(find_code(e, "onnx.type-unsupported"));
  CHECK(find_code(e, "onnx.type-unsupported")->message.find("UINT64") != std::string::npos);
}

// CumSum (IR cumsum): x [2, 3] = [[1, 2, 3], [4, 5, 6]]; along axis 1 reversed and exclusive, each
// element the sum of those after it: [[2 + 3, 3, 0], [5 + 6, 6, 0]] = [[5, 3, 0], [11, 6, 0]]; along
// axis −2 (an int32 axis of shape [1]) forward: [[1, 2, 3], [1 + 4, 2 + 5, 3 + 6]] = [[1, 2, 3], [5, 7, 9]].
TEST_CASE("onnx typed ops: CumSum of reals along a constant axis, each direction, inclusive or exclusive") {
  TempDir tmp("onnx_cumsum");
  const HostTensor x = host({2, 3}, {1, 2, 3, 4, 5, 6});
  {
    OneNode a("CumSum", {{"X", {"2", "3"}, onnx::TensorProto::FLOAT}}, 14);
    ints_of(a.m, "axis", {}, {1});
    a.node->add_input("axis");
    set_int(*a.node, "exclusive", 1);
    set_int(*a.node, "reverse", 1);
    CHECK(values(run_f64(load_onnx(a.m, tmp / "m.onnx"), {x})[0]) == std::vector<double>{5, 3, 0, 11, 6, 0});
  }
  {
    OneNode a("CumSum", {{"X", {"2", "3"}, onnx::TensorProto::FLOAT}}, 11);
    onnx::TensorProto* axis = a.m.graph().add_initializer();
    axis->set_name("axis");
    axis->set_data_type(onnx::TensorProto::INT32);
    axis->add_dims(1);
    axis->add_int32_data(-2);
    a.node->add_input("axis");
    CHECK(values(run_f64(load_onnx(a.m, tmp / "m.onnx"), {x})[0]) == std::vector<double>{1, 2, 3, 5, 7, 9});
  }
}

// On int64 values the graph computes: the IR op at run time, [5, −7, 3] → [5, −2, 1]. Of an int64
// constant, folded when the model is read (no cumsum node left): [3, −5, 4] → [3, −2, 2].
TEST_CASE("onnx typed ops: CumSum of int64 values runs as cumsum, and of an int64 constant is folded") {
  TempDir tmp("onnx_cumsum_int");
  OneNode a("CumSum", {{"I", {"3"}, onnx::TensorProto::INT64}}, 14);
  ints_of(a.m, "axis", {}, {0});
  a.node->add_input("axis");
  const Model run_time = load_onnx(a.m, tmp / "m.onnx");
  CHECK(values(run_f64(run_time, {HostTensor{DType::I64, Shape::of({3}), {5, -7, 3}}})[0]) ==
        std::vector<double>{5, -2, 1});

  OnnxModel folded(14);
  ints_of(folded, "C", {3}, {3, -5, 4});
  ints_of(folded, "axis", {}, {0});
  folded.node("CumSum", {"C", "axis"}, {"Y"}, "n");
  folded.output("Y");
  const Model m = load_onnx(folded, tmp / "f.onnx");
  for (const Node& n : m.graph.nodes) CHECK_FALSE(std::holds_alternative<CumsumAttrs>(n.op));
  CHECK(values(run_f64(m, {})[0]) == std::vector<double>{3, -2, 2});
}

// ONNX sums a narrower integer type at its own width: an int32 constant [2^31 − 1, −1, −5] folds to
// [2147483647, 2147483646, 2147483641], and [2^31 − 1, 1] to [2147483647, −2^31] (2^31 wraps). Of
// int32 data the graph computes, [2^31 − 1, 1, 5] gives [2147483647, −2147483648, −2147483643]; of
// uint8 data [200, 100, 1] gives [200, 300 − 256 = 44, 45]. The axis must hold one integer; bool
// data is refused.
TEST_CASE("onnx typed ops: CumSum wraps at a narrower width, and a wide axis and bool data are refused by name") {
  TempDir tmp("onnx_cumsum_narrow");
  const auto int32_cumsum = [](const std::vector<int32_t>& v) {
    OnnxModel m(14);
    onnx::TensorProto* c = m.graph().add_initializer();
    c->set_name("C");
    c->set_data_type(onnx::TensorProto::INT32);
    c->add_dims(static_cast<int64_t>(v.size()));
    for (int32_t x : v) c->add_int32_data(x);
    ints_of(m, "axis", {}, {0});
    m.node("CumSum", {"C", "axis"}, {"Y"}, "n");
    m.output("Y");
    return m;
  };
  CHECK(values(run_f64(load_onnx(int32_cumsum({2147483647, -1, -5}), tmp / "m.onnx"), {})[0]) ==
        std::vector<double>{2147483647, 2147483646, 2147483641});
  CHECK(values(run_f64(load_onnx(int32_cumsum({2147483647, 1}), tmp / "w.onnx"), {})[0]) ==
        std::vector<double>{2147483647, -2147483648.0});
  // The diagnostic with `code` of loading the model, which must have one.
  const auto refusal = [&](const OnnxModel& m, const std::string& code) {
    const std::vector<Diagnostic> ds = load_errors(m, tmp / "m.onnx");
    const Diagnostic* d = find_code(ds, code);
    REQUIRE(d != nullptr);
    return *d;
  };
  // CumSum over a graph input X [3] of this type, along an int64 constant axis.
  const auto over_input = [](int32_t type, const std::vector<int64_t>& axis_dims, const std::vector<int64_t>& axis) {
    OneNode one("CumSum", {{"X", {"3"}, type}}, 14);
    ints_of(one.m, "axis", axis_dims, axis);
    one.node->add_input("axis");
    return one.m;
  };
  CHECK(values(run_f64(load_onnx(over_input(onnx::TensorProto::INT32, {}, {0}), tmp / "i.onnx"),
                       {HostTensor{DType::I64, Shape::of({3}), {2147483647, 1, 5}}})[0]) ==
        std::vector<double>{2147483647, -2147483648.0, -2147483643.0});
  CHECK(values(run_f64(load_onnx(over_input(onnx::TensorProto::UINT8, {}, {0}), tmp / "u.onnx"),
                       {HostTensor{DType::I64, Shape::of({3}), {200, 100, 1}}})[0]) == std::vector<double>{200, 44, 45});
  CHECK(refusal(over_input(onnx::TensorProto::FLOAT, {2}, {0, 0}), "onnx.input-type").message.find("axis must hold one integer") !=
        std::string::npos);
  CHECK(refusal(over_input(onnx::TensorProto::BOOL, {}, {0}), "onnx.type-unsupported").message.find("CumSum of bool values") !=
        std::string::npos);
  // The axis is read when the model is loaded: a graph input is not a constant.
  OneNode computed("CumSum", {{"X", {"3"}, onnx::TensorProto::FLOAT}, {"A", {}, onnx::TensorProto::INT64}}, 14);
  refusal(computed.m, "onnx.input-not-constant");
}

TEST_CASE("onnx typed ops: BitShift of unsigned integers, left wrapping to the type, right by hand") {
  TempDir tmp("onnx_bit_shift");
  const auto model = [](const std::string& direction, int32_t type) {
    OnnxModel m(11);
    m.input("X", {"4"}, type);
    m.input("S", {"4"}, type);
    set_string(m.node("BitShift", {"X", "S"}, {"Y"}), "direction", direction);
    m.output("Y");
    return m;
  };
  const auto uint8 = [](std::vector<double> v) { return HostTensor{DType::U8, Shape::make({4}).value(), std::move(v)}; };
  // 16 << 1, 4 << 2, 1 << 7, 200 << 1 = 400 mod 256.
  const Model left = load_onnx(model("LEFT", onnx::TensorProto::UINT8), tmp / "left.onnx");
  const auto y = run_f64(left, {uint8({16, 4, 1, 200}), uint8({1, 2, 7, 1})})[0];
  CHECK(std::vector<double>(y.data().begin(), y.data().end()) == std::vector<double>{32, 16, 128, 144});
  // 16 >> 1, 4 >> 2, 1 >> 3, 255 >> 7.
  const Model right = load_onnx(model("RIGHT", onnx::TensorProto::UINT8), tmp / "right.onnx");
  const auto z = run_f64(right, {uint8({16, 4, 1, 255}), uint8({1, 2, 3, 7})})[0];
  CHECK(std::vector<double>(z.data().begin(), z.data().end()) == std::vector<double>{8, 1, 0, 1});
  CHECK(find_code(load_errors(model("LEFT", onnx::TensorProto::INT32), tmp / "signed.onnx"),
                  "onnx.type-unsupported") != nullptr);
}

namespace {

// BitShift of two uint64 initializers X and S of 6 elements each.
OnnxModel uint64_shift(const std::string& direction, const std::vector<uint64_t>& x, const std::vector<uint64_t>& s) {
  OnnxModel m(11);
  for (const auto& [name, v] : {std::pair{"X", x}, std::pair{"S", s}}) {
    onnx::TensorProto* t = m.graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::UINT64);
    t->add_dims(static_cast<int64_t>(v.size()));
    for (uint64_t e : v) t->add_uint64_data(e);
  }
  set_string(m.node("BitShift", {"X", "S"}, {"Y"}, "shift"), "direction", direction);
  m.output("Y");
  return m;
}

}  // namespace

TEST_CASE("onnx typed ops: BitShift of uint64, wrapping modulo 2^64, a result nnref does not hold refused by name") {
  TempDir tmp("onnx_bit_shift_uint64");
  const uint64_t p62 = uint64_t{1} << 62, p63_less = (uint64_t{1} << 63) - 1;
  const auto shifted = [&](const OnnxModel& m) {
    const auto y = run_f64(load_onnx(m, tmp / "m.onnx"), {})[0];
    return std::vector<double>(y.data().begin(), y.data().end());
  };
  // 16 << 1, 4 << 2; (2^62 + 3) << 2 = 2^64 + 12 ≡ 12; 3·2^61 << 3 = 3·2^64 ≡ 0; a shift by 64 or
  // more is 0 (NumPy's uint64 <<, ONNX Runtime 1.30).
  CHECK(shifted(uint64_shift("LEFT", {16, 4, p62 + 3, 3 * (p62 / 2), 5, 1}, {1, 2, 2, 3, 64, 70})) ==
        std::vector<double>{32, 16, 12, 0, 0, 0});
  // 16 >> 1, 4 >> 2; (2^62 + 3) >> 62 = 1; (2^63 − 1) >> 62 = 1; 5 >> 64 = 0; 1 >> 0 = 1.
  CHECK(shifted(uint64_shift("RIGHT", {16, 4, p62 + 3, p63_less, 5, 1}, {1, 2, 62, 62, 64, 0})) ==
        std::vector<double>{8, 1, 1, 1, 0, 1});
  // 2^62 << 1 = 2^63 and 1 << 63: beyond int64, which holds nnref's integers; refused at the node.
  for (uint64_t x : {p62, uint64_t{1}}) {
    const auto ds = load_errors(uint64_shift("LEFT", {1, 1, 1, 1, 1, x}, {0, 0, 0, 0, 0, x == 1 ? 63u : 1u}),
                                tmp / "over.onnx");
    const Diagnostic* d = find_code(ds, "onnx.integer-range");
    REQUIRE(d != nullptr);
    CHECK(d->loc.line == 1);
    CHECK(d->message.find("BitShift node 'shift'") != std::string::npos);
    CHECK(d->message.find("is 9223372036854775808 (modulo 2^64)") != std::string::npos);
  }
  // A uint64 of 2^63 or more is refused where it is read: an initializer (onnx.tensor-integer-range,
  // onnx_test_errors), and a graph input bound at load beyond 2^53, which its .npy double need not keep.
  OnnxModel bound(11);
  bound.input("X", {"3"}, onnx::TensorProto::UINT64);
  bound.input("S", {"3"}, onnx::TensorProto::UINT64);
  set_string(bound.node("BitShift", {"X", "S"}, {"Y"}), "direction", "LEFT");
  bound.output("Y");
  bound.write(tmp / "bound.onnx");
  const auto u64 = [](std::vector<double> v) { return HostTensor{DType::U64, Shape::make({3}).value(), std::move(v)}; };
  LoadOptions o;
  o.bound_inputs = {{"X", u64({16, 4, 1})}, {"S", u64({1, 2, 3})}};
  const LoadResult r = load_model((tmp / "bound.onnx").string(), o);
  REQUIRE(r.model);
  const auto y = run_f64(*r.model, {})[0];
  CHECK(std::vector<double>(y.data().begin(), y.data().end()) == std::vector<double>{32, 16, 8});
  o.bound_inputs.at("X") = u64({0x1p63, 4, 1});
  CHECK(find_code(load_model((tmp / "bound.onnx").string(), o).diagnostics, "onnx.input-bound-mismatch") != nullptr);
}

TEST_CASE("onnx typed ops: uint64 arithmetic whose result wraps to 2^63 or more is refused by name") {
  TempDir tmp("onnx_uint64_range");
  const auto model = [](const std::string& op, uint64_t a, uint64_t b) {
    OnnxModel m(13);
    for (const auto& [name, v] : {std::pair{"A", a}, std::pair{"B", b}}) {
      onnx::TensorProto* t = m.graph().add_initializer();
      t->set_name(name);
      t->set_data_type(onnx::TensorProto::UINT64);
      t->add_uint64_data(v);
    }
    m.node(op, {"A", "B"}, {"Y"});
    m.output("Y");
    return m;
  };
  // 2^40 + 3 and 5 − 3 are held; 2^62 + 2^62 = 2^63 and 3 − 5 ≡ 2^64 − 2 are not (as an int64,
  // −2^63 and −2: wrong values, which a later Div would pass on).
  const uint64_t p62 = uint64_t{1} << 62;
  CHECK(run_f64(load_onnx(model("Add", uint64_t{1} << 40, 3), tmp / "m.onnx"), {})[0].data()[0] == 0x1p40 + 3);
  CHECK(run_f64(load_onnx(model("Sub", 5, 3), tmp / "m.onnx"), {})[0].data()[0] == 2);
  CHECK(find_code(load_errors(model("Add", p62, p62), tmp / "m.onnx"), "onnx.integer-range") != nullptr);
  CHECK(find_code(load_errors(model("Sub", 3, 5), tmp / "m.onnx"), "onnx.integer-range") != nullptr);
}
