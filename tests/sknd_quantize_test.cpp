// Variables stored as quantized codes, read through the graph's @quantize (§2.14, docs/nnef2.md
// "The model folder"): each code mapped back as the quantization operator's @lower body computes its
// output, the values worked out by hand; and the refusals, each with its code and location.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "formats/model.hpp"
#include "formats/nnef/dat.hpp"

using namespace nnref;
namespace fs = std::filesystem;

namespace {

// main.sknd with a variable `scale` [1, 4] stored as the signed 8-bit codes -128, -1, 0, 127, and
// the @quantize entry `quantization`.
struct Quantized {
  fs::path path = fs::temp_directory_path() / "nnref_sknd_quantized";
  explicit Quantized(const std::string& quantization, int bits = 8) {
    fs::remove_all(path);
    fs::create_directories(path);
    std::ofstream(path / "main.sknd") << R"(version 2.0;
import math;
import quant;

graph Net {
    @input {
        input: real[1, 4];
    }
    @output {
        output: real[1, 4];
    }
    @variable {
        scale: real[1, 4];
    }
    @quantize {
        )" << quantization << R"(;
    }
    @compose {
        output = math.mul(input, scale);
    }
}
)";
    std::ofstream(path / "main.Net.scale.dat", std::ios::binary)
        << nnef::write_dat({1, 4}, {-128, -1, 0, 127}, nnef::ItemType::QuantizedSigned, bits);
  }
  ~Quantized() { fs::remove_all(path); }

  LoadResult load() const { return load_model(path.string(), LoadOptions(WeightsPolicy::Required)); }
  std::vector<double> values() const {
    const LoadResult r = load();
    REQUIRE(r.model);
    for (const auto& [key, entry] : r.model->payload.entries())
      if (entry.source.find("main.Net.scale.dat") != std::string::npos) return entry.tensor.values;
    FAIL("no payload entry from main.Net.scale.dat");
    return {};
  }
};

}  // namespace

TEST_CASE("sknd quantize: zero-point codes per channel are (q - zero_point) * scale", "[nnef2][quantize]") {
  // Channel axis 1 (four channels): (-128 - 0) * 0.5, (-1 - 1) * 0.25, (0 - 2) * 1, (127 - 3) * 2.
  const Quantized q(
      "scale: quant.zero_point_linear_quantize{zero_point=[0, 1, 2, 3], scale=[0.5, 0.25, 1.0, 2.0], bits=8}");
  CHECK(q.values() == std::vector<double>{-64.0, -0.5, -2.0, 248.0});
  // One zero point and one scale for every channel: (q - 1) * 0.5.
  const Quantized u("scale: quant.zero_point_linear_quantize{zero_point=1, scale=0.5, bits=8}");
  CHECK(u.values() == std::vector<double>{-64.5, -1.0, -0.5, 63.0});
}

TEST_CASE("sknd quantize: min-max codes are (q + p) / r * (max - min) + min", "[nnef2][quantize]") {
  // Signed, not symmetric, 8 bits: r = 2^8 - 1 = 255, p = 2^7 = 128; max - min = 2.55, min = -1:
  // (q + 128) / 255 * 2.55 - 1 = (q + 128) / 100 - 1.
  const Quantized q("scale: quant.min_max_linear_quantize{min=-1.0, max=1.55, bits=8}");
  const std::vector<double> v = q.values();
  const std::vector<double> want{-1.0, 0.27, 0.28, 1.55};
  REQUIRE(v.size() == 4);
  for (size_t k = 0; k < 4; ++k) CHECK(v[k] == Approx(want[k]).epsilon(1e-15));
}

TEST_CASE("sknd quantize: codes of other bits, a computed tensor, an entry missing", "[nnef2][quantize]") {
  const auto first_error = [](const LoadResult& r) {
    REQUIRE_FALSE(r.model);
    for (const Diagnostic& d : r.diagnostics)
      if (d.severity == Severity::Error) return d;
    FAIL("no error");
    return r.diagnostics[0];
  };
  // 16-bit codes for an 8-bit quantization: located at the entry (line 16, column 9).
  Diagnostic d = first_error(
      Quantized("scale: quant.zero_point_linear_quantize{zero_point=0, scale=1.0, bits=8}", 16).load());
  CHECK(d.code == "nnef2.quantize.mismatch");
  CHECK(d.loc.line == 16);
  CHECK(d.loc.column == 9);
  CHECK(d.message.find("8-bit signed codes, but the file holds 16-bit signed ones") != std::string::npos);
  d = first_error(Quantized("output: quant.zero_point_linear_quantize{zero_point=0, scale=1.0, bits=8}").load());
  CHECK(d.code == "nnef2.quantize.unsupported");
  CHECK(d.loc.line == 16);
  d = first_error(Quantized("input: quant.zero_point_linear_quantize{zero_point=0, scale=1.0, bits=8}").load());
  CHECK(d.code == "nnef2.quantize.unsupported");
}
