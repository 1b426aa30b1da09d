// The exact value's adaptive precision (exact_outputs, cli/outputs.hpp): where 61-bit endpoints leave
// an Interval wider than 1e-9 · max|y|, a re-evaluation at more bits meets the target, and the
// enclosure still holds the exact value, known here by formula.
//
// The model: 40 Dense layers, each the matrix W = [[5/4, 3/4], [−3/4, −5/4]]. W·W = I (by hand:
// 25/16 − 9/16 = 1 on the diagonal, 15/16 − 15/16 = 0 off it), so 40 layers give back the input
// exactly. Each layer's sums need two more fraction bits than its operands, so from the fourth
// layer on the 61-bit endpoints round; |W| = [[5/4, 3/4], [3/4, 5/4]] has spectral radius 2, so
// interval propagation doubles the width at each layer: about 2^40 · 2^−61 ≈ 5e−7 at the output,
// far above the target, and about 2^40 · 2^−128 ≈ 3e−27 at 128 bits.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/outputs.hpp"
#include "cli_test_support.hpp"
#include "formats/model.hpp"
#include "formats/tensor_files/npy.hpp"
#include "semantics/evaluate.hpp"
#include "temp_dir.hpp"

using namespace nnref;

namespace {

constexpr int kLayers = 40;
constexpr int64_t kMemory = int64_t{1} << 30;

// A chain of `layers` Dense layers (2 → 2, no activation), every weight `w` (row-major [in, units])
// and every bias 0, written to dir; its model loaded.
Model chain(const test::TempDir& dir, int layers, const std::vector<double>& w) {
  std::ofstream nnl(dir / "model.nnl");
  nnl << "version 0.2;\n\nmodel chain {\n  config {\n    weights: \"./weights\";\n    io: \"stdio\";\n  }\n\n"
      << "  layer input = Input(shape: [2]);\n";
  std::filesystem::create_directories(dir / "weights");
  for (int k = 1; k <= layers; ++k) {
    const std::string name = "l" + std::to_string(k);
    nnl << "  layer " << name << " = Dense(units: 2);\n";
    REQUIRE(write_npy((dir / "weights" / (name + ".weight.npy")).string(), HostTensor{DType::F32, Shape::of({2, 2}), w}));
    REQUIRE(write_npy((dir / "weights" / (name + ".bias.npy")).string(), HostTensor{DType::F32, Shape::of({2}), {0, 0}}));
  }
  nnl << "}\n";
  nnl.close();
  LoadResult r = load_model((dir / "model.nnl").string(), {});
  REQUIRE_FALSE(r.has_errors());
  return std::move(*r.model);
}

const std::vector<double> kInvolution{1.25, 0.75, -0.75, -1.25};

// x lies in [lo, hi] of the interval, compared exactly (MPFR against a double).
bool holds(const Interval& i, double x) {
  return mpfr_cmp_d(&i.backend().data()->left, x) <= 0 && mpfr_cmp_d(&i.backend().data()->right, x) >= 0;
}

double width(const Interval& i) {
  const Enclosure e = sc::enclosure(i);
  return e.hi - e.lo;
}

}  // namespace

TEST_CASE("exact value: 61 bits miss the width target on a 40-layer chain, the re-evaluation meets it and holds the exact value") {
  test::TempDir dir("exact_chain");
  const Model m = chain(dir, kLayers, kInvolution);
  const std::vector<double> x{0.3, -0.7};  // W^40 = I: the exact output is x itself
  const std::vector<HostTensor> inputs{HostTensor{DType::F64, Shape::of({1, 2}), x}};

  // At the default 61 bits the enclosure holds x but is too wide (the premise of the test).
  auto at61 = evaluate<Interval>(m.graph, m.payload, inputs, EvalOptions{kMemory, m.param_keys});
  REQUIRE(at61.ok());
  REQUIRE(interval_bits((*at61)[0][0]) == 61);
  for (int64_t i = 0; i < 2; ++i) {
    CHECK(holds((*at61)[0][i], x[static_cast<size_t>(i)]));
    CHECK(width((*at61)[0][i]) > 1e-9 * 0.7);
  }

  auto exact = exact_outputs(m, inputs, kMemory);
  REQUIRE(exact.ok());
  CHECK(exact->precision.bits == 128);
  CHECK(exact->precision.over_target == 0);
  CHECK(exact->precision.stopped.empty());
  const Tensor<Interval>& y = exact->outputs.at(0);
  REQUIRE(y.size() == 2);
  for (int64_t i = 0; i < 2; ++i) {
    INFO("element " << i);
    CHECK(interval_bits(y[i]) == 128);
    CHECK(holds(y[i], x[static_cast<size_t>(i)]));
    CHECK(width(y[i]) <= 1e-9 * 0.7);  // max|y| = 0.7
  }
  // After the raise, new values are back at 61 bits.
  CHECK(interval_bits(Interval(1)) == 61);
}

