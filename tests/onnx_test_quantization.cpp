// The quantization ops (formats/onnx/ops/quantization.cpp): QuantizeLinear, DequantizeLinear,
// DynamicQuantizeLinear, MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv. Expected values
// are worked out by hand from ONNX's formulas in the comments, or (the convolutions) by a direct
// float64 NumPy loop over the definition y[n, m, o] = Σ_c,k xpad[n, c, o·s + k·d]·w[m, c, k]; a
// tie x / scale = k + ½ is judged by conform for either rounding; each refusal is named.
#include <catch2/catch.hpp>

#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

constexpr int32_t kU8 = onnx::TensorProto::UINT8;
constexpr int32_t kI8 = onnx::TensorProto::INT8;
constexpr int32_t kI32 = onnx::TensorProto::INT32;
constexpr int32_t kF32 = onnx::TensorProto::FLOAT;

DType dtype_of(int32_t t) {
  switch (t) {
    case kU8:
      return DType::U8;
    case kI8:
      return DType::I8;
    case kI32:
      return DType::I32;
    default:
      return DType::F64;
  }
}

// A graph input of the given ONNX type and its value, fed in that order.
struct Feed {
  std::string name;
  std::vector<int64_t> dims;
  int32_t type;
  std::vector<double> values;
};

std::vector<std::string> dims_text(const std::vector<int64_t>& dims) {
  std::vector<std::string> out;
  for (int64_t d : dims) out.push_back(std::to_string(d));
  return out;
}

// One node of `op` over the feeds, its outputs run in f64 (each as a flat vector).
std::vector<std::vector<double>> run_node(const TempDir& tmp, const std::string& op, const std::vector<Feed>& feeds,
                                          size_t outputs = 1, int64_t opset = 13,
                                          void (*attrs)(onnx::NodeProto&) = nullptr) {
  OnnxModel m(opset);
  std::vector<std::string> in, out;
  std::vector<HostTensor> values;
  for (const Feed& f : feeds) {
    in.push_back(f.name);
    if (f.name.empty()) continue;
    m.input(f.name, dims_text(f.dims), f.type);
    values.push_back(HostTensor{dtype_of(f.type), Shape::make(f.dims).value(), f.values});
  }
  for (size_t k = 0; k < outputs; ++k) out.push_back("y" + std::to_string(k));
  onnx::NodeProto& n = m.node(op, in, out, "q");
  if (attrs) attrs(n);
  for (const auto& o : out) m.output(o);
  std::vector<std::vector<double>> got;
  for (const auto& t : run_f64(load_onnx(m, tmp / (op + ".onnx")), values))
    got.emplace_back(t.data().begin(), t.data().end());
  return got;
}

std::vector<Diagnostic> node_errors(const TempDir& tmp, const std::string& op, const std::vector<Feed>& feeds,
                                    int64_t opset = 13, void (*attrs)(onnx::NodeProto&) = nullptr) {
  OnnxModel m(opset);
  std::vector<std::string> in;
  for (const Feed& f : feeds) {
    in.push_back(f.name);
    if (!f.name.empty()) m.input(f.name, dims_text(f.dims), f.type);
  }
  onnx::NodeProto& n = m.node(op, in, {"y"}, "q");
  if (attrs) attrs(n);
  m.output("y");
  return load_errors(m, tmp / (op + "-error.onnx"));
}

}  // namespace

TEST_CASE("onnx quantization: QuantizeLinear rounds halves to even, adds the zero point and saturates") {
  TempDir tmp("onnx_quantize");
  // uint8, scale 2, zero point 128: x/2 = 0, 0.5 → 0, 1.5 → 2, 2.5 → 2, −1.5 → −2, 300, −300;
  // + 128 and saturated to [0, 255].
  const auto y =
      run_node(tmp, "QuantizeLinear",
               {{"x", {7}, kF32, {0, 1, 3, 5, -3, 600, -600}}, {"s", {}, kF32, {2}}, {"zp", {}, kU8, {128}}});
  CHECK(y[0] == std::vector<double>{128, 128, 130, 130, 126, 255, 0});
  // int8 along axis 1, scales [1, 2, 4], zero points [0, −1, 10]: column 0: −3, 7; column 1:
  // 4/2 − 1 = 1, −9/2 = −4.5 → −4, − 1 = −5; column 2: 10/4 = 2.5 → 2, + 10 = 12; 1000/4 + 10 = 260 → 127.
  const auto z = run_node(
      tmp, "QuantizeLinear",
      {{"x", {2, 3}, kF32, {-3, 4, 10, 7, -9, 1000}}, {"s", {3}, kF32, {1, 2, 4}}, {"zp", {3}, kI8, {0, -1, 10}}});
  CHECK(z[0] == std::vector<double>{-3, 1, 12, 7, -5, 127});
  // No zero point: uint8, 0; x/0.5 = 1.2 → 1, −4 → 0 (saturated).
  CHECK(run_node(tmp, "QuantizeLinear", {{"x", {2}, kF32, {0.6, -2}}, {"s", {}, kF32, {0.5}}})[0] ==
        std::vector<double>{1, 0});
}

