// Tests of formats/tensor_files/npy.hpp: .npy and .npz reading and writing.
// Fixtures in tests/data/npy/ are made by tests/data/npy/make_fixtures.py (numpy); the values
// asserted here are the ones that script writes.
#include <catch2/catch.hpp>


#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "formats/tensor_files/npy.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using nnref::test::TempDir;

namespace {

const std::string kDir = std::string(NNREF_SOURCE_DIR) + "/tests/data/npy/";
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<uint8_t> slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  REQUIRE(f.good());
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

void spit(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  REQUIRE(f.good());
}

// A .npy file with the given header text (used verbatim, no padding) and data bytes.
std::vector<uint8_t> make_npy(const std::string& header, const std::vector<uint8_t>& data = {}, int major = 1,
                              int minor = 0) {
  std::vector<uint8_t> b = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<uint8_t>(major), static_cast<uint8_t>(minor)};
  const size_t len = header.size();
  b.push_back(static_cast<uint8_t>(len));
  b.push_back(static_cast<uint8_t>(len >> 8));
  if (major != 1) {
    b.push_back(static_cast<uint8_t>(len >> 16));
    b.push_back(static_cast<uint8_t>(len >> 24));
  }
  b.insert(b.end(), header.begin(), header.end());
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

std::vector<uint8_t> f32_le(std::initializer_list<float> vs) {
  std::vector<uint8_t> out;
  for (float v : vs) {
    uint8_t b[4];
    std::memcpy(b, &v, 4);  // the test host is little-endian
    out.insert(out.end(), b, b + 4);
  }
  return out;
}

template <class T>
std::string code_of(const Result<T>& r) {
  REQUIRE_FALSE(r.ok());
  return r.error().code;
}

// Exact equality, with NaN equal to NaN and the sign of zero significant.
bool same(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

void check_values(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("index " << i << ": got " << got[i] << ", want " << want[i]);
    CHECK(same(got[i], want[i]));
  }
}

const double kTwo53 = 9007199254740992.0;

// The values make_fixtures.py writes, per dtype code.
const std::map<std::string, std::pair<DType, std::vector<double>>>& fixture_values() {
  static const std::map<std::string, std::pair<DType, std::vector<double>>> m = {
      {"f2", {DType::F16, {0.0, -1.5, 65504.0, std::ldexp(1.0, -24), 0.0999755859375, -kInf}}},
      {"f4", {DType::F32, {1.0, -2.5, 3.4028234663852886e38, std::ldexp(1.0, -149), 0.100000001490116119384765625, kInf}}},
      {"f8", {DType::F64, {0.0, -0.0, 1e300, 5e-324, 0.1, kNaN}}},
      {"i1", {DType::I8, {-128, 127, 0, -1, 1, 42}}},
      {"i2", {DType::I16, {-32768, 32767, 0, -1, 1, 1234}}},
      {"i4", {DType::I32, {-2147483648.0, 2147483647.0, 0, -1, 1, 123456789}}},
      {"i8", {DType::I64, {-kTwo53, kTwo53, 0, -1, 1, 123456789012345.0}}},
      {"u1", {DType::U8, {0, 255, 1, 2, 3, 128}}},
      {"u2", {DType::U16, {0, 65535, 1, 2, 3, 40000}}},
      {"u4", {DType::U32, {0, 4294967295.0, 1, 2, 3, 3000000000.0}}},
      {"u8", {DType::U64, {0, kTwo53, 1, 2, 3, 18446744073.0}}},
      {"b1", {DType::Bool, {1, 0, 1, 1, 0, 0}}},
  };
  return m;
}

std::vector<std::string> fixture_files(const std::string& code) {
  if (code[1] == '1') return {code + ".npy"};
  return {code + "_le.npy", code + "_be.npy"};
}

}  // namespace

TEST_CASE("npy: every dtype in both byte orders reads exactly", "[npy]") {
  for (const auto& [code, expected] : fixture_values()) {
    for (const std::string& file : fixture_files(code)) {
      INFO(file);
      auto r = read_npy(kDir + file);
      REQUIRE(r.ok());
      CHECK(r->dtype == expected.first);
      CHECK(r->shape == Shape::of({2, 3}));
      check_values(r->values, expected.second);
    }
  }
}

