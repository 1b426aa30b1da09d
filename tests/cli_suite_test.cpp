// nnref suite (docs/suite.md): the files a case gets, the envelope against the example's golden
// output (computed by the Python reference, scripts/nnl_reference.py), skipped cases, shards, the
// errors of the whole command, and the TensorProto encoder read back by the ONNX reader.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/tensor_pb.hpp"
#include "cli_test_support.hpp"
#include "formats/tensor_file.hpp"
#include "formats/tensor_files/npy.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using nnref::test::example;
using nnref::test::nnref_cli;
using nnref::test::TempDir;
using Json = nlohmann::json;

namespace {

Json manifest(const fs::path& p) {
  std::ifstream f(p);
  return Json::parse(f);
}

std::vector<double> values(const fs::path& p) {
  auto t = nnref::read_npy(p.string());
  REQUIRE(t);
  return t->values;
}

}  // namespace

TEST_CASE("suite: an example's case holds its model, weights, input, and bounds around the golden output") {
  TempDir tmp("suite_example");
  const auto r = nnref_cli({"suite", "--out", (tmp / "s").string(), example("downsample_block", "model.nnl")});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const fs::path c = tmp / "s" / "downsample_block";
  CHECK(fs::is_regular_file(c / "model.nnl"));
  CHECK(fs::is_directory(c / "weights"));
  CHECK(fs::is_regular_file(c / "input_0.npy"));
  CHECK_FALSE(fs::exists(c / "test_data_set_0"));  // .pb copies are for ONNX models only
  const Json m = manifest(tmp / "s" / "manifest.json");
  CHECK(m["runtime_precision"] == "f32");
  CHECK(m["unit_roundoff"].get<double>() == std::ldexp(1.0, -24));
  REQUIRE(m["cases"].size() == 1);
  const Json& out = m["cases"][0]["outputs"][0];
  CHECK(out["elements"] == 512);
  CHECK(out["judged"] == 512);
  CHECK(out["not_judged"] == 0);
  // The golden output (float64, the Python reference) lies in the envelope, which holds the exact
  // enclosure; the exact enclosure is ordered.
  auto golden = nnref::read_npz(example("downsample_block", "expected.npz"));
  REQUIRE(golden);
  const std::vector<double>& g = (*golden)[0].second.values;
  const auto lo = values(c / "envelope_lower" / "output_0.npy"), hi = values(c / "envelope_upper" / "output_0.npy");
  const auto xlo = values(c / "exact_lower" / "output_0.npy"), xhi = values(c / "exact_upper" / "output_0.npy");
  REQUIRE(lo.size() == g.size());
  for (size_t i = 0; i < g.size(); ++i) {
    CHECK(lo[i] <= g[i]);
    CHECK(g[i] <= hi[i]);
    CHECK(lo[i] <= xlo[i]);
    CHECK(xlo[i] <= xhi[i]);
    CHECK(xhi[i] <= hi[i]);
  }
}

TEST_CASE("suite: a model without inputs beside it is skipped with io.suite-no-input, and alone the command fails") {
  TempDir tmp("suite_noinput");
  fs::create_directories(tmp / "mlp");
  fs::copy(example("mlp", "model.nnl"), tmp / "mlp" / "model.nnl");
  fs::copy(fs::path(example("mlp", "weights")), tmp / "mlp" / "weights", fs::copy_options::recursive);
  const auto alone = nnref_cli({"suite", "--out", (tmp / "a").string(), (tmp / "mlp" / "model.nnl").string()});
  CHECK(alone.code == 2);
  CHECK(alone.err.find("io.suite-no-input") != std::string::npos);
  const auto both = nnref_cli({"suite", "--out", (tmp / "b").string(), (tmp / "mlp" / "model.nnl").string(),
                               example("mlp", "model.nnl")});
  INFO(both.err);
  CHECK(both.code == 0);
  const Json m = manifest(tmp / "b" / "manifest.json");
  REQUIRE(m["skipped"].size() == 1);
  CHECK(m["skipped"][0]["code"] == "io.suite-no-input");
  REQUIRE(m["cases"].size() == 1);
  CHECK(m["cases"][0]["name"] == "mlp-2");  // the second case named mlp
  CHECK(m["cases"][0]["index"] == 1);
}

