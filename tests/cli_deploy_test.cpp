// The deployment workflow through the nnref command: check before weights exist, init-weights
// where the config says, run at other sizes, and one reading of memory in inspect, check and run.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/app.hpp"
#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;
namespace fs = std::filesystem;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Input [8, 8, 3] → conv1 (4 filters, 3×3, same) → pool (2×2) → flat → fc (5 units): parameters
// conv1.weight 4·3·3·3 = 108, conv1.bias 4, fc.weight (4·4·4 = 64)·5 = 320, fc.bias 5.
constexpr const char* kCnn = R"(version 0.2;
model cnn {
  config {
    weights: "./trained";
  }
  layer image = Input(shape: [8, 8, 3]);
  layer conv1 = Conv2D(filters: 4, kernel: 3, padding: "same");
  layer pool = MaxPool2D(kernel: 2);
  layer flat = Flatten();
  layer fc = Dense(units: 5);
  connections {
    image -> conv1;
    conv1 -> pool;
    pool -> flat;
    flat -> fc;
  }
}
)";
constexpr int64_t kCnnParams = 108 + 4 + 320 + 5;

}  // namespace

TEST_CASE("deploy: check proves shapes before the weights exist, says bindings were not checked, exits 3") {
  test::TempDir tmp("deploy_noweights");
  std::ofstream(tmp / "cnn.nnl") << kCnn;
  const std::string model = (tmp / "cnn.nnl").string();

  Run r = nnref_cli({"check", model, "--dim", "batch=1..16"});
  INFO(r.err);
  CHECK(r.code == 3);
  // Located at the config's weights entry (line 4, column 14), with the command that goes on.
  CHECK(has(r.err, model + ":4:14: warning[check.no-weights]"));
  CHECK(has(r.err, "the bindings of 4 parameters were not checked"));
  CHECK(has(r.err, "`nnref init-weights " + model + "`"));
  CHECK(has(r.out, "ok, "));
  CHECK(has(r.out, "; bindings not checked (no weights)"));

  Run json = nnref_cli({"check", model, "--format", "json"});
  CHECK(json.code == 3);
  CHECK(has(json.out, "\"bindings_checked\": false"));
  CHECK(has(json.out, "\"model_read\": true"));
  CHECK(has(json.out, "\"refuted\": 0"));

  // A shape error is still an error without weights: exit 1, not 3.
  std::string bad = kCnn;
  bad.replace(bad.find("[8, 8, 3]"), 9, "[1, 1, 3]");  // a 1×1 image cannot be pooled 2×2
  std::ofstream(tmp / "bad.nnl") << bad;
  Run refuted = nnref_cli({"check", (tmp / "bad.nnl").string()});
  CHECK(refuted.code == 1);
  CHECK(has(refuted.err, "error[shape."));

  // init-weights with no --out writes where the config says, relative to the model's folder; then
  // everything is checked.
  Run init = nnref_cli({"init-weights", model, "--seed", "2"});
  INFO(init.err);
  REQUIRE(init.code == 0);
  CHECK(fs::exists(tmp / "trained" / "fc.weight.npy"));
  CHECK(fs::exists(tmp / "trained" / "conv1.bias.npy"));
  Run full = nnref_cli({"check", model});
  CHECK(full.code == 0);
  CHECK_FALSE(has(full.out, "bindings not checked"));
}

// An NNEF 2.0 model reads its variables from main.<Graph>.<name>.dat in its folder: init-weights
// writes them there, a variable read as an operand (b2, a constant node's value) included.
TEST_CASE("deploy: init-weights writes an NNEF 2.0 model's variables as the .dat files it reads") {
  test::TempDir tmp("deploy_sknd");
  fs::copy_file(fs::path(NNREF_SOURCE_DIR) / "tests/data/nnef2/cnn/main.sknd", tmp / "main.sknd");
  Run before = nnref_cli({"check", tmp.path.string()});
  CHECK(before.code == 3);
  CHECK(has(before.err, "the bindings of 6 parameters were not checked"));
  Run init = nnref_cli({"init-weights", tmp.path.string()});
  INFO(init.err);
  REQUIRE(init.code == 0);
  for (const char* v : {"k1", "b1", "k2", "b2", "w", "b"})
    CHECK(fs::exists(tmp / ("main.SmallCNN." + std::string(v) + ".dat")));
  Run after = nnref_cli({"check", tmp.path.string()});
  CHECK(after.code == 0);
  CHECK_FALSE(has(after.out, "bindings not checked"));
}

