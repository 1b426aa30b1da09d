// The ONNX front-end: models built here with the onnx protobuf classes, read by nnref, evaluated
// by the f64 oracle and compared with values computed by hand; symbolic extents proved by check;
// external data; opset-dependent defaults; NNL weights from an .onnx file; .pb tensors on the
// command line. Per-op values: tests/onnx_test_ops.cpp; reader errors: tests/onnx_test_errors.cpp.
#include "onnx_test_support.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"
#include "semantics/size_names.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;
namespace fs = std::filesystem;

namespace {

void require_values(const Tensor<double>& t, const std::vector<int64_t>& dims, const std::vector<double>& want,
                    double tol = 0) {
  REQUIRE(t.shape().dims() == dims);
  REQUIRE(t.data().size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    CHECK(std::abs(t.data()[i] - want[i]) <= tol);
  }
}

// X [2, 3] · W[2, 3]ᵀ + C [2], with the values of the hand computation below.
OnnxModel gemm_model(const std::vector<std::string>& x_dims) {
  OnnxModel m;
  m.input("X", x_dims);
  m.init("W", {2, 3}, {1, 0, -1, 2, 1, 0});
  m.init("C", {2}, {0.5f, -1});
  set_int(m.node("Gemm", {"X", "W", "C"}, {"Y"}, "fc"), "transB", 1);
  m.output("Y");
  return m;
}

}  // namespace

TEST_CASE("onnx: Gemm with initializers becomes linear with its weight and bias") {
  TempDir tmp("onnx_gemm");
  Model m = load_onnx(gemm_model({"2", "3"}), tmp / "m.onnx");
  CHECK(m.format == "onnx");
  CHECK(m.param_keys.at({"fc", "weight"}) == "W");
  CHECK(m.param_keys.at({"fc", "bias"}) == "C");
  // [1 2 3]·[1 0 -1] + 0.5 = -1.5, [1 2 3]·[2 1 0] - 1 = 3; [4 5 6]: -1.5 and 12.
  auto y = run_f64(m, {host({2, 3}, {1, 2, 3, 4, 5, 6})});
  require_values(y[0], {2, 2}, {-1.5, 3, -1.5, 12});
}

TEST_CASE("onnx: Gemm with alpha, beta and a matrix C is the product, scaled, plus beta times C") {
  TempDir tmp("onnx_gemm_ab");
  OnnxModel g;
  g.input("A", {"2", "2"});
  g.init("B", {2, 2}, {1, 2, 3, 4});
  g.init("C", {2, 2}, {1, 1, 1, -1});
  auto& n = g.node("Gemm", {"A", "B", "C"}, {"Y"});
  set_float(n, "alpha", 2);
  set_float(n, "beta", 3);
  set_int(n, "transA", 1);
  g.output("Y");
  // Aᵀ = [[1, 3], [2, 4]] for A = [[1, 2], [3, 4]]; AᵀB = [[10, 14], [14, 20]]; 2·AᵀB + 3·C.
  auto y = run_f64(load_onnx(g, tmp / "m.onnx"), {host({2, 2}, {1, 2, 3, 4})});
  require_values(y[0], {2, 2}, {23, 31, 31, 37});
}

