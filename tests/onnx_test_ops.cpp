// The ONNX ops nnref reads as compositions of IR ops, against values computed by hand: each
// composition must be exactly the ONNX formula (docs/onnx.md). The other ops are checked against
// the ONNX backend node tests' expected outputs (scripts/onnx_node_tests.py).
#include <cmath>

#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

std::vector<double> iota(size_t n) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i);
  return v;
}

}  // namespace

TEST_CASE("onnx ops: Flatten at any axis keeps the row-major order") {
  TempDir tmp("onnx_flatten");
  for (auto [axis, rows, cols] : {std::tuple{0, 1, 24}, {1, 2, 12}, {2, 6, 4}, {3, 12, 2}, {4, 24, 1}, {-1, 12, 2}}) {
    OnnxModel m;
    m.input("X", {"2", "3", "2", "2"});
    set_int(m.node("Flatten", {"X"}, {"Y"}), "axis", axis);
    m.output("Y");
    auto y = run_f64(load_onnx(m, tmp / "m.onnx"), {host({2, 3, 2, 2}, iota(24))});
    INFO("axis " << axis);
    CHECK(y[0].shape().dims() == std::vector<int64_t>{rows, cols});
    CHECK(values(y[0]) == iota(24));
  }
}

TEST_CASE("onnx ops: Clip is numpy.clip, also with min above max and with one bound") {
  TempDir tmp("onnx_clip");
  auto clip = [&](std::vector<std::string> inputs, const std::vector<std::pair<std::string, float>>& bounds) {
    OnnxModel m;
    m.input("X", {"4"});
    for (const auto& [name, v] : bounds) m.init(name, {}, {v});
    m.node("Clip", inputs, {"Y"});
    m.output("Y");
    return values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({4}, {-3, 0.5, 1.5, 4})})[0]);
  };
  CHECK(clip({"X", "lo", "hi"}, {{"lo", 0}, {"hi", 1}}) == std::vector<double>{0, 0.5, 1, 1});
  CHECK(clip({"X", "lo", "hi"}, {{"lo", 2}, {"hi", 1}}) == std::vector<double>{1, 1, 1, 1});  // min(max(x, 2), 1)
  CHECK(clip({"X", "", "hi"}, {{"hi", 1}}) == std::vector<double>{-3, 0.5, 1, 1});
  CHECK(clip({"X", "lo"}, {{"lo", 0}}) == std::vector<double>{0, 0.5, 1.5, 4});
  CHECK(clip({"X"}, {}) == std::vector<double>{-3, 0.5, 1.5, 4});
  // Opset 6: the bounds are attributes.
  OnnxModel old(6);
  old.input("X", {"4"});
  auto& n = old.node("Clip", {"X"}, {"Y"});
  set_float(n, "min", -1);
  set_float(n, "max", 2);
  old.output("Y");
  CHECK(values(run_f64(load_onnx(old, tmp / "old.onnx"), {host({4}, {-3, 0.5, 1.5, 4})})[0]) ==
        std::vector<double>{-1, 0.5, 1.5, 2});
}

TEST_CASE("onnx ops: Sum, Mean, Max and Min of several inputs broadcast as NumPy does") {
  TempDir tmp("onnx_variadic");
  auto run = [&](const std::string& op) {
    OnnxModel m;
    m.input("A", {"2", "2"});
    m.input("B", {"2"});
    m.input("C", {"1"});
    m.node(op, {"A", "B", "C"}, {"Y"});
    m.output("Y");
    return values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({2, 2}, {1, 5, -2, 4}), host({2}, {3, 0}), host({1}, {2})})[0]);
  };
  CHECK(run("Sum") == std::vector<double>{6, 7, 3, 6});
  CHECK(run("Mean") == std::vector<double>{2, 7.0 / 3, 1, 2});
  CHECK(run("Max") == std::vector<double>{3, 5, 3, 4});
  CHECK(run("Min") == std::vector<double>{1, 0, -2, 0});
}

