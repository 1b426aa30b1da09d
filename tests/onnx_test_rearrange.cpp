// DepthToSpace, SpaceToDepth and the element-wise compositions Shrink, ThresholdedRelu, Celu, IsNaN
// and IsInf (formats/onnx/ops/): values worked out by hand from ONNX's definitions in the comment
// beside each, and `check` proving the block rearrangements for every size a blocksize divides.
#include <cmath>
#include <limits>

#include "cli_test_support.hpp"
#include "onnx_test_support.hpp"
#include "semantics/size_names.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

// One node of op_type over X (a static shape, or size names), with the attributes `set` writes.
template <class Set>
OnnxModel single(const std::string& op_type, const std::vector<std::string>& dims, Set set) {
  OnnxModel m;
  m.input("X", dims);
  set(m.node(op_type, {"X"}, {"Y"}));
  m.output("Y");
  return m;
}

std::vector<double> iota(int n) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i;
  return v;
}

Run check(const std::filesystem::path& p, const std::vector<std::string>& args) {
  std::vector<std::string> all{"check", p.string()};
  all.insert(all.end(), args.begin(), args.end());
  return nnref_cli(all);
}

}  // namespace

TEST_CASE("onnx DepthToSpace: DCR and CRD orders, by hand") {
  TempDir tmp("onnx_depth_to_space");
  // X [1, 8, 1, 2], X[c, 0, w] = 2c + w, blocksize 2.
  // DCR: c = (2·b1 + b2)·2 + c', Y[c', b1, 2w + b2] = 2((2·b1 + b2)·2 + c') + w:
  //   c' = 0: rows [0 4 1 5], [8 12 9 13]; c' = 1: the same + 2.
  const auto dcr = single("DepthToSpace", {"1", "8", "1", "2"}, [](onnx::NodeProto& n) { set_int(n, "blocksize", 2); });
  const Model m1 = load_onnx(dcr, tmp / "dcr.onnx");
  CHECK(values(run_f64(m1, {host({1, 8, 1, 2}, iota(16))})[0]) ==
        std::vector<double>{0, 4, 1, 5, 8, 12, 9, 13, 2, 6, 3, 7, 10, 14, 11, 15});
  // CRD: c = 4c' + 2·b1 + b2, Y[c', b1, 2w + b2] = 2(4c' + 2·b1 + b2) + w:
  //   c' = 0: rows [0 2 1 3], [4 6 5 7]; c' = 1: the same + 8.
  const auto crd = single("DepthToSpace", {"1", "8", "1", "2"}, [](onnx::NodeProto& n) {
    set_int(n, "blocksize", 2);
    set_string(n, "mode", "CRD");
  });
  const Model m2 = load_onnx(crd, tmp / "crd.onnx");
  CHECK(values(run_f64(m2, {host({1, 8, 1, 2}, iota(16))})[0]) ==
        std::vector<double>{0, 2, 1, 3, 4, 6, 5, 7, 8, 10, 9, 11, 12, 14, 13, 15});
}

TEST_CASE("onnx SpaceToDepth: by hand") {
  TempDir tmp("onnx_space_to_depth");
  // X [1, 1, 2, 4], X[0, h, w] = 4h + w, blocksize 2: Y[2·b1 + b2, 0, w'] = X[b1, 2w' + b2]
  // = 4·b1 + 2w' + b2: channels [0 2], [1 3], [4 6], [5 7].
  const auto m = single("SpaceToDepth", {"1", "1", "2", "4"}, [](onnx::NodeProto& n) { set_int(n, "blocksize", 2); });
  const Model model = load_onnx(m, tmp / "m.onnx");
  CHECK(values(run_f64(model, {host({1, 1, 2, 4}, iota(8))})[0]) == std::vector<double>{0, 2, 1, 3, 4, 6, 5, 7});
}