TEST_CASE("onnx: a dim_param is a size name that check --dim ranges over and run --dim sets") {
  TempDir tmp("onnx_dims");
  Model m = load_onnx(gemm_model({"N", "3"}), tmp / "batch.onnx");
  REQUIRE(m.size_names.size() == 1);
  CHECK(m.size_names[0].name == "N");
  Run ok = nnref_cli({"check", (tmp / "batch.onnx").string(), "--dim", "N=1..4096"});
  INFO(ok.err);
  CHECK(ok.code == 0);

  // Reshape [N, 3] to [-1, 2, 3]: the element count 3·N must be a multiple of 6, so N odd fails.
  OnnxModel r;
  r.input("X", {"N", "3"});
  r.ints("shape", {-1, 2, 3});
  r.node("Reshape", {"X", "shape"}, {"Y"}, "pairs");
  r.output("Y");
  r.write(tmp / "pairs.onnx");
  Run refuted = nnref_cli({"check", (tmp / "pairs.onnx").string(), "--dim", "N=1..64"});
  CHECK(refuted.code == 1);
  CHECK(refuted.err.find("error[shape.reshape.count-indivisible]") != std::string::npos);
  CHECK(refuted.err.find("counterexample: N = 1\n") != std::string::npos);
  // At N = 4 it runs: the rows pair up.
  std::vector<double> x(12);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i);
  REQUIRE(write_npy((tmp / "x.npy").string(), host({4, 3}, x)));
  Run run = nnref_cli({"run", (tmp / "pairs.onnx").string(), "--dim", "N=4", "--input", (tmp / "x.npy").string(),
                       "--precision", "f64", "--output", (tmp / "y.npy").string(), "--quiet"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  auto y = read_npy((tmp / "y.npy").string());
  REQUIRE(y);
  CHECK(y->shape.dims() == std::vector<int64_t>{2, 2, 3});
  CHECK(y->values == x);
}

TEST_CASE("onnx: value_info shapes are checked against the rules") {
  TempDir tmp("onnx_declared");
  OnnxModel m;
  m.input("X", {"2", "3"});
  m.node("Relu", {"X"}, {"H"}, "act");
  m.node("Neg", {"H"}, {"Y"}, "neg");
  m.declare("H", {"2", "5"});
  m.output("Y", {"2", "3"}, true);
  m.write(tmp / "m.onnx");
  Run r = nnref_cli({"check", (tmp / "m.onnx").string()});
  CHECK(r.code == 1);
  CHECK(r.err.find("error[shape.declared-mismatch]") != std::string::npos);
  CHECK(r.err.find("act") != std::string::npos);
}

TEST_CASE("onnx: external data is read from the model's folder and nowhere else") {
  TempDir tmp("onnx_external");
  const std::vector<float> w{1, -2, 3, -4};
  {
    std::ofstream f(tmp / "w.bin", std::ios::binary);
    f.write("PAD!", 4);  // the tensor starts at offset 4
    f.write(reinterpret_cast<const char*>(w.data()), 16);
  }
  auto model = [](const std::string& location, const std::string& offset, const std::string& length) {
    OnnxModel m;
    m.input("X", {"4"});
    onnx::TensorProto* t = m.init("W", {4}, {});
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    for (auto [k, v] : {std::pair{"location", location}, {"offset", offset}, {"length", length}}) {
      if (v.empty()) continue;
      auto* e = t->add_external_data();
      e->set_key(k);
      e->set_value(v);
    }
    m.node("Mul", {"X", "W"}, {"Y"});
    m.output("Y");
    return m;
  };
  auto y = run_f64(load_onnx(model("w.bin", "4", "16"), tmp / "m.onnx"), {host({4}, {1, 1, 0.5, 2})});
  require_values(y[0], {4}, {1, -2, 1.5, -8});

  auto code_of = [&](const OnnxModel& m) {
    auto ds = load_errors(m, tmp / "bad.onnx");
    return ds.empty() ? std::string() : ds[0].code;
  };
  CHECK(code_of(model("../w.bin", "4", "16")) == "onnx.external-data");
  CHECK(code_of(model((tmp / "w.bin").string(), "4", "16")) == "onnx.external-data");  // absolute
  CHECK(code_of(model("", "4", "16")) == "onnx.external-data");                          // no location
  CHECK(code_of(model("w.bin", "8", "16")) == "onnx.external-data");                     // past the end
  CHECK(code_of(model("w.bin", "4", "12")) == "onnx.tensor-data-size");                  // 3 floats for 4
  CHECK(code_of(model("w.bin", "four", "16")) == "onnx.external-data");
  CHECK(code_of(model("absent.bin", "0", "16")) == "onnx.external-data");
  // A location that leaves the folder through a symbolic link inside it.
  fs::create_directories(tmp / "outside");
  fs::copy_file(tmp / "w.bin", tmp / "outside" / "w.bin");
  fs::create_directories(tmp / "model");
  fs::create_directory_symlink(tmp / "outside", tmp / "model" / "link");
  auto ds = load_errors(model("link/w.bin", "4", "16"), tmp / "model" / "m.onnx");
  REQUIRE_FALSE(ds.empty());
  CHECK(ds[0].code == "onnx.external-data");
  CHECK(ds[0].message.find("outside the model's folder") != std::string::npos);

  // The budget is checked before the data is read: 1000 values at 8 bytes exceed 4000 bytes,
  // and the file holds far fewer (read, it would be onnx.external-data).
  OnnxModel big = model("w.bin", "0", "4000");
  big.graph().mutable_initializer(0)->set_dims(0, 1000);
  big.graph().mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_value(1000);
  big.write(tmp / "big.onnx");
  LoadOptions small;
  small.max_memory = 4000;
  REQUIRE(fs::file_size(tmp / "big.onnx") < 4000);
  LoadResult over = load_model((tmp / "big.onnx").string(), small);
  REQUIRE_FALSE(over.diagnostics.empty());
  CHECK(over.diagnostics[0].code == "size.budget");
}

TEST_CASE("onnx: Softmax's default axis and grouping follow the model's opset") {
  TempDir tmp("onnx_softmax");
  auto sums = [&](int64_t opset) {
    OnnxModel m(opset);
    m.input("X", {"1", "2", "2"});
    m.node("Softmax", {"X"}, {"Y"});
    m.output("Y");
    auto y = run_f64(load_onnx(m, tmp / "m.onnx"), {host({1, 2, 2}, {0, 1, 2, 3})});
    const auto d = y[0].data();
    return std::vector<double>{d[0] + d[1], d[2] + d[3], d[0] + d[1] + d[2] + d[3]};
  };
  // Opset 11: axis 1, the input coerced to [1, 4]: one group of four. Opset 13: axis -1, pairs.
  const auto v11 = sums(11), v13 = sums(13);
  CHECK(std::abs(v11[2] - 1) < 1e-15);
  CHECK(std::abs(v11[0] - (1 + std::exp(1.0)) / (1 + std::exp(1.0) + std::exp(2.0) + std::exp(3.0))) < 1e-15);
  CHECK(std::abs(v13[0] - 1) < 1e-15);
  CHECK(std::abs(v13[1] - 1) < 1e-15);
}

TEST_CASE("onnx: an NNL model whose weights are an .onnx file runs as with its .npy weights") {
  TempDir tmp("onnx_nnl_weights");
  OnnxModel w;
  for (const char* name : {"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias", "output.weight", "output.bias"}) {
    auto t = read_npy(example("mlp", std::string("weights/") + name + ".npy"));
    REQUIRE(t);
    onnx::TensorProto* p = w.graph().add_initializer();
    p->set_name(name);
    p->set_data_type(onnx::TensorProto::DOUBLE);
    for (int64_t d : t->shape.dims()) p->add_dims(d);
    for (double v : t->values) p->add_double_data(v);
  }
  w.write(tmp / "w.onnx");
  std::ifstream src(example("mlp", "model.nnl"));
  std::stringstream text;
  text << src.rdbuf();
  std::string nnl = text.str();
  const std::string from = "weights: \"./weights\";";
  REQUIRE(nnl.find(from) != std::string::npos);
  nnl.replace(nnl.find(from), from.size(), "weights: \"w.onnx\";");
  write_text(tmp / "mlp.nnl", nnl);
  const std::string input = example("mlp", "input.npy");
  Run onnx = nnref_cli({"run", (tmp / "mlp.nnl").string(), "--input", input, "--precision", "f64", "--output",
                        (tmp / "a.npy").string(), "--quiet"});
  INFO(onnx.err);
  REQUIRE(onnx.code == 0);
  Run npy = nnref_cli({"run", example("mlp", "model.nnl"), "--input", input, "--precision", "f64", "--output",
                       (tmp / "b.npy").string(), "--quiet"});
  REQUIRE(npy.code == 0);
  CHECK(read_npy((tmp / "a.npy").string())->values == read_npy((tmp / "b.npy").string())->values);
  // A budget too small for the initializers: size.budget at the weights line, as for .npz.
  Run tight = nnref_cli({"run", (tmp / "mlp.nnl").string(), "--input", input, "--max-memory", "100"});
  CHECK(tight.code == 1);
  CHECK(tight.err.find("size.budget") != std::string::npos);
}

TEST_CASE("onnx: run and conform read ONNX TensorProto .pb files") {
  TempDir tmp("onnx_pb");
  OnnxModel m;
  m.input("X", {"3"});
  m.node("Sigmoid", {"X"}, {"Y"});
  m.output("Y");
  m.write(tmp / "m.onnx");
  auto write_pb = [](const fs::path& p, const std::vector<float>& v) {
    onnx::TensorProto t;
    t.set_data_type(onnx::TensorProto::FLOAT);
    t.add_dims(static_cast<int64_t>(v.size()));
    t.set_raw_data(std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float)));
    std::ofstream f(p, std::ios::binary);
    t.SerializeToOstream(&f);
  };
  write_pb(tmp / "x.pb", {-1, 0, 2});
  Run r = nnref_cli({"run", (tmp / "m.onnx").string(), "--input", (tmp / "x.pb").string(), "--precision", "f64",
                     "--output", (tmp / "y.npy").string(), "--quiet"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  auto y = read_npy((tmp / "y.npy").string());
  REQUIRE(y);
  const std::vector<double> want{1 / (1 + std::exp(1.0)), 0.5, 1 / (1 + std::exp(-2.0))};
  for (size_t i = 0; i < 3; ++i) CHECK(std::abs(y->values[i] - want[i]) < 1e-16);
  // The float32 answers, rounded to nearest, are accepted; one off by a thousandth is not.
  write_pb(tmp / "good.pb", {static_cast<float>(want[0]), 0.5f, static_cast<float>(want[2])});
  write_pb(tmp / "bad.pb", {static_cast<float>(want[0]), 0.501f, static_cast<float>(want[2])});
  Run good = nnref_cli({"conform", (tmp / "m.onnx").string(), "--input", (tmp / "x.pb").string(), "--actual",
                        (tmp / "good.pb").string()});
  INFO(good.out << good.err);
  CHECK(good.code == 0);
  Run bad = nnref_cli({"conform", (tmp / "m.onnx").string(), "--input", (tmp / "x.pb").string(), "--actual",
                       (tmp / "bad.pb").string()});
  CHECK(bad.code == 1);
  // A .pb that is not a TensorProto, or that points at external data: errors about a file (exit 2).
  write_text(tmp / "junk.pb", std::string("\xff\xff\xff\xff", 4));
  Run junk = nnref_cli({"run", (tmp / "m.onnx").string(), "--input", (tmp / "junk.pb").string()});
  CHECK(junk.code == 2);
  CHECK(junk.err.find("error[pb.parse]") != std::string::npos);
  onnx::TensorProto ext;
  ext.set_data_type(onnx::TensorProto::FLOAT);
  ext.add_dims(3);
  ext.set_data_location(onnx::TensorProto::EXTERNAL);
  auto* loc = ext.add_external_data();
  loc->set_key("location");
  loc->set_value("/etc/passwd");
  {
    std::ofstream f(tmp / "ext.pb", std::ios::binary);
    ext.SerializeToOstream(&f);
  }
  Run external = nnref_cli({"run", (tmp / "m.onnx").string(), "--input", (tmp / "ext.pb").string()});
  CHECK(external.code == 2);
  CHECK(external.err.find("error[pb.external-data]") != std::string::npos);
}

// A runtime finding kept in tests/data/runtime_findings/NAME/ (docs/onnx.md): its folder, conform's
// verdict on an answer for model.onnx on the folder's inputs (input.npy, or input_0.pb, input_1.pb, …
// in order), and how many elements of the runtime's answer (actual.npz) conform finds outside, the
// verdict required to be a rejection.
namespace {

std::string finding_dir(const std::string& name) {
  return std::string(NNREF_SOURCE_DIR) + "/tests/data/runtime_findings/" + name + "/";
}

Run finding_verdict(const std::string& dir, const std::string& answer) {
  std::vector<std::string> inputs;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("input", 0) == 0) inputs.push_back(e.path().string());
  }
  std::sort(inputs.begin(), inputs.end());
  std::vector<std::string> args = {"conform", dir + "model.onnx", "--actual", answer, "--format", "json"};
  for (const std::string& i : inputs) args.insert(args.end(), {"--input", i});
  return nnref_cli(args);
}

