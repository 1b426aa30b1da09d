// The nnref command, run in-process: exit codes, what it prints, what it writes.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/app.hpp"
#include "cli_test_support.hpp"
#include "temp_dir.hpp"
#include "formats/tensor_files/npy.hpp"

using namespace nnref;
using namespace nnref::test;
namespace fs = std::filesystem;

TEST_CASE("cli: usage errors exit 2, help exits 0") {
  CHECK(nnref_cli({}).code == 2);
  CHECK(nnref_cli({"frobnicate"}).code == 2);
  CHECK(nnref_cli({"run"}).code == 2);  // no model
  CHECK(nnref_cli({"run", example("mlp", "model.nnl"), "--input", example("mlp", "input.npy"), "--precision", "f16"})
            .code == 2);
  for (const char* sub : {"run", "check", "inspect", "init-weights"}) {
    Run r = nnref_cli({sub, "--help"});
    CHECK(r.code == 0);
    CHECK(r.out.find("Usage") != std::string::npos);
  }
}

TEST_CASE("cli: the hidden --man-page and --bash-completion print the manual from the CLI, and --help hides them") {
  Run man = nnref_cli({"--man-page"});
  CHECK(man.code == 0);
  CHECK(man.out.find(".TH NNREF 1") != std::string::npos);
  CHECK(man.out.find(".SS \"nnref nac compile\"") != std::string::npos);
  Run completion = nnref_cli({"--bash-completion"});
  CHECK(completion.code == 0);
  CHECK(completion.out.find("complete -F _nnref nnref") != std::string::npos);
  Run help = nnref_cli({"--help"});
  CHECK(help.code == 0);
  CHECK(help.out.find("--man-page") == std::string::npos);
  CHECK(help.out.find("--bash-completion") == std::string::npos);
}

TEST_CASE("cli: run needs no --input for a model without inputs, and names the inputs missing otherwise") {
  // ONNX's test_constant (libonnx-testdata): one Constant node, a [5, 5] output.
  const std::string constant = "/usr/share/libonnx-testdata/data/node/test_constant/model.onnx";
  REQUIRE(fs::exists(constant));
  Run c = nnref_cli({"run", constant});
  INFO(c.err);
  CHECK(c.code == 0);
  CHECK(c.out.find("shape [5, 5]") != std::string::npos);
  Run missing = nnref_cli({"run", example("mnist_classifier", "model.nnl")});
  CHECK(missing.code != 0);
  CHECK(missing.err.find("input.count") != std::string::npos);
}

TEST_CASE("cli: run prints the class scores and writes them") {
  test::TempDir tmp("cli_run");
  const fs::path& dir = tmp.path;
  Run r = nnref_cli({"run", example("mnist_classifier", "model.nnl"), "--input",
                     example("mnist_classifier", "input.npy"), "--output", (dir / "out.npz").string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("output output: shape [1, 10] float64") != std::string::npos);
  CHECK(r.out.find("time: ") != std::string::npos);
  auto written = read_npz((dir / "out.npz").string());
  REQUIRE(written.ok());
  REQUIRE(written->size() == 1);
  CHECK(written->at(0).first == "output");
  double sum = 0;
  for (double v : written->at(0).second.values) sum += v;
  CHECK(sum == Approx(1.0).epsilon(1e-12));  // softmax scores

  Run f32 = nnref_cli({"run", example("mlp", "model.nnl"), "--input", example("mlp", "input.npy"), "--precision",
                       "f32", "--output", (dir / "y.npy").string(), "--quiet"});
  REQUIRE(f32.code == 0);
  CHECK(f32.out.empty());
  auto y = read_npy((dir / "y.npy").string());
  REQUIRE(y.ok());
  CHECK(y->dtype == DType::F32);
}

TEST_CASE("cli: for a batch-1 model the bare per-sample input is accepted") {
  test::TempDir tmp("cli_bare");
  auto batched = read_npy(example("mlp", "input.npy"));
  REQUIRE(batched.ok());
  REQUIRE(batched->shape == Shape::of({1, 4}));
  HostTensor bare = *batched;
  bare.shape = Shape::of({4});
  REQUIRE(write_npy((tmp / "bare.npy").string(), bare).ok());
  Run a = nnref_cli({"run", example("mlp", "model.nnl"), "--input", example("mlp", "input.npy"), "-o",
                     (tmp / "a.npy").string()});
  Run b = nnref_cli({"run", example("mlp", "model.nnl"), "--input", (tmp / "bare.npy").string(), "-o",
                     (tmp / "b.npy").string()});
  REQUIRE((a.code == 0 && b.code == 0));
  CHECK(read_npy((tmp / "a.npy").string())->values == read_npy((tmp / "b.npy").string())->values);
  CHECK(read_npy((tmp / "b.npy").string())->shape == Shape::of({1, 3}));
}

TEST_CASE("cli: an .npz input binds each member to the input of its name") {
  test::TempDir tmp("cli_npz_input");
  auto x = read_npy(example("mlp", "input.npy"));
  REQUIRE(x.ok());
  REQUIRE(write_npz((tmp / "named.npz").string(), {{"input", *x}}).ok());
  REQUIRE(write_npz((tmp / "unknown.npz").string(), {{"pixels", *x}}).ok());
  Run a = nnref_cli({"run", example("mlp", "model.nnl"), "--input", example("mlp", "input.npy"), "-o",
                     (tmp / "a.npy").string()});
  Run b = nnref_cli({"run", example("mlp", "model.nnl"), "--input", (tmp / "named.npz").string(), "-o",
                     (tmp / "b.npy").string()});
  INFO(b.err);
  REQUIRE((a.code == 0 && b.code == 0));
  CHECK(read_npy((tmp / "a.npy").string())->values == read_npy((tmp / "b.npy").string())->values);
  Run unknown = nnref_cli({"run", example("mlp", "model.nnl"), "--input", (tmp / "unknown.npz").string()});
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("io.input-unknown") != std::string::npos);
  CHECK(unknown.err.find("'pixels'") != std::string::npos);
  Run twice = nnref_cli({"run", example("mlp", "model.nnl"), "--input", (tmp / "named.npz").string(), "--input",
                         "input=" + example("mlp", "input.npy")});
  CHECK(twice.code == 2);
  CHECK(twice.err.find("io.input-repeated") != std::string::npos);
}

