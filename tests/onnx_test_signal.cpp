// The window functions (formats/onnx/ops/signal.cpp): values worked out by hand from ONNX's
// definitions, with π itself (ONNX's own expected outputs use 3.1415: scripts/onnx_node_tests.py),
// and a size given at run time.
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> window_of(const TempDir& tmp, const std::string& op, int64_t size, bool periodic) {
  OnnxModel m(17);
  m.input("size", {}, onnx::TensorProto::INT64);
  set_int(m.node(op, {"size"}, {"w"}), "periodic", periodic ? 1 : 0);
  m.output("w");
  const auto out =
      run_f64(load_onnx(m, tmp / (op + ".onnx")), {HostTensor{DType::I64, Shape(), {static_cast<double>(size)}}});
  return {out[0].data().begin(), out[0].data().end()};
}

void near(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-15));
}

}  // namespace

TEST_CASE("onnx window functions: Hann, Hamming, Blackman, periodic and symmetric, by hand") {
  TempDir tmp("onnx_windows");
  // Hann, periodic, 4: 0.5 − 0.5·cos(2πn/4) at n = 0..3.
  near(window_of(tmp, "HannWindow", 4, true), {0, 0.5, 1, 0.5});
  // Hann, symmetric, 3: N = 2.
  near(window_of(tmp, "HannWindow", 3, false), {0, 1, 0});
  // Hamming, periodic, 2: 25/46 − 21/46·cos(πn): 4/46, 1.
  near(window_of(tmp, "HammingWindow", 2, true), {4.0 / 46, 1});
  // Blackman, symmetric, 3: 0.42 − 0.5·cos(πn) + 0.08·cos(2πn): 0, 1, 0.
  near(window_of(tmp, "BlackmanWindow", 3, false), {0, 1, 0});
}