int64_t finding_outside(const std::string& dir) {
  Run found = finding_verdict(dir, dir + "actual.npz");
  INFO(found.out << found.err);
  REQUIRE(found.code == 1);
  return nlohmann::json::parse(found.out)["outputs"][0]["outside"].get<int64_t>();
}

}  // namespace

// Two readings of the ONNX specification where ONNX Runtime departs from ONNX's reference
// implementation and backend tests, which nnref follows (docs/onnx.md): MaxUnpool's indices read in
// the given output_shape (5, 6, 7, 8 at flat 5, 7, 13, 15 of 5×5, where the reference's inferred
// 4×4 puts them at 6, 8, 16, 18: 8 elements differ), and align_corners with scales dividing by
// L_out − 1 (4 where L_in·s = 2.4 gives 22/7: 1 element). The tests' expected outputs
// (reference.npy) conform.
TEST_CASE("onnx: conform rejects ONNX Runtime's readings of MaxUnpool's output_shape and align_corners") {
  for (const auto& [name, outside] :
       {std::pair{"ort_maxunpool_output_shape", 8}, std::pair{"ort_resize_align_corners_scales", 1}}) {
    INFO(name);
    const std::string dir = finding_dir(name);
    CHECK(finding_outside(dir) == outside);
    Run reference = finding_verdict(dir, dir + "reference.npy");
    INFO(reference.out << reference.err);
    CHECK(reference.code == 0);
  }
}