TEST_CASE("npy: little-endian fixtures re-encode byte for byte as numpy wrote them", "[npy]") {
  for (const auto& [code, expected] : fixture_values()) {
    const std::string file = fixture_files(code)[0];
    INFO(file);
    auto bytes = slurp(kDir + file);
    auto r = parse_npy(bytes, file);
    REQUIRE(r.ok());
    CHECK(encode_npy(*r) == bytes);
  }
  auto v1 = slurp(kDir + "version1.npy");
  auto r = parse_npy(v1, "version1.npy");
  REQUIRE(r.ok());
  CHECK(encode_npy(*r) == v1);
}

TEST_CASE("npy: fortran order is transposed to row-major", "[npy]") {
  auto r = read_npy(kDir + "fortran_f8.npy");
  REQUIRE(r.ok());
  CHECK(r->shape == Shape::of({2, 3, 4}));
  std::vector<double> want(24);
  for (int i = 0; i < 24; ++i) want[static_cast<size_t>(i)] = i;
  check_values(r->values, want);

  auto g = read_npy(kDir + "fortran_i4_be.npy");
  REQUIRE(g.ok());
  CHECK(g->dtype == DType::I32);
  CHECK(g->shape == Shape::of({3, 2}));
  check_values(g->values, {0, 1, 2, 3, 4, 5});

  // Hand-made: shape (2, 3) Fortran-ordered data 1..6 is [[1, 3, 5], [2, 4, 6]] row-major.
  auto h = parse_npy(make_npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }\n", f32_le({1, 2, 3, 4, 5, 6})),
                     "h.npy");
  REQUIRE(h.ok());
  check_values(h->values, {1, 3, 5, 2, 4, 6});
  // Fortran order of a 1-D or scalar array is the same as C order.
  auto one = parse_npy(make_npy("{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }\n", f32_le({1, 2, 3})), "1.npy");
  REQUIRE(one.ok());
  check_values(one->values, {1, 2, 3});
}

TEST_CASE("npy: scalar, 1-D and empty shapes", "[npy]") {
  auto s = read_npy(kDir + "scalar_f8.npy");
  REQUIRE(s.ok());
  CHECK(s->shape.rank() == 0);
  check_values(s->values, {3.25});

  auto v = read_npy(kDir + "vector_i2.npy");
  REQUIRE(v.ok());
  CHECK(v->dtype == DType::I16);
  CHECK(v->shape == Shape::of({5}));
  check_values(v->values, {5, -6, 7, -8, 9});

  auto e = read_npy(kDir + "empty_f4.npy");
  REQUIRE(e.ok());
  CHECK(e->shape == Shape::of({0, 3}));
  CHECK(e->values.empty());
}

TEST_CASE("npy: format versions 1.0, 2.0 and 3.0", "[npy]") {
  for (int major : {1, 2, 3}) {
    const std::string file = kDir + "version" + std::to_string(major) + ".npy";
    INFO(file);
    auto bytes = slurp(file);
    REQUIRE(bytes.size() > 8);
    CHECK(bytes[6] == major);
    auto r = read_npy(file);
    REQUIRE(r.ok());
    CHECK(r->dtype == DType::F32);
    CHECK(r->shape == Shape::of({2, 3}));
    check_values(r->values, {1, 2, 3, 4, 5, 6});
  }
}

