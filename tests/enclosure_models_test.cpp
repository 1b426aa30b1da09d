// The enclosure interpretations on every golden case and example model: the interval (MPFI)
// contains the 50-digit answer, and the float32 envelope contains both that answer and nnref's own
// float32 oracle, which is one correct float32 implementation.
#include <catch2/catch.hpp>
#include <filesystem>

#include "formats/model.hpp"
#include "formats/tensor_files/npy.hpp"
#include "semantics/evaluate.hpp"

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