// The ONNX Runtime finding kept in tests/data/runtime_findings/ort_sigmoid (docs/onnx.md): its
// Sigmoid answer on [-30, -20, -17.375, -17, -15, -12, -4, -3.75, -3.5, -3.25, -1, 2] is rejected,
// the 9 elements at x <= -3.5 outside (0 for sigmoid(-17.375) = 2.8e-8, 20 ulps off at -3.5); the
// correctly rounded float32 sigmoid (1 / (1 + e^-x) in double, rounded once) conforms.
TEST_CASE("onnx: conform rejects ONNX Runtime's Sigmoid finding and accepts the correctly rounded answer") {
  const std::string dir = finding_dir("ort_sigmoid");
  CHECK(finding_outside(dir) == 9);
  TempDir tmp("onnx_ort_sigmoid");
  const std::vector<double> x = {-30, -20, -17.375, -17, -15, -12, -4, -3.75, -3.5, -3.25, -1, 2};
  std::vector<double> y;
  for (double v : x) y.push_back(static_cast<float>(1 / (1 + std::exp(-v))));
  REQUIRE(write_npy((tmp / "y.npy").string(), HostTensor{DType::F32, Shape::of({12}), y}));
  Run rounded = nnref_cli({"conform", dir + "model.onnx", "--input", dir + "input.npy", "--actual", (tmp / "y.npy").string()});
  INFO(rounded.out << rounded.err);
  CHECK(rounded.code == 0);
}

