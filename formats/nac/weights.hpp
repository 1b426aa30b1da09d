// A NAC file's parameters (§6.1, §8.1): the tensors of DATA block 3, or those of the sibling
// .safetensors file, dequantized to doubles when read. Where the quantization scales live is in
// docs/nac.md ("Weights and quantization").
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "formats/nac/bytes.hpp"
#include "formats/nac/program.hpp"
#include "spec/host_tensor.hpp"

namespace nnref::nac {

// The .safetensors dtype of a stored type ("F32", "I8", ...).
const char* safetensors_name(DataType t);

// The name of the tensor holding a quantized external tensor's scales.
std::string scale_tensor_name(const std::string& param_name);

// One tensor of a .safetensors file: its dtype ("F32", "I8", ...), shape and byte range in the file.
struct SafetensorsEntry {
  std::string dtype;
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;  // absolute offsets in the file
};

class WeightStore {
 public:
  // Internal weights: the tensors of DATA block 3, read from the file's bytes (kept by the caller).
  static WeightStore internal(const Program& p, std::string_view file_bytes);
  // External weights: parses the header of the .safetensors file at `path`; a FormatError when it
  // is malformed (offsets are then relative to that file).
  static std::variant<WeightStore, FormatError> external(const Program& p, const std::string& path);
  // No weights (a missing external file under WeightsPolicy::IfPresent or Skip).
  static WeightStore none(const Program& p);

  bool available() const { return mode_ != Mode::None; }
  const std::string& source() const { return source_; }
  // The shape of parameter `id`, when the weights' metadata gives it.
  std::optional<std::vector<int64_t>> shape(uint16_t id) const;
  // The stored element type of parameter `id`, when the weights' metadata gives it.
  std::optional<DataType> dtype(uint16_t id) const;
  // The values of parameter `id` as doubles, dequantized; `budget` (bytes, 8 a value) is reduced by
  // what it takes and checked before anything is read.
  std::variant<HostTensor, FormatError> read(uint16_t id, int64_t& budget) const;

 private:
  enum class Mode { None, Internal, External };
  explicit WeightStore(const Program& p) : p_(&p) {}
  std::variant<HostTensor, FormatError> read_internal(uint16_t id, const std::string& name, int64_t& budget) const;
  std::variant<HostTensor, FormatError> read_external(uint16_t id, const std::string& name, int64_t& budget) const;
  std::variant<std::string, FormatError> external_bytes(const SafetensorsEntry& e) const;

  const Program* p_;
  Mode mode_ = Mode::None;
  std::string_view bytes_;
  std::string source_;
  std::map<std::string, SafetensorsEntry> entries_;
};

// Values of a stored element type, little-endian, as doubles (every type of DataType is exact in a
// double but int64 beyond 2^53, which is refused).
std::variant<std::vector<double>, FormatError> decode_values(DataType t, std::string_view raw, uint64_t offset);

}  // namespace nnref::nac
