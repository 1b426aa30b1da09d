// The enclosure interpretations on every golden case and example model: the interval (MPFI)
// contains the 50-digit answer, and the float32 envelope contains both that answer and nnref's own
// float32 oracle, which is one correct float32 implementation.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "formats/model.hpp"
#include "formats/tensor_files/npy.hpp"
#include "semantics/evaluate.hpp"
#include "temp_dir.hpp"

using namespace nnref;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> models() {
  std::vector<fs::path> out;
  for (const char* root : {"tests/data/golden", "examples"})
    for (const auto& e : fs::directory_iterator(fs::path(NNREF_SOURCE_DIR) / root))
      if (fs::exists(e.path() / "input.npy")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

template <class T>
std::vector<Tensor<T>> run(const Model& m, const std::vector<HostTensor>& inputs) {
  auto r = evaluate<T>(m.graph, m.payload, inputs, EvalOptions{int64_t{4} << 30, m.param_keys});
  REQUIRE(r.ok());
  return std::move(r).value();
}

}  // namespace

TEST_CASE("enclosures: interval ∋ mp50 answer, float32 envelope ∋ mp50 answer and the f32 oracle") {
  const auto all = models();
  REQUIRE(all.size() >= 14);
  for (const auto& dir : all) {
    INFO("model " << dir.string());
    LoadResult r = load_model((dir / "model.nnl").string(), {});
    REQUIRE_FALSE(r.has_errors());
    auto input = read_npy((dir / "input.npy").string());
    REQUIRE(input.ok());
    const std::vector<HostTensor> inputs{*input};
    const auto exact = run<mp50>(*r.model, inputs);
    const auto interval = run<Interval>(*r.model, inputs);
    const auto envelope = run<Envelope>(*r.model, inputs);
    const auto f32 = run<float>(*r.model, inputs);
    for (size_t k = 0; k < exact.size(); ++k) {
      double widest = 0, scale = 0;
      for (int64_t i = 0; i < exact[k].size(); ++i) {
        INFO("output " << k << " element " << i);
        const Enclosure in = sc::enclosure(interval[k][i]), env = sc::enclosure(envelope[k][i]);
        CHECK(mp50(in.lo) <= exact[k][i]);
        CHECK(exact[k][i] <= mp50(in.hi));
        CHECK(env.lo <= in.lo);
        CHECK(in.hi <= env.hi);
        CHECK(env.lo <= double(f32[k][i]));
        CHECK(double(f32[k][i]) <= env.hi);
        widest = std::max(widest, in.hi - in.lo);
        scale = std::max(scale, std::abs(in.hi));
      }
      CHECK(widest <= 1e-12 * std::max(scale, 1.0));  // 61-bit endpoints: far tighter than float32
    }
  }
}

TEST_CASE("enclosures: a config decimal (preprocess_mean, preprocess_std) is read as the file writes it") {
  // (0 − 0.1) / 0.3 is −1/3 exactly; the doubles nearest 0.1 and 0.3 give −0.33333333333333335,
  // 2·10⁻¹⁷ away, far more than the interval's 61-bit width.
  test::TempDir tmp("config-decimal");
  fs::create_directories(tmp / "w");
  std::ofstream(tmp / "model.nnl") << "version 0.2;\nmodel s {\n  config { weights: \"./w\"; preprocess: \"standardize\"; "
                                      "preprocess_mean: [0.1]; preprocess_std: [0.3]; }\n"
                                      "  layer input = Input(shape: [1]);\n  layer out = Flatten();\n}\n";
  LoadResult r = load_model((tmp / "model.nnl").string(), {});
  REQUIRE_FALSE(r.has_errors());
  const std::vector<HostTensor> zero{HostTensor{DType::F32, *Shape::make({1, 1}), {0.0}}};
  const Interval y = run<Interval>(*r.model, zero)[0][0];
  mpfr_t third_down, third_up;  // −1/3 rounded down and up at 200 bits
  mpfr_inits2(200, third_down, third_up, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_si(third_down, -1, MPFR_RNDN);
  mpfr_div_ui(third_down, third_down, 3, MPFR_RNDD);
  mpfr_set_si(third_up, -1, MPFR_RNDN);
  mpfr_div_ui(third_up, third_up, 3, MPFR_RNDU);
  CHECK(mpfr_lessequal_p(&y.backend().data()->left, third_down));
  CHECK(mpfr_greaterequal_p(&y.backend().data()->right, third_up));
  mpfr_clears(third_down, third_up, static_cast<mpfr_ptr>(nullptr));
  CHECK(abs(run<mp50>(*r.model, zero)[0][0] + mp50(1) / 3) < mp50("1e-48"));  // 50 digits: a few roundings
}
