// The NNEF operations added after the reader (docs/nnef.md's table), as a user runs them: `nnref
// run` on a model folder with .npy inputs, and `nnref check --dim` proving their obligations for
// symbolic sizes or naming the sizes that fail.
#include <catch2/catch.hpp>

#include "cli_test_support.hpp"
#include "formats/tensor_files/npy.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A model folder under the temporary directory holding graph.nnef, removed at the end of the test.
class ModelDir {
 public:
  explicit ModelDir(const std::string& graph) {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("nnref_cli_nnef_ops_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
    write_text(path_ / "graph.nnef", graph);
  }
  ~ModelDir() { std::filesystem::remove_all(path_); }
  std::string str() const { return path_.string(); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// y = select(x > t && !(x == 0), x, 0) with t broadcast from [1, 3] (left-aligned) over [batch, 3]:
// a thresholded ReLU per column.
const char* kThreshold = R"(version 1.0;
extension KHR_enable_operator_expressions;
graph G( x, t ) -> ( y ) {
  x = external(shape = [2, 3]);
  t = external(shape = [1, 3]);
  y = select(x > t && !(x == 0.0), x, 0.0);
}
)";

}  // namespace

// x = [[1, -1, 0], [3, 2, 5]], t = [[0, 0, -1]]: x > t is [[1, 0, 1], [1, 1, 1]], x == 0 is
// [[0, 0, 1], [0, 0, 0]]: y = [[1, 0, 0], [3, 2, 5]].
TEST_CASE("cli nnef ops: run evaluates comparisons and logical operations feeding select") {
  const ModelDir m(kThreshold);
  REQUIRE(write_npy(m.file("x.npy"), HostTensor{DType::F32, Shape::of({2, 3}), {1, -1, 0, 3, 2, 5}}).ok());
  REQUIRE(write_npy(m.file("t.npy"), HostTensor{DType::F32, Shape::of({1, 3}), {0, 0, -1}}).ok());
  for (const char* engine : {"oracle", "fast"}) {
    const Run r = nnref_cli({"run", m.str(), "--input", "x=" + m.file("x.npy"), "--input", "t=" + m.file("t.npy"),
                             "--engine", engine, "--output", m.file("y.npy"), "--quiet"});
    INFO(engine << ": " << r.err);
    REQUIRE(r.code == kExitOk);
    auto y = read_npy(m.file("y.npy"));
    REQUIRE(y.ok());
    CHECK(y->values == std::vector<double>{1, 0, 0, 3, 2, 5});
  }
}

TEST_CASE("cli nnef ops: check proves the comparisons' broadcasting for every batch, or names a failing size") {
  const ModelDir m(kThreshold);
  const Run proved = nnref_cli({"check", m.str(), "--dim", "batch=1..64", "--dim", "x.1=1..16", "--dim", "t.1=1..16"});
  // x.1 and t.1 combine only when equal or one of them is 1.
  CHECK(proved.code == kExitInvalid);
  CHECK(has(proved.err, "error[shape.broadcast.incompatible]"));
  CHECK(has(proved.err, "counterexample"));
  const Run batch = nnref_cli({"check", m.str(), "--dim", "batch=1..64"});
  INFO(batch.err);
  CHECK(batch.code == kExitOk);
  CHECK(has(batch.out, "obligations proved"));
}

namespace {

// A strided slice, a reflect-even pad, an argmax over the sliced axis gathered back, and a cast, on
// x [batch, 10]: the slice keeps ⌈(min(9, X) − 1)/3⌉ columns of an extent X, none when X ≤ 1; the
// pad (2, 2) reflect-even needs 2 ≤ that count, so X ≥ 5.
const char* kStrided = R"(version 1.0;
extension KHR_enable_operator_expressions;
graph G( x ) -> ( y, picked ) {
  x = external(shape = [4, 10]);
  s = slice(x, axes = [1], begin = [1], end = [9], stride = [3]);
  y = pad(s, padding = [(0, 0), (2, 2)], border = 'reflect-even');
  picked = gather(x, argmax_reduce(s, axes = [0]), axis = 0);
}
)";

}  // namespace

