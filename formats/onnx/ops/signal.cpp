// The ONNX window functions: HannWindow, HammingWindow and BlackmanWindow.
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"

namespace nnref::onnx_format {

namespace {

// w[n] = a0 − a1·cos(2πn/N) + a2·cos(4πn/N) for n = 0 .. size − 1, N = size (periodic, the default)
// or size − 1 (symmetric), ONNX's definitions. size is a scalar integer of the graph (a constant, or
// computed from extents or data: the length is a size). Each coefficient a_k = p_k/q_k is written as
// the quotient of two whole numbers and π as 4·atan(1), so that the exact value's enclosure holds
// the definition's real numbers (a literal π or 0.42 would be a double near them).
void cosine_window(Ctx& c, const std::vector<std::pair<int64_t, int64_t>>& a) {
  if (c.kind(0) != ElemKind::Integer) c.refuse("onnx.input-type", "size (input 0) must be an integer scalar");
  SizesPtr size = c.terms(0);
  if (!size) size = c.data_terms(0);
  if (!size || size->elements.size() != 1) c.refuse("onnx.input-type", "size (input 0) must hold one integer");
  const int64_t type = c.attr_int("output_datatype", 1);
  if (type != 1 && type != 11) c.refuse("onnx.type-unsupported", "output_datatype must be FLOAT or DOUBLE");
  const bool periodic = c.attr_int("periodic", 1) != 0;
  const auto real = [&](const std::string& n, double v) { return c.literal(n, scalar_tensor(v)); };
  const auto ratio = [&](const std::string& n, int64_t p, int64_t q) {
    return binary(c, n, BinaryOp::Div, real(n + "-numerator", static_cast<double>(p)),
                  real(n + "-denominator", static_cast<double>(q)));
  };
  const ValueRef n = c.emit("n", CastAttrs{ElemKind::Integer, ElemKind::Real},
                            {integer_range(c, "positions", {size_code::kConstant, 0}, size->elements[0])});
  ValueRef period =
      c.emit("size-real", CastAttrs{ElemKind::Integer, ElemKind::Real}, {c.operand(0, ElemKind::Integer)});
  if (!periodic) period = binary(c, "period", BinaryOp::Sub, period, real("one", 1));
  const ValueRef pi = binary(c, "pi", BinaryOp::Mul, real("four", 4),
                             c.emit("quarter-pi", UnaryAttrs{UnaryOp::Atan}, {real("unit", 1)}));
  const ValueRef step =
      binary(c, "step", BinaryOp::Div, binary(c, "two-pi", BinaryOp::Mul, real("two", 2), pi), period);
  const ValueRef angle = binary(c, "angle", BinaryOp::Mul, n, step);
  ValueRef w = ratio("a0", a[0].first, a[0].second);
  for (size_t k = 1; k < a.size(); ++k) {
    const std::string ks = std::to_string(k);
    const ValueRef kth =
        k == 1 ? angle : binary(c, "angle" + ks, BinaryOp::Mul, angle, real("k" + ks, static_cast<double>(k)));
    const ValueRef term = binary(c, "term" + ks, BinaryOp::Mul, ratio("a" + ks, a[k].first, a[k].second),
                                 c.emit("cos" + ks, UnaryAttrs{UnaryOp::Cos}, {kth}));
    w = binary(c, k + 1 == a.size() ? "" : "sum" + ks, k % 2 == 1 ? BinaryOp::Sub : BinaryOp::Add, w, term);
  }
  c.set_output(0, w);
}

void hann_window(Ctx& c) { cosine_window(c, {{1, 2}, {1, 2}}); }
void hamming_window(Ctx& c) { cosine_window(c, {{25, 46}, {21, 46}}); }
void blackman_window(Ctx& c) { cosine_window(c, {{42, 100}, {1, 2}, {8, 100}}); }

}  // namespace

void add_signal_ops(OpTable& table) {
  add_ops(table, {
                     {"BlackmanWindow", blackman_window},
                     {"HammingWindow", hamming_window},
                     {"HannWindow", hann_window},
                 });
}

}  // namespace nnref::onnx_format
