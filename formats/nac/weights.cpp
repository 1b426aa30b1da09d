#include "formats/nac/weights.hpp"

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "formats/tensor_files/npy.hpp"

namespace nnref::nac {

namespace {

FormatError error(std::string code, std::string message, uint64_t offset) {
  return FormatError{std::move(code), std::move(message) + " at byte " + std::to_string(offset), offset};
}

constexpr std::pair<const char*, DataType> kSafetensorsTypes[] = {
    {"F32", DataType::F32}, {"F64", DataType::F64}, {"F16", DataType::F16}, {"BF16", DataType::BF16},
    {"I32", DataType::I32}, {"I64", DataType::I64}, {"I16", DataType::I16}, {"I8", DataType::I8},
    {"U8", DataType::U8},   {"BOOL", DataType::Bool}};

std::optional<DataType> safetensors_dtype(const std::string& s) {
  for (const auto& [name, t] : kSafetensorsTypes)
    if (s == name) return t;
  return std::nullopt;
}

uint64_t element_count(const std::vector<int64_t>& shape) {
  uint64_t n = 1;
  for (int64_t e : shape) n = (e != 0 && n > (uint64_t{1} << 40) / static_cast<uint64_t>(e)) ? (uint64_t{1} << 41)
                                                                                              : n * static_cast<uint64_t>(e);
  return n;
}

// The payload keeps 8 bytes a value; a tensor that does not fit what is left of the budget is refused
// before its bytes are read.
std::optional<FormatError> charge(uint64_t elements, int64_t& budget, const std::string& name, uint64_t offset) {
  const uint64_t bytes = elements * 8;
  if (elements > (uint64_t{1} << 40) || bytes > static_cast<uint64_t>(std::max<int64_t>(budget, 0)))
    return error("size.budget",
                 "parameter '" + name + "' needs " + std::to_string(bytes) + " bytes, more than the " +
                     std::to_string(std::max<int64_t>(budget, 0)) + " left of the memory budget",
                 offset);
  budget -= static_cast<int64_t>(bytes);
  return std::nullopt;
}

// The element counts were checked against the stored bytes, so the shape is valid.
HostTensor host(const std::vector<int64_t>& shape, std::vector<double> values, DType dtype = DType::F32) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = Shape::make(shape).value();
  t.values = std::move(values);
  return t;
}

DType host_dtype(DataType t) {
  switch (t) {
    case DataType::F32: case DataType::F16: case DataType::BF16: return DType::F32;
    case DataType::F64: return DType::F64;
    case DataType::I32: return DType::I32;
    case DataType::I64: return DType::I64;
    case DataType::I16: return DType::I16;
    case DataType::I8: return DType::I8;
    case DataType::U8: return DType::U8;
    case DataType::Bool: return DType::Bool;
  }
  return DType::F64;
}

// q·scale with the scale of each row along axis 0 (one scale for INT8_TENSOR): exact in double.
std::vector<double> dequantize(const std::vector<double>& q, const std::vector<double>& scales) {
  std::vector<double> out(q.size());
  const size_t row = scales.size() <= 1 ? q.size() : q.size() / scales.size();
  for (size_t k = 0; k < q.size(); ++k) out[k] = q[k] * scales[row == 0 ? 0 : k / row];
  return out;
}

}  // namespace

const char* safetensors_name(DataType t) {
  for (const auto& [name, type] : kSafetensorsTypes)
    if (type == t) return name;
  return "F32";
}

std::string scale_tensor_name(const std::string& param_name) { return param_name + ".__scale__"; }

std::variant<std::vector<double>, FormatError> decode_values(DataType t, std::string_view raw, uint64_t offset) {
  const auto size = static_cast<size_t>(data_type_size(t));
  std::vector<double> out(raw.size() / size);
  Cursor c(raw, 0, raw.size(), "tensor data");
  for (size_t k = 0; k < out.size(); ++k) {
    switch (t) {
      case DataType::F32: out[k] = c.f32(); break;
      case DataType::F64: out[k] = c.f64(); break;
      case DataType::F16: out[k] = half_to_double(c.u16()); break;
      case DataType::BF16: {
        const uint32_t bits = static_cast<uint32_t>(c.u16()) << 16;
        float f;
        std::memcpy(&f, &bits, 4);
        out[k] = f;
        break;
      }
      case DataType::I32: out[k] = c.i32(); break;
      case DataType::I64: {
        const int64_t v = c.i64();
        if (v > (int64_t{1} << 53) || v < -(int64_t{1} << 53))
          return error("nac.data.value", "int64 value " + std::to_string(v) + " is beyond 2^53, where doubles are exact",
                       offset + 8 * k);
        out[k] = static_cast<double>(v);
        break;
      }
      case DataType::I16: out[k] = static_cast<int16_t>(c.u16()); break;
      case DataType::I8: out[k] = static_cast<int8_t>(c.u8()); break;
      case DataType::U8: out[k] = c.u8(); break;
      case DataType::Bool: out[k] = c.u8() != 0 ? 1.0 : 0.0; break;
    }
  }
  return out;
}