TEST_CASE("cli nnef ops: check proves a strided slice and reflect-even padding for a range of extents") {
  const ModelDir m(kStrided);
  const Run proved = nnref_cli({"check", m.str(), "--dim", "batch=1..64", "--dim", "x.1=5..100"});
  INFO(proved.err);
  CHECK(proved.code == kExitOk);
  CHECK(has(proved.out, "obligations proved"));
  // x.1 = 2, 3 or 4: the slice keeps ⌈(X − 1)/3⌉ = 1 column, fewer than the padding of 2 reflect-even needs.
  const Run refuted = nnref_cli({"check", m.str(), "--dim", "batch=1..64", "--dim", "x.1=2..100"});
  CHECK(refuted.code == kExitInvalid);
  CHECK(has(refuted.err, "error[shape.pad.reflect-even-too-wide]"));
  CHECK(has(refuted.err, "counterexample"));
}

namespace {

// A local response normalization across channels (window [1, 3, 1], automatic padding (1, 1) on
// the channel axis) and a plain box over channels: windows on a non-spatial axis, which the IR
// pool runs over the input viewed as [1, 1, batch, channels, width].
const char* kAcrossChannels = R"(version 1.0;
graph G( x ) -> ( y, s ) {
  x = external(shape = [1, 3, 1]);
  y = local_response_normalization(x, size = [1, 3, 1], alpha = 3.0, beta = 1.0, bias = 1.0);
  s = box(x, size = [1, 3, 1], stride = [1, 2, 1]);
}
)";

}  // namespace

// x = [1, 2, 3] over channels: x² = [1, 4, 9], window means (0 + 1 + 4)/3, (1 + 4 + 9)/3, (4 + 9 + 0)/3;
// 1 + 3·mean = 6, 15, 14: y = 1/6, 2/15, 3/14. s: stride 2 over 3 channels, ⌈3/2⌉ = 2 windows,
// padding t = (2 − 1)·2 + 3 − 3 = 2, (1, 1): 0 + 1 + 2 and 2 + 3 + 0.
TEST_CASE("cli nnef ops: a window across channels runs on both engines and is proved for every extent") {
  const ModelDir m(kAcrossChannels);
  REQUIRE(write_npy(m.file("x.npy"), HostTensor{DType::F64, Shape::of({1, 3, 1}), {1, 2, 3}}).ok());
  for (const char* engine : {"oracle", "fast"}) {
    const Run r = nnref_cli({"run", m.str(), "--input", "x=" + m.file("x.npy"), "--engine", engine, "--output",
                             m.file("out.npz"), "--quiet"});
    INFO(engine << ": " << r.err);
    REQUIRE(r.code == kExitOk);
    const auto out = read_npz(m.file("out.npz"));
    REQUIRE(out.ok());
    REQUIRE(out->size() == 2);
    CHECK(out->at(0).first == "y");
    const std::vector<double> want{1.0 / 6, 2.0 / 15, 3.0 / 14};
    for (size_t i = 0; i < 3; ++i) CHECK(out->at(0).second.values[i] == Approx(want[i]).epsilon(1e-6));
    CHECK(out->at(1).second.values == std::vector<double>{3, 5});
  }
  const Run proved = nnref_cli({"check", m.str(), "--dim", "batch=1..64", "--dim", "x.1=1..100", "--dim", "x.2=1..100"});
  INFO(proved.err);
  CHECK(proved.code == kExitOk);
  CHECK(has(proved.out, "obligations proved"));
}

namespace {

// Deterministic inputs in [-1, 1): x_k = ((k·37) mod 101)/50.5 − 1.
HostTensor spread(const std::vector<int64_t>& dims) {
  HostTensor t{DType::F64, Shape::make(dims).value(), {}};
  for (int64_t k = 0; k < t.shape.count(); ++k) t.values.push_back(static_cast<double>((k * 37) % 101) / 50.5 - 1.0);
  return t;
}

}  // namespace

