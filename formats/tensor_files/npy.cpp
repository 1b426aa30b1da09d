// NumPy .npy reader and writer. See docs/tensor-files.md for what is accepted and refused.
#include "formats/tensor_files/npy.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string_view>

#include "formats/tensor_files/npy_internal.hpp"
#include "spec/escaped.hpp"

namespace nnref {

namespace {

constexpr uint8_t kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr double kTwo53 = 9007199254740992.0;  // 2^53
constexpr int kMaxNesting = 16;               // of (), [], {} in a header

Diagnostic npy_error(const std::string& name, std::string code, std::string message) {
  return make_error(std::move(code), std::move(message), SourceLoc{name, 0, 0});
}

std::string fmt_double(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// ---------------------------------------------------------------------------------------------
// The header: a Python literal (a dict of str keys to str / bool / tuple-of-int values).

struct PyValue {
  enum class Kind { Str, Int, Bool, None, Tuple, List, Dict };
  Kind kind = Kind::None;
  std::string str;             // Str
  int64_t integer = 0;         // Int
  bool int_overflow = false;   // Int: does not fit int64
  bool boolean = false;        // Bool
  std::vector<PyValue> items;  // Tuple / List; Dict: key, value, key, value, ...
  size_t offset = 0;           // file offset where the value starts
};

const char* kind_name(PyValue::Kind k) {
  switch (k) {
    case PyValue::Kind::Str: return "a string";
    case PyValue::Kind::Int: return "an integer";
    case PyValue::Kind::Bool: return "a bool";
    case PyValue::Kind::None: return "None";
    case PyValue::Kind::Tuple: return "a tuple";
    case PyValue::Kind::List: return "a list";
    case PyValue::Kind::Dict: return "a dict";
  }
  return "?";
}

class HeaderParser {
 public:
  HeaderParser(std::string_view text, size_t base, const std::string& name)
      : s_(text), base_(base), name_(name) {}

  Result<PyValue> parse_all() {
    skip_ws();
    auto v = parse_value(0);
    if (!v) return v;
    skip_ws();
    if (pos_ != s_.size())
      return fail("unexpected text after the header's dict: '" + escaped(s_.substr(pos_), 60) + "'");
    return v;
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;
  size_t base_;
  const std::string& name_;

  Diagnostic fail(const std::string& what) const {
    return npy_error(name_, "npy.bad-header",
                     "malformed header at byte " + std::to_string(base_ + pos_) + ": " + what);
  }
  bool at_end() const { return pos_ >= s_.size(); }
  char peek() const { return at_end() ? '\0' : s_[pos_]; }
  void skip_ws() {
    while (!at_end()) {
      char c = s_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
        ++pos_;
      else
        break;
    }
  }
  static bool is_ident_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  Result<PyValue> parse_value(int depth) {
    if (depth > kMaxNesting) return fail("nesting deeper than " + std::to_string(kMaxNesting));
    if (at_end()) return fail("unexpected end of header");
    char c = peek();
    if (c == '\'' || c == '"') return parse_string();
    if (c == 'u' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '\'' || s_[pos_ + 1] == '"')) {
      ++pos_;  // u'...': a Python 2 unicode literal
      return parse_string();
    }
    if (c == '-' || c == '+' || (c >= '0' && c <= '9')) return parse_int();
    if (c == '(') return parse_seq(depth, '(', ')', PyValue::Kind::Tuple);
    if (c == '[') return parse_seq(depth, '[', ']', PyValue::Kind::List);
    if (c == '{') return parse_dict(depth);
    if (is_ident_char(c)) {
      size_t start = pos_;
      while (!at_end() && is_ident_char(peek())) ++pos_;
      std::string_view id = s_.substr(start, pos_ - start);
      PyValue v;
      v.offset = base_ + start;
      if (id == "True" || id == "False") {
        v.kind = PyValue::Kind::Bool;
        v.boolean = id == "True";
        return v;
      }
      if (id == "None") return v;
      pos_ = start;
      return fail("unexpected name '" + escaped(id, 60) + "'");
    }
    return fail("unexpected character '" + escaped(s_.substr(pos_, 1)) + "'");
  }

  Result<PyValue> parse_string() {
    PyValue v;
    v.kind = PyValue::Kind::Str;
    v.offset = base_ + pos_;
    char q = s_[pos_++];
    while (true) {
      if (at_end()) return fail("unterminated string");
      char c = s_[pos_++];
      if (c == q) return v;
      if (c == '\n') return fail("newline inside a string");
      if (c == '\\') {
        if (at_end()) return fail("unterminated string");
        char e = s_[pos_++];
        if (e == '\\' || e == '\'' || e == '"')
          v.str += e;
        else
          return fail(std::string("unsupported escape '\\") + escaped(std::string_view(&e, 1)) + "' in a string");
      } else {
        v.str += c;
      }
    }
  }

  Result<PyValue> parse_int() {
    PyValue v;
    v.kind = PyValue::Kind::Int;
    v.offset = base_ + pos_;
    bool neg = false;
    if (peek() == '-' || peek() == '+') {
      neg = peek() == '-';
      ++pos_;
      skip_ws();
    }
    if (at_end() || peek() < '0' || peek() > '9') return fail("expected digits");
    uint64_t mag = 0;
    bool over = false;
    while (!at_end() && peek() >= '0' && peek() <= '9') {
      unsigned d = static_cast<unsigned>(peek() - '0');
      if (mag > (UINT64_MAX - d) / 10)
        over = true;
      else
        mag = mag * 10 + d;
      ++pos_;
    }
    if (peek() == 'L' || peek() == 'l') ++pos_;  // Python 2 long suffix, as old numpy wrote
    if (!at_end() && (is_ident_char(peek()) || peek() == '.'))
      return fail("malformed integer");
    constexpr uint64_t kMaxPos = static_cast<uint64_t>(INT64_MAX);
    if (over || mag > kMaxPos + (neg ? 1 : 0)) {
      v.int_overflow = true;
      v.integer = neg ? INT64_MIN : INT64_MAX;
    } else if (neg) {
      v.integer = mag == kMaxPos + 1 ? INT64_MIN : -static_cast<int64_t>(mag);
    } else {
      v.integer = static_cast<int64_t>(mag);
    }
    return v;
  }

  // ( ) and [ ]: items separated by commas, an optional trailing comma. "(x)" without a comma
  // is a parenthesised x, as in Python.
  Result<PyValue> parse_seq(int depth, char open, char close, PyValue::Kind kind) {
    PyValue v;
    v.kind = kind;
    v.offset = base_ + pos_;
    (void)open;
    ++pos_;
    bool saw_comma = false;
    skip_ws();
    while (true) {
      if (at_end()) return fail(std::string("unterminated ") + kind_name(kind));
      if (peek() == close) {
        ++pos_;
        break;
      }
      auto item = parse_value(depth + 1);
      if (!item) return item;
      v.items.push_back(std::move(item).value());
      skip_ws();
      if (peek() == ',') {
        saw_comma = true;
        ++pos_;
        skip_ws();
      } else if (peek() != close) {
        return fail(std::string("expected ',' or '") + close + "'");
      }
    }
    if (kind == PyValue::Kind::Tuple && v.items.size() == 1 && !saw_comma) {
      PyValue inner = std::move(v.items[0]);
      return inner;
    }
    return v;
  }

  Result<PyValue> parse_dict(int depth) {
    PyValue v;
    v.kind = PyValue::Kind::Dict;
    v.offset = base_ + pos_;
    ++pos_;
    skip_ws();
    while (true) {
      if (at_end()) return fail("unterminated dict");
      if (peek() == '}') {
        ++pos_;
        return v;
      }
      auto key = parse_value(depth + 1);
      if (!key) return key;
      skip_ws();
      if (peek() != ':') return fail("expected ':' after a dict key");
      ++pos_;
      skip_ws();
      auto val = parse_value(depth + 1);
      if (!val) return val;
      v.items.push_back(std::move(key).value());
      v.items.push_back(std::move(val).value());
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        skip_ws();
      } else if (peek() != '}') {
        return fail("expected ',' or '}'");
      }
    }
  }
};

// ---------------------------------------------------------------------------------------------
// dtypes

struct NpyType {
  DType dtype;
  bool big_endian;
};

Result<NpyType> parse_descr(const std::string& d, const std::string& name, size_t offset) {
  auto refuse = [&](const std::string& why) {
    return npy_error(name, "npy.unsupported-dtype",
                     "dtype '" + escaped(d, 60) + "' (descr at byte " + std::to_string(offset) + ") " + why +
                         "; supported: f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1 with byte order < > | =");
  };
  size_t i = 0;
  char order = '=';
  if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=')) order = d[i++];
  if (i >= d.size()) return refuse("has no type code");
  char kind = d[i++];
  std::string_view rest(d.data() + i, d.size() - i);
  int size = 0;
  bool digits_ok = !rest.empty() && rest.size() <= 3;
  for (size_t k = 0; digits_ok && k < rest.size(); ++k) {
    if (rest[k] < '0' || rest[k] > '9') digits_ok = false;
    else size = size * 10 + (rest[k] - '0');  // at most 3 digits
  }
  switch (kind) {
    case 'c': return refuse("is complex");
    case 'O': return refuse("is a Python object array");
    case 'U': case 'w': return refuse("is a unicode string");
    case 'S': case 'a': return refuse("is a byte string");
    case 'V': return refuse("is raw void/structured data");
    case 'M': return refuse("is a datetime");
    case 'm': return refuse("is a timedelta");
    case 'f': case 'i': case 'u': case 'b': break;
    default: return refuse("has an unknown type code");
  }
  if (!digits_ok) return refuse("has no valid size");
  std::optional<DType> t;
  if (kind == 'f') t = size == 2 ? DType::F16 : size == 4 ? DType::F32 : size == 8 ? DType::F64 : std::optional<DType>{};
  if (kind == 'i')
    t = size == 1 ? DType::I8 : size == 2 ? DType::I16 : size == 4 ? DType::I32 : size == 8 ? DType::I64 : std::optional<DType>{};
  if (kind == 'u')
    t = size == 1 ? DType::U8 : size == 2 ? DType::U16 : size == 4 ? DType::U32 : size == 8 ? DType::U64 : std::optional<DType>{};
  if (kind == 'b' && size == 1) t = DType::Bool;
  if (!t) return refuse("has an unsupported size");
  if (order == '|' && size != 1) return refuse("has byte order '|' (not applicable) but is multi-byte");
  bool big = order == '>' || (order == '=' && std::endian::native == std::endian::big);
  return NpyType{*t, big};
}

const char* descr_code(DType t) {
  switch (t) {
    case DType::F16: return "<f2";
    case DType::F32: return "<f4";
    case DType::F64: return "<f8";
    case DType::I8: return "|i1";
    case DType::I16: return "<i2";
    case DType::I32: return "<i4";
    case DType::I64: return "<i8";
    case DType::U8: return "|u1";
    case DType::U16: return "<u2";
    case DType::U32: return "<u4";
    case DType::U64: return "<u8";
    case DType::Bool: return "|b1";
  }
  return "<f8";
}

uint64_t load_uint(const uint8_t* p, int size, bool big) {
  uint64_t v = 0;
  if (big) {
    for (int k = 0; k < size; ++k) v = (v << 8) | p[k];
  } else {
    for (int k = size; k-- > 0;) v = (v << 8) | p[k];
  }
  return v;
}

void store_le(uint8_t* p, uint64_t v, int size) {
  for (int k = 0; k < size; ++k) p[k] = static_cast<uint8_t>(v >> (8 * k));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// binary16

double half_to_double(uint16_t h) {
  int sign = (h >> 15) & 1;
  int exp = (h >> 10) & 0x1f;
  int mant = h & 0x3ff;
  double v;
  if (exp == 0)
    v = std::ldexp(static_cast<double>(mant), -24);
  else if (exp == 31)
    v = mant == 0 ? INFINITY : NAN;
  else
    v = std::ldexp(static_cast<double>(1024 + mant), exp - 25);
  return sign ? -v : v;
}

uint16_t double_to_half(double v) {
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (std::isnan(v)) return static_cast<uint16_t>(sign | 0x7e00);
  double a = std::fabs(v);
  if (a >= 65520.0) return static_cast<uint16_t>(sign | 0x7c00);  // rounds to infinity
  if (a < 0x1p-14) {
    // Subnormal (or rounds up to the smallest normal, whose bits 0x0400 this also produces).
    double q = std::nearbyint(a * 0x1p24);  // exact scaling; ties to even
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(q));
  }
  int ex = 0;
  std::frexp(a, &ex);  // a = f * 2^ex, f in [0.5, 1)
  int e = ex - 1;      // a in [2^e, 2^(e+1)), -14 <= e <= 15
  double m = std::nearbyint(std::ldexp(a, 10 - e));  // in [1024, 2048]
  uint32_t bits = (static_cast<uint32_t>(e + 15) << 10) + (static_cast<uint32_t>(m) - 1024);
  return static_cast<uint16_t>(sign | bits);  // a carry into the exponent is the right answer
}

// ---------------------------------------------------------------------------------------------
// parse_npy

Result<HostTensor> parse_npy(std::span<const uint8_t> bytes, const std::string& name) {
  const size_t n = bytes.size();
  // Magic: a file that is a proper prefix of the magic is truncated, anything else is not npy.
  for (size_t i = 0; i < 6; ++i) {
    if (i >= n)
      return npy_error(name, "npy.truncated",
                       "file ends after " + std::to_string(n) + " bytes, inside the 6-byte magic \\x93NUMPY");
    if (bytes[i] != kMagic[i])
      return npy_error(name, "npy.bad-magic",
                       "not a .npy file: byte " + std::to_string(i) + " is 0x" +
                           [&] { char b[8]; std::snprintf(b, sizeof b, "%02x", bytes[i]); return std::string(b); }() +
                           ", the magic is \\x93NUMPY");
  }
  if (n < 8)
    return npy_error(name, "npy.truncated",
                     "file ends after " + std::to_string(n) + " bytes, before the version bytes 6-7");
  const int major = bytes[6], minor = bytes[7];
  if (!((major == 1 || major == 2 || major == 3) && minor == 0))
    return npy_error(name, "npy.unsupported-version",
                     "format version " + std::to_string(major) + "." + std::to_string(minor) +
                         " (bytes 6-7) is not supported; supported: 1.0, 2.0, 3.0");
  const size_t len_bytes = major == 1 ? 2 : 4;
  const size_t header_start = 8 + len_bytes;
  if (n < header_start)
    return npy_error(name, "npy.truncated",
                     "file ends after " + std::to_string(n) + " bytes, inside the header length (bytes 8-" +
                         std::to_string(header_start - 1) + ")");
  const uint64_t header_len = load_uint(bytes.data() + 8, static_cast<int>(len_bytes), false);
  const uint64_t data_offset = header_start + header_len;  // no overflow: header_len < 2^32
  if (data_offset > n)
    return npy_error(name, "npy.truncated",
                     "header of " + std::to_string(header_len) + " bytes from byte " + std::to_string(header_start) +
                         " needs " + std::to_string(data_offset) + " bytes but the file has " + std::to_string(n));

  std::string_view text(reinterpret_cast<const char*>(bytes.data()) + header_start, header_len);
  HeaderParser parser(text, header_start, name);
  auto parsed = parser.parse_all();
  if (!parsed) return std::move(parsed).error();
  const PyValue& dict = *parsed;
  auto bad = [&](size_t offset, const std::string& what) {
    return npy_error(name, "npy.bad-header", "header at byte " + std::to_string(offset) + ": " + what);
  };
  if (dict.kind != PyValue::Kind::Dict)
    return bad(dict.offset, std::string("the header is ") + kind_name(dict.kind) + ", not a dict");
  const PyValue* descr = nullptr;
  const PyValue* fortran = nullptr;
  const PyValue* shape_v = nullptr;
  for (size_t i = 0; i + 1 < dict.items.size(); i += 2) {
    const PyValue& k = dict.items[i];
    if (k.kind != PyValue::Kind::Str) return bad(k.offset, std::string("a key is ") + kind_name(k.kind) + ", not a string");
    const PyValue** slot = k.str == "descr" ? &descr : k.str == "fortran_order" ? &fortran : k.str == "shape" ? &shape_v : nullptr;
    if (!slot) return bad(k.offset, "unexpected key '" + escaped(k.str, 60) + "'; the keys are descr, fortran_order, shape");
    if (*slot) return bad(k.offset, "duplicate key '" + k.str + "'");
    *slot = &dict.items[i + 1];
  }
  for (auto [p, key] : {std::pair{descr, "descr"}, {fortran, "fortran_order"}, {shape_v, "shape"}})
    if (!p) return bad(dict.offset, std::string("missing key '") + key + "'");

  // shape
  if (shape_v->kind != PyValue::Kind::Tuple)
    return bad(shape_v->offset, std::string("'shape' is ") + kind_name(shape_v->kind) + ", not a tuple");
  std::vector<int64_t> dims;
  for (const PyValue& d : shape_v->items) {
    if (d.kind != PyValue::Kind::Int)
      return bad(d.offset, std::string("a 'shape' extent is ") + kind_name(d.kind) + ", not an integer");
    if (d.int_overflow)
      return npy_error(name, "size.overflow",
                       "header at byte " + std::to_string(d.offset) + ": a 'shape' extent does not fit 64 bits");
    dims.push_back(d.integer);
  }
  auto shape = Shape::make(dims);
  if (!shape) {
    Diagnostic e = std::move(shape).error();
    e.loc.file = name;
    e.message = "header 'shape' at byte " + std::to_string(shape_v->offset) + ": " + e.message;
    return e;
  }

  // fortran_order
  if (fortran->kind != PyValue::Kind::Bool)
    return bad(fortran->offset, std::string("'fortran_order' is ") + kind_name(fortran->kind) + ", not True or False");
  const bool fortran_order = fortran->boolean;

  // descr
  if (descr->kind == PyValue::Kind::List)
    return npy_error(name, "npy.unsupported-dtype",
                     "structured dtype (a list of fields, descr at byte " + std::to_string(descr->offset) +
                         ") is not supported");
  if (descr->kind != PyValue::Kind::Str)
    return bad(descr->offset, std::string("'descr' is ") + kind_name(descr->kind) + ", not a string");
  auto type = parse_descr(descr->str, name, descr->offset);
  if (!type) return std::move(type).error();
  const DType dtype = type->dtype;
  const int itemsize = dtype_size(dtype);
  const bool big = type->big_endian;

  // Data size, checked against the bytes present before anything is allocated.
  const int64_t count = shape->count();
  uint64_t expected = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(count), static_cast<uint64_t>(itemsize), &expected))
    return npy_error(name, "size.overflow",
                     "shape " + shape->str() + " of " + dtype_name(dtype) + " needs more bytes than fit 64 bits");
  const uint64_t present = n - data_offset;
  if (present < expected)
    return npy_error(name, "npy.truncated",
                     "data of shape " + shape->str() + " " + dtype_name(dtype) + " needs " + std::to_string(expected) +
                         " bytes from byte " + std::to_string(data_offset) + " but only " + std::to_string(present) +
                         " are present");
  if (present > expected)
    return npy_error(name, "npy.trailing-data",
                     std::to_string(present - expected) + " unexpected bytes after the data, from byte " +
                         std::to_string(data_offset + expected) + " (the data of shape " + shape->str() + " " +
                         dtype_name(dtype) + " is " + std::to_string(expected) + " bytes from byte " +
                         std::to_string(data_offset) + ")");