TEST_CASE("onnx quantization: DequantizeLinear per tensor and per axis, and after QuantizeLinear") {
  TempDir tmp("onnx_dequantize");
  // (x − zp)·s along axis 1: (−3 − 0)·1, (1 + 1)·2, (12 − 10)·4, 7, (−5 + 1)·2, (127 − 10)·4.
  const auto y = run_node(
      tmp, "DequantizeLinear",
      {{"x", {2, 3}, kI8, {-3, 1, 12, 7, -5, 127}}, {"s", {3}, kF32, {1, 2, 4}}, {"zp", {3}, kI8, {0, -1, 10}}});
  CHECK(y[0] == std::vector<double>{-3, 4, 8, 7, -8, 468});
  // int32 without a zero point: x·s.
  CHECK(run_node(tmp, "DequantizeLinear", {{"x", {2}, kI32, {-100000, 7}}, {"s", {}, kF32, {0.5}}})[0] ==
        std::vector<double>{-50000, 3.5});
  // Quantize then dequantize (scale 0.5, zero point 10): 0.3/0.5 = 0.6 → 1, −1.26/0.5 = −2.52 → −3,
  // 2.5/0.5 = 5; back: (11 − 10)·0.5, (7 − 10)·0.5, (15 − 10)·0.5.
  OnnxModel m(13);
  m.input("x", {"3"});
  m.input("s", {}, kF32);
  m.input("zp", {}, kU8);
  m.node("QuantizeLinear", {"x", "s", "zp"}, {"q"}, "quantize");
  m.node("DequantizeLinear", {"q", "s", "zp"}, {"y"}, "dequantize");
  m.output("y");
  const auto out = run_f64(load_onnx(m, tmp / "qdq.onnx"),
                           {host({3}, {0.3, -1.26, 2.5}), host({}, {0.5}), HostTensor{DType::U8, Shape(), {10}}});
  CHECK(std::vector<double>(out[0].data().begin(), out[0].data().end()) == std::vector<double>{0.5, -1.5, 2.5});
}

TEST_CASE("onnx quantization: DynamicQuantizeLinear computes the scale, the zero point and y") {
  TempDir tmp("onnx_dynamic_quantize");
  // max(0, 51) − min(0, −204) = 255: scale 1, zero point round(204) = 204, y = x + 204.
  const auto y = run_node(tmp, "DynamicQuantizeLinear", {{"x", {3}, kF32, {0, 51, -204}}}, 3, 11);
  CHECK(y[0] == std::vector<double>{204, 255, 0});
  CHECK(y[1] == std::vector<double>{1});
  CHECK(y[2] == std::vector<double>{204});
  // All positive: min(0, 1) = 0, scale 2.55/255 = 0.01, zero point 0; 1/0.01 = 100, 2.55/0.01 = 255.
  const auto z = run_node(tmp, "DynamicQuantizeLinear", {{"x", {2}, kF32, {1, 2.55}}}, 3, 11);
  CHECK(z[0] == std::vector<double>{100, 255});
  CHECK(z[1][0] == Approx(0.01).epsilon(1e-12));
  CHECK(z[2] == std::vector<double>{0});
}