TEST_CASE("cli: run on bad inputs gives located diagnostics and exit 2") {
  test::TempDir tmp("cli_bad");
  const fs::path& dir = tmp.path;
  SECTION("missing input file: I/O, exit 2") {
    Run r = nnref_cli({"run", example("mlp", "model.nnl"), "--input", (dir / "nope.npy").string()});
    CHECK(r.code == 2);
    CHECK(r.err.find("nope.npy") != std::string::npos);
  }
  SECTION("unknown input name") {
    Run r = nnref_cli({"run", example("mlp", "model.nnl"), "--input", "pixels=" + example("mlp", "input.npy")});
    CHECK(r.code == 2);
    CHECK(r.err.find("io.input-unknown") != std::string::npos);
  }
  SECTION("inputs that do not match the model's: named twice, too many, none") {
    std::string x = example("mlp", "input.npy");
    Run twice = nnref_cli({"run", example("mlp", "model.nnl"), "--input", "input=" + x, "--input", "input=" + x});
    CHECK(twice.code == 2);
    CHECK(twice.err.find("io.input-repeated") != std::string::npos);
    Run many = nnref_cli({"run", example("mlp", "model.nnl"), "--input", x, "--input", x});
    CHECK(many.code == 2);
    CHECK(many.err.find("io.input-count") != std::string::npos);
    Run by_name = nnref_cli({"run", example("mlp", "model.nnl"), "--input", "input=" + x});
    CHECK(by_name.code == 0);
  }
  SECTION("input of the wrong shape: the model is fine, the input is not") {
    Run r = nnref_cli({"run", example("mlp", "model.nnl"), "--input", example("mnist_classifier", "input.npy")});
    CHECK(r.code == 2);
    CHECK(r.err.find("input.shape-mismatch") != std::string::npos);
  }
  SECTION("a truncated input file") {
    std::ifstream in(example("mlp", "input.npy"), std::ios::binary);
    std::string bytes(60, '\0');
    in.read(bytes.data(), 60);
    write_text(dir / "short.npy", bytes);
    Run r = nnref_cli({"run", example("mlp", "model.nnl"), "--input", (dir / "short.npy").string()});
    CHECK(r.code == 2);
    CHECK(r.err.find("npy.truncated") != std::string::npos);
  }
  SECTION("an input of a dtype nnref does not read (complex): exit 2") {
    std::string header = "{'descr': '<c16', 'fortran_order': False, 'shape': (1, 4), }";
    header.append(128 - 10 - header.size() - 1, ' ');
    header += '\n';
    std::string npy = std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header +
                      std::string(64, '\0');
    write_text(dir / "complex.npy", npy);
    Run r = nnref_cli({"run", example("mlp", "model.nnl"), "--input", (dir / "complex.npy").string()});
    CHECK(r.code == 2);
    CHECK(r.err.find("npy.unsupported-dtype") != std::string::npos);
  }
  SECTION("a budget too small for the model") {
    Run r = nnref_cli({"run", example("resnet_block", "model.nnl"), "--input", example("resnet_block", "input.npy"),
                       "--max-memory", "1M"});
    CHECK(r.code == 1);
    CHECK(r.err.find("size.budget") != std::string::npos);
  }
  SECTION("several outputs cannot go to one .npy") {
    write_text(dir / "two.nnl", R"(version 0.2;
model two { config { weights: "./w"; }
  layer input = Input(shape: [3]);
  layer a = ReLU();
  layer b = Sigmoid();
  connections { input -> a; input -> b; }
})");
    fs::create_directories(dir / "w");
    HostTensor x{DType::F64, Shape::of({1, 3}), {-1, 0, 1}};
    REQUIRE(write_npy((dir / "x.npy").string(), x).ok());
    Run r = nnref_cli({"run", (dir / "two.nnl").string(), "--input", (dir / "x.npy").string(), "--output",
                       (dir / "y.npy").string()});
    CHECK(r.code == 2);
    CHECK(r.err.find("io.output-format") != std::string::npos);
    Run ok = nnref_cli({"run", (dir / "two.nnl").string(), "--input", (dir / "x.npy").string()});
    CHECK(ok.code == 0);
    CHECK(ok.out.find("output a: shape [1, 3]") != std::string::npos);
    CHECK(ok.out.find("output b: shape [1, 3]") != std::string::npos);
  }
}