  HostTensor t;
  t.dtype = dtype;
  t.shape = *shape;
  t.values.resize(static_cast<size_t>(count));

  // Fortran order: element k of the file is the multi-index with axis 0 varying fastest.
  const size_t rank = dims.size();
  // (Only then: with a zero extent, Shape::strides() may overflow on the other extents.)
  const bool transpose = fortran_order && rank >= 2 && count > 0;
  const std::vector<int64_t> strides = transpose ? shape->strides() : std::vector<int64_t>{};
  std::vector<int64_t> idx(transpose ? rank : 0, 0);
  int64_t out = 0;  // row-major offset of idx

  const uint8_t* data = bytes.data() + data_offset;
  for (int64_t k = 0; k < count; ++k) {
    const uint8_t* p = data + static_cast<size_t>(k) * static_cast<size_t>(itemsize);
    const uint64_t u = load_uint(p, itemsize, big);
    double v = 0;
    auto at = [&] { return "element " + std::to_string(k) + " at byte " + std::to_string(data_offset + static_cast<uint64_t>(k) * itemsize); };
    switch (dtype) {
      case DType::F16: v = half_to_double(static_cast<uint16_t>(u)); break;
      case DType::F32: v = static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(u))); break;
      case DType::F64: v = std::bit_cast<double>(u); break;
      case DType::I8: v = static_cast<double>(static_cast<int8_t>(u)); break;
      case DType::I16: v = static_cast<double>(static_cast<int16_t>(u)); break;
      case DType::I32: v = static_cast<double>(static_cast<int32_t>(u)); break;
      case DType::I64: {
        int64_t s = static_cast<int64_t>(u);
        if (s > (int64_t{1} << 53) || s < -(int64_t{1} << 53))
          return npy_error(name, "npy.integer-out-of-range",
                           at() + " is " + std::to_string(s) + ", beyond +-2^53 (values are held as doubles)");
        v = static_cast<double>(s);
        break;
      }
      case DType::U8: case DType::U16: case DType::U32: v = static_cast<double>(u); break;
      case DType::U64:
        if (u > (uint64_t{1} << 53))
          return npy_error(name, "npy.integer-out-of-range",
                           at() + " is " + std::to_string(u) + ", beyond 2^53 (values are held as doubles)");
        v = static_cast<double>(u);
        break;
      case DType::Bool:
        if (u > 1)
          return npy_error(name, "npy.bad-bool", at() + " is " + std::to_string(u) + ", not 0 or 1");
        v = static_cast<double>(u);
        break;
    }
    if (!transpose) {
      t.values[static_cast<size_t>(k)] = v;
      continue;
    }
    t.values[static_cast<size_t>(out)] = v;
    for (size_t ax = 0; ax < rank; ++ax) {  // advance idx, axis 0 fastest
      if (++idx[ax] < dims[ax]) {
        out += strides[ax];
        break;
      }
      out -= strides[ax] * (dims[ax] - 1);
      idx[ax] = 0;
    }
  }
  return t;
}

