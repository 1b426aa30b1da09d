// nnref conform and run's enclosure precisions, end to end on the mlp example: a correct float32
// answer (nnref's own f32 oracle, and the exact answer rounded to float32) conforms; an answer one
// element off by 1e-3 relative does not; wrong files are usage errors (exit 2).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;
namespace fs = std::filesystem;

namespace {

// The model's output by nnref run at a precision, read back.
HostTensor run_output(const test::TempDir& tmp, const std::string& precision) {
  const std::string path = (tmp / ("out_" + precision + ".npy")).string();
  const Run r = nnref_cli({"run", example("mlp", "model.nnl"), "--input", example("mlp", "input.npy"), "--output", path,
                           "--precision", precision, "--quiet"});
  REQUIRE(r.code == 0);
  return *read_npy(path);
}

std::string write(const test::TempDir& tmp, const std::string& name, const HostTensor& t) {
  const std::string path = (tmp / name).string();
  REQUIRE(write_npy(path, t).ok());
  return path;
}

Run conform(const std::vector<std::string>& extra) {
  std::vector<std::string> args{"conform", example("mlp", "model.nnl"), "--input", example("mlp", "input.npy")};
  args.insert(args.end(), extra.begin(), extra.end());
  return nnref_cli(args);
}

}  // namespace

TEST_CASE("conform: correct float32 answers conform, a 1e-3 relative slip does not") {
  test::TempDir tmp("conform");
  HostTensor exact = run_output(tmp, "mp");
  HostTensor rounded = exact;
  rounded.dtype = DType::F32;
  for (double& v : rounded.values) v = static_cast<float>(v);
  CHECK(conform({"--actual", write(tmp, "rounded.npy", rounded)}).code == 0);
  CHECK(conform({"--engine", "f32"}).code == 0);

  HostTensor slipped = rounded;
  slipped.values[1] *= 1 + 1e-3;
  const Run bad = conform({"--actual", write(tmp, "slipped.npy", slipped), "--format", "json"});
  CHECK(bad.code == 1);
  CHECK(bad.out.find("\"verdict\": \"does not conform\"") != std::string::npos);
  CHECK(bad.out.find("\"index\": [\n") != std::string::npos);
  const Run text = conform({"--actual", write(tmp, "slipped2.npy", slipped)});
  CHECK(text.out.find("FAIL output: 3 elements, 1 outside the f32 envelope") != std::string::npos);
  CHECK(text.out.find("element [0, 1]") != std::string::npos);

  // No envelope side overflows, so the verdict did not need the exact value: the report says so.
  CHECK(text.out.find("exact value: not computed (no envelope side lies past the largest finite number") !=
        std::string::npos);
  CHECK(text.out.find("; exact value not computed; envelope [") != std::string::npos);
  CHECK(bad.out.find("\"exact\": null") != std::string::npos);
  CHECK(bad.out.find("\"max_exact_magnitude\": null") != std::string::npos);
  CHECK(bad.out.find("exact_precision_bits") == std::string::npos);
  // --exact encloses it: the worst element's enclosure holds the 50-digit oracle's value (given as a
  // double: within half an ulp of it, which a 61-bit enclosure may be narrower than).
  const Run enclosed = conform({"--actual", write(tmp, "slipped4.npy", slipped), "--exact", "--format", "json"});
  CHECK(enclosed.code == 1);
  CHECK(enclosed.out.find("\"exact_precision_bits\": 61") != std::string::npos);
  const std::string key = "\"exact\": [";
  const size_t at = enclosed.out.find(key);
  REQUIRE(at != std::string::npos);
  double lo = 0, hi = 0;
  REQUIRE(std::sscanf(enclosed.out.c_str() + at + key.size(), " %lf , %lf", &lo, &hi) == 2);
  const double half_ulp = 0x1p-53 * std::abs(exact.values[1]);
  CHECK(lo - half_ulp <= exact.values[1]);
  CHECK(exact.values[1] <= hi + half_ulp);
  CHECK(hi - lo <= 1e-9 * std::abs(exact.values[1]));

  // Without the exact value, the same verdicts, and the report says what it lacks.
  const Run skipped = conform({"--actual", write(tmp, "rounded2.npy", rounded), "--skip-exact"});
  CHECK(skipped.code == 0);
  CHECK(skipped.out.find("exact value: not computed (--skip-exact") != std::string::npos);
  CHECK(conform({"--actual", write(tmp, "rounded3.npy", rounded), "--skip-exact", "--exact"}).code == 2);
}

TEST_CASE("conform: a wrong shape, a missing output name or no subject is a usage error") {
  test::TempDir tmp("conform-usage");
  HostTensor wrong{DType::F32, *Shape::make({1, 4}), {0, 0, 0, 0}};
  const Run shape = conform({"--actual", write(tmp, "wrong.npy", wrong)});
  CHECK(shape.code == 2);
  CHECK(shape.err.find("error[usage.actual-shape]") != std::string::npos);
  const std::string npz = (tmp / "named.npz").string();
  HostTensor three{DType::F32, *Shape::make({1, 3}), {0, 0, 0}};
  REQUIRE(write_npz(npz, {{"logits", three}}).ok());
  const Run missing = conform({"--actual", npz});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("error[usage.actual-missing]") != std::string::npos);
  CHECK(conform({}).code == 2);
}