TEST_CASE("npy: header spellings numpy's literal_eval accepts", "[npy]") {
  const auto data = f32_le({1, 2});
  for (const std::string& header : std::vector<std::string>{
           "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
           "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2,)}",
           "{'shape': (2,), 'descr': '<f4', 'fortran_order': False}",
           "  {  'fortran_order' :False,'shape':( 2 , ),'descr':'<f4' , }  \n",
           "{'descr': u'<f4', 'fortran_order': False, 'shape': (2L,), }",
           "{'descr': '=f4', 'fortran_order': False, 'shape': (2,), }",
           "{'descr': 'f4', 'fortran_order': False, 'shape': (2,), }",
           "{'descr': '<f4',\n 'fortran_order': False,\n 'shape': (2,)\n}\n",
           "{'descr': '<f4', 'fortran_order': False, 'shape': ((2),), }",
       }) {
    INFO(header);
    auto r = parse_npy(make_npy(header, data), "h.npy");
    REQUIRE(r.ok());
    CHECK(r->shape == Shape::of({2}));
    check_values(r->values, {1, 2});
  }
  // '<u1' is accepted like '|u1'.
  auto u = parse_npy(make_npy("{'descr': '<u1', 'fortran_order': False, 'shape': (2,), }", {7, 200}), "u.npy");
  REQUIRE(u.ok());
  check_values(u->values, {7, 200});
}

TEST_CASE("npz: numpy.savez and numpy.savez_compressed", "[npz]") {
  for (const std::string file : {"savez.npz", "savez_compressed.npz"}) {
    INFO(file);
    auto r = read_npz(kDir + file);
    REQUIRE(r.ok());
    REQUIRE(r->size() == 3);
    CHECK((*r)[0].first == "a");
    CHECK((*r)[1].first == "b");
    CHECK((*r)[2].first == "c");
    const HostTensor& a = (*r)[0].second;
    CHECK(a.dtype == DType::F32);
    CHECK(a.shape == Shape::of({2, 3}));
    check_values(a.values, {0, 1, 2, 3, 4, 5});
    const HostTensor& b = (*r)[1].second;
    CHECK(b.dtype == DType::I64);
    CHECK(b.shape == Shape::of({3}));
    check_values(b.values, {-1, 0, 1});
    const HostTensor& c = (*r)[2].second;
    CHECK(c.dtype == DType::Bool);
    CHECK(c.shape.rank() == 0);
    check_values(c.values, {1});
  }
}

TEST_CASE("npz: a byte budget is checked before a member is inflated", "[npz][errors]") {
  for (const std::string file : {"savez.npz", "savez_compressed.npz"}) {
    INFO(file);
    CHECK(read_npz(kDir + file, 1 << 20).ok());  // three members of well under 1 KiB each
    auto r = read_npz(kDir + file, 100);          // each .npy member has a header of at least 64 bytes
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "size.budget");
    CHECK(r.error().message.find("'a.npy'") != std::string::npos);
  }
}

TEST_CASE("npy: write then read every dtype", "[npy][write]") {
  TempDir tmp("npy_test");
  for (const auto& [code, expected] : fixture_values()) {
    INFO(code);
    HostTensor t;
    t.dtype = expected.first;
    t.shape = Shape::of({3, 2});
    t.values = expected.second;
    const std::string path = tmp / (code + ".npy");
    REQUIRE(write_npy(path, t).ok());
    auto bytes = slurp(path);
    CHECK(bytes[6] == 1);
    const size_t header_len = bytes[8] | (bytes[9] << 8);
    CHECK((10 + header_len) % 64 == 0);
    CHECK(bytes[10 + header_len - 1] == '\n');
    auto r = read_npy(path);
    REQUIRE(r.ok());
    CHECK(r->dtype == t.dtype);
    CHECK(r->shape == t.shape);
    check_values(r->values, t.values);
  }
  SECTION("scalar and empty") {
    HostTensor s{DType::F64, Shape(), {-7.5}};
    REQUIRE(write_npy(tmp / "s.npy", s).ok());
    auto r = read_npy(tmp / "s.npy");
    REQUIRE(r.ok());
    CHECK(r->shape.rank() == 0);
    check_values(r->values, {-7.5});
    HostTensor e{DType::I32, Shape::of({4, 0}), {}};
    REQUIRE(write_npy(tmp / "e.npy", e).ok());
    auto re = read_npy(tmp / "e.npy");
    REQUIRE(re.ok());
    CHECK(re->shape == Shape::of({4, 0}));
  }
  SECTION("float32 and float16 round to nearest") {
    HostTensor f{DType::F32, Shape::of({2}), {0.1, 1.0 + std::ldexp(1.0, -24)}};
    auto r = parse_npy(encode_npy(f), "f");
    REQUIRE(r.ok());
    check_values(r->values, {static_cast<double>(0.1f), 1.0});  // the tie rounds to even
    HostTensor h{DType::F16, Shape::of({2}), {0.1, 65519.0}};
    auto rh = parse_npy(encode_npy(h), "h");
    REQUIRE(rh.ok());
    check_values(rh->values, {0.0999755859375, 65504.0});
  }
  SECTION("a header over 65535 bytes needs version 2.0") {
    std::vector<int64_t> dims(22000, 1);  // "1, " per axis
    HostTensor big{DType::U8, *Shape::make(dims), {9}};
    auto bytes = encode_npy(big);
    CHECK(bytes[6] == 2);
    const size_t header_len = bytes[8] | (bytes[9] << 8) | (bytes[10] << 16) | (size_t{bytes[11]} << 24);
    CHECK((12 + header_len) % 64 == 0);
    auto r = parse_npy(bytes, "big");
    REQUIRE(r.ok());
    CHECK(r->shape.rank() == 22000);
    check_values(r->values, {9});
  }
}

