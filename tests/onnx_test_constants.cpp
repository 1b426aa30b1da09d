// Constants computed from constants (formats/onnx/fold.cpp): PyTorch's shape arithmetic, integer
// arithmetic with ONNX's rounding and wrap-around, Identity of a weight, Slice's INT64_MAX end,
// Shape and Size; and the ops PyTorch's exports add (HardSwish). Values are computed by hand.
#include <cmath>
#include <limits>

#include "onnx_test_support.hpp"
#include "semantics/size_names.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

// The integer result of `op` over two int64 constants, read as the graph's output (a real).
std::vector<double> integer_op(const std::string& op, const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                               const std::filesystem::path& path, int64_t fmod = -1) {
  OnnxModel m;
  ints_of(m, "A", {static_cast<int64_t>(a.size())}, a);
  ints_of(m, "B", {static_cast<int64_t>(b.size())}, b);
  onnx::NodeProto& n = m.node(op, {"A", "B"}, {"Y"});
  if (fmod >= 0) set_int(n, "fmod", fmod);
  m.output("Y");
  return values(run_f64(load_onnx(m, path), {})[0]);
}

}  // namespace

TEST_CASE("onnx constants: x.view(x.size(0), -1) as torch.onnx writes it reads at fixed extents") {
  TempDir tmp("onnx_const_view");
  // X [2, 3, 2] → Shape → Gather 0 → Unsqueeze → Concat with [-1] → Reshape: [2, 6].
  OnnxModel m;
  m.input("X", {"2", "3", "2"});
  m.node("Shape", {"X"}, {"s"});
  ints_of(m, "zero", {}, {0});
  m.node("Gather", {"s", "zero"}, {"n"});
  ints_of(m, "axes", {1}, {0});
  m.node("Unsqueeze", {"n", "axes"}, {"n1"});
  ints_of(m, "minus_one", {1}, {-1});
  set_int(m.node("Concat", {"n1", "minus_one"}, {"shape"}), "axis", 0);
  m.node("Reshape", {"X", "shape"}, {"Y"});
  m.output("Y");
  const Model model = load_onnx(m, tmp / "m.onnx");
  std::vector<double> x(12);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i);
  const Tensor<double> y = run_f64(model, {host({2, 3, 2}, x)})[0];
  CHECK(y.shape().dims() == std::vector<int64_t>{2, 6});
  CHECK(values(y) == x);
  // The shape arithmetic is folded: the graph holds the input, the reshape and no const node.
  CHECK(model.graph.nodes.size() == 2);
}

TEST_CASE("onnx constants: integer arithmetic truncates, Mod takes the divisor's sign, sums wrap") {
  TempDir tmp("onnx_const_int");
  CHECK(integer_op("Div", {7, -7, 7, -7}, {2, 2, -2, -2}, tmp / "m.onnx") == std::vector<double>{3, -3, -3, 3});
  CHECK(integer_op("Mod", {7, -7, 7, -7}, {3, 3, -3, -3}, tmp / "m.onnx") == std::vector<double>{1, 2, -2, -1});
  CHECK(integer_op("Mod", {7, -7, 7, -7}, {3, 3, -3, -3}, tmp / "m.onnx", 1) == std::vector<double>{1, -1, 1, -1});
  CHECK(integer_op("Mul", {6, -4}, {7, 5}, tmp / "m.onnx") == std::vector<double>{42, -20});
  // NumPy broadcasting: [3] - [1].
  CHECK(integer_op("Sub", {10, 20, 30}, {1}, tmp / "m.onnx") == std::vector<double>{9, 19, 29});
  // INT64_MAX + 1 wraps to INT64_MIN, and INT64_MIN - INT64_MIN + 5 is 5 again.
  OnnxModel wrap;
  ints_of(wrap, "max", {1}, {std::numeric_limits<int64_t>::max()});
  ints_of(wrap, "one", {1}, {1});
  ints_of(wrap, "five", {1}, {5});
  wrap.node("Add", {"max", "one"}, {"min"});
  wrap.node("Sub", {"min", "min"}, {"zero"});
  wrap.node("Sub", {"five", "zero"}, {"f"});
  wrap.node("Add", {"min", "f"}, {"g"});
  wrap.node("Sub", {"g", "min"}, {"Y"});
  wrap.output("Y");
  CHECK(values(run_f64(load_onnx(wrap, tmp / "w.onnx"), {})[0]) == std::vector<double>{5});
  // Neg and Abs of an integer constant.
  OnnxModel neg;
  ints_of(neg, "A", {2}, {-3, 4});
  neg.node("Neg", {"A"}, {"n"});
  neg.node("Abs", {"n"}, {"Y"});
  neg.output("Y");
  CHECK(values(run_f64(load_onnx(neg, tmp / "n.onnx"), {})[0]) == std::vector<double>{3, 4});
}

