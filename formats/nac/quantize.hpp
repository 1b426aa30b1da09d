// Quantizing parameters for the writer (docs/nac.md, "Weights and quantization"): symmetric INT8
// with float32 scales (one per tensor, or one per index of axis 0), or FP16, each with its bound.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "formats/nac/bytes.hpp"
#include "formats/nac/program.hpp"
#include "spec/host_tensor.hpp"

namespace nnref::nac {

struct Quantized {
  DataType dtype = DataType::F32;  // of the stored values: float32, float16 or int8
  std::string values;              // little-endian
  std::vector<float> scales;       // INT8: one, or shape[0]; empty otherwise
};

// `name` is for the message when a value cannot be stored (FP16 beyond ±65504, or not finite).
std::variant<Quantized, FormatError> quantize(const HostTensor& t, Quant q, const std::string& name);

}  // namespace nnref::nac