TEST_CASE("npy: write_npy refuses values the dtype cannot hold", "[npy][write]") {
  TempDir tmp("npy_test");
  struct Case {
    DType dtype;
    double value;
  };
  for (Case c : {Case{DType::I8, 128}, Case{DType::I8, -129}, Case{DType::I8, 1.5}, Case{DType::U8, -1},
                 Case{DType::U16, 65536}, Case{DType::I32, 2147483648.0}, Case{DType::U32, kNaN},
                 Case{DType::I64, kTwo53 * 2}, Case{DType::U64, kInf}, Case{DType::Bool, 2},
                 Case{DType::Bool, 0.5}, Case{DType::F32, 1e39}, Case{DType::F16, 65520}}) {
    INFO(dtype_name(c.dtype) << " " << c.value);
    HostTensor t{c.dtype, Shape::of({2}), {0, c.value}};
    auto s = write_npy(tmp / "bad.npy", t);
    CHECK(code_of(s) == "npy.value-not-representable");
    CHECK(s.error().message.find("index 1") != std::string::npos);
  }
  // Infinity and NaN are float values, not overflow.
  HostTensor inf{DType::F16, Shape::of({2}), {kInf, kNaN}};
  CHECK(write_npy(tmp / "inf.npy", inf).ok());
  HostTensor wrong{DType::F32, Shape::of({2, 2}), {1, 2, 3}};
  CHECK(code_of(write_npy(tmp / "w.npy", wrong)) == "npy.bad-tensor");
  HostTensor ok{DType::F32, Shape::of({1}), {1}};
  CHECK(code_of(write_npy(tmp / "no/such/dir/x.npy", ok)) == "io.write");
}

TEST_CASE("npz: write then read", "[npz][write]") {
  TempDir tmp("npy_test");
  NamedTensors ts;
  for (const auto& [code, expected] : fixture_values()) ts.push_back({"t_" + code, HostTensor{expected.first, Shape::of({6}), expected.second}});
  REQUIRE(write_npz(tmp / "all.npz", ts).ok());
  auto r = read_npz(tmp / "all.npz");
  REQUIRE(r.ok());
  REQUIRE(r->size() == ts.size());
  for (size_t i = 0; i < ts.size(); ++i) {
    INFO(ts[i].first);
    CHECK((*r)[i].first == ts[i].first);
    CHECK((*r)[i].second.dtype == ts[i].second.dtype);
    CHECK((*r)[i].second.shape == ts[i].second.shape);
    check_values((*r)[i].second.values, ts[i].second.values);
  }
  SECTION("an empty archive") {
    REQUIRE(write_npz(tmp / "empty.npz", {}).ok());
    auto e = read_npz(tmp / "empty.npz");
    REQUIRE(e.ok());
    CHECK(e->empty());
  }
  SECTION("refusals") {
    NamedTensors dup = {{"x", HostTensor{DType::F32, Shape::of({1}), {1}}}, {"x", HostTensor{DType::F32, Shape::of({1}), {2}}}};
    CHECK(code_of(write_npz(tmp / "dup.npz", dup)) == "npz.bad-name");
    NamedTensors unnamed = {{"", HostTensor{DType::F32, Shape::of({1}), {1}}}};
    CHECK(code_of(write_npz(tmp / "u.npz", unnamed)) == "npz.bad-name");
    NamedTensors bad = {{"q", HostTensor{DType::U8, Shape::of({1}), {300}}}};
    auto s = write_npz(tmp / "bad.npz", bad);
    CHECK(code_of(s) == "npy.value-not-representable");
    CHECK(s.error().node == "q");
  }
}

