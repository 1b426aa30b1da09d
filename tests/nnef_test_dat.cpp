// NNEF tensor files (.dat, §5.2): every item type and bit width, built byte by byte here, and a
// malformed file for every header check; quantized items read through graph.quant.
#include "nnef_test_support.hpp"

#include <cstring>

using namespace nnref;
using namespace nnref::test;

namespace {

// A 128-byte header: magic, version 1.0, data length, rank, extents, bits, item type.
std::string header(std::vector<uint32_t> extents, uint32_t bits, uint32_t item, uint32_t length) {
  std::string h(128, '\0');
  const auto put = [&](size_t at, uint32_t v) {
    for (int k = 0; k < 4; ++k) h[at + static_cast<size_t>(k)] = static_cast<char>((v >> (8 * k)) & 0xFF);
  };
  h[0] = 'N';
  h[1] = static_cast<char>(0xEF);
  h[2] = 1;
  put(4, length);
  put(8, static_cast<uint32_t>(extents.size()));
  for (size_t k = 0; k < extents.size(); ++k) put(12 + 4 * k, extents[k]);
  put(44, bits);
  put(48, item);
  return h;
}
std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int x : b) s += static_cast<char>(x);
  return s;
}

std::optional<nnef::DatTensor> read(const Folder& f, const std::string& content, std::vector<int64_t> shape, ElemKind kind,
                                    std::vector<Diagnostic>* diags = nullptr) {
  f.write("t.dat", content);
  nnef::Diags d;
  auto out = nnef::read_dat((f.path() / "t.dat").string(), "t", shape, kind, SourceLoc{"graph.nnef", 7, 3}, d);
  if (diags) *diags = d.take();
  return out;
}

std::vector<double> values(const Folder& f, const std::string& content, std::vector<int64_t> shape, ElemKind kind) {
  const auto t = read(f, content, shape, kind);
  REQUIRE(t);
  return t->tensor.values;
}

std::string error_code(const Folder& f, const std::string& content, std::vector<int64_t> shape, ElemKind kind = ElemKind::Real) {
  std::vector<Diagnostic> d;
  CHECK_FALSE(read(f, content, shape, kind, &d));
  REQUIRE(d.size() == 1);
  CHECK(d[0].loc.line == 7);  // at the variable's invocation
  return d[0].code;
}

}  // namespace

TEST_CASE("nnef dat: float items of 16, 32 and 64 bits, little-endian") {
  Folder f;
  // 1.0 = 0x3C00 (half), 0x3F800000 (single), 0x3FF0000000000000 (double); -2.5 = 0xC100, 0xC0200000.
  CHECK(values(f, header({2}, 16, 0, 4) + bytes({0x00, 0x3C, 0x00, 0xC1}), {2}, ElemKind::Real) == std::vector<double>{1, -2.5});
  CHECK(values(f, header({1, 2}, 32, 0, 8) + bytes({0, 0, 0x80, 0x3F, 0, 0, 0x20, 0xC0}), {1, 2}, ElemKind::Real) ==
        std::vector<double>{1, -2.5});
  CHECK(values(f, header({1}, 64, 0, 8) + bytes({0, 0, 0, 0, 0, 0, 0xF0, 0x3F}), {1}, ElemKind::Real) == std::vector<double>{1});
}

TEST_CASE("nnef dat: integer items of whole and partial bytes, signed and unsigned, and bools of 1 and 8 bits") {
  Folder f;
  CHECK(values(f, header({2}, 8, 1, 2) + bytes({200, 7}), {2}, ElemKind::Integer) == std::vector<double>{200, 7});
  CHECK(values(f, header({2}, 16, 4, 4) + bytes({0xFE, 0xFF, 0x00, 0x80}), {2}, ElemKind::Integer) ==
        std::vector<double>{-2, -32768});
  // 3-bit unsigned 5, 2, 7 as a bit stream, first item in the high bits: 101 010 11|1 0000000.
  CHECK(values(f, header({3}, 3, 1, 2) + bytes({0b10101011, 0b10000000}), {3}, ElemKind::Integer) ==
        std::vector<double>{5, 2, 7});
  // 5-bit signed -1, 3: 11111 000|11 000000.
  CHECK(values(f, header({2}, 5, 4, 2) + bytes({0b11111000, 0b11000000}), {2}, ElemKind::Integer) ==
        std::vector<double>{-1, 3});
  CHECK(values(f, header({1}, 64, 4, 8) + bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}), {1}, ElemKind::Integer) ==
        std::vector<double>{-1});
  CHECK(values(f, header({3}, 1, 5, 1) + bytes({0b10100000}), {3}, ElemKind::Logical) == std::vector<double>{1, 0, 1});
  CHECK(values(f, header({2}, 8, 5, 2) + bytes({0, 9}), {2}, ElemKind::Logical) == std::vector<double>{0, 1});
}