TEST_CASE("onnx constants: what nnref cannot compute from constants is refused by name") {
  TempDir tmp("onnx_const_errors");
  OnnxModel zero;
  ints_of(zero, "A", {1}, {7});
  ints_of(zero, "B", {1}, {0});
  zero.node("Div", {"A", "B"}, {"Y"}, "d");
  zero.output("Y");
  auto ds = load_errors(zero, tmp / "m.onnx");
  REQUIRE(find_code(ds, "onnx.integer-division-by-zero") != nullptr);
}

// Run-time arithmetic on a type narrower than int64 wraps at its width, as ONNX Runtime's does:
// uint8 200 + 100 = 300 − 256 = 44 and 3 − 5 = −2 + 256 = 254; int32 (2^31 − 1) + 1 = −2^31;
// int8 −128 · −1 = 128 − 256 = −128, and Neg of −128 is −128 too.
TEST_CASE("onnx integer arithmetic on a narrower type wraps at its width") {
  TempDir tmp("onnx_int_narrow");
  const auto run_op = [&](const std::string& op, int32_t type, DType dtype, std::vector<double> i, std::vector<double> j) {
    OnnxModel m;
    const std::string n = std::to_string(i.size());
    m.input("I", {n}, type);
    m.input("J", {n}, type);
    m.node(op, {"I", "J"}, {"Y"}, "n");
    m.output("Y");
    const Shape s = Shape::make({static_cast<int64_t>(i.size())}).value();
    return values(run_f64(load_onnx(m, tmp / "m.onnx"), {HostTensor{dtype, s, std::move(i)}, HostTensor{dtype, s, std::move(j)}})[0]);
  };
  CHECK(run_op("Add", onnx::TensorProto::UINT8, DType::U8, {200, 1}, {100, 2}) == std::vector<double>{44, 3});
  CHECK(run_op("Sub", onnx::TensorProto::UINT8, DType::U8, {3}, {5}) == std::vector<double>{254});
  CHECK(run_op("Add", onnx::TensorProto::INT32, DType::I32, {2147483647}, {1}) == std::vector<double>{-2147483648.0});
  CHECK(run_op("Mul", onnx::TensorProto::INT8, DType::I8, {-128}, {-1}) == std::vector<double>{-128});
  OnnxModel neg;
  neg.input("I", {"1"}, onnx::TensorProto::INT8);
  neg.node("Neg", {"I"}, {"Y"});
  neg.output("Y");
  CHECK(values(run_f64(load_onnx(neg, tmp / "n.onnx"), {HostTensor{DType::I8, Shape::make({1}).value(), {-128}}})[0]) ==
        std::vector<double>{-128});
}

