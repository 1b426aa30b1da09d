// nnref run --engine fast, conform --engine fast and bench, end to end on the examples: the fast
// path's answers conform, are the same for 1 and 2 threads and for a forced target, bench reports
// what it promises, and the fast path's options are refused where they mean nothing.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "fastpath/gemm.hpp"
#include "fastpath/targets.hpp"
#include "formats/tensor_files/npy.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

const char* kExamples[] = {"mlp", "mnist_classifier", "resnet_block", "downsample_block"};

HostTensor fast_output(const TempDir& tmp, const std::string& name, const std::vector<std::string>& extra) {
  const std::string path = (tmp / (name + ".npy")).string();
  std::vector<std::string> args{"run", example(name, "model.nnl"), "--input", example(name, "input.npy"), "--engine",
                                "fast", "--output", path, "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  const Run r = nnref_cli(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  return *read_npy(path);
}

}  // namespace

TEST_CASE("run --engine fast: float32 outputs, bitwise the same for 1 and 2 threads, and conform --engine fast accepts them") {
  TempDir tmp("cli-engine");
  for (const char* name : kExamples) {
    INFO("example " << name);
    const HostTensor one = fast_output(tmp, name, {}), two = fast_output(tmp, name, {"--threads", "2"});
    CHECK(one.dtype == DType::F32);
    CHECK(one.values == two.values);
    const Run c = nnref_cli({"conform", example(name, "model.nnl"), "--input", example(name, "input.npy"), "--engine",
                             "fast", "--threads", "2", "--format", "json"});
    INFO(c.out << c.err);
    CHECK(c.code == 0);
    CHECK(nlohmann::json::parse(c.out)["verdict"] == "conforms");
  }
}

TEST_CASE("run --engine fast --target: each available target runs, an unknown one is a usage error naming them") {
  const auto targets = fastpath::available_targets();
  REQUIRE_FALSE(targets.empty());
  // Forcing is global to the process; each --target replaces the one before.
  for (const auto& name : targets) {
    INFO("target " << name);
    const Run c = nnref_cli({"conform", example("resnet_block", "model.nnl"), "--input",
                             example("resnet_block", "input.npy"), "--engine", "fast", "--target", name});
    CHECK(c.code == 0);
    CHECK(fastpath::current_target() == name);
  }
  const Run bad = nnref_cli({"run", example("mlp", "model.nnl"), "--input", example("mlp", "input.npy"), "--engine",
                             "fast", "--target", "NEON"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("usage.target") != std::string::npos);
  CHECK(bad.err.find(targets.front()) != std::string::npos);
}

TEST_CASE("run: the fast path's options without --engine fast, and a precision it does not have, are usage errors") {
  const std::string model = example("mlp", "model.nnl"), input = example("mlp", "input.npy");
  const Run threads = nnref_cli({"run", model, "--input", input, "--threads", "2"});
  CHECK(threads.code == 2);
  CHECK(threads.err.find("usage.fast-only") != std::string::npos);
  const Run precision = nnref_cli({"run", model, "--input", input, "--engine", "fast", "--precision", "f64"});
  CHECK(precision.code == 2);
  CHECK(precision.err.find("usage.fast-precision") != std::string::npos);
  const Run memory = nnref_cli({"run", model, "--input", input, "--engine", "fast", "--max-memory", "1K"});
  CHECK(memory.code == 1);
}

TEST_CASE("bench: median and spread of the latency, GFLOP/s and percent of peak, as JSON") {
  const Run r = nnref_cli({"bench", example("resnet_block", "model.nnl"), "--engine", "fast", "--threads", "2",
                           "--repeat", "5", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["threads"] == 2);
  CHECK(j["repeat"] == 5);
  const double median = j["median_ms"], lo = j["min_ms"], hi = j["max_ms"];
  CHECK(0 < lo);
  CHECK(lo <= median);
  CHECK(median <= hi);
  // resnet_block: two 3x3 convolutions, 32x32 pixels, 64 -> 64 channels: 2 * 2 * 32*32*64*64*9 flops.
  CHECK(j["gflop"].get<double>() == Approx(2.0 * 2 * 32 * 32 * 64 * 64 * 9 / 1e9));
  CHECK(j["gflops"].get<double>() == Approx(j["gflop"].get<double>() / (median / 1e3)));
  CHECK(j["percent_of_peak"].get<double>() == Approx(100 * j["gflops"].get<double>() / j["peak_gflops"].get<double>()));
  const Run oracle = nnref_cli({"bench", example("mlp", "model.nnl"), "--repeat", "2"});
  CHECK(oracle.code == 0);
  CHECK(oracle.out.find("latency: median") != std::string::npos);
}
