#include "formats/nnef2_model/quantize.hpp"

#include "formats/nnef2_model/builder.hpp"

namespace nnref::nnef2 {

namespace {

const Val& symbol(const BoundInvocation& b, const std::string& name) { return b.env.symbols.at(name); }

// The attribute's value for channel c: its one value (`uniform`, the definition's `x := ..`), else
// its item c.
double per_channel(const BoundInvocation& b, const std::string& uniform, const std::string& items, int64_t c) {
  const Val& u = symbol(b, uniform);
  const Val& v = u.is_null() ? symbol(b, items).items.at(static_cast<size_t>(c)) : u;
  return v.kind == Val::Kind::Int ? static_cast<double>(v.i) : v.r;
}

double real_of(const Val& v) { return v.kind == Val::Kind::Int ? static_cast<double>(v.i) : v.r; }

}  // namespace

HostTensor dequantize(const nnef::DatTensor& codes, const std::string& op, const BoundInvocation& bound) {
  const bool zero_point = op == "quant.zero_point_linear_quantize";
  if (!zero_point && op != "quant.min_max_linear_quantize")
    refuse("nnef2.quantize.unsupported",
           op + " is not a quantization nnref reads codes of (quant.zero_point_linear_quantize and "
                "quant.min_max_linear_quantize)");
  const int64_t bits = symbol(bound, "bits").i;
  const bool is_signed = symbol(bound, "signed").b;
  if (bits != codes.bits || is_signed != codes.signed_items)
    refuse("nnef2.quantize.mismatch", op + " quantizes to " + std::to_string(bits) + "-bit " +
                                          (is_signed ? "signed" : "unsigned") + " codes, but the file holds " +
                                          std::to_string(codes.bits) + "-bit " +
                                          (codes.signed_items ? "signed" : "unsigned") + " ones");
  const std::vector<int64_t>& shape = codes.tensor.shape.dims();
  int64_t axis = symbol(bound, "channel_axis").i;
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (axis < 0) axis += rank;
  int64_t inner = 1;
  for (int64_t k = axis + 1; k < rank; ++k) inner *= shape[static_cast<size_t>(k)];
  const int64_t channels = axis >= 0 && axis < rank ? shape[static_cast<size_t>(axis)] : 1;
  std::vector<double> values(codes.tensor.values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t c = (static_cast<int64_t>(i) / inner) % channels;
    const double q = codes.tensor.values[i];
    if (zero_point) {
      values[i] = (q - per_channel(bound, "uz", "zero_point", c)) * per_channel(bound, "us", "scale", c);
    } else {
      const double mn = per_channel(bound, "umin", "min", c), mx = per_channel(bound, "umax", "max", c);
      values[i] = (q + real_of(symbol(bound, "p"))) / real_of(symbol(bound, "r")) * (mx - mn) + mn;
    }
  }
  return HostTensor{DType::F64, codes.tensor.shape, std::move(values)};
}

}  // namespace nnref::nnef2