WeightStore WeightStore::internal(const Program& p, std::string_view file_bytes) {
  WeightStore w(p);
  w.mode_ = Mode::Internal;
  w.bytes_ = file_bytes;
  w.source_ = "DATA";
  return w;
}

WeightStore WeightStore::none(const Program& p) { return WeightStore(p); }

std::variant<WeightStore, FormatError> WeightStore::external(const Program& p, const std::string& path) {
  WeightStore w(p);
  w.mode_ = Mode::External;
  w.source_ = path;
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return error("io.weights-unreadable", "cannot open the weights file '" + path + "'", 0);
  const auto size = static_cast<uint64_t>(in.tellg());
  in.seekg(0);
  std::string head(8, '\0');
  if (size < 8 || !in.read(head.data(), 8))
    return error("nac.safetensors.header", "'" + path + "' is too short for a safetensors header", 0);
  const uint64_t n = Cursor(head, 0, 8, "the safetensors header").u64();
  if (n > size - 8 || n > (uint64_t{1} << 26))
    return error("nac.safetensors.header",
                 "'" + path + "' declares a " + std::to_string(n) + "-byte JSON header, which the file cannot hold", 0);
  std::string text(n, '\0');
  in.read(text.data(), static_cast<std::streamsize>(n));
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return error("nac.safetensors.header", "the JSON header of '" + path + "' is not a JSON object", 8);
  const uint64_t data_start = 8 + n;
  for (const auto& item : j.items()) {
    const std::string name = item.key();
    const nlohmann::json& v = item.value();
    if (name == "__metadata__") continue;
    const auto bad = [&](const std::string& why) {
      return error("nac.safetensors.header", "tensor '" + name + "' in '" + path + "': " + why, 8);
    };
    if (!v.is_object() || !v.contains("dtype") || !v.contains("shape") || !v.contains("data_offsets") ||
        !v["dtype"].is_string() || !v["shape"].is_array() || !v["data_offsets"].is_array() ||
        v["data_offsets"].size() != 2)
      return bad("an entry needs dtype, shape and data_offsets [begin, end]");
    SafetensorsEntry e;
    e.dtype = v["dtype"].get<std::string>();
    const auto dtype = safetensors_dtype(e.dtype);
    if (!dtype) return bad("dtype '" + e.dtype + "' is not one nnref reads");
    for (const auto& d : v["shape"]) {
      if (!d.is_number_unsigned()) return bad("a shape entry is not a non-negative integer");
      e.shape.push_back(static_cast<int64_t>(std::min<uint64_t>(d.get<uint64_t>(), uint64_t{1} << 40)));
    }
    if (checked_element_count(e.shape) < 0) return bad("its shape's element count does not fit 64 bits");
    if (!v["data_offsets"][0].is_number_unsigned() || !v["data_offsets"][1].is_number_unsigned())
      return bad("data_offsets are not non-negative integers");
    const auto begin = v["data_offsets"][0].get<uint64_t>(), end = v["data_offsets"][1].get<uint64_t>();
    if (begin > end || end > size - data_start) return bad("data_offsets lie outside the file's data");
    if (end - begin != element_count(e.shape) * static_cast<uint64_t>(data_type_size(*dtype)))
      return bad("data_offsets span " + std::to_string(end - begin) + " bytes, which is not its shape times " +
                 std::to_string(data_type_size(*dtype)) + " bytes");
    e.begin = data_start + begin;
    e.end = data_start + end;
    w.entries_.emplace(name, std::move(e));
  }
  return w;
}

std::optional<std::vector<int64_t>> WeightStore::shape(uint16_t id) const {
  if (mode_ == Mode::Internal) {
    auto it = p_->tensors.find(id);
    if (it != p_->tensors.end()) return it->second.shape;
  } else if (mode_ == Mode::External) {
    auto it = entries_.find(p_->param_names.at(id));
    if (it != entries_.end()) return it->second.shape;
  }
  return std::nullopt;
}

std::optional<DataType> WeightStore::dtype(uint16_t id) const {
  if (mode_ == Mode::Internal) {
    auto it = p_->tensors.find(id);
    if (it != p_->tensors.end()) return it->second.dtype;
  } else if (mode_ == Mode::External) {
    auto it = entries_.find(p_->param_names.at(id));
    if (it != entries_.end()) return safetensors_dtype(it->second.dtype);
  }
  return std::nullopt;
}

std::variant<HostTensor, FormatError> WeightStore::read(uint16_t id, int64_t& budget) const {
  const std::string& name = p_->param_names.at(id);
  if (mode_ == Mode::Internal) return read_internal(id, name, budget);
  if (mode_ == Mode::External) return read_external(id, name, budget);
  return error("nac.weights.missing", "parameter '" + name + "' is needed, but no weights were loaded", 0);
}