// The fast engine's answers on the window, up-sampling and region-of-interest cross-check models
// (box, pools, local normalizations, debox, nearest and multilinear up-sampling, §4.6's five
// operations), judged by conform's float32 envelope.
TEST_CASE("cli nnef ops: the fast engine's windows and up-samplings conform") {
  const std::string root = std::string(NNREF_SOURCE_DIR) + "/tests/data/nnef/crosscheck/";
  const ModelDir tmp("version 1.0;\n");
  REQUIRE(write_npy(tmp.file("input.npy"), spread({2, 5, 6, 7})).ok());
  REQUIRE(write_npy(tmp.file("small.npy"), spread({2, 3, 5, 4})).ok());
  REQUIRE(write_npy(tmp.file("volume.npy"), spread({1, 2, 3, 2, 4})).ok());
  REQUIRE(write_npy(tmp.file("image.npy"), spread({2, 3, 6, 5})).ok());
  REQUIRE(write_npy(tmp.file("cube.npy"), spread({1, 2, 4, 3, 5})).ok());
  const std::vector<std::pair<std::string, std::vector<std::string>>> models = {
      {"windows", {"--input", "input=" + tmp.file("input.npy")}},
      {"resample", {"--input", "input=" + tmp.file("small.npy"), "--input", "volume=" + tmp.file("volume.npy")}},
      {"roi", {"--input", "input=" + tmp.file("image.npy"), "--input", "volume=" + tmp.file("cube.npy")}}};
  for (const auto& [model, inputs] : models) {
    std::vector<std::string> run{"run", root + model, "--engine", "fast", "--output", tmp.file("fast.npz"), "--quiet"};
    run.insert(run.end(), inputs.begin(), inputs.end());
    const Run r = nnref_cli(run);
    INFO(model << ": " << r.err);
    REQUIRE(r.code == kExitOk);
    std::vector<std::string> judge{"conform", root + model, "--actual", tmp.file("fast.npz")};
    judge.insert(judge.end(), inputs.begin(), inputs.end());
    const Run c = nnref_cli(judge);
    INFO(c.out << c.err);
    CHECK(c.code == kExitOk);  // a rejected element exits 1
  }
}

namespace {

// Regions of interest over an image [batch, 3, H, W]: the output's extents come from output_size
// and the count of regions, so they hold for every batch and image size. With the regions an input
// (its axis 0 is `batch`) and the batch indices a constant of 2, only batch = 2 agrees.
const char* kRegions = R"(version 1.0;
graph G( x, boxes ) -> ( pooled, resampled, aligned, free ) {
  x = external(shape = [2, 3, 8, 8]);
  boxes = external(shape = [2, 4]);
  rois = constant(shape = [2, 4], value = [0.0, 0.0, 4.0, 4.0, 1.0, 2.0, 7.5, 6.0]);
  index = constant<integer>(shape = [2], value = [0, 0]);
  pooled = max_roi_pool(x, rois, index, output_size = [2, 3]);
  resampled = roi_resample(x, rois, index, output_size = [3, 3], method = 'asymmetric');
  aligned = avg_roi_align(x, rois, index, output_size = [2, 2], sampling_rate = [2, 2]);
  free = avg_roi_pool(x, boxes, index, output_size = [1, 1]);
}
)";

}  // namespace

TEST_CASE("cli nnef ops: check proves the region-of-interest operations for every image size, or names a failing size") {
  const ModelDir m(kRegions);
  const Run proved = nnref_cli({"check", m.str(), "--dim", "x.2=1..512", "--dim", "x.3=1..512"});
  INFO(proved.err);
  CHECK(proved.code == kExitOk);
  CHECK(has(proved.out, "obligations proved"));
  const Run refuted = nnref_cli({"check", m.str(), "--dim", "batch=1..64", "--dim", "x.2=1..512"});
  CHECK(refuted.code == kExitInvalid);
  CHECK(has(refuted.err, "error[shape.roi.batch-index]"));
  CHECK(has(refuted.err, "counterexample"));
}

// 'aligned' builds its gathers' indices from the declared extent 3: at another extent the lowered
// graph would still be well formed (a gather's output extent is its index count) but would not mean
// the document, so check proves the declared sizes and refuses --dim.
TEST_CASE("cli nnef ops: check refuses --dim on a model lowered at its declared extents") {
  const ModelDir m(R"(version 1.0;
graph G( x ) -> ( y ) {
  x = external(shape = [1, 1, 3]);
  y = multilinear_upsample(x, factor = [2], method = 'aligned');
}
)");
  const Run fixed = nnref_cli({"check", m.str()});
  INFO(fixed.err);
  CHECK(fixed.code == kExitOk);
  CHECK(has(fixed.err, "warning[nnef.extents.fixed]"));
  const Run varied = nnref_cli({"check", m.str(), "--dim", "x.2=2..10"});
  CHECK(varied.code == kExitUsage);
  CHECK(has(varied.err, "error[usage.dim]: --dim x.2=2..10: this model's input extents have no size names"));
}