TEST_CASE("onnx ops: MatMul with 1-D operands and broadcast batch axes") {
  TempDir tmp("onnx_matmul");
  auto run = [&](const std::vector<std::string>& a, const std::vector<std::string>& b, const HostTensor& x,
                 const HostTensor& w) {
    OnnxModel m;
    m.input("A", a);
    m.input("B", b);
    m.node("MatMul", {"A", "B"}, {"Y"});
    m.output("Y");
    return run_f64(load_onnx(m, tmp / "m.onnx"), {x, w})[0];
  };
  // [1 2]·[[1 2 3], [4 5 6]] = [9 12 15]
  auto v = run({"2"}, {"2", "3"}, host({2}, {1, 2}), host({2, 3}, {1, 2, 3, 4, 5, 6}));
  CHECK(v.shape().dims() == std::vector<int64_t>{3});
  CHECK(values(v) == std::vector<double>{9, 12, 15});
  auto col = run({"2", "3"}, {"3"}, host({2, 3}, {1, 2, 3, 4, 5, 6}), host({3}, {1, 0, -1}));
  CHECK(col.shape().dims() == std::vector<int64_t>{2});
  CHECK(values(col) == std::vector<double>{-2, -2});
  auto dot = run({"3"}, {"3"}, host({3}, {1, 2, 3}), host({3}, {4, 5, 6}));
  CHECK(dot.shape().rank() == 0);
  CHECK(values(dot) == std::vector<double>{32});
  // [2, 1, 2] times [2, 1]: the second operand is broadcast over the batch.
  auto batch = run({"2", "1", "2"}, {"2", "1"}, host({2, 1, 2}, {1, 2, 3, 4}), host({2, 1}, {10, 1}));
  CHECK(batch.shape().dims() == std::vector<int64_t>{2, 1, 1});
  CHECK(values(batch) == std::vector<double>{12, 34});
}

TEST_CASE("onnx ops: InstanceNormalization and HardSigmoid as their ONNX formulas") {
  TempDir tmp("onnx_instnorm");
  OnnxModel m;
  m.input("X", {"1", "2", "2"});
  m.init("s", {2}, {2, -1});
  m.init("b", {2}, {1, 0.5});
  set_float(m.node("InstanceNormalization", {"X", "s", "b"}, {"Y"}), "epsilon", 0.25f);
  m.output("Y");
  // Channel 0: [1, 3], mean 2, variance 1: (x − 2)/sqrt(1.25)·2 + 1. Channel 1: [0, 0]: 0.5.
  auto y = values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({1, 2, 2}, {1, 3, 0, 0})})[0]);
  const double r = 1 / std::sqrt(1.25);
  CHECK(std::abs(y[0] - (1 - 2 * r)) < 1e-15);
  CHECK(std::abs(y[1] - (1 + 2 * r)) < 1e-15);
  CHECK(y[2] == 0.5);
  CHECK(y[3] == 0.5);

  OnnxModel h;
  h.input("X", {"4"});
  h.node("HardSigmoid", {"X"}, {"Y"});
  h.output("Y");
  // max(0, min(1, 0.2·x + 0.5)), alpha and beta the float32 nearest 0.2 and 0.5.
  const double a = static_cast<double>(0.2f);
  auto hs = values(run_f64(load_onnx(h, tmp / "h.onnx"), {host({4}, {-5, -1, 1, 5})})[0]);
  CHECK(hs == std::vector<double>{0, -a + 0.5, a + 0.5, 1});
}

TEST_CASE("onnx ops: BatchNormalization in training mode normalises by the batch and updates the running statistics") {
  TempDir tmp("onnx_bn_training");
  OnnxModel m(15);
  m.input("X", {"2", "1", "2"});
  m.init("s", {1}, {2});
  m.init("b", {1}, {1});
  m.init("mean", {1}, {10});
  m.init("var", {1}, {1});
  auto& n = m.node("BatchNormalization", {"X", "s", "b", "mean", "var"}, {"Y", "running_mean", "running_var"});
  set_int(n, "training_mode", 1);
  set_float(n, "epsilon", 4);
  set_float(n, "momentum", 0.5);
  m.output("Y");
  m.output("running_mean");
  m.output("running_var");
  // The batch [1, 3, 5, 7]: mean 4, population variance (9 + 1 + 1 + 9)/4 = 5, sqrt(5 + 4) = 3:
  // y = (x − 4)/3·2 + 1; running mean 10·0.5 + 4·0.5 = 7, running variance 1·0.5 + 5·0.5 = 3.
  auto out = run_f64(load_onnx(m, tmp / "m.onnx"), {host({2, 1, 2}, {1, 3, 5, 7})});
  const std::vector<double> y = values(out[0]), expected{-1, 1.0 / 3, 5.0 / 3, 3};
  for (size_t i = 0; i < 4; ++i) CHECK(std::abs(y[i] - expected[i]) < 1e-15);
  CHECK(values(out[1]) == std::vector<double>{7});
  CHECK(values(out[2]) == std::vector<double>{3});
}