TEST_CASE("suite: --shard i/n writes the cases k with k % n == i, a manifest per shard") {
  TempDir tmp("suite_shard");
  const std::vector<std::string> models = {example("mlp", "model.nnl"), example("downsample_block", "model.nnl")};
  for (const std::string shard : {"0/2", "1/2"}) {
    std::vector<std::string> args = {"suite", "--out", (tmp / "s").string(), "--shard", shard};
    args.insert(args.end(), models.begin(), models.end());
    REQUIRE(nnref_cli(args).code == 0);
  }
  CHECK_FALSE(fs::exists(tmp / "s" / "manifest.json"));
  const Json a = manifest(tmp / "s" / "manifest-0-of-2.json"), b = manifest(tmp / "s" / "manifest-1-of-2.json");
  REQUIRE(a["cases"].size() == 1);
  REQUIRE(b["cases"].size() == 1);
  CHECK(a["cases"][0]["name"] == "mlp");
  CHECK(b["cases"][0]["name"] == "downsample_block");
  CHECK(a["all_cases"] == 2);
}

TEST_CASE("suite: a missing argument, a bad shard and an --out that cannot be made are errors of the command") {
  TempDir tmp("suite_errors");
  const auto missing = nnref_cli({"suite", "--out", (tmp / "s").string(), (tmp / "nothing.nnl").string()});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("io.suite-source") != std::string::npos);
  CHECK_FALSE(fs::exists(tmp / "s"));
  const auto shard = nnref_cli({"suite", "--out", (tmp / "s").string(), "--shard", "2/2", example("mlp", "model.nnl")});
  CHECK(shard.code == 2);
  CHECK(shard.err.find("usage.shard") != std::string::npos);
  nnref::test::write_text(tmp / "file", "x");
  const auto out = nnref_cli({"suite", "--out", (tmp / "file" / "s").string(), example("mlp", "model.nnl")});
  CHECK(out.code == 2);
  CHECK(out.err.find("io.suite-out") != std::string::npos);
}

TEST_CASE("suite: the TensorProto encoder's files read back through the ONNX reader, NaN and infinities included") {
  TempDir tmp("suite_pb");
  const double nan = std::nan(""), inf = HUGE_VAL;
  const std::vector<nnref::HostTensor> tensors = {
      {nnref::DType::F64, nnref::Shape::of({2, 2}), {1.5, -inf, nan, 0.1}},
      {nnref::DType::F32, nnref::Shape::of({3}), {0.25, -3, std::ldexp(1.0, 100)}},
      {nnref::DType::I64, nnref::Shape::of({2}), {-7, 9007199254740992.0}},
      {nnref::DType::Bool, nnref::Shape::of({3}), {1, 0, 1}},
      {nnref::DType::U8, nnref::Shape::of({1, 2}), {255, 3}},
  };
  for (size_t k = 0; k < tensors.size(); ++k) {
    const std::string path = (tmp / ("t" + std::to_string(k) + ".pb")).string();
    REQUIRE(nnref::write_tensor_pb(path, tensors[k], "x"));
    auto back = nnref::read_tensor_arg(path);
    REQUIRE(back);
    CHECK(back->dtype == tensors[k].dtype);
    CHECK(back->shape == tensors[k].shape);
    REQUIRE(back->values.size() == tensors[k].values.size());
    for (size_t i = 0; i < back->values.size(); ++i) {
      const double want = tensors[k].values[i];
      if (std::isnan(want)) CHECK(std::isnan(back->values[i]));
      else CHECK(back->values[i] == want);
    }
  }
}