TEST_CASE("onnx DepthToSpace and SpaceToDepth: proved for every size the blocksize divides, refuted elsewhere") {
  TempDir tmp("onnx_rearrange_check");
  const auto d2s = single("DepthToSpace", {"N", "C", "H", "W"}, [](onnx::NodeProto& n) {
    set_int(n, "blocksize", 2);
    set_string(n, "mode", "CRD");
  });
  d2s.write(tmp / "d2s.onnx");
  const std::vector<std::string> sizes{"--dim", "N=1..8", "--dim", "C=4..64", "--dim", "H=1..64", "--dim", "W=1..64"};
  std::vector<std::string> divisible = sizes;
  divisible.insert(divisible.end(), {"--assume", "C % 4 == 0"});
  Run ok = check(tmp / "d2s.onnx", divisible);
  INFO(ok.out << ok.err);
  CHECK(ok.code == 0);
  // C = 5: [N, 5/4 = 1, 2, 2, H, W] holds 4·N·H·W elements, not 5·N·H·W.
  Run bad = check(tmp / "d2s.onnx", sizes);
  INFO(bad.out << bad.err);
  CHECK(bad.code == 1);
  CHECK((bad.out + bad.err).find("error[shape.reshape.count-mismatch]") != std::string::npos);
  CHECK((bad.out + bad.err).find("counterexample: N = 1, C = 5, H = 1, W = 1") != std::string::npos);

  const auto s2d = single("SpaceToDepth", {"N", "C", "H", "W"}, [](onnx::NodeProto& n) { set_int(n, "blocksize", 3); });
  s2d.write(tmp / "s2d.onnx");
  Run fixed = check(tmp / "s2d.onnx", {"--dim", "N=1..8", "--dim", "C=1..8", "--dim", "H=3..3", "--dim", "W=6..6"});
  INFO(fixed.out << fixed.err);
  CHECK(fixed.code == 0);
  // H = 4: 4/3 = 1 row of blocks holds 3 of the 4 rows.
  Run rows = check(tmp / "s2d.onnx", {"--dim", "N=1..8", "--dim", "C=1..8", "--dim", "H=3..30", "--dim", "W=6..6"});
  INFO(rows.out << rows.err);
  CHECK(rows.code == 1);
  CHECK((rows.out + rows.err).find("counterexample: N = 1, C = 1, H = 4, W = 6") != std::string::npos);
}

TEST_CASE("onnx DepthToSpace: a bad blocksize, rank or mode is refused by name") {
  TempDir tmp("onnx_rearrange_errors");
  const auto zero =
      single("DepthToSpace", {"1", "4", "1", "1"}, [](onnx::NodeProto& n) { set_int(n, "blocksize", 0); });
  CHECK(find_code(load_errors(zero, tmp / "zero.onnx"), "onnx.attribute-value") != nullptr);
  const auto rank3 = single("SpaceToDepth", {"4", "2", "2"}, [](onnx::NodeProto& n) { set_int(n, "blocksize", 2); });
  CHECK(find_code(load_errors(rank3, tmp / "rank3.onnx"), "onnx.input-shape") != nullptr);
  const auto mode = single("DepthToSpace", {"1", "4", "1", "1"}, [](onnx::NodeProto& n) {
    set_int(n, "blocksize", 2);
    set_string(n, "mode", "RDC");
  });
  CHECK(find_code(load_errors(mode, tmp / "mode.onnx"), "onnx.attribute-value") != nullptr);
}

TEST_CASE("onnx Shrink, ThresholdedRelu, Celu: by hand, NaN and infinities included") {
  TempDir tmp("onnx_shrink_family");
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  // ThresholdedRelu alpha 1: x where x > 1, else 0 (NaN > 1 is false: 0).
  const auto tr = single("ThresholdedRelu", {"6"}, [](onnx::NodeProto& n) { set_float(n, "alpha", 1.0f); });
  CHECK(values(run_f64(load_onnx(tr, tmp / "tr.onnx"), {host({6}, {-inf, 0.5, 1, 1.5, inf, nan})})[0]) ==
        std::vector<double>{0, 0, 0, 1.5, inf, 0});
  // Shrink lambd 0.5, bias 0.25: x + 0.25 below −0.5, x − 0.25 above 0.5, else 0.
  const auto sh = single("Shrink", {"7"}, [](onnx::NodeProto& n) {
    set_float(n, "lambd", 0.5f);
    set_float(n, "bias", 0.25f);
  });
  CHECK(values(run_f64(load_onnx(sh, tmp / "sh.onnx"), {host({7}, {-1, -0.5, 0, 0.5, 1, -inf, nan})})[0]) ==
        std::vector<double>{-0.75, 0, 0, 0, 0.75, -inf, 0});
  // Celu alpha 2: x above 0, 2·(exp(x/2) − 1) at or below: −2 → 2(e⁻¹ − 1).
  const auto ce = single("Celu", {"3"}, [](onnx::NodeProto& n) { set_float(n, "alpha", 2.0f); });
  const std::vector<double> y = values(run_f64(load_onnx(ce, tmp / "ce.onnx"), {host({3}, {-2, 0, 3})})[0]);
  CHECK(y[0] == Approx(2 * (std::exp(-1.0) - 1)).epsilon(1e-15));
  CHECK(y[1] == 0);
  CHECK(y[2] == 3);
  const auto zero = single("Celu", {"3"}, [](onnx::NodeProto& n) { set_float(n, "alpha", 0.0f); });
  CHECK(find_code(load_errors(zero, tmp / "zero.onnx"), "onnx.attribute-value") != nullptr);
}