// The ONNX Runtime findings of the QDQ model (tests/data/runtime_findings/ort_qdq_matmulnbits: its
// MatMul computed with int8 activations, every one of the 30 elements outside) and of DFT
// (ort_dft_non_power_of_two: the DC bin's imaginary part of a real ramp of length 10, exactly 0,
// answered −1.1e-4); the exact DFT rounded once to float32 conforms.
TEST_CASE("onnx: conform rejects ONNX Runtime's QDQ MatMul and DFT findings, accepts the DFT rounded once") {
  CHECK(finding_outside(finding_dir("ort_qdq_matmulnbits")) == 30);
  const std::string dir = finding_dir("ort_dft_non_power_of_two");
  CHECK(finding_outside(dir) == 1);
  std::vector<double> y;  // [1, 10, 2]: X_k = Σ 10n·e^(−2πikn/10), real and imaginary parts
  for (int k = 0; k < 10; ++k) {
    double re = 0, im = 0;
    for (int n = 0; n < 10; ++n) {
      re += 10.0 * n * std::cos(2 * M_PI * k * n / 10);
      im -= 10.0 * n * std::sin(2 * M_PI * k * n / 10);
    }
    y.push_back(static_cast<float>(re));
    y.push_back(static_cast<float>(im));
  }
  TempDir tmp("onnx_ort_dft");
  REQUIRE(write_npy((tmp / "y.npy").string(), HostTensor{DType::F32, Shape::of({1, 10, 2}), y}));
  Run rounded =
      nnref_cli({"conform", dir + "model.onnx", "--input", dir + "input.npy", "--actual", (tmp / "y.npy").string()});
  INFO(rounded.out << rounded.err);
  CHECK(rounded.code == 0);
}