TEST_CASE("float16 conversion", "[npy][f16]") {
  SECTION("every half survives half -> double -> half") {
    for (uint32_t h = 0; h < 0x10000; ++h) {
      const double d = half_to_double(static_cast<uint16_t>(h));
      if (std::isnan(d)) {
        CHECK(std::isnan(half_to_double(double_to_half(d))));
        continue;
      }
      if (double_to_half(d) != h) FAIL("half 0x" << std::hex << h);
    }
  }
  SECTION("matches numpy's float64 -> float16 on ties, subnormals and overflow") {
    auto in = read_npy(kDir + "f2_rounding_in.npy");
    auto out = read_npy(kDir + "f2_rounding_out.npy");
    REQUIRE(in.ok());
    REQUIRE(out.ok());
    REQUIRE(in->values.size() == out->values.size());
    for (size_t i = 0; i < in->values.size(); ++i) {
      const double want = out->values[i];
      const double got = half_to_double(double_to_half(in->values[i]));
      if (!same(got, want)) FAIL("input " << in->values[i] << ": got " << got << ", numpy " << want);
    }
  }
}

// ------------------------------------------------------------------------------------------
// Errors

TEST_CASE("npy: a file cut short at any byte is npy.truncated", "[npy][errors]") {
  for (const std::string file : {"f4_le.npy", "version2.npy", "scalar_f8.npy", "fortran_f8.npy"}) {
    const auto bytes = slurp(kDir + file);
    for (size_t n = 0; n < bytes.size(); ++n) {
      INFO(file << " cut to " << n << " bytes");
      auto r = parse_npy(std::span<const uint8_t>(bytes.data(), n), "cut.npy");
      REQUIRE_FALSE(r.ok());
      CHECK(r.error().code == "npy.truncated");
      CHECK(r.error().loc.file == "cut.npy");
    }
  }
  const auto bytes = slurp(kDir + "f4_le.npy");  // 128-byte header, 24 bytes of data
  auto r = parse_npy(std::span<const uint8_t>(bytes.data(), 140), "cut.npy");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("needs 24 bytes from byte 128 but only 12 are present") != std::string::npos);
}

TEST_CASE("npy: bytes after the data are npy.trailing-data", "[npy][errors]") {
  auto bytes = slurp(kDir + "f4_le.npy");
  bytes.push_back(0);
  auto r = parse_npy(bytes, "t.npy");
  CHECK(code_of(r) == "npy.trailing-data");
  CHECK(r.error().message.find("from byte 152") != std::string::npos);
}

TEST_CASE("npy: bad magic and unsupported versions", "[npy][errors]") {
  auto good = slurp(kDir + "f4_le.npy");
  auto bad = good;
  bad[0] = 0x92;
  CHECK(code_of(parse_npy(bad, "m.npy")) == "npy.bad-magic");
  bad = good;
  bad[3] = 'm';
  auto r = parse_npy(bad, "m.npy");
  CHECK(code_of(r) == "npy.bad-magic");
  CHECK(r.error().loc.file == "m.npy");
  const std::string text = "PK\x03\x04 not numpy at all";
  CHECK(code_of(parse_npy(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()), "m.npy")) == "npy.bad-magic");

  for (auto [major, minor] : {std::pair{0, 0}, {1, 1}, {2, 1}, {4, 0}, {255, 255}}) {
    INFO(major << "." << minor);
    bad = good;
    bad[6] = static_cast<uint8_t>(major);
    bad[7] = static_cast<uint8_t>(minor);
    auto v = parse_npy(bad, "v.npy");
    CHECK(code_of(v) == "npy.unsupported-version");
    CHECK(v.error().message.find(std::to_string(major) + "." + std::to_string(minor)) != std::string::npos);
  }
}

