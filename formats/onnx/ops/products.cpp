// The ONNX products: Gemm, MatMul and Einsum.
#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"

namespace nnref::onnx_format {

namespace {

// Gemm: alpha·A'·B' + beta·C. A linear node when B is a constant and A is not transposed (with C
// as its bias when alpha = beta = 1 and C holds one value per unit); a matmul otherwise; then the
// product by alpha and the sum with beta·C where they are not 1, as ONNX writes it.
void gemm(Ctx& c) {
  const double alpha = c.attr_float("alpha", 1.0), beta = c.attr_float("beta", 1.0);
  const bool ta = c.attr_int("transA", 0) != 0, tb = c.attr_int("transB", 0) != 0;
  if (c.opset() < 7 && c.attr_int("broadcast", c.opset() < 6 ? 0 : 1) == 0 && c.has_input(2))
    c.refuse("onnx.attribute-unsupported", "broadcast 0 (before opset 7) is not supported");
  const HostTensor* b = c.constant(1);
  const HostTensor* cc = c.constant(2);
  const ValueRef a = c.data(0);
  ValueRef y;
  bool bias_done = false;
  if (b && !ta && b->shape.rank() == 2) {
    const int64_t units = b->shape.dims()[tb ? 0 : 1];
    const bool bias = alpha == 1.0 && beta == 1.0 && cc && static_cast<int64_t>(cc->values.size()) == units &&
                      (cc->shape.rank() == 1 || (cc->shape.rank() == 2 && cc->shape.dims()[0] == 1));
    const int64_t id = c.emit_node(bias || !c.has_input(2) ? "" : "product",
                                   LinearAttrs{units, tb ? WeightLayout::OutIn : WeightLayout::InOut, bias}, {a});
    c.param(id, "weight", 1);
    if (bias) {
      HostTensor t = *cc;
      t.shape = Shape::make({units}).value();
      c.param_tensor(id, "bias", std::move(t), c.proto().input(2));
      bias_done = true;
    }
    y = {id, 0};
  } else {
    y = c.emit(c.has_input(2) || alpha != 1.0 ? "product" : "", MatMulAttrs{ta, tb}, {a, c.data(1)});
  }
  if (alpha != 1.0)
    y = binary(c, c.has_input(2) && !bias_done ? "alpha" : "", BinaryOp::Mul, y, c.literal("alpha", scalar_tensor(alpha)));
  if (c.has_input(2) && !bias_done) {
    ValueRef term = c.data(2);
    if (beta != 1.0) term = binary(c, "beta", BinaryOp::Mul, term, c.literal("beta-value", scalar_tensor(beta)));
    y = binary(c, "", BinaryOp::Add, y, term);
  }
  c.set_output(0, y);
}

// MatMul with NumPy's rules: a 1-D operand gains an axis of 1 that the result loses again
// (unsqueeze, matmul, squeeze: the same sums); of two ranks, the lower gains leading axes of 1
// (NumPy's alignment of batch axes); then one IR matmul, whose batch axes broadcast as NumPy's do
// (an extent 1 repeats), a rule the checker proves for symbolic extents too.
void matmul(Ctx& c) {
  const bool a1 = c.rank(0) == 1, b1 = c.rank(1) == 1;
  const size_t ra = a1 ? 2 : c.rank(0), rb = b1 ? 2 : c.rank(1);
  ValueRef a = c.data(0), b = c.data(1);
  if (a1) a = c.emit("a-row", UnsqueezeAttrs{{0}}, {a});
  if (b1) b = c.emit("b-column", UnsqueezeAttrs{{1}}, {b});
  const auto leading = [](size_t count) {
    std::vector<int64_t> axes(count);
    std::iota(axes.begin(), axes.end(), int64_t{0});
    return UnsqueezeAttrs{axes};
  };
  if (ra < rb) a = c.emit("a-batch", leading(rb - ra), {a});
  if (rb < ra) b = c.emit("b-batch", leading(ra - rb), {b});
  const bool squeezed = a1 || b1;
  ValueRef y = c.emit(squeezed ? "product" : "", MatMulAttrs{}, {a, b});
  if (b1) y = c.emit(a1 ? "column" : "", SqueezeAttrs{{-1}}, {y});
  if (a1) y = c.emit("", SqueezeAttrs{{-2 + (b1 ? 1 : 0)}}, {y});
  c.set_output(0, y);
}

// An Einsum term as labels: a letter is its character code, the k-th of E broadcast axes that
// "..." stands for is k (below every letter), right-aligned: an operand's e axes under "..." are
// E − e .. E − 1, as NumPy broadcasts them.
using Labels = std::vector<int>;

Labels einsum_term(Ctx& c, const std::string& term, size_t rank, size_t broadcast_axes) {
  Labels labels;
  const size_t dots = term.find("...");
  if (std::count(term.begin(), term.end(), '.') != (dots == std::string::npos ? 0 : 3))
    c.refuse("onnx.attribute-value", "the term '" + term + "' has a '.' outside one \"...\"");
  size_t letters = 0;
  for (char ch : term)
    if (std::isalpha(static_cast<unsigned char>(ch))) ++letters;
    else if (ch != '.') c.refuse("onnx.attribute-value", std::string("the equation holds '") + ch + "', not a letter or ...");
  if (dots == std::string::npos ? letters != rank : letters > rank)
    c.refuse("onnx.attribute-value", "the term '" + term + "' has " + std::to_string(letters) + " letters for an operand of rank " +
                                         std::to_string(rank));
  for (size_t i = 0; i < term.size(); ++i) {
    if (i == dots) {
      for (size_t k = broadcast_axes - (rank - letters); k < broadcast_axes; ++k) labels.push_back(static_cast<int>(k));
      i += 2;
    } else {
      labels.push_back(term[i]);
    }
  }
  return labels;
}

// Einsum: the output labels' tensor of Σ over the other labels of the operands' product (ONNX's
// definition, NumPy's einsum). Each operand takes its diagonals where a label repeats (a select of
// the elements whose two positions agree, summed over the second axis: exact, whatever the other
// elements hold), moves its axes into one order (the output's labels, then the summed ones) with
// extent-1 axes for the labels it lacks; the product of all broadcasts over that space and a sum
// reduces the summed labels. Of reals.
void einsum(Ctx& c) {
  std::string equation;
  for (char ch : c.attr_string("equation", "")) if (ch != ' ') equation += ch;
  const size_t arrow = equation.find("->");
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    const size_t comma = equation.find(',', start);
    const size_t end = std::min(comma, arrow);
    terms.push_back(equation.substr(start, end - start));
    if (comma == std::string::npos || (arrow != std::string::npos && comma > arrow)) break;
    start = comma + 1;
  }
  if (terms.size() != c.input_count()) c.refuse("onnx.attribute-value", "the equation has " + std::to_string(terms.size()) +
                                                                            " terms for " + std::to_string(c.input_count()) + " inputs");
  size_t broadcast_axes = 0;  // E: the most axes any "..." stands for
  for (size_t k = 0; k < terms.size(); ++k)
    if (terms[k].find("...") != std::string::npos) {
      size_t letters = 0;
      for (char ch : terms[k]) letters += std::isalpha(static_cast<unsigned char>(ch)) ? 1 : 0;
      if (c.rank(k) >= letters) broadcast_axes = std::max(broadcast_axes, c.rank(k) - letters);
    }
  std::vector<Labels> operands;
  std::map<int, int> uses;
  for (size_t k = 0; k < terms.size(); ++k) {
    operands.push_back(einsum_term(c, terms[k], c.rank(k), broadcast_axes));
    for (int l : operands.back()) ++uses[l];
  }
  Labels out;
  if (arrow != std::string::npos) {
    const std::string o = equation.substr(arrow + 2);
    size_t letters = 0;
    for (char ch : o) letters += std::isalpha(static_cast<unsigned char>(ch)) ? 1 : 0;
    out = einsum_term(c, o, letters + (o.find("...") != std::string::npos ? broadcast_axes : 0), broadcast_axes);
    for (size_t i = 0; i < out.size(); ++i)
      if (!uses.count(out[i]) || std::count(out.begin(), out.end(), out[i]) > 1)
        c.refuse("onnx.attribute-value", "an output label appears twice or in no input");
  } else {  // implicit: the broadcast axes, then the letters used once, in alphabetical (ASCII) order
    for (const auto& [l, n] : uses)
      if (l < static_cast<int>(broadcast_axes) || n == 1) out.push_back(l);
  }
  Labels space = out;
  for (const Labels& labels : operands)
    for (int l : labels)
      if (std::find(space.begin(), space.end(), l) == space.end()) space.push_back(l);
  const auto position = [&](int l) { return static_cast<int64_t>(std::find(space.begin(), space.end(), l) - space.begin()); };
  std::optional<ValueRef> product;
  for (size_t k = 0; k < operands.size(); ++k) {
    const std::string n = "operand" + std::to_string(k);
    Labels labels = operands[k];
    ValueRef x = c.data(k);
    std::vector<int64_t> axes(labels.size());  // the operand's own axis of each current axis
    std::iota(axes.begin(), axes.end(), 0);
    for (size_t b = 1; b < labels.size(); ++b) {
      const size_t a = static_cast<size_t>(std::find(labels.begin(), labels.end(), labels[b]) - labels.begin());
      if (a == b) continue;
      const std::string d = n + "-diagonal" + std::to_string(b);
      const auto along = [&](size_t axis, const std::string& what) {
        std::vector<int64_t> laid(labels.size(), 1);
        laid[axis] = -1;
        const ValueRef range = integer_range(c, d + what, {size_code::kConstant, 0},
                                             c.extents_of(k, axes[axis], axes[axis] + 1).elements[0]);
        return c.emit(d + what + "-real", CastAttrs{ElemKind::Integer, ElemKind::Real},
                      {c.emit(d + what + "-laid", ReshapeAttrs{laid, ElemKind::Integer}, {range})});
      };
      const ValueRef same = c.emit(d + "-same", CompareAttrs{CompareOp::Eq, Broadcast::NumpyRight}, {along(a, "-first"), along(b, "-second")});
      const ValueRef kept = c.emit(d + "-kept", SelectAttrs{Broadcast::NumpyRight}, {same, x, c.literal(d + "-zero", scalar_tensor(0.0))});
      x = c.emit(d, ReduceAttrs{ReduceOp::Sum, {static_cast<int64_t>(b)}, false}, {kept});
      labels.erase(labels.begin() + static_cast<std::ptrdiff_t>(b));
      axes.erase(axes.begin() + static_cast<std::ptrdiff_t>(b));
      --b;
    }
    std::vector<int64_t> perm(labels.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::sort(perm.begin(), perm.end(), [&](int64_t i, int64_t j) {
      return position(labels[static_cast<size_t>(i)]) < position(labels[static_cast<size_t>(j)]);
    });
    if (!std::is_sorted(perm.begin(), perm.end())) x = c.emit(n + "-ordered", TransposeAttrs{perm}, {x});
    std::vector<int64_t> missing;
    for (size_t i = 0; i < space.size(); ++i)
      if (std::find(labels.begin(), labels.end(), space[i]) == labels.end()) missing.push_back(static_cast<int64_t>(i));
    if (!missing.empty()) x = c.emit(n + "-spread", UnsqueezeAttrs{missing}, {x});
    product = product ? binary(c, n + "-product", BinaryOp::Mul, *product, x) : x;
  }
  std::vector<int64_t> summed(space.size() - out.size());
  std::iota(summed.begin(), summed.end(), static_cast<int64_t>(out.size()));
  c.set_output(0, summed.empty() ? c.emit("", UnaryAttrs{UnaryOp::Copy}, {*product})
                                 : c.emit("", ReduceAttrs{ReduceOp::Sum, summed, false}, {*product}));
}

}  // namespace

void add_product_ops(OpTable& table) {
  add_ops(table, {
      {"Einsum", einsum},
      {"Gemm", gemm},
      {"MatMul", matmul},
  });
}

}  // namespace nnref::onnx_format