// Integer arithmetic on values the graph computes (int64 graph inputs, the second broadcast): the
// IR op integer_binary at run time. Values computed by hand in the comments.
TEST_CASE("onnx integer arithmetic on graph inputs runs as integer_binary") {
  TempDir tmp("onnx_int_runtime");
  const auto run_op = [&](const std::string& op, std::vector<double> i, std::vector<double> b, int64_t fmod = -1) {
    OnnxModel m;
    m.input("I", {std::to_string(i.size())}, onnx::TensorProto::INT64);
    m.input("B", {std::to_string(b.size())}, onnx::TensorProto::INT64);
    auto& n = m.node(op, {"I", "B"}, {"Y"}, "n");
    if (fmod >= 0) set_int(n, "fmod", fmod);
    m.output("Y");
    const Model model = load_onnx(m, tmp / "m.onnx");
    const auto ni = static_cast<int64_t>(i.size()), nb = static_cast<int64_t>(b.size());
    return values(run_f64(model, {HostTensor{DType::I64, Shape::make({ni}).value(), std::move(i)},
                                  HostTensor{DType::I64, Shape::make({nb}).value(), std::move(b)}})[0]);
  };
  // 7 / 2 = 3, −7 / 2 = −3 (truncated toward zero, not −4), 9 / 2 = 4.
  CHECK(run_op("Div", {7, -7, 9}, {2}) == std::vector<double>{3, -3, 4});
  // Mod fmod 0: 7 mod −3 = −2, −7 mod −3 = −1; fmod 1: 1, −1.
  CHECK(run_op("Mod", {7, -7}, {-3}) == std::vector<double>{-2, -1});
  CHECK(run_op("Mod", {7, -7}, {-3}, 1) == std::vector<double>{1, -1});
  CHECK(run_op("Sub", {7, -7}, {10}) == std::vector<double>{-3, -17});  // 7 − 10, −7 − 10
  // A zero divisor gives no value: NaN once read as a real (the graph output's cast).
  const auto z = run_op("Div", {7}, {0});
  REQUIRE(z.size() == 1);
  CHECK(std::isnan(z[0]));
  // Neg, Abs, and Max of three integer tensors, of a graph input: −[3, −4] = [−3, 4];
  // |[3, −4]| = [3, 4]; max([3, −4], [−3, 4], [3, 4]) = [3, 4].
  OnnxModel sign;
  sign.input("I", {"2"}, onnx::TensorProto::INT64);
  sign.node("Neg", {"I"}, {"n"});
  sign.node("Abs", {"I"}, {"a"});
  sign.node("Max", {"I", "n", "a"}, {"Y"});
  sign.output("n");
  sign.output("a");
  sign.output("Y");
  const auto y = run_f64(load_onnx(sign, tmp / "s.onnx"), {HostTensor{DType::I64, Shape::make({2}).value(), {3, -4}}});
  CHECK(values(y[0]) == std::vector<double>{-3, 4});
  CHECK(values(y[1]) == std::vector<double>{3, 4});
  CHECK(values(y[2]) == std::vector<double>{3, 4});
}

TEST_CASE("onnx constants: Shape and Size of a constant hold at symbolic extents, Size at fixed ones") {
  TempDir tmp("onnx_const_size");
  OnnxModel m;
  m.input("X", {"N", "3"});
  m.init("W", {2, 5}, std::vector<float>(10, 1.0f));
  m.node("Shape", {"W"}, {"s"});
  m.node("Size", {"W"}, {"n"});
  ints_of(m, "axes", {1}, {0});
  m.node("Unsqueeze", {"n", "axes"}, {"n1"});
  set_int(m.node("Concat", {"s", "n1"}, {"Y"}), "axis", 0);
  m.output("Y");
  CHECK(values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({1, 3}, {0, 0, 0})})[0]) == std::vector<double>{2, 5, 10});
  OnnxModel fixed;
  fixed.input("X", {"4", "3"});
  fixed.node("Size", {"X"}, {"Y"});
  fixed.output("Y");
  CHECK(values(run_f64(load_onnx(fixed, tmp / "f.onnx"), {host({4, 3}, std::vector<double>(12, 0))})[0]) ==
        std::vector<double>{12});
}

TEST_CASE("onnx constants: Identity of a weight is the weight, and Slice to INT64_MAX is to the end") {
  TempDir tmp("onnx_const_identity");
  // Conv 1x1 with its bias through Identity (PyTorch shares equal initializers that way).
  OnnxModel m;
  m.input("X", {"1", "1", "2"});
  m.init("W", {1, 1, 1}, {2});
  m.init("b", {1}, {0.5f});
  m.node("Identity", {"b"}, {"b2"});
  m.node("Conv", {"X", "W", "b2"}, {"Y"});
  m.output("Y");
  CHECK(values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({1, 1, 2}, {1, 3})})[0]) == std::vector<double>{2.5, 6.5});
  // x[:, 1:] as torch exports it: starts [1], ends [INT64_MAX], axes [1].
  OnnxModel s;
  s.input("X", {"2", "3"});
  ints_of(s, "starts", {1}, {1});
  ints_of(s, "ends", {1}, {std::numeric_limits<int64_t>::max()});
  ints_of(s, "axes", {1}, {1});
  s.node("Slice", {"X", "starts", "ends", "axes"}, {"Y"});
  s.output("Y");
  CHECK(values(run_f64(load_onnx(s, tmp / "s.onnx"), {host({2, 3}, {1, 2, 3, 4, 5, 6})})[0]) ==
        std::vector<double>{2, 3, 5, 6});
}

