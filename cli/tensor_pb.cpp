#include "cli/tensor_pb.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "formats/tensor_files/npy.hpp"
#include "spec/scalar.hpp"

namespace nnref {

namespace {

static_assert(std::endian::native == std::endian::little);

void varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// A length-delimited field (wire type 2).
void bytes_field(std::string& out, int field, const std::string& bytes) {
  varint(out, (static_cast<uint64_t>(field) << 3) | 2);
  varint(out, bytes.size());
  out += bytes;
}

// v rounded to the nearest bfloat16 (ties to even), as its 16 bits: the upper half of the float32
// that holds it exactly.
uint16_t bfloat16_bits(double v) {
  const auto f = static_cast<float>(PointOps<double>::round_to(v, kBfloat16));
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return static_cast<uint16_t>(bits >> 16);
}

// onnx.proto's TensorProto.DataType of each dtype.
int onnx_type(DType t) {
  switch (t) {
    case DType::F32: return 1;
    case DType::U8: return 2;
    case DType::I8: return 3;
    case DType::U16: return 4;
    case DType::I16: return 5;
    case DType::I32: return 6;
    case DType::I64: return 7;
    case DType::Bool: return 9;
    case DType::F16: return 10;
    case DType::BF16: return 16;
    case DType::F64: return 11;
    case DType::U32: return 12;
    case DType::U64: return 13;
  }
  return 0;
}

template <class T>
void append_as(std::string& raw, double v) {
  const T x = static_cast<T>(v);
  char b[sizeof(T)];
  std::memcpy(b, &x, sizeof(T));
  raw.append(b, sizeof(T));
}

void append_value(std::string& raw, DType t, double v) {
  switch (t) {
    case DType::F16: return append_as<uint16_t>(raw, double_to_half(v));
    case DType::BF16: return append_as<uint16_t>(raw, bfloat16_bits(v));
    case DType::F32: return append_as<float>(raw, v);
    case DType::F64: return append_as<double>(raw, v);
    case DType::I8: return append_as<int8_t>(raw, v);
    case DType::I16: return append_as<int16_t>(raw, v);
    case DType::I32: return append_as<int32_t>(raw, v);
    case DType::I64: return append_as<int64_t>(raw, v);
    case DType::U8: return append_as<uint8_t>(raw, v);
    case DType::U16: return append_as<uint16_t>(raw, v);
    case DType::U32: return append_as<uint32_t>(raw, v);
    case DType::U64: return append_as<uint64_t>(raw, v);
    case DType::Bool: return append_as<uint8_t>(raw, v != 0 ? 1 : 0);
  }
}

}  // namespace

Result<std::string> encode_tensor_pb(const HostTensor& t, const std::string& name) {
  // The .npy writer's check: the values fit the shape, and each is one the dtype holds.
  if (Status ok = check_npy_encodable(t, name); !ok) return ok.error();
  std::string out;
  for (int64_t d : t.shape.dims()) {
    varint(out, 1 << 3);  // dims, field 1, varint
    varint(out, static_cast<uint64_t>(d));
  }
  varint(out, 2 << 3);  // data_type, field 2, varint
  varint(out, static_cast<uint64_t>(onnx_type(t.dtype)));
  bytes_field(out, 8, name);
  std::string raw;
  raw.reserve(t.values.size() * static_cast<size_t>(dtype_size(t.dtype)));
  for (double v : t.values) append_value(raw, t.dtype, v);
  bytes_field(out, 9, raw);
  return out;
}

Status write_tensor_pb(const std::string& path, const HostTensor& t, const std::string& name) {
  auto bytes = encode_tensor_pb(t, name);
  if (!bytes) return std::move(bytes).error();
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << *bytes;
  if (!f.good()) return make_error("io.write", "cannot write '" + path + "'");
  return {};
}

}  // namespace nnref
