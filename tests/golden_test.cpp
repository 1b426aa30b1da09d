// The oracle against an independent float64 computation: every case under tests/data/golden/ and
// every model under examples/ has expected.npz written by scripts/nnl_reference.py (NumPy, from
// the NNL reference and docs/nnl.md, sharing no code with nnref). f64 must match it to 1e-9
// relative; mp must match f64 closely; f32 must match within float32 rounding.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "cli/app.hpp"
#include "formats/model.hpp"
#include "formats/tensor_files/npy.hpp"
#include "semantics/evaluate.hpp"
#include "temp_dir.hpp"

using namespace nnref;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> cases() {
  std::vector<fs::path> out;
  for (const char* root : {"tests/data/golden", "examples"}) {
    fs::path dir = fs::path(NNREF_SOURCE_DIR) / root;
    for (const auto& e : fs::directory_iterator(dir))
      if (fs::exists(e.path() / "expected.npz")) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Largest |a − b| / max(|b|, floor) over the tensor: relative error, with an absolute floor
// for elements that are exactly or nearly zero (relu outputs, softmax tails).
double max_rel_error(const std::vector<double>& got, const std::vector<double>& want, double floor) {
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i)
    worst = std::max(worst, std::abs(got[i] - want[i]) / std::max(std::abs(want[i]), floor));
  return worst;
}

// max|a − b| / max|b|: the error relative to the tensor's scale, which is what a bound on a sum's
// rounding error controls (it is proportional to Σ|terms|, not to the possibly cancelled result).
template <class T>
double normwise_error(const Tensor<T>& got, const Tensor<double>& want) {
  double worst = 0, scale = 0;
  for (int64_t i = 0; i < got.size(); ++i) {
    worst = std::max(worst, std::abs(sc::to_double(got[i]) - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  return scale == 0 ? worst : worst / scale;
}

struct Case {
  Model model;
  std::vector<HostTensor> inputs;
};

Case load_case(const fs::path& dir) {
  LoadResult r = load_model((dir / "model.nnl").string(), {});
  std::string diagnostics;
  for (const auto& d : r.diagnostics) diagnostics += format_diagnostic(d) + "\n";
  INFO(diagnostics);
  REQUIRE_FALSE(r.has_errors());
  auto input = read_npy((dir / "input.npy").string());
  REQUIRE(input.ok());
  return Case{std::move(*r.model), {std::move(input).value()}};
}

}  // namespace

TEST_CASE("golden: `nnref run` (f64) matches the independent float64 reference to 1e-9 relative") {
  auto all = cases();
  REQUIRE(all.size() >= 14);
  test::TempDir tmp("golden");
  const fs::path out = tmp / "out.npz";
  for (const auto& dir : all) {
    INFO("case " << dir.string());
    std::ostringstream stdout_text, stderr_text;
    int code = run_app({"run", (dir / "model.nnl").string(), "--input", (dir / "input.npy").string(), "--output",
                        out.string(), "--quiet"},
                       stdout_text, stderr_text);
    INFO(stderr_text.str());
    REQUIRE(code == 0);
    auto got = read_npz(out.string());
    auto want = read_npz((dir / "expected.npz").string());
    REQUIRE((got.ok() && want.ok()));
    REQUIRE(got->size() == want->size());
    for (const auto& [name, tensor] : *got) {
      INFO("output " << name);
      auto w = std::find_if(want->begin(), want->end(), [&](const auto& e) { return e.first == name; });
      REQUIRE(w != want->end());
      REQUIRE(tensor.shape == w->second.shape);
      CHECK(tensor.dtype == DType::F64);
      CHECK(max_rel_error(tensor.values, w->second.values, 1e-12) <= 1e-9);
    }
  }
}

TEST_CASE("golden: mp agrees with f64, and f32 with f64 within float32 rounding") {
  for (const auto& dir : cases()) {
    INFO("case " << dir.string());
    Case c = load_case(dir);
    auto d = evaluate<double>(c.model.graph, c.model.payload, c.inputs, {});
    auto q = evaluate<mp50>(c.model.graph, c.model.payload, c.inputs, {});
    auto f = evaluate<float>(c.model.graph, c.model.payload, c.inputs, {});
    REQUIRE((d.ok() && q.ok() && f.ok()));
    // The longest sum here has n = 5408 terms (mnist fc1); a sum's rounding error is at most
    // γ(n)·Σ|terms| ≈ n·u. For f64 (u = 2^-53) that is 6e-13; measured ≤ 2.2e-15. For f32
    // (u = 2^-24) 3e-4; measured ≤ 1.1e-6. The bounds sit between, so that a kernel computing in
    // the wrong type or skipping a term fails.
    for (size_t k = 0; k < d->size(); ++k) {
      CHECK(normwise_error(q->at(k), d->at(k)) <= 1e-13);
      CHECK(normwise_error(f->at(k), d->at(k)) <= 1e-5);
    }
  }
}