TEST_CASE("onnx ops: Dropout at inference copies x and gives an all-true mask") {
  TempDir tmp("onnx_dropout_mask");
  OnnxModel m;
  m.input("X", {"3"});
  m.node("Dropout", {"X"}, {"Y", "mask"});
  m.output("Y");
  m.output("mask");
  auto out = run_f64(load_onnx(m, tmp / "m.onnx"), {host({3}, {-1, 0.5, 2})});
  CHECK(values(out[0]) == std::vector<double>{-1, 0.5, 2});
  CHECK(values(out[1]) == std::vector<double>{1, 1, 1});
  OnnxModel d;
  d.input("X", {"n"});
  d.node("Dropout", {"X"}, {"Y", "mask"});
  d.output("Y");
  d.output("mask");
  REQUIRE(find_code(load_errors(d, tmp / "d.onnx"), "onnx.output-unsupported"));
  // Training mode with ratio 0 is the identity too (ONNX's reference; PyTorch exports Swin's
  // attention dropout so); with another ratio it drops at random: refused.
  for (const float ratio : {0.0f, 0.5f}) {
    OnnxModel t;
    t.input("X", {"2"});
    t.init("ratio", {}, {ratio});
    onnx::TensorProto* mode = t.graph().add_initializer();
    mode->set_name("training");
    mode->set_data_type(onnx::TensorProto::BOOL);
    mode->add_int32_data(1);
    t.node("Dropout", {"X", "ratio", "training"}, {"Y"});
    t.output("Y");
    if (ratio == 0) {
      CHECK(values(run_f64(load_onnx(t, tmp / "t.onnx"), {host({2}, {3, -4})})[0]) == std::vector<double>{3, -4});
    } else {
      CHECK(find_code(load_errors(t, tmp / "t.onnx"), "onnx.attribute-unsupported"));
    }
  }
}

TEST_CASE("onnx ops: LRN sums the squares over channels [c - floor((size-1)/2), c + ceil((size-1)/2)]") {
  TempDir tmp("onnx_lrn");
  auto lrn = [&](int64_t size, float alpha, float beta) {
    OnnxModel m;
    m.input("X", {"1", "4", "1", "1"});
    onnx::NodeProto& n = m.node("LRN", {"X"}, {"Y"});
    set_int(n, "size", size);
    set_float(n, "alpha", alpha);
    set_float(n, "beta", beta);
    m.output("Y");
    return values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({1, 4, 1, 1}, {1, 2, 3, 4})})[0]);
  };
  // x² = [1, 4, 9, 16]. size 3: channels c-1..c+1, sums 5, 14, 29, 25; alpha/size = 1, bias 1:
  // y = x / (1 + sum)^1.
  CHECK(lrn(3, 3.0f, 1.0f) == std::vector<double>{1.0 / 6, 2.0 / 15, 3.0 / 30, 4.0 / 26});
  // size 2: channels c..c+1 (nothing before, one after), sums 5, 13, 25, 16; alpha/size = 1:
  // y = x / (1 + sum)^2.
  CHECK(lrn(2, 2.0f, 2.0f) == std::vector<double>{1.0 / 36, 2.0 / 196, 3.0 / 676, 4.0 / 289});
}