TEST_CASE("onnx IsNaN and IsInf: each flag, by hand") {
  TempDir tmp("onnx_is_nan_inf");
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const HostTensor x = host({5}, {-inf, -1, 0, inf, nan});
  const auto run = [&](const std::string& op, int64_t positive, int64_t negative, const std::string& file) {
    const auto m = single(op, {"5"}, [&](onnx::NodeProto& n) {
      if (positive >= 0) set_int(n, "detect_positive", positive);
      if (negative >= 0) set_int(n, "detect_negative", negative);
    });
    return values(run_f64(load_onnx(m, tmp / file), {x})[0]);
  };
  CHECK(run("IsNaN", -1, -1, "nan.onnx") == std::vector<double>{0, 0, 0, 0, 1});
  CHECK(run("IsInf", -1, -1, "inf.onnx") == std::vector<double>{1, 0, 0, 1, 0});
  CHECK(run("IsInf", 1, 0, "positive.onnx") == std::vector<double>{0, 0, 0, 1, 0});
  CHECK(run("IsInf", 0, 1, "negative.onnx") == std::vector<double>{1, 0, 0, 0, 0});
  CHECK(run("IsInf", 0, 0, "neither.onnx") == std::vector<double>{0, 0, 0, 0, 0});
}

TEST_CASE("onnx Slice with steps: backward, by two, clamped as ONNX clamps, and over a symbolic extent") {
  TempDir tmp("onnx_slice_steps");
  const auto model = [](const std::vector<std::string>& dims, int64_t start, int64_t end, int64_t step) {
    OnnxModel m;
    m.input("X", dims);
    m.ints("starts", {start});
    m.ints("ends", {end});
    m.ints("axes", {0});
    m.ints("steps", {step});
    m.node("Slice", {"X", "starts", "ends", "axes", "steps"}, {"Y"});
    m.output("Y");
    return m;
  };
  const HostTensor x = host({5}, iota(5));
  const auto run = [&](const OnnxModel& m, const std::string& file) {
    return values(run_f64(load_onnx(m, tmp / file), {x})[0]);
  };
  // torch.flip: from −1 (index 4) back past index 0.
  CHECK(run(model({"5"}, -1, INT64_MIN, -1), "flip.onnx") == std::vector<double>{4, 3, 2, 1, 0});
  // Every second element: 0, 2, 4.
  CHECK(run(model({"5"}, 0, INT64_MAX, 2), "two.onnx") == std::vector<double>{0, 2, 4});
  // Backward by 2 from 10 (clamped to index 4) to 0 (excluded): 4, 2.
  CHECK(run(model({"5"}, 10, 0, -2), "back_two.onnx") == std::vector<double>{4, 2});
  // Backward from −7 (x + start = −2, which ONNX clamps to 0) to −10 (clamped to −1): index 0 only.
  CHECK(run(model({"5"}, -7, -10, -1), "front.onnx") == std::vector<double>{0});
  // Over a symbolic extent: the flip is proved for every N; a start below −1 going backward is refused.
  model({"N"}, -1, INT64_MIN, -1).write(tmp / "flip_n.onnx");
  Run r = nnref_cli({"check", (tmp / "flip_n.onnx").string(), "--dim", "N=1..4096"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(find_code(load_errors(model({"N"}, -3, INT64_MIN, -1), tmp / "start.onnx"), "onnx.shape-unsupported") !=
        nullptr);
  // Forward to an end of 0 keeps nothing: an empty output of fixed extents, refused over symbolic ones.
  const Model empty = load_onnx(model({"5"}, 3, 0, 1), tmp / "empty.onnx");
  REQUIRE(empty.empty_outputs.size() == 1);
  CHECK(empty.empty_outputs[0].shape.dims() == std::vector<int64_t>{0});
  CHECK(find_code(load_errors(model({"N"}, 3, 0, 1), tmp / "empty_n.onnx"), "onnx.shape-unsupported") != nullptr);
}

TEST_CASE("onnx MeanVarianceNormalization: over N, H, W by hand, epsilon as its function body adds it") {
  TempDir tmp("onnx_mvn");
  // X [1, 2, 1, 2]: channel 0 [1, 3] (mean 2, E[x²] 5, deviation 1), channel 1 [2, 2] (deviation 0).
  const auto m = single("MeanVarianceNormalization", {"1", "2", "1", "2"}, [](onnx::NodeProto&) {});
  const std::vector<double> y = values(run_f64(load_onnx(m, tmp / "m.onnx"), {host({1, 2, 1, 2}, {1, 3, 2, 2})})[0]);
  const double eps = double{1e-9f};
  CHECK(y == std::vector<double>{-1 / (1 + eps), 1 / (1 + eps), 0, 0});
}
