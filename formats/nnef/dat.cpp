#include "formats/nnef/dat.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>

#include "formats/nnef/value.hpp"
#include "formats/tensor_files/npy.hpp"

namespace nnref::nnef {

namespace {

constexpr size_t kHeaderBytes = 128;
constexpr int kMaxRank = 8;

uint32_t u32(const unsigned char* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}
void put_u32(std::string& s, size_t at, uint32_t v) {
  for (int k = 0; k < 4; ++k) s[at + static_cast<size_t>(k)] = static_cast<char>((v >> (8 * k)) & 0xFF);
}

// Item k of `bits` bits: whole bytes are little-endian; narrower items are a bit stream, the
// first item in the most significant bits of the first byte (as the reference reads 1-bit bools).
uint64_t item_bits(const std::vector<unsigned char>& data, int64_t k, int bits) {
  if (bits % 8 == 0) {
    uint64_t v = 0;
    const size_t at = static_cast<size_t>(k) * static_cast<size_t>(bits / 8);
    for (int b = bits / 8 - 1; b >= 0; --b) v = v << 8 | data[at + static_cast<size_t>(b)];
    return v;
  }
  uint64_t v = 0;
  const uint64_t first = static_cast<uint64_t>(k) * static_cast<uint64_t>(bits);
  for (int b = 0; b < bits; ++b) {
    const uint64_t bit = first + static_cast<uint64_t>(b);
    v = v << 1 | ((data[bit / 8] >> (7 - bit % 8)) & 1u);
  }
  return v;
}

const char* kind_text(ElemKind k) { return k == ElemKind::Real ? "scalar" : k == ElemKind::Integer ? "integer" : "logical"; }

}  // namespace

std::optional<DatTensor> read_dat(const std::string& path, const std::string& label, const std::vector<int64_t>& declared,
                                  ElemKind kind, const SourceLoc& loc, Diags& diags) {
  const std::string what = "tensor file '" + path + "' of variable '" + label + "'";
  const auto bad = [&](const char* code, const std::string& message) -> std::optional<DatTensor> {
    diags.error(code, what + ": " + message, loc, label);
    return std::nullopt;
  };
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return bad("nnef.dat.unreadable", "cannot read its size (" + ec.message() + ")");
  std::ifstream in(path, std::ios::binary);
  if (!in) return bad("nnef.dat.unreadable", "cannot be opened");
  unsigned char h[kHeaderBytes];
  if (size < kHeaderBytes || !in.read(reinterpret_cast<char*>(h), kHeaderBytes))
    return bad("nnef.dat.truncated", "shorter than its 128-byte header (" + std::to_string(size) + " bytes)");
  if (h[0] != 0x4E || h[1] != 0xEF) return bad("nnef.dat.bad-magic", "does not start with the magic bytes 'N' 0xEF");
  if (h[2] != 1 || h[3] != 0)
    return bad("nnef.dat.bad-version", "version " + std::to_string(h[2]) + "." + std::to_string(h[3]) + " (this reader knows 1.0)");
  const uint32_t length = u32(h + 4), rank = u32(h + 8), bits = u32(h + 44), item = u32(h + 48);
  if (rank > kMaxRank) return bad("nnef.dat.bad-rank", "rank " + std::to_string(rank) + " (at most 8)");
  std::vector<int64_t> extents;
  for (uint32_t k = 0; k < kMaxRank; ++k) {
    const uint32_t e = u32(h + 12 + 4 * k);
    if (k < rank) extents.push_back(e);
    else if (e != 0) return bad("nnef.dat.bad-rank", "extent " + std::to_string(k) + " beyond rank " + std::to_string(rank) + " is " +
                                                        std::to_string(e) + ", not 0");
  }
  if (extents != declared)
    return bad("nnef.dat.shape-mismatch", "holds shape " + dims_str(extents) + " but the variable is declared " + dims_str(declared));
  const uint32_t vendor = item >> 16, code = item & 0xFFFF;
  if (vendor != 0) return bad("nnef.dat.item-type", "item type of vendor " + std::to_string(vendor) + " (only Khronos, 0, is known)");
  DatTensor out;
  out.bits = static_cast<int>(bits);
  ElemKind holds = ElemKind::Real;
  bool bits_ok = bits >= 1 && bits <= 64;
  switch (static_cast<ItemType>(code)) {
    case ItemType::Float: bits_ok = bits == 16 || bits == 32 || bits == 64; break;
    case ItemType::QuantizedUnsigned: out.quantized = true; break;
    case ItemType::QuantizedSigned: out.quantized = out.signed_items = true; break;
    case ItemType::Unsigned: holds = ElemKind::Integer; out.signed_items = u32(h + 52) != 0; break;  // deprecated signedness flag
    case ItemType::Signed: holds = ElemKind::Integer; out.signed_items = true; break;
    case ItemType::Bool: holds = ElemKind::Logical; bits_ok = bits == 1 || bits == 8; break;
    default: return bad("nnef.dat.item-type", "unknown item-type code " + std::to_string(code));
  }
  if (!bits_ok) return bad("nnef.dat.item-type", std::to_string(bits) + " bits per item for item-type code " + std::to_string(code));
  if (holds != kind)
    return bad("nnef.dat.item-type", std::string("holds ") + kind_text(holds) + " items but the variable is " + kind_text(kind));
  const int64_t volume = checked_element_count(extents);
  // The bit count can pass 2^64 (extents up to 2^32 - 1 each), and must not wrap into a small length.
  uint64_t total_bits = 0;
  if (volume < 0 || __builtin_mul_overflow(static_cast<uint64_t>(volume), uint64_t{bits}, &total_bits))
    return bad("nnef.dat.data-length", "its shape " + dims_str(extents) + " of " + std::to_string(bits) +
                                           "-bit items takes more than 2^64 bits, which no file holds");
  const uint64_t expected = total_bits / 8 + (total_bits % 8 != 0);
  if (length != expected)
    return bad("nnef.dat.data-length", "its header says " + std::to_string(length) + " data bytes, but " + std::to_string(volume) +
                                           " items of " + std::to_string(bits) + " bits take " + std::to_string(expected));
  if (size < kHeaderBytes + length)
    return bad("nnef.dat.truncated", "has " + std::to_string(size - kHeaderBytes) + " data bytes, its header says " + std::to_string(length));
  if (size > kHeaderBytes + length)
    return bad("nnef.dat.trailing-data", std::to_string(size - kHeaderBytes - length) + " bytes after the data its header declares");
  std::vector<unsigned char> data(length);
  if (!in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(length)))
    return bad("nnef.dat.truncated", "reading its data failed");
  out.tensor.dtype = holds == ElemKind::Logical ? DType::Bool : holds == ElemKind::Integer ? DType::I64 : bits == 16 ? DType::F16
                     : bits == 32 ? DType::F32 : DType::F64;
  out.tensor.shape = shape_from(extents);
  out.tensor.values.reserve(static_cast<size_t>(volume));
  for (int64_t k = 0; k < volume; ++k) {
    const uint64_t raw = item_bits(data, k, static_cast<int>(bits));
    double v = 0;
    if (code == static_cast<uint32_t>(ItemType::Float)) {
      if (bits == 16) {
        v = half_to_double(static_cast<uint16_t>(raw));
      } else if (bits == 32) {
        float f;
        const uint32_t r32 = static_cast<uint32_t>(raw);
        std::memcpy(&f, &r32, 4);
        v = f;
      } else {
        std::memcpy(&v, &raw, 8);
      }
    } else if (holds == ElemKind::Logical) {
      v = raw != 0 ? 1.0 : 0.0;
    } else {
      // Two's complement of `bits` bits when signed.
      const bool negative = out.signed_items && bits < 65 && ((raw >> (bits - 1)) & 1u);
      const uint64_t magnitude = negative ? (bits == 64 ? ~raw + 1 : (uint64_t{1} << bits) - raw) : raw;
      if (magnitude > (uint64_t{1} << 53))
        return bad("nnef.dat.integer-out-of-range", "item " + std::to_string(k) + " has magnitude above 2^53, which a double cannot hold exactly");
      v = negative ? -static_cast<double>(magnitude) : static_cast<double>(magnitude);
    }
    out.tensor.values.push_back(v);
  }
  return out;
}