TEST_CASE("onnx constants: a pool's rank is known where the default extents break it") {
  TempDir tmp("onnx_const_rank");
  // At the default extent 1 of H and W the 2x2 MaxPool has no valid shape; GlobalAveragePool
  // needs only its rank. At H = W = 4 the model runs: the mean of the window maxima.
  OnnxModel m;
  m.input("X", {"1", "1", "H", "W"});
  onnx::NodeProto& pool = m.node("MaxPool", {"X"}, {"p"});
  set_ints(pool, "kernel_shape", {2, 2});
  set_ints(pool, "strides", {2, 2});
  m.node("GlobalAveragePool", {"p"}, {"Y"});
  m.output("Y");
  Model model = load_onnx(m, tmp / "m.onnx");
  REQUIRE(set_input_extents(model.graph, model.size_names, {{"H", 4}, {"W", 4}}));
  std::vector<double> x(16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i);
  // Window maxima 5, 7, 13, 15: mean 10.
  CHECK(values(run_f64(model, {host({1, 1, 4, 4}, x)})[0]) == std::vector<double>{10});
}

TEST_CASE("onnx constants: HardSwish is x times HardSigmoid with alpha 1/6 (float32) and beta 1/2") {
  TempDir tmp("onnx_hardswish");
  OnnxModel m(14);
  m.input("X", {"4"});
  m.node("HardSwish", {"X"}, {"Y"});
  m.output("Y");
  const double a = static_cast<double>(1.0f / 6.0f);
  const auto y = values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({4}, {-4, -1, 1, 4})})[0]);
  CHECK(y == std::vector<double>{0, -1 * (-a + 0.5), 1 * (a + 0.5), 4});
}

TEST_CASE("onnx opsets 18 to 21: Reduce's axes input, Split's num_outputs, Pad's axes, Cast's saturate") {
  TempDir tmp("onnx_opset18");
  OnnxModel r(18);
  r.input("X", {"2", "2"});
  ints_of(r, "axes", {1}, {1});
  set_int(r.node("ReduceMax", {"X", "axes"}, {"Y"}), "keepdims", 0);
  r.output("Y");
  CHECK(values(run_f64(load_onnx(r, tmp / "r.onnx"), {host({2, 2}, {1, 5, 7, 3})})[0]) == std::vector<double>{5, 7});
  // num_outputs 2 of an extent 5: parts of ⌈5/2⌉ = 3 and 2.
  OnnxModel sp(18);
  sp.input("X", {"5"});
  onnx::NodeProto& n = sp.node("Split", {"X"}, {"A", "B"});
  set_int(n, "num_outputs", 2);
  sp.output("B");
  CHECK(values(run_f64(load_onnx(sp, tmp / "s.onnx"), {host({5}, {1, 2, 3, 4, 5})})[0]) == std::vector<double>{4, 5});
  // Pad of axis -1 only, by (1, 2).
  OnnxModel p(19);
  p.input("X", {"1", "2"});
  ints_of(p, "pads", {2}, {1, 2});
  ints_of(p, "axes", {1}, {-1});
  p.node("Pad", {"X", "pads", "", "axes"}, {"Y"});
  p.output("Y");
  CHECK(values(run_f64(load_onnx(p, tmp / "p.onnx"), {host({1, 2}, {7, 8})})[0]) ==
        std::vector<double>{0, 7, 8, 0, 0});
  OnnxModel c(21);
  c.input("X", {"2"});
  onnx::NodeProto& cast = c.node("Cast", {"X"}, {"Y"});
  set_int(cast, "to", onnx::TensorProto::INT32);
  set_int(cast, "saturate", 1);
  c.output("Y");
  CHECK(values(run_f64(load_onnx(c, tmp / "c.onnx"), {host({2}, {-2.5, 2.5})})[0]) == std::vector<double>{-2, 2});
  OnnxModel wrap(19);
  wrap.input("X", {"2"});
  ints_of(wrap, "pads", {2}, {1, 1});
  set_string(wrap.node("Pad", {"X", "pads"}, {"Y"}), "mode", "wrap");
  wrap.output("Y");
  CHECK(find_code(load_errors(wrap, tmp / "w.onnx"), "onnx.attribute-unsupported") != nullptr);
  OnnxModel newer(22);
  newer.input("X", {"2"});
  newer.node("Relu", {"X"}, {"Y"});
  newer.output("Y");
  const auto ds = load_errors(newer, tmp / "n.onnx");
  REQUIRE(find_code(ds, "onnx.opset-unsupported") != nullptr);
  CHECK(find_code(ds, "onnx.opset-unsupported")->message.find("opsets 1 to 21") != std::string::npos);
}