TEST_CASE("deploy: a model that cannot be read is not counted as refuted obligations") {
  test::TempDir tmp("deploy_unread");
  fs::create_directories(tmp / "model.nnl");
  Run text = nnref_cli({"check", (tmp / "model.nnl").string()});
  CHECK(text.code == 2);
  CHECK(has(text.err, "error[io.not-a-file]"));
  CHECK(has(text.out, ": not checked: the model could not be read"));
  CHECK_FALSE(has(text.out, "refuted"));
  Run json = nnref_cli({"check", (tmp / "model.nnl").string(), "--format", "json"});
  CHECK(json.code == 2);
  CHECK(has(json.out, "\"model_read\": false"));
  CHECK(has(json.out, "\"total\": 0"));
}

TEST_CASE("deploy: init-weights refuses a tensor file as --out and budgets the weights it writes") {
  test::TempDir tmp("deploy_init");
  std::ofstream(tmp / "cnn.nnl") << kCnn;
  const std::string model = (tmp / "cnn.nnl").string();

  for (const char* name : {"w.npy", "w.onnx", "w.safetensors"}) {
    Run r = nnref_cli({"init-weights", model, "--out", (tmp / name).string()});
    CHECK(r.code == 2);
    CHECK(has(r.err, "error[usage.out]"));
    CHECK_FALSE(fs::exists(tmp / name));
  }
  // Held as doubles while written: 8 bytes per element, whatever the evaluation would need.
  const int64_t bytes = kCnnParams * 8;
  Run over = nnref_cli({"init-weights", model, "--out", (tmp / "a").string(), "--max-memory", std::to_string(bytes - 1)});
  CHECK(over.code == 1);
  CHECK(has(over.err, "error[size.budget]: the weights need " + std::to_string(bytes) + " bytes"));
  CHECK(has(over.err, "the largest is fc.weight [64, 5], 2560 bytes"));
  CHECK_FALSE(fs::exists(tmp / "a"));
  Run fits = nnref_cli({"init-weights", model, "--out", (tmp / "w.npz").string(), "--max-memory", std::to_string(bytes)});
  CHECK(fits.code == 0);
  CHECK(fs::exists(tmp / "w.npz"));
}

TEST_CASE("deploy: run evaluates at another size with --dim, checked at that size first") {
  test::TempDir tmp("deploy_dim");
  const std::string mlp = example("mlp", "model.nnl");
  // Two samples: the given one and its double. Each row must equal the batch-1 run of that row.
  auto x = read_npy(example("mlp", "input.npy"));
  REQUIRE(x.ok());
  HostTensor two{DType::F64, Shape::of({2, 4}), x->values};
  for (double v : x->values) two.values.push_back(2 * v);
  HostTensor doubled{DType::F64, Shape::of({1, 4}), {}};
  for (double v : x->values) doubled.values.push_back(2 * v);
  REQUIRE(write_npy((tmp / "two.npy").string(), two).ok());
  REQUIRE(write_npy((tmp / "doubled.npy").string(), doubled).ok());

  Run batched = nnref_cli({"run", mlp, "--input", (tmp / "two.npy").string(), "--dim", "batch=2", "--output",
                           (tmp / "y2.npy").string(), "-q"});
  INFO(batched.err);
  REQUIRE(batched.code == 0);
  Run first = nnref_cli({"run", mlp, "--input", example("mlp", "input.npy"), "--output", (tmp / "a.npy").string(), "-q"});
  Run second = nnref_cli({"run", mlp, "--input", (tmp / "doubled.npy").string(), "--output", (tmp / "b.npy").string(), "-q"});
  REQUIRE((first.code == 0 && second.code == 0));
  auto y2 = read_npy((tmp / "y2.npy").string());
  auto a = read_npy((tmp / "a.npy").string());
  auto b = read_npy((tmp / "b.npy").string());
  REQUIRE((y2.ok() && a.ok() && b.ok()));
  CHECK(y2->shape == Shape::of({2, 3}));
  std::vector<double> rows = a->values;
  rows.insert(rows.end(), b->values.begin(), b->values.end());
  CHECK(y2->values == rows);

  // Without --dim the array's batch of 2 is taken as the size: the same rows.
  Run from_input = nnref_cli({"run", mlp, "--input", (tmp / "two.npy").string(), "--output", (tmp / "z2.npy").string(), "-q"});
  INFO(from_input.err);
  REQUIRE(from_input.code == 0);
  auto z2 = read_npy((tmp / "z2.npy").string());
  REQUIRE(z2.ok());
  CHECK(z2->shape == Shape::of({2, 3}));
  CHECK(z2->values == rows);
  // --dim disagreeing with the array is refused, naming both.
  Run conflict = nnref_cli({"run", mlp, "--input", (tmp / "two.npy").string(), "--dim", "batch=3"});
  CHECK(conflict.code == 2);
  CHECK(has(conflict.err, "error[input.size-conflict]: node 'input' (input): --dim batch=3, but the array given for "
                          "input 'input' (axis 0) has extent 2, which is size batch: they must agree"));
  // A size the weights do not fit is refused by the concrete check, before anything runs; an array
  // of 5 features sets input.0 = 5 as --dim input.0=5 does, and the note says where the size came from.
  HostTensor five{DType::F64, Shape::of({2, 5}), std::vector<double>(10, 0.5)};
  REQUIRE(write_npy((tmp / "five.npy").string(), five).ok());
  Run wide = nnref_cli({"run", mlp, "--input", (tmp / "five.npy").string()});
  CHECK(wide.code == 1);
  CHECK(has(wide.err, "error[bind.shape-mismatch]"));
  CHECK(has(wide.err, "[5, 16]"));
  CHECK(has(wide.err, "note: the model was checked at the sizes the inputs give: batch = 2 (the model declares 1), "
                      "input.0 = 5 (the model declares 4)\n"));
  // With --dim input.0=5 the same error; the note names only what --dim did not set.
  Run wide_dim = nnref_cli({"run", mlp, "--input", (tmp / "five.npy").string(), "--dim", "input.0=5"});
  CHECK(wide_dim.code == 1);
  CHECK(has(wide_dim.err, "error[bind.shape-mismatch]"));
  CHECK(has(wide_dim.err, "note: the model was checked at the sizes the inputs give: batch = 2 (the model declares 1)\n"));
  // Names as check's --dim names them; anything else is a usage error that lists them.
  Run typo = nnref_cli({"run", mlp, "--input", (tmp / "two.npy").string(), "--dim", "bach=2"});
  CHECK(typo.code == 2);
  CHECK(has(typo.err, "error[usage.dim]: --dim bach: no input extent has this name; the names are: batch, input.0"));
  for (const char* text : {"batch", "batch=0", "batch=1..4", "=2"}) {
    Run r = nnref_cli({"run", mlp, "--input", (tmp / "two.npy").string(), "--dim", text});
    CHECK(r.code == 2);
    CHECK(has(r.err, "error[usage.dim]"));
  }
}