TEST_CASE("onnx ops: Pad's three modes and AveragePool's count_include_pad") {
  TempDir tmp("onnx_pad");
  auto pad = [&](const std::string& mode) {
    OnnxModel m;
    m.input("X", {"1", "3"});
    m.ints("pads", {0, 2, 0, 1});
    m.init("v", {}, {9});
    set_string(m.node("Pad", {"X", "pads", "v"}, {"Y"}), "mode", mode);
    m.output("Y");
    return values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({1, 3}, {1, 2, 3})})[0]);
  };
  CHECK(pad("constant") == std::vector<double>{9, 9, 1, 2, 3, 9});
  CHECK(pad("reflect") == std::vector<double>{3, 2, 1, 2, 3, 2});
  CHECK(pad("edge") == std::vector<double>{1, 1, 1, 2, 3, 3});

  auto avg = [&](int64_t include) {
    OnnxModel m;
    m.input("X", {"1", "1", "3"});
    auto& n = m.node("AveragePool", {"X"}, {"Y"});
    set_ints(n, "kernel_shape", {2});
    set_ints(n, "pads", {1, 0});
    set_int(n, "count_include_pad", include);
    m.output("Y");
    return values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({1, 1, 3}, {2, 4, 6})})[0]);
  };
  CHECK(avg(0) == std::vector<double>{2, 3, 5});  // the padding is not counted
  CHECK(avg(1) == std::vector<double>{1, 3, 5});  // (0 + 2)/2
}

TEST_CASE("onnx ops: ConvTranspose with groups, pads, output_padding and SAME_LOWER") {
  TempDir tmp("onnx_conv_transpose");
  const auto model = [](const std::function<void(onnx::NodeProto&)>& set) {
    OnnxModel m;
    m.input("X", {"1", "2", "3"});
    m.init("W", {2, 1, 3}, {1, 10, 100, 1, 1, 1});
    m.init("B", {2}, {0, 0.5});
    auto& n = m.node("ConvTranspose", {"X", "W", "B"}, {"Y"});
    set_int(n, "group", 2);
    set_ints(n, "strides", {2});
    set(n);
    m.output("Y");
    return m;
  };
  // Unpadded at stride 2: channel 0, [1, 2, 3] and [1, 10, 100], gives 1, 10, 2 + 100, 20, 3 + 200,
  // 30, 300; channel 1, [4, 5, 6] and [1, 1, 1], gives 4, 4, 5 + 4, 5, 6 + 5, 6, 6.
  const auto x = host({1, 2, 3}, {1, 2, 3, 4, 5, 6});
  // pads (1, 0) and output_padding 1: X = 2·2 + 1 + 3 − 1 = 7, positions 1..7 (the last reads nothing).
  auto padded = model([](onnx::NodeProto& n) {
    set_ints(n, "pads", {1, 0});
    set_ints(n, "output_padding", {1});
  });
  CHECK(values(run_f64(load_onnx(padded, tmp / "p.onnx"), {x})[0]) ==
        std::vector<double>{10, 102, 20, 203, 30, 300, 0, 4.5, 9.5, 5.5, 11.5, 6.5, 6.5, 0.5});
  // SAME_LOWER: X = 3·2 = 6, total 2·2 + 3 − 6 = 1, its odd unit before: positions 1..6.
  auto lower = model([](onnx::NodeProto& n) { set_string(n, "auto_pad", "SAME_LOWER"); });
  CHECK(values(run_f64(load_onnx(lower, tmp / "l.onnx"), {x})[0]) ==
        std::vector<double>{10, 102, 20, 203, 30, 300, 4.5, 9.5, 5.5, 11.5, 6.5, 6.5});
  // output_shape 8 with SAME_UPPER: total 2·2 + 3 − 8 = −1, begin ⌊−1/2⌋ = −1: one position of
  // zeros (the bias) before, then positions 0..6.
  auto shaped = model([](onnx::NodeProto& n) {
    set_string(n, "auto_pad", "SAME_UPPER");
    set_ints(n, "output_shape", {8});
  });
  CHECK(values(run_f64(load_onnx(shaped, tmp / "s.onnx"), {x})[0]) ==
        std::vector<double>{0, 1, 10, 102, 20, 203, 30, 300, 0.5, 4.5, 4.5, 9.5, 5.5, 11.5, 6.5, 6.5});
}