TEST_CASE("nnef dat: every header field is checked") {
  Folder f;
  const std::string ok = header({2}, 32, 0, 8) + std::string(8, '\0');
  std::string magic = ok;
  magic[1] = 'F';
  CHECK(error_code(f, magic, {2}) == "nnef.dat.bad-magic");
  std::string version = ok;
  version[2] = 2;
  CHECK(error_code(f, version, {2}) == "nnef.dat.bad-version");
  CHECK(error_code(f, header({2, 1, 1, 1, 1, 1, 1, 1}, 32, 0, 8) + std::string(8, '\0'), {2}) == "nnef.dat.shape-mismatch");
  std::string rank9 = ok;
  rank9[8] = 9;
  CHECK(error_code(f, rank9, {2}) == "nnef.dat.bad-rank");
  std::string stray = ok;
  stray[12 + 4 * 3] = 1;  // extent 3 of a rank-1 tensor
  CHECK(error_code(f, stray, {2}) == "nnef.dat.bad-rank");
  CHECK(error_code(f, header({2}, 32, 0, 8) + std::string(8, '\0'), {1, 2}) == "nnef.dat.shape-mismatch");  // [2] is not [1, 2]
  CHECK(error_code(f, header({2}, 32, 0, 12) + std::string(12, '\0'), {2}) == "nnef.dat.data-length");
  CHECK(error_code(f, header({2}, 32, 0, 8) + std::string(7, '\0'), {2}) == "nnef.dat.truncated");
  CHECK(error_code(f, std::string(100, '\0'), {2}) == "nnef.dat.truncated");
  CHECK(error_code(f, ok + "x", {2}) == "nnef.dat.trailing-data");
  CHECK(error_code(f, header({2}, 32, 0x10000, 8) + std::string(8, '\0'), {2}) == "nnef.dat.item-type");  // vendor 1
  CHECK(error_code(f, header({2}, 8, 0, 2) + std::string(2, '\0'), {2}) == "nnef.dat.item-type");       // 8-bit float
  CHECK(error_code(f, header({2}, 8, 9, 2) + std::string(2, '\0'), {2}) == "nnef.dat.item-type");       // unknown code
  CHECK(error_code(f, header({2}, 8, 1, 2) + std::string(2, '\0'), {2}) == "nnef.dat.item-type");       // integers for scalar
  CHECK(error_code(f, header({1}, 64, 1, 8) + bytes({0, 0, 0, 0, 0, 0, 0x40, 0}), {1}, ElemKind::Integer) ==
        "nnef.dat.integer-out-of-range");
}

TEST_CASE("nnef dat: variables read their files by label, and quantized items through graph.quant") {
  Folder f;
  // 8-bit unsigned quantized codes 0, 85, 170, 255 under min -1, max 2: -1 + code/255·3 = -1, 0, 1, 2.
  f.write("layer/w.dat", header({1, 4}, 8, 2, 4) + bytes({0, 85, 170, 255}));
  f.write("graph.quant", "\"w\": linear_quantize(min = -1.0, max = 2.0, bits = 8);\n"
                         "\"output\": linear_quantize(min = 0.0, max = 3.0, bits = 2);\n");
  const auto r = load_text("version 1.0;\ngraph G( input ) -> ( output ) {\n"
                           "input = external(shape = [1, 4]);\n"
                           "w = variable(shape = [1, 4], label = 'layer/w');\n"
                           "output = add(input, w);\n}\n", f);
  // The output is quantized by graph.quant too: min 0, max 3, 2 bits: round(clamp(x, 0, 3)) on the grid 0, 1, 2, 3.
  const auto out = run_f64(r, {host({1, 4}, {0.2, 0.6, 1.3, 0.4})});
  REQUIRE(out.size() == 1);
  CHECK(out[0][0] == 0);  // -0.8 → clamped to 0
  CHECK(out[0][1] == Approx(1).epsilon(1e-15));  // 0.6 → round(0.6) = 1
  CHECK(out[0][2] == Approx(2).epsilon(1e-15));  // 2.3 → 2
  CHECK(out[0][3] == Approx(2).epsilon(1e-15));  // 2.4 → 2
  REQUIRE(r.model);
  const ParamEntry* w = r.model->payload.find("layer/w", "value");
  REQUIRE(w != nullptr);
  CHECK(w->tensor.values[0] == -1);
  CHECK(w->tensor.values[1] == Approx(0).margin(1e-15));
  CHECK(w->tensor.values[2] == Approx(1).epsilon(1e-15));
  CHECK(w->tensor.values[3] == 2);
}

TEST_CASE("nnef dat: missing files, quantized items without graph.quant, and a file that disagrees with its declaration") {
  const std::string text = "version 1.0;\ngraph G( input ) -> ( output ) {\ninput = external(shape = [1, 2]);\n"
                           "w = variable(shape = [1, 2], label = 'w');\noutput = add(input, w);\n}\n";
  {
    Folder f;
    const auto required = load_text(text, f);
    REQUIRE_FALSE(required.diagnostics.empty());
    CHECK(required.diagnostics[0].code == "nnef.dat.missing");
    CHECK(required.diagnostics[0].loc.line == 4);
    const auto if_present = load_text(text, f, WeightsPolicy::IfPresent);
    REQUIRE(if_present.model);
    CHECK_FALSE(if_present.model->weights_loaded);
  }
  {
    Folder f;
    f.write("w.dat", header({1, 2}, 8, 2, 2) + bytes({1, 2}));
    const auto r = load_text(text, f);
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics[0].code == "nnef.dat.quant-missing");
    CHECK(r.diagnostics[0].loc.line == 4);
    CHECK(r.diagnostics[0].loc.column == 5);
  }
  {
    Folder f;
    f.write("w.dat", header({2}, 32, 0, 8) + std::string(8, '\0'));
    const auto r = load_text(text, f);
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics[0].code == "nnef.dat.shape-mismatch");
    CHECK(r.diagnostics[0].node == "w");
  }
  {
    Folder f;
    f.write("w.dat", header({1, 2}, 32, 0, 8) + std::string(8, '\0'));
    f.write("graph.quant", "\"nothing\": linear_quantize(min = 0.0, max = 1.0, bits = 8);\n");
    const auto r = load_text(text, f);
    REQUIRE_FALSE(r.diagnostics.empty());
    CHECK(r.diagnostics[0].code == "nnef.quant.unknown-tensor");
    CHECK(r.diagnostics[0].loc.line == 1);
  }
}
