// Little-endian bytes: a bounded cursor for reading a NAC file (every read past its limit is a
// located error, never an out-of-bounds access) and an appending writer.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace nnref::nac {

// What a read found wrong: a diagnostic code, a message and the byte offset it is about.
struct FormatError {
  std::string code;
  std::string message;
  uint64_t offset = 0;
};

class Cursor {
 public:
  // Reads bytes[pos, end) of `bytes`; `what` names the region in messages ("section CNST").
  Cursor(std::string_view bytes, uint64_t pos, uint64_t end, std::string what)
      : bytes_(bytes), pos_(pos), end_(end), what_(std::move(what)) {}

  uint64_t pos() const { return pos_; }
  uint64_t end() const { return end_; }
  uint64_t left() const { return end_ - pos_; }
  bool done() const { return pos_ >= end_; }

  uint8_t u8() { return static_cast<uint8_t>(take(1)[0]); }
  uint16_t u16() { return static_cast<uint16_t>(le(2)); }
  int16_t i16() { return static_cast<int16_t>(le(2)); }
  uint32_t u32() { return static_cast<uint32_t>(le(4)); }
  uint64_t u64() { return le(8); }
  int32_t i32() { return static_cast<int32_t>(le(4)); }
  int64_t i64() { return static_cast<int64_t>(le(8)); }
  float f32() {
    const uint32_t v = u32();
    float f;
    std::memcpy(&f, &v, 4);
    return f;
  }
  double f64() {
    const uint64_t v = u64();
    double f;
    std::memcpy(&f, &v, 8);
    return f;
  }
  std::string_view take(uint64_t n) {
    if (n > left())
      throw FormatError{"nac.truncated",
                        what_ + " ends at byte " + std::to_string(end_) + ", but " + std::to_string(n) +
                            " more bytes are needed at byte " + std::to_string(pos_),
                        pos_};
    std::string_view s = bytes_.substr(pos_, n);
    pos_ += n;
    return s;
  }

 private:
  uint64_t le(int n) {
    std::string_view s = take(static_cast<uint64_t>(n));
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; --k) v = (v << 8) | static_cast<uint8_t>(s[static_cast<size_t>(k)]);
    return v;
  }
  std::string_view bytes_;
  uint64_t pos_, end_;
  std::string what_;
};

class ByteWriter {
 public:
  std::string& bytes() { return out_; }
  uint64_t size() const { return out_.size(); }
  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u16(uint16_t v) { le(v, 2); }
  void i16(int16_t v) { le(static_cast<uint16_t>(v), 2); }
  void u32(uint32_t v) { le(v, 4); }
  void i32(int32_t v) { le(static_cast<uint32_t>(v), 4); }
  void u64(uint64_t v) { le(v, 8); }
  void f32(float f) {
    uint32_t v;
    std::memcpy(&v, &f, 4);
    u32(v);
  }
  void f64(double f) {
    uint64_t v;
    std::memcpy(&v, &f, 8);
    u64(v);
  }
  void raw(std::string_view s) { out_.append(s); }
  void patch_u64(uint64_t at, uint64_t v) {
    for (int k = 0; k < 8; ++k) out_[at + static_cast<uint64_t>(k)] = static_cast<char>((v >> (8 * k)) & 0xff);
  }

 private:
  void le(uint64_t v, int n) {
    for (int k = 0; k < n; ++k) out_.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
  }
  std::string out_;
};

}  // namespace nnref::nac