std::string write_dat(const std::vector<int64_t>& shape, const std::vector<double>& values, ItemType type, int bits) {
  std::string out(kHeaderBytes, '\0');
  out[0] = 0x4E;
  out[1] = static_cast<char>(0xEF);
  out[2] = 1;
  const uint64_t length = (values.size() * static_cast<uint64_t>(bits) + 7) / 8;
  put_u32(out, 4, static_cast<uint32_t>(length));
  put_u32(out, 8, static_cast<uint32_t>(shape.size()));
  for (size_t k = 0; k < shape.size(); ++k) put_u32(out, 12 + 4 * k, static_cast<uint32_t>(shape[k]));
  put_u32(out, 44, static_cast<uint32_t>(bits));
  put_u32(out, 48, static_cast<uint32_t>(type));
  std::string data(length, '\0');
  for (size_t k = 0; k < values.size(); ++k) {
    uint64_t raw = 0;
    if (type == ItemType::Float && bits == 32) {
      const float f = static_cast<float>(values[k]);
      uint32_t r;
      std::memcpy(&r, &f, 4);
      raw = r;
    } else if (type == ItemType::Float && bits == 64) {
      std::memcpy(&raw, &values[k], 8);
    } else if (type == ItemType::Float) {
      raw = double_to_half(values[k]);
    } else {
      raw = static_cast<uint64_t>(static_cast<int64_t>(values[k]));
      if (bits < 64) raw &= (uint64_t{1} << bits) - 1;
    }
    if (bits % 8 == 0) {
      for (int b = 0; b < bits / 8; ++b) data[k * static_cast<size_t>(bits / 8) + static_cast<size_t>(b)] = static_cast<char>((raw >> (8 * b)) & 0xFF);
    } else {
      for (int b = 0; b < bits; ++b) {
        const uint64_t bit = k * static_cast<uint64_t>(bits) + static_cast<uint64_t>(b);
        if ((raw >> (bits - 1 - b)) & 1u) data[bit / 8] = static_cast<char>(data[bit / 8] | (0x80 >> (bit % 8)));
      }
    }
  }
  return out + data;
}

std::string write_dat(const HostTensor& t) {
  const int bits = t.dtype == DType::F32 ? 32 : t.dtype == DType::F16 ? 16 : 64;
  return write_dat(t.shape.dims(), t.values, ItemType::Float, bits);
}

}  // namespace nnref::nnef