TEST_CASE("onnx quantization: MatMulInteger sums exact integer products with per-row and per-column zero points") {
  TempDir tmp("onnx_matmul_integer");
  // A − [1, −1] per row = [[0, −3, 2], [5, 6, −5]]; B − [10, 7] per column = [[0, −7], [10, 248], [20, 0]];
  // row 0: −30 + 40 = 10, 744·(−1) = −744; row 1: 60 − 100 = −40, −35 + 1488 = 1453.
  const auto y = run_node(tmp, "MatMulInteger",
                          {{"a", {2, 3}, kI8, {1, -2, 3, 4, 5, -6}},
                           {"b", {3, 2}, kU8, {10, 0, 20, 255, 30, 7}},
                           {"azp", {2}, kI8, {1, -1}},
                           {"bzp", {2}, kU8, {10, 7}}},
                          1, 10);
  CHECK(y[0] == std::vector<double>{10, -744, -40, 1453});
  // Batch axes broadcast: [[1, 2]] and [[3, 4]] times [[1, 2], [3, 4]]: [7, 10], [15, 22].
  CHECK(run_node(tmp, "MatMulInteger", {{"a", {2, 1, 2}, kU8, {1, 2, 3, 4}}, {"b", {2, 2}, kU8, {1, 2, 3, 4}}}, 1,
                 10)[0] == std::vector<double>{7, 10, 15, 22});
  // A 1-D a: [1, 2] times the same b: [7, 10].
  CHECK(run_node(tmp, "MatMulInteger", {{"a", {2}, kU8, {1, 2}}, {"b", {2, 2}, kU8, {1, 2, 3, 4}}}, 1, 10)[0] ==
        std::vector<double>{7, 10});
}

// ONNX Runtime accumulates in int32, wrapping: 33026 products 255·255 sum to 2147515650, which
// int32 holds as 2147515650 − 2^32 = −2147451646.
TEST_CASE("onnx quantization: MatMulInteger wraps its sum at 32 bits where it can pass them") {
  TempDir tmp("onnx_matmul_integer_wrap");
  const int64_t k = 33026;
  const std::vector<double> full(static_cast<size_t>(k), 255.0);
  const auto y = run_node(tmp, "MatMulInteger", {{"a", {1, k}, kU8, full}, {"b", {k, 1}, kU8, full}}, 1, 10);
  CHECK(y[0] == std::vector<double>{-2147451646.0});
}

// Over symbolic extents MatMulInteger reads the ranks only (run here at the default extents, 1):
// [[1, 2]]·[[1, 2], [3, 4]] = [[7, 10]]; with k symbolic, where the sum is taken to be able to pass
// int32 (wrapped, the same numbers here), [[1], [3]]·[[1, 2]] = [[1, 2], [3, 6]].
TEST_CASE("onnx quantization: MatMulInteger over symbolic extents") {
  TempDir tmp("onnx_matmul_integer_symbolic");
  const auto product = [&](const std::vector<std::string>& da, const std::vector<std::string>& db,
                           std::vector<HostTensor> in) {
    OnnxModel m(10);
    m.input("a", da, kU8);
    m.input("b", db, kU8);
    m.node("MatMulInteger", {"a", "b"}, {"y"}, "q");
    m.output("y");
    const auto out = run_f64(load_onnx(m, tmp / "m.onnx"), in);
    return std::vector<double>(out[0].data().begin(), out[0].data().end());
  };
  const auto u8 = [](std::vector<int64_t> dims, std::vector<double> v) {
    return HostTensor{DType::U8, Shape::make(dims).value(), std::move(v)};
  };
  CHECK(product({"n", "2"}, {"2", "2"}, {u8({1, 2}, {1, 2}), u8({2, 2}, {1, 2, 3, 4})}) == std::vector<double>{7, 10});
  CHECK(product({"2", "k"}, {"k", "2"}, {u8({2, 1}, {1, 3}), u8({1, 2}, {1, 2})}) == std::vector<double>{1, 2, 3, 6});
}

TEST_CASE("onnx quantization: ConvInteger with padding, strides, dilations and per-channel zero points") {
  TempDir tmp("onnx_conv_integer");
  // x = 0..15 as [1, 1, 4, 4], zero point 3; w [2, 1, 2, 2] = [1, 2, 3, 4], [0, 1, 0, 1], zero
  // points [1, 0]; pads (1, 1) before, none after; strides 2 (NumPy loop over the definition).
  std::vector<double> x(16);
  for (int i = 0; i < 16; ++i) x[static_cast<size_t>(i)] = i;
  const auto y = run_node(tmp, "ConvInteger",
                          {{"x", {1, 1, 4, 4}, kU8, x},
                           {"w", {2, 1, 2, 2}, kU8, {1, 2, 3, 4, 0, 1, 0, 1}},
                           {"xzp", {}, kU8, {3}},
                           {"wzp", {2}, kU8, {1, 0}}},
                          1, 10, [](onnx::NodeProto& n) {
                            set_ints(n, "pads", {1, 1, 0, 0});
                            set_ints(n, "strides", {2, 2});
                          });
  CHECK(y[0] == std::vector<double>{-9, -7, 16, 36, -3, -1, 6, 10});
  // Two channels of (i mod 7), int8 weights [1, −1, 2, 0], [3, 1, −2, 1], dilations 2.
  std::vector<double> x2(32);
  for (int i = 0; i < 32; ++i) x2[static_cast<size_t>(i)] = i % 7;
  const auto z =
      run_node(tmp, "ConvInteger", {{"x", {1, 2, 4, 4}, kI8, x2}, {"w", {1, 2, 2, 2}, kI8, {1, -1, 2, 0, 3, 1, -2, 1}}},
               1, 10, [](onnx::NodeProto& n) {
                 set_ints(n, "dilations", {2, 2});
               });
  CHECK(z[0] == std::vector<double>{9, 14, 29, 20});
}

