// MaxPool and AveragePool with ceil_mode 1 (the rounded-up extent, PadMode::ExplicitCeil), against
// values computed by hand, and the combinations nnref refuses by name.
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

// One pool node over X [1, 1, 5, 5], kernel 2x2, stride 2, ceil_mode 1, with `edit` applied.
template <class Edit>
OnnxModel ceil_pool(const std::string& op, Edit edit) {
  OnnxModel m;
  m.input("X", {"1", "1", "5", "5"});
  onnx::NodeProto& p = m.node(op, {"X"}, {"Y"});
  set_ints(p, "kernel_shape", {2, 2});
  set_ints(p, "strides", {2, 2});
  set_int(p, "ceil_mode", 1);
  edit(p);
  m.output("Y");
  return m;
}

std::vector<double> one_to_25() {
  std::vector<double> v;
  for (int i = 1; i <= 25; ++i) v.push_back(i);
  return v;
}

}  // namespace

TEST_CASE("onnx pool ceil_mode: 5x5, kernel 2, stride 2 gives 3x3, the overhang ignored") {
  TempDir tmp("onnx_pool_ceil");
  const auto none = [](onnx::NodeProto&) {};
  // X = 1..25 row-major. Windows cover rows and columns {0,1}, {2,3}, {4}: ⌈(5 − 2)/2⌉ + 1 = 3.
  auto y = run_f64(load_onnx(ceil_pool("MaxPool", none), tmp / "max.onnx"), {host({1, 1, 5, 5}, one_to_25())});
  CHECK(y[0].shape().dims() == std::vector<int64_t>{1, 1, 3, 3});
  // The bottom-right real element of each window: 5r + c + 1 for r, c in {1, 3, 4}.
  CHECK(values(y[0]) == std::vector<double>{7, 9, 10, 17, 19, 20, 22, 24, 25});
  // AveragePool (count_include_pad 0) divides by the real elements: (5+10)/2 = 7.5, (21+22)/2 = 21.5, 25/1.
  y = run_f64(load_onnx(ceil_pool("AveragePool", none), tmp / "avg.onnx"), {host({1, 1, 5, 5}, one_to_25())});
  CHECK(values(y[0]) == std::vector<double>{4, 6, 7.5, 14, 16, 17.5, 21.5, 23.5, 25});
  // Padding 1 before and after with kernel 3, stride 2: ⌈(7 − 3)/2⌉ + 1 = 3 per axis, the last window
  // rows [3, 6), row 5 the padding. Max of rows {0,1}×{0,1} = 7, {0,1}×{1,2,3} = 9, {0,1}×{3,4} = 10, ...
  const auto padded = [](onnx::NodeProto& p) {
    p.mutable_attribute(0)->set_ints(0, 3);
    p.mutable_attribute(0)->set_ints(1, 3);
    set_ints(p, "pads", {1, 1, 1, 1});
  };
  y = run_f64(load_onnx(ceil_pool("MaxPool", padded), tmp / "pads.onnx"), {host({1, 1, 5, 5}, one_to_25())});
  CHECK(values(y[0]) == std::vector<double>{7, 9, 10, 17, 19, 20, 22, 24, 25});
}

TEST_CASE("onnx pool ceil_mode: a window that would start in the padding after is dropped") {
  TempDir tmp("onnx_pool_ceil_drop");
  // X [1, 1, 2], kernel 2, stride 2, pads (0, 1): ⌈(3 − 2)/2⌉ + 1 = 2, but the second window starts at
  // 2, past the input: one window, max(3, 8) = 8 (PyTorch's and ONNX's rule).
  OnnxModel m;
  m.input("X", {"1", "1", "2"});
  onnx::NodeProto& p = m.node("MaxPool", {"X"}, {"Y"});
  set_ints(p, "kernel_shape", {2});
  set_ints(p, "strides", {2});
  set_ints(p, "pads", {0, 1});
  set_int(p, "ceil_mode", 1);
  m.output("Y");
  auto y = run_f64(load_onnx(m, tmp / "m.onnx"), {host({1, 1, 2}, {3, 8})});
  CHECK(y[0].shape().dims() == std::vector<int64_t>{1, 1, 1});
  CHECK(values(y[0]) == std::vector<double>{8});
}

TEST_CASE("onnx pool ceil_mode: with auto_pad or count_include_pad refused by name") {
  TempDir tmp("onnx_pool_ceil_refused");
  const auto refused = [&](const OnnxModel& m, const std::string& name) {
    m.write(tmp / "m.onnx");
    LoadResult r = load_model((tmp / "m.onnx").string(), LoadOptions{});
    REQUIRE_FALSE(r.model);
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics[0].code == "onnx.attribute-unsupported");
    CHECK(r.diagnostics[0].message.find(name) != std::string::npos);
  };
  refused(ceil_pool("MaxPool", [](onnx::NodeProto& p) { set_string(p, "auto_pad", "SAME_UPPER"); }), "auto_pad");
  refused(ceil_pool("AveragePool", [](onnx::NodeProto& p) { set_int(p, "count_include_pad", 1); }), "count_include_pad");
}