TEST_CASE("deploy: inspect's peak is the bytes check and run compare with --max-memory") {
  // examples/mlp by hand: parameters 4·16+16 + 16·8+8 + 8·3+3 = 243 elements, held throughout as
  // read (8 bytes each), and each node's converted while it runs (8 at f64, 4 at f32). The most is
  // held while fc2 runs: its 136 parameters converted, fc1/relu's output (16) and its own (8). So
  // the peak is 243 · 8 + 136 · 8 + 24 · 8 = 3224 bytes at f64, 243 · 8 + 136 · 4 + 24 · 4 = 2584
  // at f32 (fc1: 1944 + 96 · 8 = 2744 and 1944 + 96 · 4 = 2328).
  const std::string mlp = example("mlp", "model.nnl");
  Run f64 = nnref_cli({"inspect", mlp});
  REQUIRE(f64.code == 0);
  CHECK(has(f64.out,
            "peak: 3224 bytes while 'fc2' runs (f64, 8 bytes per element, a node's parameters converted while it "
            "runs, and 8 for each parameter's value as read)"));
  Run f32 = nnref_cli({"inspect", mlp, "--precision", "f32"});
  CHECK(has(f32.out,
            "peak: 2584 bytes while 'fc2' runs (f32, 4 bytes per element, a node's parameters converted while it "
            "runs, and 8 for each parameter's value as read)"));

  CHECK(nnref_cli({"check", mlp, "--max-memory", "3224"}).code == 0);
  Run over = nnref_cli({"check", mlp, "--max-memory", "3223"});
  CHECK(over.code == 1);
  CHECK(has(over.err, "evaluation needs 3224 bytes at its peak"));
  // fc2.weight, 16·8 elements at 8 bytes (as read, and again converted), is the largest tensor held
  // then; named as NNL names it.
  CHECK(has(over.err, "the largest tensor is parameter fc2.weight, 1024 bytes"));
  const std::string x = example("mlp", "input.npy");
  CHECK(nnref_cli({"run", mlp, "--input", x, "--max-memory", "3224", "-q"}).code == 0);
  CHECK(nnref_cli({"run", mlp, "--input", x, "--max-memory", "3223", "-q"}).code == 1);
}
