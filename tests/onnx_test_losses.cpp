// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (formats/onnx/ops/losses.cpp): values worked
// out by hand from ONNX's definitions, with weights, ignore_index and each reduction.
#include <cmath>

#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;

namespace {

std::vector<double> values(const Tensor<double>& t) { return {t.data().begin(), t.data().end()}; }

OnnxModel nll(const std::string& reduction, bool ignore, bool weighted) {
  OnnxModel m;
  m.input("X", {"2", "3"});
  m.input("T", {"2"}, onnx::TensorProto::INT64);
  std::vector<std::string> in{"X", "T"};
  if (weighted) {
    m.init("W", {3}, {1, 2, 4});
    in.push_back("W");
  }
  onnx::NodeProto& n = m.node("NegativeLogLikelihoodLoss", in, {"L"});
  set_string(n, "reduction", reduction);
  if (ignore) set_int(n, "ignore_index", 1);
  m.output("L");
  return m;
}

}  // namespace

TEST_CASE("onnx NegativeLogLikelihoodLoss: weights, ignore_index, every reduction, by hand") {
  TempDir tmp("onnx_nll_loss");
  // X = [[−1, −2, −3], [−0.5, −1.5, −2.5]], classes T = [2, 1], weights [1, 2, 4]:
  // loss = [−(−3)·4, −(−1.5)·2] = [12, 3].
  const HostTensor x = host({2, 3}, {-1, -2, -3, -0.5, -1.5, -2.5});
  const HostTensor t{DType::I64, Shape::make({2}).value(), {2, 1}};
  const auto run = [&](const OnnxModel& m, const std::string& file) {
    return values(run_f64(load_onnx(m, tmp / file), {x, t})[0]);
  };
  CHECK(run(nll("none", false, true), "none.onnx") == std::vector<double>{12, 3});
  CHECK(run(nll("sum", false, true), "sum.onnx") == std::vector<double>{15});
  // mean: Σ loss / Σ w[T] = 15 / (4 + 2).
  CHECK(run(nll("mean", false, true), "mean.onnx") == std::vector<double>{2.5});
  // ignore_index 1 drops the second element: [12, 0], mean 12 / 4.
  CHECK(run(nll("none", true, true), "ignore_none.onnx") == std::vector<double>{12, 0});
  CHECK(run(nll("mean", true, true), "ignore_mean.onnx") == std::vector<double>{3});
  // Without weights: [3, 1.5], mean 2.25; ignoring class 1: [3, 0], mean 3 / 1.
  CHECK(run(nll("mean", false, false), "plain_mean.onnx") == std::vector<double>{2.25});
  CHECK(run(nll("mean", true, false), "plain_ignore.onnx") == std::vector<double>{3});
}

TEST_CASE("onnx SoftmaxCrossEntropyLoss: the loss and log_prob, by formula") {
  TempDir tmp("onnx_sce_loss");
  OnnxModel m;
  m.input("S", {"1", "3"});
  m.input("T", {"1"}, onnx::TensorProto::INT64);
  m.node("SoftmaxCrossEntropyLoss", {"S", "T"}, {"L", "P"});
  m.output("L");
  m.output("P");
  const Model model = load_onnx(m, tmp / "m.onnx");
  const auto out = run_f64(model, {host({1, 3}, {1, 2, 3}), HostTensor{DType::I64, Shape::make({1}).value(), {2}}});
  // log_prob[j] = s_j − log(e + e² + e³); the loss of class 2 is −log_prob[2].
  const double lse = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
  REQUIRE(out.size() == 2);
  CHECK(values(out[0])[0] == Approx(lse - 3).epsilon(1e-14));
  const std::vector<double> p = values(out[1]);
  for (int j = 0; j < 3; ++j) CHECK(p[static_cast<size_t>(j)] == Approx(j + 1 - lse).epsilon(1e-14));
}
