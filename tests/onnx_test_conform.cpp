// nnref conform on the ONNX patterns that used to be judged vacuously or to abort: Pow with a
// whole-number exponent on a base of any sign, LayerNorm as PyTorch exports it before opset 17
// (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div), a Pow of a difference whose enclosure holds
// 0, and a symbolic batch judged at the input's size with --dim. Each answer is computed here by
// its formula in double and rounded to float32; a wrong one must be rejected, a correct one accepted
// with every element judged.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::string npy(const TempDir& tmp, const std::string& name, const std::vector<int64_t>& dims, std::vector<double> v) {
  const std::string path = (tmp / name).string();
  REQUIRE(write_npy(path, HostTensor{DType::F32, Shape::make(dims).value(), std::move(v)}).ok());
  return path;
}

std::vector<double> rounded(std::vector<double> v) {
  for (double& x : v) x = static_cast<float>(x);
  return v;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("onnx conform: Pow with a whole exponent is judged on every element, whatever the base's sign") {
  TempDir tmp("onnx-conform-pow");
  const std::vector<double> x{1.5, -2, 0.25, 3, 0, -0.5};
  for (double n : {2.0, 3.0, -1.0, -2.0}) {
    INFO("exponent " << n);
    std::vector<double> base = x;
    if (n < 0) base[4] = 4;  // 1/0 has no finite value
    OnnxModel m;
    m.input("x", {"2", "3"});
    m.init("n", {}, {static_cast<float>(n)});
    m.node("Pow", {"x", "n"}, {"y"}, "pow");
    m.output("y");
    m.write(tmp / "pow.onnx");
    const std::string in = npy(tmp, "x.npy", {2, 3}, base);
    std::vector<double> y;
    for (double b : base) y.push_back(std::pow(b, n));
    const Run good = nnref_cli({"conform", (tmp / "pow.onnx").string(), "--input", in, "--actual",
                                npy(tmp, "good.npy", {2, 3}, rounded(y)), "--format", "json"});
    INFO(good.out << good.err);
    CHECK(good.code == 0);
    CHECK(has(good.out, "\"verdict\": \"conforms\""));
    CHECK(has(good.out, "\"not_judged\": 0"));
    y[5] = 99;
    const Run bad = nnref_cli({"conform", (tmp / "pow.onnx").string(), "--input", in, "--actual",
                               npy(tmp, "bad.npy", {2, 3}, rounded(y))});
    CHECK(bad.code == 1);
    CHECK(has(bad.out, "does not conform"));
  }
}

TEST_CASE("onnx conform: LayerNorm as exported before opset 17 is judged, an answer of all 42 rejected") {
  TempDir tmp("onnx-conform-layernorm");
  OnnxModel m(14);
  m.input("x", {"2", "4"});
  m.init("two", {}, {2.0f});
  m.init("eps", {}, {1e-5f});
  m.init("scale", {4}, {1.0f, 0.5f, -2.0f, 1.5f});
  m.init("bias", {4}, {0.0f, 0.25f, 1.0f, -1.0f});
  set_ints(m.node("ReduceMean", {"x"}, {"mean"}, "mean"), "axes", {-1});
  m.node("Sub", {"x", "mean"}, {"d"}, "sub");
  m.node("Pow", {"d", "two"}, {"d2"}, "pow");
  set_ints(m.node("ReduceMean", {"d2"}, {"var"}, "var"), "axes", {-1});
  m.node("Add", {"var", "eps"}, {"ve"}, "add_eps");
  m.node("Sqrt", {"ve"}, {"sd"}, "sqrt");
  m.node("Div", {"d", "sd"}, {"z"}, "div");
  m.node("Mul", {"z", "scale"}, {"zs"}, "mul");
  m.node("Add", {"zs", "bias"}, {"y"}, "add");
  m.output("y");
  m.write(tmp / "ln.onnx");
  const std::vector<double> x{0.5, -1.25, 2.0, 0.75, 3.0, 3.0, -3.0, 1.0};
  const double scale[] = {1.0, 0.5, -2.0, 1.5}, bias[] = {0.0, 0.25, 1.0, -1.0};
  std::vector<double> y;
  for (int r = 0; r < 2; ++r) {
    double mean = 0, var = 0;
    for (int c = 0; c < 4; ++c) mean += x[r * 4 + c] / 4;
    for (int c = 0; c < 4; ++c) var += (x[r * 4 + c] - mean) * (x[r * 4 + c] - mean) / 4;
    for (int c = 0; c < 4; ++c)
      y.push_back((x[r * 4 + c] - mean) / std::sqrt(var + static_cast<double>(1e-5f)) * scale[c] + bias[c]);
  }
  const std::string in = npy(tmp, "x.npy", {2, 4}, x);
  const Run good = nnref_cli({"conform", (tmp / "ln.onnx").string(), "--input", in, "--actual",
                              npy(tmp, "good.npy", {2, 4}, rounded(y)), "--format", "json"});
  INFO(good.out << good.err);
  CHECK(good.code == 0);
  CHECK(has(good.out, "\"not_judged\": 0"));
  const Run all42 = nnref_cli({"conform", (tmp / "ln.onnx").string(), "--input", in, "--actual",
                               npy(tmp, "42.npy", {2, 4}, std::vector<double>(8, 42))});
  CHECK(all42.code == 1);
  CHECK(has(all42.out, "FAIL y: 8 elements, 8 outside the f32 envelope"));
}

// sqrt(2)·sqrt(2) − 2: its interval holds 0 on both sides, which Boost's pow refused with an
// exception (std::terminate, exit 134) before; a sigmoid of 12345 is no sigmoid.
TEST_CASE("onnx conform: Pow of a difference around 0 neither aborts run nor conform, a sigmoid of 12345 fails") {
  TempDir tmp("onnx-conform-around-zero");
  OnnxModel m;
  m.input("x", {"1"});
  m.init("two", {}, {2.0f});
  m.node("Sqrt", {"x"}, {"s"}, "sqrt");
  m.node("Mul", {"s", "s"}, {"ss"}, "mul");
  m.node("Sub", {"ss", "x"}, {"d"}, "sub");
  m.node("Pow", {"d", "two"}, {"d2"}, "pow");
  m.node("Sigmoid", {"d2"}, {"y"}, "sigmoid");
  m.output("y");
  m.write(tmp / "m.onnx");
  const std::string in = npy(tmp, "x.npy", {1}, {2.0});
  const Run interval = nnref_cli({"run", (tmp / "m.onnx").string(), "--input", in, "--precision", "interval"});
  INFO(interval.err);
  CHECK(interval.code == 0);
  const Run f32 = nnref_cli({"conform", (tmp / "m.onnx").string(), "--input", in, "--engine", "f32"});
  INFO(f32.out << f32.err);
  CHECK(f32.code == 0);
  CHECK(has(f32.out, "conforms"));
  // (fl(√2)² − 2)² is below 2^-40, so the sigmoid is 0.5 to float32's precision.
  const Run half = nnref_cli({"conform", (tmp / "m.onnx").string(), "--input", in, "--actual", npy(tmp, "h.npy", {1}, {0.5})});
  CHECK(half.code == 0);
  const Run wrong = nnref_cli({"conform", (tmp / "m.onnx").string(), "--input", in, "--actual", npy(tmp, "w.npy", {1}, {12345})});
  CHECK(wrong.code == 1);
}

TEST_CASE("onnx conform: a symbolic batch is judged at the size the input gives, and --dim must agree") {
  TempDir tmp("onnx-conform-dim");
  OnnxModel m;
  m.input("x", {"N", "3"});
  m.node("Relu", {"x"}, {"y"}, "relu");
  m.output("y");
  m.write(tmp / "relu.onnx");
  const std::vector<double> x{1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12, 13, -14, 15, -16, 17, -18,
                              19, -20, 21, -22, 23, -24, 25, -26, 27, -28, 29, -30, 31, -32, 33, -34, 35, -36,
                              37, -38, 39, -40, 41, -42, 43, -44, 45, -46, 47, -48};
  std::vector<double> y;
  for (double v : x) y.push_back(std::max(v, 0.0));
  const std::string in = npy(tmp, "x.npy", {16, 3}, x), out = npy(tmp, "y.npy", {16, 3}, y);
  for (const std::vector<std::string>& dim : {std::vector<std::string>{}, std::vector<std::string>{"--dim", "N=16"}}) {
    std::vector<std::string> args{"conform", (tmp / "relu.onnx").string(), "--input", in, "--actual", out};
    args.insert(args.end(), dim.begin(), dim.end());
    const Run r = nnref_cli(args);
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    CHECK(has(r.out, "ok   y: 48 elements, 0 outside the f32 envelope"));
  }
  const Run other = nnref_cli({"conform", (tmp / "relu.onnx").string(), "--input", in, "--actual", out, "--dim", "N=8"});
  CHECK(other.code == 2);
  CHECK(has(other.err, "error[input.size-conflict]"));
  CHECK(has(other.err, "--dim N=8"));
}

// tests/data/onnx/transformer_layer_opset14 (its README says how it was made): PyTorch's own
// float32 answer conforms with all 640 elements judged; an answer of all 42 is rejected everywhere.
TEST_CASE("onnx conform: a TransformerEncoderLayer exported at opset 14 judges every element") {
  TempDir tmp("onnx-conform-transformer");
  const std::string dir = std::string(NNREF_SOURCE_DIR) + "/tests/data/onnx/transformer_layer_opset14/";
  const Run torch = nnref_cli({"conform", dir + "model.onnx", "--input", dir + "x.npy", "--actual", dir + "torch_f32.npy",
                               "--format", "json"});
  INFO(torch.out << torch.err);
  CHECK(torch.code == 0);
  CHECK(has(torch.out, "\"elements\": 640"));
  CHECK(has(torch.out, "\"not_judged\": 0"));
  const Run all42 = nnref_cli({"conform", dir + "model.onnx", "--input", dir + "x.npy", "--actual",
                               npy(tmp, "42.npy", {1, 10, 64}, std::vector<double>(640, 42))});
  CHECK(all42.code == 1);
  CHECK(has(all42.out, "FAIL y: 640 elements, 640 outside the f32 envelope"));
}

// (x + 10⁸) − 10⁸ at x = 1: the exact value is 1, but float32 may round x + 10⁸ by up to 4, so the
// envelope's radius (about 12) exceeds the value itself; the text says only larger slips are rejected.
TEST_CASE("onnx conform: a radius beyond every exact value is reported as such") {
  TempDir tmp("onnx-conform-loose");
  OnnxModel m;
  m.input("x", {"1"});
  m.init("big", {}, {1e8f});
  m.node("Add", {"x", "big"}, {"s"}, "add");
  m.node("Sub", {"s", "big"}, {"y"}, "sub");
  m.output("y");
  m.write(tmp / "m.onnx");
  const std::vector<std::string> args{"conform",  (tmp / "m.onnx").string(),
                                      "--input",  npy(tmp, "x.npy", {1}, {1.0}),
                                      "--actual", npy(tmp, "y.npy", {1}, {0.0})};
  const Run r = nnref_cli(args);
  INFO(r.out << r.err);
  CHECK(r.code == 0);  // fl(1 + 10⁸) = 10⁸ in float32: 0 is a correct answer
  CHECK(has(r.out, "exceeds every envelope midpoint's magnitude"));  // the exact value was not needed
  std::vector<std::string> exact = args;
  exact.push_back("--exact");
  const Run e = nnref_cli(exact);
  CHECK(e.code == 0);
  CHECK(has(e.out, "exceeds every exact value's magnitude (at most 1)"));
}

TEST_CASE("onnx conform: Gather and GatherElements with negative indices given at run time are judged exactly") {
  // The indices' arithmetic (j + d for j < 0, the flat index) is integer arithmetic, exact in the
  // envelope as in a runtime: an answer with a neighbouring element is rejected, not covered by a
  // hull of two candidates.
  TempDir tmp("onnx-conform-gather");
  const std::string d = npy(tmp, "d.npy", {3, 3}, {0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5});
  const auto indices = [&](const std::string& name, const std::vector<int64_t>& dims, std::vector<double> v) {
    const std::string path = (tmp / name).string();
    REQUIRE(write_npy(path, HostTensor{DType::I64, Shape::make(dims).value(), std::move(v)}).ok());
    return path;
  };
  const auto judge = [&](const std::string& op, const std::string& i, const std::vector<std::string>& idims,
                         const std::vector<double>& right, const std::vector<double>& wrong) {
    OnnxModel m;
    m.input("D", {"3", "3"});
    m.input("I", idims, onnx::TensorProto::INT64);
    set_int(m.node(op, {"D", "I"}, {"Y"}), "axis", 1);
    m.output("Y");
    m.write(tmp / "m.onnx");
    const std::vector<int64_t> out{3, 2};
    const Run good = nnref_cli({"conform", (tmp / "m.onnx").string(), "--input", "D=" + d, "--input", "I=" + i,
                                "--actual", npy(tmp, "good.npy", out, right), "--format", "json"});
    INFO(op << ": " << good.out << good.err);
    CHECK(has(good.out, "\"verdict\": \"conforms\""));
    CHECK(has(good.out, "\"not_judged\": 0"));
    const Run bad = nnref_cli({"conform", (tmp / "m.onnx").string(), "--input", "D=" + d, "--input", "I=" + i,
                               "--actual", npy(tmp, "bad.npy", out, wrong)});
    INFO(bad.out << bad.err);
    CHECK(has(bad.out, "does not conform"));
  };
  // Gather, axis 1, I = [2, −1]: columns 2 and 2 of each row; the wrong answer takes column 1 for −1.
  judge("Gather", indices("g.npy", {2}, {2, -1}), {"2"}, {2.5, 2.5, 5.5, 5.5, 8.5, 8.5}, {2.5, 1.5, 5.5, 4.5, 8.5, 7.5});
  // GatherElements, axis 1, I = [[0, 2], [1, −1], [2, 0]]: D[i][I[i][j]]; the wrong answer reads
  // column 1 for the −1 of row 1.
  judge("GatherElements", indices("ge.npy", {3, 2}, {0, 2, 1, -1, 2, 0}), {"3", "2"}, {0.5, 2.5, 4.5, 5.5, 8.5, 6.5},
        {0.5, 2.5, 4.5, 4.5, 8.5, 6.5});
}

TEST_CASE("onnx conform: a truth value the envelope leaves undecided is not judged, never accepted whatever it is") {
  // Greater(x / 3, 0.5) at x = 1.5: the exact quotient is 0.5, so the answer is false; a runtime
  // may divide as 1.5·fl(1/3), with 1/3 rounded down or up, so the envelope of the quotient holds
  // values on both sides of 0.5 and the comparison's envelope holds both 0 and 1: not judged.
  TempDir tmp("onnx-conform-truth");
  OnnxModel m;
  m.input("x", {"1"});
  m.init("three", {}, {3.0f});
  m.init("half", {}, {0.5f});
  m.node("Div", {"x", "three"}, {"s"});
  m.node("Greater", {"s", "half"}, {"y"});
  m.output("y");
  m.write(tmp / "m.onnx");
  const std::string in = npy(tmp, "x.npy", {1}, {1.5});
  for (double answer : {0.0, 1.0}) {
    const Run r = nnref_cli({"conform", (tmp / "m.onnx").string(), "--input", in, "--actual",
                             npy(tmp, "a.npy", {1}, {answer}), "--format", "json"});
    INFO(r.out << r.err);
    CHECK(has(r.out, "\"verdict\": \"inconclusive\""));
    CHECK(has(r.out, "\"not_judged\": 1"));
    CHECK(has(r.out, "undecided"));
  }
}

namespace {

int64_t count(const std::string& text, const std::string& part) {
  int64_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

std::string npz(const TempDir& tmp, const std::string& name, const NamedTensors& outputs) {
  const std::string path = (tmp / name).string();
  REQUIRE(write_npz(path, outputs).ok());
  return path;
}

HostTensor f32(std::vector<double> v) {
  const auto n = static_cast<int64_t>(v.size());
  return HostTensor{DType::F32, Shape::make({n}).value(), std::move(v)};
}

}  // namespace

TEST_CASE(
    "onnx conform: NaN and infinite inputs are exact values that IsNaN and IsInf decide and Where and Cast keep") {
  // x = [NaN, +inf, -inf, 1.5], by IEEE 754 and ONNX: IsNaN [1, 0, 0, 0], IsInf [0, 1, 1, 0],
  // IsInf(detect_negative = 0) [0, 1, 0, 0], Where(IsNaN, 0, x) [0, inf, -inf, 1.5], Cast to
  // float16 x itself (each value is a float16).
  TempDir tmp("onnx-conform-nan");
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  OnnxModel m;
  m.input("x", {"4"});
  m.init("zero", {}, {0.0f});
  m.node("IsNaN", {"x"}, {"isnan"});
  m.node("IsInf", {"x"}, {"isinf"});
  set_int(m.node("IsInf", {"x"}, {"isposinf"}), "detect_negative", 0);
  m.node("Where", {"isnan", "zero", "x"}, {"where"});
  set_int(m.node("Cast", {"x"}, {"half"}), "to", onnx::TensorProto::FLOAT16);
  for (const char* y : {"isnan", "isinf", "isposinf", "where", "half"}) m.output(y);
  m.write(tmp / "m.onnx");
  const std::string in = npy(tmp, "x.npy", {4}, {nan, inf, -inf, 1.5});
  NamedTensors answer{{"isnan", f32({1, 0, 0, 0})},
                      {"isinf", f32({0, 1, 1, 0})},
                      {"isposinf", f32({0, 1, 0, 0})},
                      {"where", f32({0, inf, -inf, 1.5})},
                      {"half", f32({nan, inf, -inf, 1.5})}};
  const auto conform = [&](const NamedTensors& a) {
    return nnref_cli(
        {"conform", (tmp / "m.onnx").string(), "--input", in, "--actual", npz(tmp, "a.npz", a), "--format", "json"});
  };
  const Run good = conform(answer);
  INFO(good.out << good.err);
  CHECK(good.code == 0);
  CHECK(has(good.out, "\"verdict\": \"conforms\""));
  CHECK(count(good.out, "\"not_judged\": 0") == 5);
  // Wrong answers, one element each: false for IsNaN(NaN), 1 where NaN is exact, NaN where 1.5 is,
  // +inf where -inf is, 1 where IsInf(-inf) without detect_negative is false.
  for (const auto& [output, k, value] : std::vector<std::tuple<size_t, size_t, double>>{
           {0, 0, 0.0}, {4, 0, 1.0}, {4, 3, nan}, {3, 2, inf}, {2, 2, 1.0}}) {
    NamedTensors wrong = answer;
    wrong[output].second.values[k] = value;
    const Run bad = conform(wrong);
    INFO(wrong[output].first << "[" << k << "] = " << value << "\n" << bad.out);
    CHECK(bad.code == 1);
    CHECK(has(bad.out, "\"outside\": 1"));
  }
}

TEST_CASE("onnx conform: an integer base's Pow of a float exponent is judged by the range of its truncations") {
  // ONNX Runtime truncates std::pow(x, y) toward zero. 2^5 = 32 and 3^4 = 81 are integers, whose
  // enclosures (a runtime's pow within its ulp allowance) hold values just below them: the answer
  // is any integer of [31, 32] and [80, 81]; (-2)^3 = -8 truncates into [-8, -7]; 5^0.5 = 2.236...
  // truncates to 2 whatever the rounding, exactly.
  TempDir tmp("onnx-conform-pow-truncated");
  OnnxModel m;
  m.input("x", {"4"}, onnx::TensorProto::INT64);
  m.input("y", {"4"});
  m.node("Pow", {"x", "y"}, {"z"});
  m.output("z");
  m.write(tmp / "m.onnx");
  const auto file = [&](const std::string& name, DType type, std::vector<double> v) {
    const std::string path = (tmp / name).string();
    REQUIRE(write_npy(path, HostTensor{type, Shape::make({4}).value(), std::move(v)}).ok());
    return path;
  };
  const std::string x = "x=" + file("x.npy", DType::I64, {2, 3, -2, 5}),
                    y = "y=" + file("y.npy", DType::F32, {5, 4, 3, 0.5});
  const auto conform = [&](std::vector<double> answer) {
    return nnref_cli({"conform", (tmp / "m.onnx").string(), "--input", x, "--input", y, "--actual",
                      file("z.npy", DType::I64, std::move(answer)), "--format", "json"});
  };
  for (const std::vector<double>& answer : {std::vector<double>{32, 81, -8, 2}, std::vector<double>{31, 80, -7, 2}}) {
    const Run good = conform(answer);
    INFO(good.out << good.err);
    CHECK(good.code == 0);
    CHECK(has(good.out, "\"not_judged\": 0"));
    CHECK(has(good.out, "\"max_radius\": 0.5"));  // the half-width of [31, 32]
  }
  for (const std::vector<double>& answer : {std::vector<double>{0, 81, -8, 2}, std::vector<double>{33, 81, -8, 2},
                                            std::vector<double>{32, 81, -9, 2}, std::vector<double>{32, 81, -8, 1}}) {
    const Run bad = conform(answer);
    INFO(bad.out << bad.err);
    CHECK(bad.code == 1);
    CHECK(has(bad.out, "\"outside\": 1"));
  }
}

TEST_CASE("onnx conform: what IEEE 754 leaves open for a NaN operand stays not judged and names its node") {
  // x = [NaN, +inf]: Relu (max(x, 0) in nnref; a runtime's max may drop a NaN) leaves NaN's element
  // undecided and gives +inf exactly; NaN + 1 is NaN exactly, while inf + 1 is widened by inf·u, a
  // lost bound (nnref does not refine the arithmetic of infinities).
  TempDir tmp("onnx-conform-nan-open");
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  OnnxModel m;
  m.input("x", {"2"});
  m.init("one", {}, {1.0f});
  m.node("Relu", {"x"}, {"relu"}, "relu");
  m.node("Add", {"x", "one"}, {"sum"}, "sum");
  m.output("relu");
  m.output("sum");
  m.write(tmp / "m.onnx");
  const std::string in = npy(tmp, "x.npy", {2}, {nan, inf});
  const auto conform = [&](double relu_of_inf, double sum_of_nan) {
    const NamedTensors a{{"relu", f32({nan, relu_of_inf})}, {"sum", f32({sum_of_nan, inf})}};
    return nnref_cli({"conform", (tmp / "m.onnx").string(), "--input", in, "--actual", npz(tmp, "a.npz", a)});
  };
  const Run open = conform(inf, nan);
  INFO(open.out << open.err);
  CHECK(open.code == 3);
  CHECK(has(open.out, "relu: 2 elements, 0 outside the f32 envelope, 1 not judged"));
  CHECK(has(open.out, "element [0] first; its envelope lost a bound at node 'relu' (relu): max of NaN"));
  CHECK(has(open.out, "sum: 2 elements, 0 outside the f32 envelope, 1 not judged"));
  CHECK(has(open.out, "element [1] first; its envelope lost a bound at node 'sum' (add): an infinite value"));
  CHECK(conform(5.0, nan).code == 1);  // Relu(+inf) is +inf
  CHECK(conform(inf, 2.0).code == 1);  // NaN + 1 is NaN
}

namespace {

// x = [1, 2]; h = x·W = [5, −7]; s = h + b = [5.5, −6.5]; y = Relu(s) = [5.5, 0]: every value exact
// in float32, so a correct runtime gives exactly these.
std::string three_op_model(const TempDir& tmp) {
  OnnxModel m;
  m.input("x", {"1", "2"});
  m.init("W", {2, 2}, {1, -1, 2, -3});
  m.init("b", {2}, {0.5f, 0.5f});
  m.node("MatMul", {"x", "W"}, {"h"}, "matmul");
  m.node("Add", {"h", "b"}, {"s"}, "add");
  m.node("Relu", {"s"}, {"y"}, "relu");
  m.output("y");
  const std::string path = (tmp / "three.onnx").string();
  m.write(path);
  return path;
}

HostTensor row(std::vector<double> v) { return HostTensor{DType::F32, Shape::make({1, 2}).value(), std::move(v)}; }

}  // namespace

TEST_CASE("onnx conform --intermediates: a correct runtime's values conform, a wrong one is named first") {
  TempDir tmp("onnx-conform-cuts");
  const std::string model = three_op_model(tmp);
  const std::string x = npy(tmp, "x.npy", {1, 2}, {1, 2});
  const std::string y = npy(tmp, "y.npy", {1, 2}, {5.5, 0});
  const auto conform = [&](const NamedTensors& cuts, const std::string& format = "text") {
    return nnref_cli({"conform", model, "--input", x, "--actual", y, "--intermediates", npz(tmp, "cuts.npz", cuts),
                      "--format", format});
  };

  const Run good = conform({{"h", row({5, -7})}, {"s", row({5.5, -6.5})}});
  INFO(good.out << good.err);
  CHECK(good.code == 0);
  CHECK(has(good.out, "ok   intermediates: 2 of 2 given values judged, 4 elements, 0 outside"));
  CHECK(has(good.out, "\nconforms\n"));

  // s off by 3.5, far beyond one rounding; the output, Relu's 0, is the same as the correct one.
  CHECK(nnref_cli({"conform", model, "--input", x, "--actual", y}).code == 0);
  const Run bad = conform({{"h", row({5, -7})}, {"s", row({5.5, -3})}}, "json");
  INFO(bad.out << bad.err);
  CHECK(bad.code == 1);
  CHECK(has(bad.out, "\"verdict\": \"does not conform\""));
  CHECK(has(bad.out, "\"outside\": 1"));
  CHECK(has(bad.out, "\"name\": \"s\""));
  CHECK(has(bad.out, "\"actual\": -3.0"));

  // h wrong, s consistent with the wrong h: the culprit is h, the first in the graph's order; s is
  // judged against the envelope of the h the runtime gave, and lies inside it.
  const Run early = conform({{"h", row({5, -9})}, {"s", row({5.5, -8.5})}});
  INFO(early.out);
  CHECK(early.code == 1);
  CHECK(has(early.out, "FAIL intermediates: 2 of 2 given values judged, 4 elements, 1 outside"));
  CHECK(has(early.out, "first outside: 'h' (matmul) element [0, 1] = -9; envelope [-7.0000"));
}

TEST_CASE("onnx conform --intermediates: a name the model does not compute, or a wrong shape, is a usage error") {
  TempDir tmp("onnx-conform-cuts-usage");
  const std::string model = three_op_model(tmp);
  const std::string x = npy(tmp, "x.npy", {1, 2}, {1, 2});
  const std::string y = npy(tmp, "y.npy", {1, 2}, {5.5, 0});
  const auto conform = [&](const NamedTensors& cuts) {
    return nnref_cli({"conform", model, "--input", x, "--actual", y, "--intermediates", npz(tmp, "cuts.npz", cuts)});
  };
  const Run unknown = conform({{"t", row({5, -7})}});
  CHECK(unknown.code == 2);
  CHECK(has(unknown.err, "usage.intermediate-unknown"));
  CHECK(has(unknown.err, "'t'"));
  const Run shape = conform({{"h", HostTensor{DType::F32, Shape::make({2}).value(), {5, -7}}}});
  CHECK(shape.code == 2);
  CHECK(has(shape.err, "usage.intermediate-shape"));
  CHECK(has(shape.err, "'h'"));
  // The intermediates are held beside the model within --max-memory: 4,096 float32 items (16 KiB,
  // 32 KiB as doubles) do not fit a budget of 16 KiB, and are refused before they are inflated.
  const Run large = nnref_cli({"conform", model, "--input", x, "--actual", y, "--max-memory", "16K", "--intermediates",
                               npz(tmp, "large.npz", {{"h", HostTensor{DType::F32, Shape::make({4096}).value(),
                                                                        std::vector<double>(4096, 1.0)}}})});
  CHECK(large.code != 0);
  CHECK(has(large.err, "size.budget"));
}

TEST_CASE("onnx conform --intermediates: an Identity's output and its operand, one value, are both judged") {
  TempDir tmp("onnx-conform-cuts-alias");
  OnnxModel m;
  m.input("x", {"1", "2"});
  m.init("W", {2, 2}, {1, -1, 2, -3});
  m.node("MatMul", {"x", "W"}, {"h"}, "matmul");
  m.node("Identity", {"h"}, {"g"}, "identity");
  m.node("Relu", {"g"}, {"y"}, "relu");
  m.output("y");
  m.write(tmp / "alias.onnx");
  const std::string cuts = (tmp / "cuts.npz").string();
  REQUIRE(write_npz(cuts, {{"h", row({5, -7})}, {"g", row({5, -9})}}).ok());
  const Run r = nnref_cli({"conform", (tmp / "alias.onnx").string(), "--input", npy(tmp, "x.npy", {1, 2}, {1, 2}),
                           "--actual", npy(tmp, "y.npy", {1, 2}, {5, 0}), "--intermediates", cuts});
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK(has(r.out, "FAIL intermediates: 2 of 2 given values judged, 4 elements, 1 outside"));
  CHECK(has(r.out, "first outside: 'g' ("));
}

namespace {

// x·H repeated `layers` times, H = ½·[[1, 1, 1, 1], [1, −1, 1, −1], [1, 1, −1, −1], [1, −1, −1, 1]]:
// H·H = I, so with x = [1, 2, 3, 4] the values alternate between x and x·H = [5, −1, −2, 0], all
// exact in float32 (the answer of any correct runtime). The layers' names are mm1, mm2, ...; the
// value of layer k is h<k>, the last one y.
std::string hadamard_chain(const TempDir& tmp, int layers) {
  OnnxModel m;
  m.input("x", {"1", "4"});
  m.init("H", {4, 4},
         {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, -0.5f, 0.5f, -0.5f, 0.5f, 0.5f, -0.5f, -0.5f, 0.5f, -0.5f, -0.5f, 0.5f});
  std::string in = "x";
  for (int k = 1; k <= layers; ++k) {
    const std::string out = k == layers ? "y" : "h" + std::to_string(k);
    m.node("MatMul", {in, "H"}, {out}, "mm" + std::to_string(k));
    in = out;
  }
  m.output("y");
  const std::string path = (tmp / ("chain" + std::to_string(layers) + ".onnx")).string();
  m.write(path);
  return path;
}

std::vector<double> chain_value(int k) {
  return k % 2 == 0 ? std::vector<double>{1, 2, 3, 4} : std::vector<double>{5, -1, -2, 0};
}

}  // namespace

// Interval propagation adds layer k's rounding error into every element of layer k + 1 with weight
// |H|'s row sum, 2, where the errors of a real evaluation cancel (H keeps the values' size: H·H = I).
// So the radius r_k of layer k's envelope at least doubles per layer: r_k ≥ 2^(k−1)·r_1 with
// r_1 ≥ u·Σ|x_j/2| = 5u (u = 2^-24: the products' rounding alone); and r_k < 2^k·w, w < 40u the most
// one layer adds (u·Σ|terms| ≤ 5u, plus γ(4)·(1 + u)·max(P, N) with max(P, N) ≤ 7). The values'
// largest magnitude is 4 (even k) or 5 (odd k). So r_k < 2^20·40u = 2.5 for k ≤ 20 and
// r_25 ≥ 2^24·5u = 5: the first layer whose radius exceeds its values is one of 21..25, and its
// operand, at least half as wide, is already wider than 1/16 of its values: that layer is named.
TEST_CASE("onnx conform: an envelope compounded wider than its values is not judged, and the node is named") {
  TempDir tmp("onnx-conform-compounded");
  const std::string x = npy(tmp, "x.npy", {1, 4}, {1, 2, 3, 4});

  const Run shallow = nnref_cli({"conform", hadamard_chain(tmp, 10), "--input", x, "--actual",
                                 npy(tmp, "y10.npy", {1, 4}, chain_value(10)), "--format", "json"});
  INFO(shallow.out << shallow.err);
  CHECK(shallow.code == 0);
  CHECK(has(shallow.out, "\"not_judged\": 0"));

  const std::string deep = hadamard_chain(tmp, 40);
  const std::string y = npy(tmp, "y40.npy", {1, 4}, chain_value(40));
  const Run r = nnref_cli({"conform", deep, "--input", x, "--actual", y, "--format", "json"});
  INFO(r.out << r.err);
  CHECK(r.code == 3);
  CHECK(has(r.out, "\"verdict\": \"inconclusive\""));
  CHECK(has(r.out, "\"not_judged\": 4"));
  CHECK(has(r.out, "grew wider than its values"));
  const size_t at = r.out.find("\"node\": \"mm");
  REQUIRE(at != std::string::npos);
  const int named = std::stoi(r.out.substr(at + 11));
  CHECK(named >= 21);
  CHECK(named <= 25);

  // Given every layer's value, each is judged against one rounding of the operand given: the same
  // answer conforms, every element judged.
  NamedTensors cuts;
  for (int k = 1; k < 40; ++k)
    cuts.emplace_back("h" + std::to_string(k), HostTensor{DType::F32, Shape::make({1, 4}).value(), chain_value(k)});
  const Run judged = nnref_cli({"conform", deep, "--input", x, "--actual", y, "--intermediates",
                                npz(tmp, "cuts.npz", cuts), "--format", "json"});
  INFO(judged.out << judged.err);
  CHECK(judged.code == 0);
  CHECK(has(judged.out, "\"verdict\": \"conforms\""));
  CHECK(has(judged.out, "\"not_judged\": 0"));

  // nnref's own engines are judged at their own values of the 39 layers before y, every one.
  for (const std::string engine : {"f32", "fast"}) {
    const Run own = nnref_cli({"conform", deep, "--input", x, "--engine", engine});
    INFO(engine << ": " << own.out << own.err);
    CHECK(own.code == 0);
    CHECK(has(own.out, "ok   intermediates: 39 of 39 given values judged, 156 elements, 0 outside"));
    CHECK(has(own.out, "\nconforms\n"));
  }
  const Run both =
      nnref_cli({"conform", deep, "--input", x, "--engine", "fast", "--intermediates", npz(tmp, "c.npz", cuts)});
  INFO(both.out << both.err);
  CHECK(both.code == 2);  // a runtime's values go with its answer (--actual), not with an engine's
  CHECK(has(both.err, "--intermediates requires --actual"));
}