TEST_CASE("cli: check reports every binding problem, init-weights makes a model checkable") {
  test::TempDir tmp("cli_check");
  const fs::path& dir = tmp.path;
  fs::copy_file(example("resnet_block", "model.nnl"), dir / "model.nnl");
  Run missing = nnref_cli({"check", (dir / "model.nnl").string()});
  CHECK(missing.code == 3);  // shapes proved, bindings not checked

  Run init = nnref_cli({"init-weights", (dir / "model.nnl").string(), "--seed", "7", "--out", (dir / "weights").string()});
  INFO(init.err);
  REQUIRE(init.code == 0);
  CHECK(fs::exists(dir / "weights" / "bn1.gamma.npy"));
  CHECK(fs::exists(dir / "weights" / "conv2.weight.npy"));
  Run ok = nnref_cli({"check", (dir / "model.nnl").string()});
  INFO(ok.err);
  CHECK(ok.code == 0);
  CHECK(ok.out.find("ok") != std::string::npos);

  // Same seed, same bytes; the conv weights are He-scaled: variance 2/fan_in, fan_in = 64·3·3.
  auto w = read_npy((dir / "weights" / "conv1.weight.npy").string());
  REQUIRE(w.ok());
  CHECK(w->shape == Shape::of({64, 64, 3, 3}));
  double sq = 0;
  for (double v : w->values) sq += v * v;
  CHECK(sq / double(w->values.size()) == Approx(2.0 / 576).epsilon(0.03));
  Run again = nnref_cli({"init-weights", (dir / "model.nnl").string(), "--seed", "7", "--out", (dir / "w2.npz").string()});
  REQUIRE(again.code == 0);
  auto z = read_npz((dir / "w2.npz").string());
  REQUIRE(z.ok());
  auto same = std::find_if(z->begin(), z->end(), [](const auto& e) { return e.first == "conv1.weight"; });
  REQUIRE(same != z->end());
  CHECK(same->second.values == w->values);

  // A misshapen and an extra weight file: both reported, one error and one warning.
  HostTensor wrong{DType::F32, Shape::of({64}), std::vector<double>(64, 0.5)};
  REQUIRE(write_npy((dir / "weights" / "bn1.gamma.npy").string(), HostTensor{DType::F32, Shape::of({63}), std::vector<double>(63, 1.0)}).ok());
  // conv1 is checked (bn1, which fails, comes after it): its extra entry is reported unused.
  REQUIRE(write_npy((dir / "weights" / "conv1.gamma.npy").string(), wrong).ok());
  Run bad = nnref_cli({"check", (dir / "model.nnl").string()});
  CHECK(bad.code == 1);
  CHECK(bad.err.find("error[bind.shape-mismatch]") != std::string::npos);
  CHECK(bad.err.find("bn1.gamma") != std::string::npos);
  CHECK(bad.err.find("warning[bind.unused]") != std::string::npos);
  CHECK(bad.err.find("model.nnl:") != std::string::npos);
  // run names the parameter as check does, as NNL writes it: bn1.gamma, not the IR's bn1/scale.
  Run run = nnref_cli({"run", (dir / "model.nnl").string(), "--input", example("resnet_block", "input.npy")});
  CHECK(run.code == 1);
  CHECK(run.err.find("error[bind.shape-mismatch]") != std::string::npos);
  CHECK(run.err.find("parameter bn1.gamma") != std::string::npos);
  CHECK(run.err.find("bn1/scale") == std::string::npos);
}

TEST_CASE("cli: inspect lists shapes, parameters and MACs") {
  Run r = nnref_cli({"inspect", example("mnist_classifier", "model.nnl")});
  INFO(r.err);
  REQUIRE(r.code == 0);
  // conv1: 26·26·32 outputs, each 1·3·3 MACs = 194688; weights 32·1·3·3 + 32 = 320 parameters.
  CHECK(r.out.find("[1, 26, 26, 32]") != std::string::npos);
  CHECK(r.out.find("194688") != std::string::npos);
  CHECK(r.out.find("320") != std::string::npos);
  // fc1: 13·13·32 = 5408 inputs × 128 units = 692224 MACs.
  CHECK(r.out.find("692224") != std::string::npos);
}