TEST_CASE("onnx ops: Conv with groups, dilation and SAME_UPPER padding") {
  TempDir tmp("onnx_conv");
  OnnxModel m;
  m.input("X", {"1", "2", "4"});
  // Two groups of one channel each; kernel 2 dilated by 2 reads x[i] and x[i + 2].
  m.init("W", {2, 1, 2}, {1, 1, 1, -1});
  m.init("B", {2}, {0, 10});
  auto& n = m.node("Conv", {"X", "W", "B"}, {"Y"});
  set_int(n, "group", 2);
  set_ints(n, "dilations", {2});
  set_string(n, "auto_pad", "SAME_UPPER");
  m.output("Y");
  // SAME_UPPER, stride 1: total padding (2 − 1)·2 + 1 − 1 = 2, one before and one after.
  // Channel 0 padded [0, 1, 2, 3, 4, 0]: x[i] + x[i+2] = 2, 4, 6, 3 (positions 0..3: 0+2, 1+3, 2+4, 3+0).
  // Channel 1 padded [0, 5, 6, 7, 8, 0]: 10 + x[i] − x[i+2] = 4, 8, 8, 17.
  auto y = values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})})[0]);
  CHECK(y == std::vector<double>{2, 4, 6, 3, 4, 8, 8, 17});
}

TEST_CASE("onnx ops: Erf, Round (halves to even), LogSoftmax by opset, ReduceProd") {
  TempDir tmp("onnx_new_ops");
  auto unary = [&](const char* op, const std::vector<double>& x) {
    OnnxModel m;
    m.input("X", {std::to_string(x.size())});
    m.node(op, {"X"}, {"Y"});
    m.output("Y");
    return values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({static_cast<int64_t>(x.size())}, x)})[0]);
  };
  // erf 1 = 0.8427007929497149 (Abramowitz and Stegun 7.1), erf is odd.
  const auto e = unary("Erf", {0, 1, -1});
  CHECK(e[0] == 0);
  CHECK(std::abs(e[1] - 0.8427007929497149) < 1e-15);
  CHECK(e[2] == -e[1]);
  // ONNX Round: 2.5 → 2, −2.5 → −2, 3.5 → 4, 0.4 → 0, −1.6 → −2 (numpy.round, ties to even).
  CHECK(unary("Round", {2.5, -2.5, 3.5, 0.4, -1.6}) == std::vector<double>{2, -2, 4, 0, -2});

  auto log_softmax = [&](int64_t opset) {
    OnnxModel m(opset);
    m.input("X", {"1", "2", "2"});
    m.node("LogSoftmax", {"X"}, {"Y"});
    m.output("Y");
    return values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({1, 2, 2}, {0, 1, 2, -1000})})[0]);
  };
  // Opset 13: pairs [0, 1] and [2, −1000]: [−log(1 + e), 1 − log(1 + e)] and [−log(1 + e^−1002) ≈ 0,
  // −1002 − that ≈ −1002] (log of softmax: log 0 = −∞). Opset 11: one group of four, log Σ = log(1 + e + e²).
  const double l = std::log(1 + std::exp(1.0)), l4 = std::log(1 + std::exp(1.0) + std::exp(2.0));
  const auto v13 = log_softmax(13), v11 = log_softmax(11);
  CHECK(std::abs(v13[0] + l) < 1e-15);
  CHECK(std::abs(v13[1] - (1 - l)) < 1e-15);
  CHECK(v13[2] == 0);
  CHECK(v13[3] == -1002);
  CHECK(std::abs(v11[0] + l4) < 1e-15);
  CHECK(std::abs(v11[2] - (2 - l4)) < 1e-15);
  CHECK(std::abs(v11[3] - (-1000 - l4)) < 1e-12);

  OnnxModel p;
  p.input("X", {"2", "3"});
  set_ints(p.node("ReduceProd", {"X"}, {"Y"}), "axes", {1});
  p.output("Y");
  auto y = run_f64(load_onnx(p, tmp / "p.onnx"), {host({2, 3}, {1, 2, 3, -4, 5, 0.5})})[0];
  CHECK(y.shape().dims() == std::vector<int64_t>{2, 1});  // keepdims defaults to 1
  CHECK(values(y) == std::vector<double>{6, -10});
}