// Groups: each output channel sums over its group's channels only (a NumPy loop over the
// definition, group by group). x = (i mod 5) as [1, 4, 3, 3]; group 2: w = (i mod 7) − 3 as
// [4, 2, 2, 2], zero points x 1, w [0, 1, −1, 2]; group 4 (depthwise): w = (i mod 5) − 2 as
// [4, 1, 2, 2], pads 1, strides 2.
TEST_CASE("onnx quantization: ConvInteger with groups") {
  TempDir tmp("onnx_conv_integer_groups");
  std::vector<double> x(36), w(32), w4(16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i % 5);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<double>(i % 7) - 3;
  for (size_t i = 0; i < w4.size(); ++i) w4[i] = static_cast<double>(i % 5) - 2;
  const auto y = run_node(tmp, "ConvInteger",
                          {{"x", {1, 4, 3, 3}, kI8, x},
                           {"w", {4, 2, 2, 2}, kI8, w},
                           {"xzp", {}, kI8, {1}},
                           {"wzp", {4}, kI8, {0, 1, -1, 2}}},
                          1, 10, [](onnx::NodeProto& n) { set_int(n, "group", 2); });
  CHECK(y[0] == std::vector<double>{-1, -9, -10, -3, -8, -23, -3, -3, 7, 9, -2, -5, -16, -27, -9, -15});
  const auto z = run_node(tmp, "ConvInteger", {{"x", {1, 4, 3, 3}, kI8, x}, {"w", {4, 1, 2, 2}, kI8, w4}}, 1, 10,
                          [](onnx::NodeProto& n) {
                            set_int(n, "group", 4);
                            set_ints(n, "pads", {1, 1, 1, 1});
                            set_ints(n, "strides", {2, 2});
                          });
  CHECK(z[0] == std::vector<double>{0, 2, -2, -5, 0, 0, -4, -3, -3, -8, -2, 7, -4, -2, -6, 10});
}

TEST_CASE("onnx quantization: QLinearMatMul and QLinearConv requantise with halves to even") {
  TempDir tmp("onnx_qlinear");
  // A − 10 = [[0, 10], [20, 30]], B − 10 = [[2, 4], [6, 0]]: Σ = [[60, 0], [220, 80]]; ·0.5·0.25/1 =
  // 7.5 → 8, 0, 27.5 → 28, 10; + 100.
  const auto y = run_node(tmp, "QLinearMatMul",
                          {{"a", {2, 2}, kU8, {10, 20, 30, 40}},
                           {"as", {}, kF32, {0.5}},
                           {"azp", {}, kU8, {10}},
                           {"b", {2, 2}, kU8, {12, 14, 16, 10}},
                           {"bs", {}, kF32, {0.25}},
                           {"bzp", {}, kU8, {10}},
                           {"ys", {}, kF32, {1}},
                           {"yzp", {}, kU8, {100}}},
                          1, 10);
  CHECK(y[0] == std::vector<double>{108, 100, 128, 110});
  // x − 2 over [1, 1, 3, 3] (2, 4, ..., 18), w − [1, 3] per output channel, bias [3, −4]: Σ + B =
  // [11, 15, 23, 27], [10, 16, 28, 34]; ·0.5·[0.25, 0.5]/0.5 = [2.75, 3.75, 5.75, 6.75], [5, 8, 14, 17];
  // rounded + 10 (NumPy loop over the definition).
  const auto z = run_node(tmp, "QLinearConv",
                          {{"x", {1, 1, 3, 3}, kU8, {2, 4, 6, 8, 10, 12, 14, 16, 18}},
                           {"xs", {}, kF32, {0.5}},
                           {"xzp", {}, kU8, {2}},
                           {"w", {2, 1, 2, 2}, kU8, {1, 2, 2, 1, 3, 4, 5, 3}},
                           {"ws", {2}, kF32, {0.25, 0.5}},
                           {"wzp", {2}, kU8, {1, 3}},
                           {"ys", {}, kF32, {0.5}},
                           {"yzp", {}, kU8, {10}},
                           {"bias", {2}, kI32, {3, -4}}},
                          1, 10);
  CHECK(z[0] == std::vector<double>{13, 14, 16, 17, 15, 18, 24, 27});
}

