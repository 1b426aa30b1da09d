#include "formats/nac/quantize.hpp"

#include <algorithm>
#include <cmath>

#include "formats/tensor_files/npy.hpp"

namespace nnref::nac {

namespace {

// max|w| / 127 as a float32 (1 for an all-zero row, whose values are then all 0); q = w / scale
// rounded to nearest, ties to even, within [-127, 127].
float int8_scale(const double* w, size_t n) {
  double m = 0;
  for (size_t k = 0; k < n; ++k) m = std::max(m, std::fabs(w[k]));
  return m == 0 ? 1.0f : static_cast<float>(m / 127.0);
}

}  // namespace

// The exact stored type of an unquantized tensor: float32 (float16 too, which float32 holds
// exactly), float64, int64 or bool.
DataType exact_type(DType t) {
  switch (t) {
    case DType::F64: return DataType::F64;
    case DType::F16: case DType::F32: return DataType::F32;
    case DType::Bool: return DataType::Bool;
    default: return DataType::I64;
  }
}

std::variant<Quantized, FormatError> quantize(const HostTensor& t, Quant q, const std::string& name) {
  Quantized out;
  ByteWriter w;
  if (q == Quant::None || !dtype_is_float(t.dtype)) {  // integer and bool tensors are never quantized
    out.dtype = exact_type(t.dtype);
    for (double v : t.values) {
      switch (out.dtype) {
        case DataType::F64: w.f64(v); break;
        case DataType::F32: w.f32(static_cast<float>(v)); break;
        case DataType::Bool: w.u8(v != 0 ? 1 : 0); break;
        default: w.u64(static_cast<uint64_t>(static_cast<int64_t>(v))); break;
      }
    }
    out.values = std::move(w.bytes());
    return out;
  }
  for (double v : t.values)
    if (!std::isfinite(v))
      return FormatError{"nac.quant.range", "parameter '" + name + "' has a value that is not finite, which " +
                                                quant_name(q) + " cannot hold", 0};
  switch (q) {
    case Quant::None:
      break;  // stored exactly, above
    case Quant::Fp16:
      out.dtype = DataType::F16;
      for (double v : t.values) {
        if (std::fabs(v) > 65504.0)
          return FormatError{"nac.quant.range",
                             "parameter '" + name + "' has the value " + std::to_string(v) + ", beyond float16's 65504", 0};
        w.u16(double_to_half(v));
      }
      break;
    case Quant::Int8Tensor:
    case Quant::Int8Channel: {
      out.dtype = DataType::I8;
      const size_t rows = q == Quant::Int8Channel && t.shape.rank() > 0 ? static_cast<size_t>(t.shape[0]) : 1;
      const size_t row = rows == 0 ? 0 : t.values.size() / rows;
      for (size_t r = 0; r < rows; ++r) out.scales.push_back(int8_scale(t.values.data() + r * row, row));
      for (size_t k = 0; k < t.values.size(); ++k) {
        const double s = out.scales[row == 0 ? 0 : k / row];
        const double v = std::clamp(std::nearbyint(t.values[k] / s), -127.0, 127.0);
        w.u8(static_cast<uint8_t>(static_cast<int8_t>(v)));
      }
      break;
    }
    case Quant::BlockFp8:
      return FormatError{"nac.quant.block-fp8", "BLOCK_FP8 is not written: v1.6 does not define its layout", 0};
  }
  out.values = std::move(w.bytes());
  return out;
}

}  // namespace nnref::nac