// ---------------------------------------------------------------------------------------------
// Files

namespace npy_detail {

Result<std::vector<uint8_t>> read_file_bytes(const std::string& path) {
  auto fail = [&](const std::string& why) {
    return make_error("io.read", "cannot read '" + path + "': " + why, SourceLoc{path, 0, 0});
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return fail(std::strerror(e));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return fail("it is a directory");
  }
  std::vector<uint8_t> buf;
  if (S_ISREG(st.st_mode) && st.st_size > 0) buf.reserve(static_cast<size_t>(st.st_size));
  uint8_t chunk[1 << 16];
  while (true) {
    ssize_t r = ::read(fd, chunk, sizeof chunk);
    if (r < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      return fail(std::strerror(e));
    }
    if (r == 0) break;
    buf.insert(buf.end(), chunk, chunk + r);
  }
  ::close(fd);
  return buf;
}

Status write_file_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  auto fail = [&](const std::string& why) {
    return make_error("io.write", "cannot write '" + path + "': " + why, SourceLoc{path, 0, 0});
  };
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return fail(std::strerror(errno));
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      return fail(std::strerror(e));
    }
    done += static_cast<size_t>(w);
  }
  if (::close(fd) != 0) return fail(std::strerror(errno));
  return {};
}

}  // namespace npy_detail