TEST_CASE("npy: malformed headers are npy.bad-header", "[npy][errors]") {
  const auto data = f32_le({1, 2});
  for (const std::string& header : std::vector<std::string>{
           "",
           "garbage",
           "\x01\x02\x03\xff",
           "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), ",  // unterminated
           "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x",
           "['descr', '<f4']",
           "{'descr': '<f4', 'fortran_order': False}",  // missing shape
           "{'descr': '<f4', 'shape': (2,)}",           // missing fortran_order
           "{'fortran_order': False, 'shape': (2,)}",   // missing descr
           "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}",
           "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}",
           "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}",
           "{'descr': '<f4', 'fortran_order': False, 'shape': (2)}",  // an int, not a tuple
           "{'descr': '<f4', 'fortran_order': False, 'shape': [2]}",
           "{'descr': '<f4', 'fortran_order': False, 'shape': (2.0,)}",
           "{'descr': '<f4', 'fortran_order': False, 'shape': ('2',)}",
           "{'descr': '<f4', 'fortran_order': False, 'shape': (True, 2)}",
           "{'descr': 4, 'fortran_order': False, 'shape': (2,)}",
           "{'descr': '<f4, 'fortran_order': False, 'shape': (2,)}",
           "{'descr': '<f4', 'fortran_order': False, 'shape': (2,,)}",
           "{1: '<f4', 'fortran_order': False, 'shape': (2,)}",
           "{'descr': '<f4' 'fortran_order': False, 'shape': (2,)}",
           "{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2,)}",
           std::string(2000, '(') + std::string(2000, ')'),
           "{'descr': " + std::string(5000, '[') + std::string(5000, ']') + "}",
       }) {
    INFO(header);
    auto r = parse_npy(make_npy(header, data), "h.npy");
    CHECK(code_of(r) == "npy.bad-header");
    CHECK(r.error().loc.file == "h.npy");
  }
  // Messages carry a byte offset.
  auto r = parse_npy(make_npy("{'descr': '<f4', 'fortran_order': maybe, 'shape': (2,)}", data), "h.npy");
  INFO(r.error().message);
  CHECK(r.error().message.find("at byte 44") != std::string::npos);
}

TEST_CASE("npy: negative and huge shapes", "[npy][errors]") {
  auto neg = parse_npy(make_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1), }"), "s.npy");
  CHECK(code_of(neg) == "shape.negative-extent");
  CHECK(neg.error().loc.file == "s.npy");
  auto huge = parse_npy(make_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4611686018427387904), }"), "s.npy");
  CHECK(code_of(huge) == "size.overflow");
  CHECK(huge.error().loc.file == "s.npy");
  // Fits int64 as a count but not as a byte size.
  CHECK(code_of(parse_npy(make_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,), }"), "s.npy")) ==
        "size.overflow");
  // Beyond int64 as an extent.
  CHECK(code_of(parse_npy(make_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999,), }"), "s.npy")) ==
        "size.overflow");
  // Large but representable: refused because the data is not there, before any allocation.
  auto big = parse_npy(make_npy("{'descr': '<f8', 'fortran_order': True, 'shape': (1000000, 1000000), }"), "s.npy");
  CHECK(code_of(big) == "npy.truncated");
  // A zero extent makes the others irrelevant.
  auto zero = parse_npy(make_npy("{'descr': '<f8', 'fortran_order': True, 'shape': (0, 4611686018427387904, 4611686018427387904), }"), "s.npy");
  REQUIRE(zero.ok());
  CHECK(zero->values.empty());
}