TEST_CASE("exact value: a shallow chain meets the target at 61 bits, and an all-zero output (target width 0) too") {
  test::TempDir dir("exact_shallow");
  const std::vector<HostTensor> inputs{HostTensor{DType::F64, Shape::of({1, 2}), {0.3, -0.7}}};
  auto shallow = exact_outputs(chain(dir, 2, kInvolution), inputs, kMemory);  // W·W = I: the output is exactly x
  REQUIRE(shallow.ok());
  CHECK(shallow->precision.bits == 61);
  CHECK(shallow->precision.over_target == 0);
  CHECK(holds(shallow->outputs.at(0)[0], 0.3));
  CHECK(holds(shallow->outputs.at(0)[1], -0.7));

  test::TempDir zero_dir("exact_zero");
  auto zero = exact_outputs(chain(zero_dir, 3, {0, 0, 0, 0}), inputs, kMemory);
  REQUIRE(zero.ok());
  CHECK(zero->precision.bits == 61);
  CHECK(zero->precision.over_target == 0);
  CHECK(width(zero->outputs.at(0)[0]) == 0);
}

TEST_CASE("exact value: an element unbounded whatever the precision stops the raise after one re-evaluation, reported") {
  test::TempDir dir("exact_unbounded");
  // An infinite input: x·W is ±∞ in the first layer and ∞ − ∞ (NaN) in the next, at any precision.
  const std::vector<HostTensor> inputs{
      HostTensor{DType::F64, Shape::of({1, 2}), {std::numeric_limits<double>::infinity(), 1.0}}};
  auto exact = exact_outputs(chain(dir, 2, kInvolution), inputs, kMemory);
  REQUIRE(exact.ok());
  CHECK(exact->precision.bits == 128);
  CHECK(exact->precision.over_target == 2);
  CHECK(exact->precision.unbounded == 2);
  CHECK(exact->precision.stopped.find("bounded none of them") != std::string::npos);
}

TEST_CASE("exact value: run --precision interval and conform report the precision reached on the 40-layer chain") {
  test::TempDir dir("exact_cli");
  (void)chain(dir, kLayers, kInvolution);
  const std::string model = (dir / "model.nnl").string(), x = (dir / "x.npy").string();
  REQUIRE(write_npy(x, HostTensor{DType::F64, Shape::of({1, 2}), {0.3, -0.7}}));

  const std::string y = (dir / "y.npy").string(), r = (dir / "r.npy").string();
  const test::Run run = test::nnref_cli({"run", model, "--input", x, "--precision", "interval", "--output", y,
                                         "--radius-output", r});
  REQUIRE(run.code == 0);
  CHECK(run.out.find("exact value: 128-bit endpoints; every element's width is within 1e-9") != std::string::npos);
  auto mid = read_npy(y), radius = read_npy(r);
  REQUIRE(mid.ok());
  REQUIRE(radius.ok());
  const double exact[] = {0.3, -0.7};  // W^40 = I
  for (size_t i = 0; i < 2; ++i) {
    CHECK(radius->values[i] <= 0.5e-9 * 0.7);
    CHECK(std::abs(mid->values[i] - exact[i]) <= radius->values[i] + 1e-16);  // + the midpoint's rounding to double
  }

  const test::Run conform =
      test::nnref_cli({"conform", model, "--input", x, "--engine", "f32", "--exact", "--format", "json"});
  const auto j = nlohmann::json::parse(conform.out);
  CHECK(j["exact_precision_bits"] == 128);
  CHECK(j["exact_over_target"] == 0);
  CHECK(j["exact_stopped"].is_null());
}
