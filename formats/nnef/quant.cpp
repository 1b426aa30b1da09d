#include "formats/nnef/quant.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace nnref::nnef {

bool dequantize(const QuantEntry& q, DatTensor& t, const std::string& label, const SourceLoc& loc, Diags& diags) {
  const std::string what = "variable '" + label + "' is stored as " + std::to_string(t.bits) + "-bit " +
                           (t.signed_items ? "signed" : "unsigned") + " quantized items and graph.quant gives it " +
                           q.algorithm;
  bool ok = true;
  const auto bad = [&](const char* code, const std::string& why) {
    if (ok) diags.error(code, what + ": " + why, loc, label, {"graph.quant line " + std::to_string(q.loc.line)});
    ok = false;
    return 0.0;
  };
  const auto number = [&](const char* name) {
    const auto it = q.args.find(name);
    if (it == q.args.end()) return bad("nnef.quant.argument", std::string("no argument '") + name + "'");
    if (it->second.kind == Value::Kind::Scalar) return it->second.r.value;
    if (it->second.kind == Value::Kind::Integer) return static_cast<double>(it->second.i);
    return bad("nnef.quant.argument", std::string("argument '") + name + "' is not a number");
  };
  const auto flag = [&](const char* name) {
    const auto it = q.args.find(name);
    if (it == q.args.end() || it->second.kind != Value::Kind::Logical)
      return bad("nnef.quant.argument", std::string("no logical argument '") + name + "'") != 0.0;
    return it->second.b;
  };
  const auto bits = [&]() {
    const double b = number("bits");
    if (ok && b != t.bits) bad("nnef.quant.bits-mismatch", "bits = " + std::to_string(static_cast<int64_t>(b)) + " in graph.quant");
    return std::ldexp(1.0, t.bits);  // 2^bits
  };
  std::function<double(double)> decode;
  if (q.algorithm == "linear_quantize") {
    const double lo = number("min"), hi = number("max"), r = bits() - 1;
    if (t.signed_items) bad("nnef.quant.unsupported", "linear_quantize stores unsigned items");
    decode = [=](double c) { return c / r * (hi - lo) + lo; };
  } else if (q.algorithm == "min_max_linear_quantize") {
    const double lo = number("min"), hi = number("max"), two = bits();
    const bool is_signed = flag("signed"), symmetric = flag("symmetric");
    if (ok && is_signed != t.signed_items) bad("nnef.quant.unsupported", "signed = " + std::string(is_signed ? "true" : "false") + " disagrees with the items");
    const double r = two - 1 - (is_signed && symmetric ? 1 : 0), p = is_signed ? two / 2 - (symmetric ? 1 : 0) : 0;
    decode = [=](double c) { return (c + p) / r * (hi - lo) + lo; };
  } else if (q.algorithm == "zero_point_linear_quantize") {
    const double zero = number("zero_point"), scale = number("scale");
    bits();
    decode = [=](double c) { return (c - zero) * scale; };
  } else if (q.algorithm == "logarithmic_quantize") {
    const double hi = number("max"), r = bits() - 1;
    if (t.signed_items) bad("nnef.quant.unsupported", "signed logarithmic items (the sign's encoding is not specified)");
    // log2(max) must be a finite number: max = 0 would make every exponent -inf.
    if (ok && !(hi > 0 && std::isfinite(hi))) bad("nnef.quant.argument", "logarithmic_quantize's max must be positive and finite");
    const double m = std::ceil(std::log2(hi));
    // Exponents beyond ±4096 give 0 or inf as they are: clamped before the conversion to int.
    decode = [=](double c) { return std::ldexp(1.0, static_cast<int>(std::clamp(c + m - r, -4096.0, 4096.0))); };
  } else {
    bad("nnef.quant.unsupported", "an algorithm nnref cannot invert to read stored items");
  }
  if (!ok) return false;
  for (double& v : t.tensor.values) v = decode(v);
  t.tensor.dtype = DType::F64;
  return true;
}

}  // namespace nnref::nnef