TEST_CASE("npy: unsupported dtypes", "[npy][errors]") {
  for (const std::string file : {"complex.npy", "unicode.npy", "structured.npy", "object.npy"}) {
    INFO(file);
    CHECK(code_of(read_npy(kDir + file)) == "npy.unsupported-dtype");
  }
  for (const std::string descr : {"<c16", "|O", "<U3", "|S4", "|V8", "<M8[ns]", "<m8", "<f16", "<f3", "<i3", "|b2",
                                  "|f4", "<", "", "<x4", "<f", "<f4x", "<i99999999999999999999999"}) {
    INFO(descr);
    auto r = parse_npy(make_npy("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (1,), }", {0, 0, 0, 0}), "d.npy");
    CHECK(code_of(r) == "npy.unsupported-dtype");
  }
  auto r = parse_npy(make_npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", {0, 0, 0, 0}), "d.npy");
  CHECK(code_of(r) == "npy.unsupported-dtype");
  CHECK(r.error().message.find("structured") != std::string::npos);
}

TEST_CASE("npy: values a double cannot hold, and bad bools", "[npy][errors]") {
  auto i8 = read_npy(kDir + "i8_too_large.npy");
  CHECK(code_of(i8) == "npy.integer-out-of-range");
  CHECK(i8.error().message.find("element 1 at byte 136") != std::string::npos);
  CHECK(code_of(read_npy(kDir + "u8_too_large.npy")) == "npy.integer-out-of-range");
  auto b = parse_npy(make_npy("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", {1, 0, 2}), "b.npy");
  CHECK(code_of(b) == "npy.bad-bool");
}

TEST_CASE("npy/npz: files that cannot be read", "[npy][npz][errors]") {
  auto r = read_npy(kDir + "no-such-file.npy");
  CHECK(code_of(r) == "io.read");
  CHECK(r.error().message.find("No such file") != std::string::npos);
  CHECK(code_of(read_npy(kDir)) == "io.read");
  CHECK(code_of(read_npz(kDir + "no-such-file.npz")) == "io.read");
  CHECK(code_of(read_npz(kDir)) == "io.read");
}

TEST_CASE("npz: corrupt and foreign archives", "[npz][errors]") {
  TempDir tmp("npy_test");
  SECTION("not a zip") {
    CHECK(code_of(read_npz(kDir + "f4_le.npy")) == "npz.bad-zip");
    spit(tmp / "empty.npz", {});
    CHECK(code_of(read_npz(tmp / "empty.npz")) == "npz.bad-zip");
    const std::string junk = "PK\x03\x04 this is not really a zip file, just its first bytes..........";
    CHECK(code_of(parse_npz(std::span(reinterpret_cast<const uint8_t*>(junk.data()), junk.size()), "j.npz")) == "npz.bad-zip");
  }
  SECTION("a member that is not .npy") {
    auto r = read_npz(kDir + "not_npy_member.npz");
    CHECK(code_of(r) == "npz.bad-member");
    CHECK(r.error().message.find("notes.txt") != std::string::npos);
  }
  SECTION("a damaged member fails its CRC check") {
    auto bytes = slurp(kDir + "savez.npz");
    // The first stored member's data: find the first npy magic and damage a header byte after it.
    const uint8_t magic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    auto it = std::search(bytes.begin(), bytes.end(), magic, magic + 6);
    REQUIRE(it != bytes.end());
    *(it + 20) ^= 0x20;
    auto r = parse_npz(bytes, "crc.npz");
    CHECK(code_of(r) == "npz.bad-zip");
  }
  SECTION("every truncation of an archive is refused, without crashing") {
    for (const std::string file : {"savez.npz", "savez_compressed.npz"}) {
      const auto bytes = slurp(kDir + file);
      for (size_t n = 0; n < bytes.size(); ++n) {
        INFO(file << " cut to " << n);
        auto r = parse_npz(std::span<const uint8_t>(bytes.data(), n), file);
        CHECK_FALSE(r.ok());
      }
    }
  }
  SECTION("a member that is a bad .npy names the member") {
    auto r = read_npz(kDir + "bad_member.npz");
    CHECK(code_of(r) == "npy.unsupported-version");
    CHECK(r.error().node == "w");
    CHECK(r.error().message.find("'w.npy'") != std::string::npos);
    CHECK(r.error().loc.file == kDir + "bad_member.npz");
  }
}
