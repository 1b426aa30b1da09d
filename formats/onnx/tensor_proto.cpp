#include "formats/onnx/tensor_proto.hpp"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include <onnx/onnx_pb.h>

#include "formats/tensor_files/npy.hpp"

namespace nnref::onnx_format {

namespace fs = std::filesystem;

std::optional<DType> dtype_of(int32_t t) {
  using TP = onnx::TensorProto;
  switch (t) {
    case TP::FLOAT: return DType::F32;
    case TP::DOUBLE: return DType::F64;
    case TP::FLOAT16: return DType::F16;
    case TP::BFLOAT16: return DType::BF16;
    case TP::INT8: return DType::I8;
    case TP::INT16: return DType::I16;
    case TP::INT32: return DType::I32;
    case TP::INT64: return DType::I64;
    case TP::UINT8: return DType::U8;
    case TP::UINT16: return DType::U16;
    case TP::UINT32: return DType::U32;
    case TP::UINT64: return DType::U64;
    case TP::BOOL: return DType::Bool;
    default: return std::nullopt;
  }
}

namespace {

constexpr int64_t kMaxExactInteger = int64_t{1} << 53;  // HostTensor holds doubles

// One little-endian element of an integer or bool `dtype` at p, exactly (a uint64 beyond int64 as
// nullopt: refused by the caller).
std::optional<int64_t> decode_integer(DType dtype, const unsigned char* p) {
  auto load = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  switch (dtype) {
    case DType::I8: return load(int8_t{});
    case DType::I16: return load(int16_t{});
    case DType::I32: return load(int32_t{});
    case DType::I64: return load(int64_t{});
    case DType::U8: return load(uint8_t{});
    case DType::U16: return load(uint16_t{});
    case DType::U32: return load(uint32_t{});
    case DType::U64: {
      const uint64_t v = load(uint64_t{});
      return v > static_cast<uint64_t>(INT64_MAX) ? std::nullopt : std::optional<int64_t>(static_cast<int64_t>(v));
    }
    case DType::Bool: return load(uint8_t{}) != 0 ? 1 : 0;
    default: return 0;
  }
}

// A bfloat16's bits as a double, exactly: the upper half of a float32's.
double bfloat16_to_double(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// One little-endian element of a float `dtype` at p.
double decode_float(DType dtype, const unsigned char* p) {
  auto load = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  switch (dtype) {
    case DType::F16: return half_to_double(load(uint16_t{}));
    case DType::BF16: return bfloat16_to_double(load(uint16_t{}));
    case DType::F32: return static_cast<double>(load(float{}));
    default: return load(double{});
  }
}

Result<std::string> external_bytes(const onnx::TensorProto& t, const TensorSource& src, uint64_t expected) {
  std::string location;
  std::optional<uint64_t> offset, length;
  for (const auto& kv : t.external_data()) {
    auto number = [&](std::optional<uint64_t>& out) -> bool {
      const std::string& s = kv.value();
      if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) return false;
      out = std::stoull(s);
      return true;
    };
    if (kv.key() == "location") location = kv.value();
    else if (kv.key() == "offset" && !number(offset))
      return make_error("onnx.external-data", src.name + ": external data offset '" + kv.value() + "' is not a number");
    else if (kv.key() == "length" && !number(length))
      return make_error("onnx.external-data", src.name + ": external data length '" + kv.value() + "' is not a number");
  }
  if (location.empty()) return make_error("onnx.external-data", src.name + ": external data names no location");
  if (src.base_dir.empty())
    return make_error("onnx.external-data", src.name + ": external data is not allowed here (a tensor file)");
  const fs::path rel = fs::path(location).lexically_normal();
  if (rel.is_absolute() || rel.empty() || *rel.begin() == "..")
    return make_error("onnx.external-data", src.name + ": external data location '" + location +
                                                "' is outside the model's folder '" + src.base_dir + "'");
  const fs::path file = fs::path(src.base_dir) / rel;
  // A symbolic link may still point out of the folder: compare the resolved paths.
  std::error_code ec;
  const fs::path real_dir = fs::weakly_canonical(src.base_dir.empty() ? "." : src.base_dir, ec);
  const fs::path real_file = fs::weakly_canonical(file, ec);
  const std::string d = real_dir.string(), f = real_file.string();
  if (ec || f.compare(0, d.size(), d) != 0 || (f.size() > d.size() && f[d.size()] != '/'))
    return make_error("onnx.external-data", src.name + ": external data location '" + location +
                                                "' resolves outside the model's folder '" + src.base_dir + "'");
  const uint64_t size = fs::file_size(file, ec);
  if (ec) return make_error("onnx.external-data", src.name + ": cannot read external data file '" + file.string() + "'");
  const uint64_t off = offset.value_or(0);
  const uint64_t len = length.value_or(size >= off ? size - off : 0);
  if (off > size || len > size - off)
    return make_error("onnx.external-data", src.name + ": external data [" + std::to_string(off) + ", +" +
                                                std::to_string(len) + ") exceeds the " + std::to_string(size) +
                                                " bytes of '" + file.string() + "'");
  if (len != expected)
    return make_error("onnx.tensor-data-size", src.name + ": external data has " + std::to_string(len) +
                                                   " bytes, the shape needs " + std::to_string(expected));
  std::ifstream in(file, std::ios::binary);
  std::string bytes(len, '\0');
  in.seekg(static_cast<std::streamoff>(off));
  if (!in.read(bytes.data(), static_cast<std::streamsize>(len)))
    return make_error("onnx.external-data", src.name + ": cannot read external data file '" + file.string() + "'");
  return bytes;
}

// The typed field that holds a float tensor's values when raw_data is empty.
std::vector<double> typed_floats(const onnx::TensorProto& t, DType dtype) {
  switch (dtype) {
    case DType::F32: return {t.float_data().begin(), t.float_data().end()};
    case DType::F64: return {t.double_data().begin(), t.double_data().end()};
    default: {  // float16 and bfloat16: their bits in int32_data
      std::vector<double> v;
      for (int32_t x : t.int32_data())
        v.push_back(dtype == DType::BF16 ? bfloat16_to_double(static_cast<uint16_t>(x))
                                         : half_to_double(static_cast<uint16_t>(x)));
      return v;
    }
  }
}

// The typed field that holds an integer or bool tensor's values when raw_data is empty (a uint64
// beyond int64 as nullopt).
std::vector<std::optional<int64_t>> typed_integers(const onnx::TensorProto& t, DType dtype) {
  std::vector<std::optional<int64_t>> v;
  switch (dtype) {
    case DType::I64: v.assign(t.int64_data().begin(), t.int64_data().end()); break;
    case DType::U32:
    case DType::U64:
      for (uint64_t x : t.uint64_data())
        v.push_back(x > static_cast<uint64_t>(INT64_MAX) ? std::nullopt : std::optional<int64_t>(static_cast<int64_t>(x)));
      break;
    default: v.assign(t.int32_data().begin(), t.int32_data().end()); break;
  }
  return v;
}

}  // namespace

Result<ExactTensor> read_exact_tensor(const onnx::TensorProto& t, const TensorSource& src) {
  const std::optional<DType> dtype = dtype_of(t.data_type());
  if (!dtype)
    return make_error("onnx.tensor-type-unsupported",
                      src.name + ": element type " + onnx::TensorProto::DataType_Name(
                                                         static_cast<onnx::TensorProto::DataType>(t.data_type())) +
                          " (" + std::to_string(t.data_type()) + ") is not supported");
  if (t.has_segment()) return make_error("onnx.tensor-type-unsupported", src.name + ": segmented tensors are not supported");
  std::vector<int64_t> dims(t.dims().begin(), t.dims().end());
  for (int64_t d : dims)
    if (d < 0) return make_error("onnx.tensor-shape", src.name + ": negative extent " + std::to_string(d));
  Result<Shape> shape = Shape::make(dims);
  if (!shape) return make_error("onnx.tensor-shape", src.name + ": " + shape.error().message);
  const int64_t count = shape.value().count();
  const uint64_t esize = static_cast<uint64_t>(dtype_size(*dtype));
  const bool is_float = dtype_is_float(*dtype);
  const bool external = t.data_location() == onnx::TensorProto::EXTERNAL;
  // Per element: a double; an integer's int64 and, while read, its optional<int64_t>; the external bytes.
  const int64_t per_element = 8 + (is_float ? 0 : 8 + 16) + (external ? static_cast<int64_t>(esize) : 0);
  if (count > src.max_bytes / per_element)
    return make_error("size.budget", src.name + ": " + std::to_string(count) + " elements, " +
                                         std::to_string(per_element) +
                                         " bytes each while read, exceed the memory budget of " +
                                         std::to_string(src.max_bytes) + " bytes");
  ExactTensor out{HostTensor{*dtype, shape.value(), {}}, {}};
  std::vector<std::optional<int64_t>> integers;
  if (external || !t.raw_data().empty()) {
    std::string ext;
    if (external) {
      Result<std::string> r = external_bytes(t, src, static_cast<uint64_t>(count) * esize);
      if (!r) return std::move(r).error();
      ext = std::move(r).value();
    }
    const std::string& raw = external ? ext : t.raw_data();
    if (raw.size() != static_cast<uint64_t>(count) * esize)
      return make_error("onnx.tensor-data-size", src.name + ": raw_data has " + std::to_string(raw.size()) +
                                                     " bytes, the shape " + shape.value().str() + " of " +
                                                     dtype_name(*dtype) + " needs " +
                                                     std::to_string(static_cast<uint64_t>(count) * esize));
    const auto* p = reinterpret_cast<const unsigned char*>(raw.data());
    // Reserved once the data is known to hold `count` elements: no growth beyond them.
    if (is_float) out.tensor.values.reserve(static_cast<size_t>(count));
    else integers.reserve(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
      if (is_float) out.tensor.values.push_back(decode_float(*dtype, p + i * esize));
      else integers.push_back(decode_integer(*dtype, p + i * esize));
    }
  } else {
    if (is_float) out.tensor.values = typed_floats(t, *dtype);
    else integers = typed_integers(t, *dtype);
    const size_t stored = is_float ? out.tensor.values.size() : integers.size();
    if (stored != static_cast<size_t>(count))
      return make_error("onnx.tensor-data-size", src.name + ": " + std::to_string(stored) +
                                                     " values stored, the shape " + shape.value().str() + " needs " +
                                                     std::to_string(count));
  }
  out.ints.reserve(integers.size());
  out.tensor.values.reserve(out.tensor.values.size() + integers.size());
  for (const auto& v : integers) {
    if (!v) return make_error("onnx.tensor-integer-range", src.name + ": a uint64 beyond the int64 range");
    out.ints.push_back(*dtype == DType::Bool ? (*v != 0 ? 1 : 0) : *v);
    out.tensor.values.push_back(exact_double(out.ints.back()));
  }
  return out;
}

int64_t release(onnx::TensorProto& t) {
  const auto held = static_cast<int64_t>(t.SpaceUsedLong());
  onnx::TensorProto().Swap(&t);
  return held - static_cast<int64_t>(t.SpaceUsedLong());
}

int64_t held_bytes(const ExactTensor& t) {
  return static_cast<int64_t>(t.tensor.values.capacity() * sizeof(double) + t.ints.capacity() * sizeof(int64_t));
}

double exact_double(int64_t v) {
  return v > kMaxExactInteger || v < -kMaxExactInteger ? std::nan("") : static_cast<double>(v);
}

ExactTensor exact_of(HostTensor t) {
  ExactTensor out{std::move(t), {}};
  if (!dtype_is_float(out.tensor.dtype))
    for (double v : out.tensor.values) out.ints.push_back(static_cast<int64_t>(v));
  return out;
}

ExactTensor integer_tensor(const Shape& shape, std::vector<int64_t> values) {
  ExactTensor out{HostTensor{DType::I64, shape, {}}, std::move(values)};
  for (int64_t v : out.ints) out.tensor.values.push_back(exact_double(v));
  return out;
}

Result<HostTensor> read_tensor(const onnx::TensorProto& t, const TensorSource& src) {
  Result<ExactTensor> r = read_exact_tensor(t, src);
  if (!r) return std::move(r).error();
  for (double v : r.value().tensor.values)
    if (std::isnan(v) && !dtype_is_float(r.value().tensor.dtype))
      return make_error("onnx.tensor-integer-range", src.name + ": an integer beyond 2^53 in magnitude");
  return std::move(r).value().tensor;
}

Result<HostTensor> read_tensor_file(const std::string& path, int64_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("io.open-failed", "cannot open tensor file '" + path + "'", SourceLoc{path, 0, 0});
  std::ostringstream ss;
  ss << in.rdbuf();
  onnx::TensorProto t;
  if (!t.ParseFromString(ss.str()))
    return make_error("pb.parse", "'" + path + "' is not a serialized ONNX TensorProto", SourceLoc{path, 0, 0});
  Result<HostTensor> r = read_tensor(t, TensorSource{path, "", max_bytes});
  if (r) return r;
  // A file given on the command line, not a model: its own codes (exit code 2).
  Diagnostic d = std::move(r).error();
  if (d.code.rfind("onnx.", 0) == 0) d.code = "pb." + d.code.substr(5);
  d.loc = SourceLoc{path, 0, 0};
  return d;
}

}  // namespace nnref::onnx_format