Result<HostTensor> read_npy(const std::string& path) {
  auto bytes = npy_detail::read_file_bytes(path);
  if (!bytes) return std::move(bytes).error();
  return parse_npy(*bytes, path);
}

// ---------------------------------------------------------------------------------------------
// Writing

Status check_npy_encodable(const HostTensor& t, const std::string& name) {
  auto fail = [&](std::string code, std::string msg) {
    return make_error(std::move(code), std::move(msg), SourceLoc{name, 0, 0});
  };
  if (t.values.size() != static_cast<uint64_t>(t.shape.count()))
    return fail("npy.bad-tensor", "tensor of shape " + t.shape.str() + " has " + std::to_string(t.values.size()) +
                                      " values, not " + std::to_string(t.shape.count()));
  for (size_t i = 0; i < t.values.size(); ++i) {
    const double v = t.values[i];
    auto refuse = [&](const std::string& why) {
      return fail("npy.value-not-representable", "value " + fmt_double(v) + " at index " + std::to_string(i) +
                                                     " cannot be written as " + dtype_name(t.dtype) + ": " + why);
    };
    double lo = 0, hi = 0;
    switch (t.dtype) {
      case DType::F64: continue;
      case DType::F32:
        if (std::isfinite(v) && !std::isfinite(static_cast<float>(v))) return refuse("it overflows to infinity");
        continue;
      case DType::F16:
        if (std::isfinite(v) && std::fabs(v) >= 65520.0) return refuse("it overflows to infinity");
        continue;
      case DType::Bool:
        if (!(v == 0.0 || v == 1.0)) return refuse("a bool is 0 or 1");
        continue;
      case DType::I8: lo = -128; hi = 127; break;
      case DType::I16: lo = -32768; hi = 32767; break;
      case DType::I32: lo = -2147483648.0; hi = 2147483647.0; break;
      case DType::I64: lo = -kTwo53; hi = kTwo53; break;
      case DType::U8: hi = 255; break;
      case DType::U16: hi = 65535; break;
      case DType::U32: hi = 4294967295.0; break;
      case DType::U64: hi = kTwo53; break;
    }
    if (!std::isfinite(v) || v != std::trunc(v)) return refuse("it is not an integer");
    if (v < lo || v > hi) return refuse("out of range [" + fmt_double(lo) + ", " + fmt_double(hi) + "]");
  }
  return {};
}