std::variant<HostTensor, FormatError> WeightStore::read_internal(uint16_t id, const std::string& name,
                                                                int64_t& budget) const {
  auto it = p_->tensors.find(id);
  if (it == p_->tensors.end())
    return error("nac.data.missing-tensor",
                 "DATA block 3 holds no tensor for parameter " + std::to_string(id) + " '" + name + "'",
                 p_->header.offsets[static_cast<int>(Section::Data)]);
  const TensorRecord& t = it->second;
  const uint64_t n = element_count(t.shape);
  if (t.quant == Quant::BlockFp8)
    return error("nac.data.block-fp8",
                 "parameter '" + name + "' is BLOCK_FP8, whose block size, FP8 variant and scale layout v1.6 does not "
                 "define; nnref does not read it",
                 t.data_offset);
  if (auto e = charge(n, budget, name, t.data_offset)) return *e;
  const std::string_view raw = bytes_.substr(t.data_offset, t.data_length);
  const uint64_t scales = t.quant == Quant::Int8Tensor ? 1 : t.quant == Quant::Int8Channel ? (t.shape.empty() ? 1 : static_cast<uint64_t>(t.shape[0])) : 0;
  if (t.quant == Quant::Int8Tensor || t.quant == Quant::Int8Channel) {
    if (t.dtype != DataType::I8)
      return error("nac.data.dtype", "parameter '" + name + "' is INT8-quantized but its DType is " +
                                         data_type_name(t.dtype) + ", not int8",
                   t.data_offset);
    auto s = decode_values(DataType::F32, raw.substr(0, 4 * scales), t.data_offset);
    auto q = decode_values(DataType::I8, raw.substr(4 * scales), t.data_offset + 4 * scales);
    if (auto* e = std::get_if<FormatError>(&s)) return *e;
    if (auto* e = std::get_if<FormatError>(&q)) return *e;
    return host(t.shape, dequantize(std::get<0>(q), std::get<0>(s)));
  }
  const DataType stored = t.quant == Quant::Fp16 ? DataType::F16 : t.dtype;
  auto v = decode_values(stored, raw, t.data_offset);
  if (auto* e = std::get_if<FormatError>(&v)) return *e;
  return host(t.shape, std::move(std::get<0>(v)), host_dtype(t.dtype));
}

std::variant<std::string, FormatError> WeightStore::external_bytes(const SafetensorsEntry& e) const {
  std::ifstream in(source_, std::ios::binary);
  std::string raw(e.end - e.begin, '\0');
  in.seekg(static_cast<std::streamoff>(e.begin));
  if (!in || !in.read(raw.data(), static_cast<std::streamsize>(raw.size())))
    return error("io.weights-unreadable", "cannot read '" + source_ + "'", e.begin);
  return raw;
}

std::variant<HostTensor, FormatError> WeightStore::read_external(uint16_t, const std::string& name,
                                                                int64_t& budget) const {
  auto it = entries_.find(name);
  if (it == entries_.end())
    return error("nac.weights.missing", "'" + source_ + "' holds no tensor named '" + name + "'", 8);
  const SafetensorsEntry& e = it->second;
  const DataType dtype = *safetensors_dtype(e.dtype);
  const Quant q = p_->header.quant;
  if (q == Quant::BlockFp8)
    return error("nac.data.block-fp8",
                 "the weights are BLOCK_FP8, whose block size, FP8 variant and scale layout v1.6 does not define; "
                 "nnref does not read them",
                 4);
  if (auto err = charge(element_count(e.shape), budget, name, e.begin)) return *err;
  auto raw = external_bytes(e);
  if (auto* err = std::get_if<FormatError>(&raw)) return *err;
  auto values = decode_values(dtype, std::get<0>(raw), e.begin);
  if (auto* err = std::get_if<FormatError>(&values)) return *err;
  if ((q == Quant::Int8Tensor || q == Quant::Int8Channel) && dtype == DataType::I8) {
    auto s = entries_.find(scale_tensor_name(name));
    const uint64_t want = q == Quant::Int8Tensor || e.shape.empty() ? 1 : static_cast<uint64_t>(e.shape[0]);
    if (s == entries_.end() || s->second.dtype != "F32" || element_count(s->second.shape) != want)
      return error("nac.weights.scale",
                   "INT8 tensor '" + name + "' needs an F32 tensor '" + scale_tensor_name(name) + "' of " +
                       std::to_string(want) + " scales in '" + source_ + "'",
                   e.begin);
    auto sraw = external_bytes(s->second);
    if (auto* err = std::get_if<FormatError>(&sraw)) return *err;
    auto scales = decode_values(DataType::F32, std::get<0>(sraw), s->second.begin);
    return host(e.shape, dequantize(std::get<0>(values), std::get<0>(scales)));
  }
  return host(e.shape, std::move(std::get<0>(values)), host_dtype(dtype));
}

}  // namespace nnref::nac