// x / 3 at x = 1.5 is ½: the exact quotient rounds to 0, and a runtime computing x·fl(1/3) in float32
// gets 0.50000001, which rounds to 1. Both are correct float32 answers; 2 is not.
TEST_CASE("onnx quantization: conform accepts either rounding of a quotient at a tie and nothing else") {
  TempDir tmp("onnx_quantize_conform");
  OnnxModel m(13);
  m.input("x", {"1"});
  m.init("s", {}, {3});
  m.node("QuantizeLinear", {"x", "s"}, {"y"}, "q");
  m.output("y");
  m.write(tmp / "q.onnx");
  const std::string in = (tmp / "x.npy").string();
  REQUIRE(write_npy(in, HostTensor{DType::F32, Shape::make({1}).value(), {1.5}}).ok());
  for (double answer : {0.0, 1.0, 2.0}) {
    INFO("answer " << answer);
    const std::string actual = (tmp / "y.npy").string();
    REQUIRE(write_npy(actual, HostTensor{DType::U8, Shape::make({1}).value(), {answer}}).ok());
    const Run r = nnref_cli({"conform", (tmp / "q.onnx").string(), "--input", in, "--actual", actual});
    INFO(r.out << r.err);
    CHECK(r.code == (answer < 2 ? 0 : 1));
  }
}

TEST_CASE("onnx quantization: refusals by name") {
  TempDir tmp("onnx_quantization_errors");
  const std::vector<Feed> quantize{{"x", {2}, kF32, {}}, {"s", {}, kF32, {}}, {"zp", {}, kU8, {}}};
  // A zero point of a type nnref does not quantize to (int16, opset 21's; float8 types, opset 19's,
  // are refused as the graph input's type, the onnx library here not knowing them).
  const auto int16 = node_errors(tmp, "QuantizeLinear",
                                 {{"x", {2}, kF32, {}}, {"s", {}, kF32, {}}, {"zp", {}, onnx::TensorProto::INT16, {}}});
  REQUIRE(find_code(int16, "onnx.type-unsupported"));
  CHECK(find_code(int16, "onnx.type-unsupported")->message.find("INT16") != std::string::npos);
  // Blocked quantization (opset 21's block_size).
  CHECK(find_code(
      node_errors(tmp, "QuantizeLinear", quantize, 21, [](onnx::NodeProto& n) { set_int(n, "block_size", 2); }),
      "onnx.attribute-unsupported"));
  // A per-axis scale along an axis x does not have.
  CHECK(find_code(
      node_errors(tmp, "DequantizeLinear", {{"x", {2, 3}, kU8, {}}, {"s", {3}, kF32, {}}, {"zp", {3}, kU8, {}}}, 13,
                  [](onnx::NodeProto& n) { set_int(n, "axis", 2); }),
      "onnx.attribute-value"));
  // A float operand of an integer product.
  CHECK(find_code(node_errors(tmp, "MatMulInteger", {{"a", {2, 2}, kF32, {}}, {"b", {2, 2}, kU8, {}}}, 10),
                  "onnx.type-unsupported"));
  // A product past the composition's bound (2^13 · 2^7 · 2^7 = 2^27 multiply-adds), and a
  // ConvInteger over symbolic extents (its windows are read at load).
  CHECK(find_code(node_errors(tmp, "MatMulInteger", {{"a", {8192, 128}, kU8, {}}, {"b", {128, 128}, kU8, {}}}, 10),
                  "onnx.shape-unsupported"));
  {
    OnnxModel m(10);
    m.input("x", {"n", "1", "3", "3"}, kU8);
    m.input("w", {"1", "1", "2", "2"}, kU8);
    m.node("ConvInteger", {"x", "w"}, {"y"}, "q");
    m.output("y");
    CHECK(find_code(load_errors(m, tmp / "symbolic.onnx"), "onnx.shape-unsupported"));
  }
  // A group that does not divide the channels.
  CHECK(find_code(node_errors(tmp, "ConvInteger", {{"x", {1, 2, 3, 3}, kU8, {}}, {"w", {3, 1, 2, 2}, kU8, {}}}, 10,
                              [](onnx::NodeProto& n) { set_int(n, "group", 3); }),
                  "onnx.input-shape"));
}