TEST_CASE("conform: where no finite bound holds the verdict is inconclusive, and an overflow side is judged") {
  test::TempDir tmp("conform-unbounded");
  // mnist_classifier's fc1 sums 5,408 products and a bias: at float16 (u = 2^-11) the worst-case
  // factor γ(5409) = 5409·u/(1 − 5409·u) has 5409·u > 1, so no bound holds for fc1 or anything after.
  HostTensor anything{DType::F32, *Shape::make({1, 10}), std::vector<double>(10, 1e6)};
  const std::vector<std::string> args{"conform", example("mnist_classifier", "model.nnl"), "--input",
                                      example("mnist_classifier", "input.npy"), "--actual",
                                      write(tmp, "anything.npy", anything), "--runtime-precision", "f16"};
  std::vector<std::string> json = args;
  json.insert(json.end(), {"--format", "json"});
  const Run none = nnref_cli(json);
  CHECK(none.code == 3);
  CHECK(none.out.find("\"verdict\": \"inconclusive\"") != std::string::npos);
  CHECK(none.out.find("\"not_judged\": 10") != std::string::npos);
  CHECK(none.out.find("\"outside\": 0") != std::string::npos);
  CHECK(none.out.find("\"node\": \"fc1\"") != std::string::npos);
  CHECK(none.out.find("a sum of 5409 terms") != std::string::npos);
  const Run text = nnref_cli(args);
  CHECK(text.code == 3);
  CHECK(text.out.find("0 outside the f16 envelope, 10 not judged") != std::string::npos);
  CHECK(text.out.find("lost a bound at node 'fc1'") != std::string::npos);
  std::vector<std::string> ok = args;
  ok.push_back("--inconclusive-ok");
  CHECK(nnref_cli(ok).code == 0);

  // 2 · 60000 = 120000 overflows float16 (largest 65504): a correct f16 runtime prints +inf, so the
  // envelope is [about 120000, +inf], the upper side judged (the exact value lies past 65504);
  // +inf conforms, 0 does not.
  const fs::path model = tmp / "overflow";
  fs::create_directories(model / "weights");
  std::ofstream(model / "model.nnl") << "version 0.2;\nmodel overflow {\n  config { weights: \"./weights\"; }\n"
                                        "  layer input = Input(shape: [1]);\n  layer fc = Dense(units: 1);\n}\n";
  REQUIRE(write_npy((model / "weights" / "fc.weight.npy").string(), HostTensor{DType::F32, *Shape::make({1, 1}), {2.0}}).ok());
  REQUIRE(write_npy((model / "weights" / "fc.bias.npy").string(), HostTensor{DType::F32, *Shape::make({1}), {0.0}}).ok());
  const std::string input = write(tmp, "x.npy", HostTensor{DType::F32, *Shape::make({1, 1}), {60000.0}});
  const auto judge = [&](double y) {
    return nnref_cli({"conform", (model / "model.nnl").string(), "--input", input, "--actual",
                      write(tmp, "y.npy", HostTensor{DType::F32, *Shape::make({1, 1}), {y}}), "--runtime-precision", "f16"});
  };
  const Run inf = judge(std::numeric_limits<double>::infinity());
  CHECK(inf.code == 0);
  CHECK(inf.out.find("exact value: 61-bit endpoints") != std::string::npos);  // needed, so computed
  CHECK(inf.out.find("0 outside the f16 envelope, 1 sides past the largest finite number") != std::string::npos);
  CHECK(inf.out.find("conforms") != std::string::npos);
  const Run zero = judge(0.0);
  CHECK(zero.code == 1);
  CHECK(zero.out.find("1 outside the f16 envelope, 1 sides past the largest finite number") != std::string::npos);
  // Without the exact value nothing says that +inf is correct there: not judged, never accepted.
  const Run unknown = nnref_cli({"conform", (model / "model.nnl").string(), "--input", input, "--actual",
                                 write(tmp, "y.npy", HostTensor{DType::F32, *Shape::make({1, 1}), {INFINITY}}),
                                 "--runtime-precision", "f16", "--skip-exact"});
  CHECK(unknown.code == 3);
  CHECK(unknown.out.find("0 outside the f16 envelope, 1 not judged") != std::string::npos);
}

TEST_CASE("run: interval and envelope write midpoints and radii, the interval's radius is tiny") {
  test::TempDir tmp("run-radius");
  const std::string mid = (tmp / "mid.npy").string(), rad = (tmp / "rad.npy").string();
  for (const char* precision : {"interval", "envelope"}) {
    INFO(precision);
    const Run r = nnref_cli({"run", example("mlp", "model.nnl"), "--input", example("mlp", "input.npy"), "--output",
                             mid, "--radius-output", rad, "--precision", precision, "--quiet"});
    REQUIRE(r.code == 0);
    const HostTensor m = *read_npy(mid), radius = *read_npy(rad), exact = run_output(tmp, "mp");
    for (size_t i = 0; i < m.values.size(); ++i) {
      CHECK(std::abs(m.values[i] - exact.values[i]) <= radius.values[i]);
      CHECK(radius.values[i] < (std::string(precision) == "interval" ? 1e-15 : 1e-4));
      CHECK(radius.values[i] > (std::string(precision) == "interval" ? 0 : 1e-9));
    }
  }
  const Run point = nnref_cli({"run", example("mlp", "model.nnl"), "--input", example("mlp", "input.npy"),
                               "--radius-output", rad});
  CHECK(point.code == 2);
  CHECK(point.err.find("error[usage.radius-output]") != std::string::npos);
}