std::vector<uint8_t> encode_npy(const HostTensor& t) {
  std::string dict = std::string("{'descr': '") + descr_code(t.dtype) + "', 'fortran_order': False, 'shape': (";
  const auto& dims = t.shape.dims();
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) dict += ", ";
    dict += std::to_string(dims[i]);
  }
  if (dims.size() == 1) dict += ",";
  dict += "), }";

  int major = 1;
  size_t preamble = 10;
  size_t unpadded = preamble + dict.size() + 1;  // + '\n'
  size_t pad = (64 - unpadded % 64) % 64;
  if (dict.size() + 1 + pad > 65535) {
    major = 2;
    preamble = 12;
    unpadded = preamble + dict.size() + 1;
    pad = (64 - unpadded % 64) % 64;
  }
  const size_t header_len = dict.size() + pad + 1;
  const int itemsize = dtype_size(t.dtype);
  const size_t count = static_cast<size_t>(t.shape.count());

  const size_t n_values = std::min(count, t.values.size());
  std::vector<uint8_t> out(preamble + header_len + n_values * static_cast<size_t>(itemsize), 0);
  uint8_t* w = out.data();
  std::memcpy(w, kMagic, 6);
  w[6] = static_cast<uint8_t>(major);
  w[7] = 0;
  store_le(w + 8, header_len, major == 1 ? 2 : 4);
  w += preamble;
  std::memcpy(w, dict.data(), dict.size());
  w += dict.size();
  std::memset(w, ' ', pad);
  w += pad;
  *w++ = '\n';

  // Saturating conversion so that a value check_npy_encodable would refuse is not UB here.
  auto sat_int = [](double v, double lo, double hi) -> int64_t {
    if (std::isnan(v)) return 0;
    if (v <= lo) return static_cast<int64_t>(lo);
    if (v >= hi) return static_cast<int64_t>(hi);
    return static_cast<int64_t>(v);
  };
  auto sat_uint = [](double v, double hi) -> uint64_t {
    if (!(v > 0)) return 0;
    if (v >= hi) return static_cast<uint64_t>(hi);
    return static_cast<uint64_t>(v);
  };
  for (size_t i = 0; i < n_values; ++i) {
    const double v = t.values[i];
    uint64_t bits = 0;
    switch (t.dtype) {
      case DType::F16: bits = double_to_half(v); break;
      case DType::F32: bits = std::bit_cast<uint32_t>(static_cast<float>(v)); break;
      case DType::F64: bits = std::bit_cast<uint64_t>(v); break;
      case DType::I8: bits = static_cast<uint64_t>(sat_int(v, -128, 127)); break;
      case DType::I16: bits = static_cast<uint64_t>(sat_int(v, -32768, 32767)); break;
      case DType::I32: bits = static_cast<uint64_t>(sat_int(v, -2147483648.0, 2147483647.0)); break;
      case DType::I64: bits = static_cast<uint64_t>(sat_int(v, -kTwo53, kTwo53)); break;
      case DType::U8: bits = sat_uint(v, 255); break;
      case DType::U16: bits = sat_uint(v, 65535); break;
      case DType::U32: bits = sat_uint(v, 4294967295.0); break;
      case DType::U64: bits = sat_uint(v, kTwo53); break;
      case DType::Bool: bits = v != 0 ? 1 : 0; break;
    }
    store_le(w, bits, itemsize);
    w += itemsize;
  }
  return out;
}

Status write_npy(const std::string& path, const HostTensor& t) {
  auto ok = check_npy_encodable(t, path);
  if (!ok) return ok;
  return npy_detail::write_file_bytes(path, encode_npy(t));
}

}  // namespace nnref
