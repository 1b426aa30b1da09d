// Elementwise ops: unary maps, binary maps with broadcasting, n-ary sum, broadcast_to.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

enum class UnaryOp {
  Copy, Neg, Rcp, Exp, Log, Sin, Cos, Tan, Sinh, Cosh, Tanh, Asin, Acos, Atan, Asinh, Acosh, Atanh,
  Abs, Sign, Floor, Ceil, Round, Sqr, Sqrt, Rsqr, Rsqrt, Log2,
  Relu, Sigmoid, Elu, LeakyRelu, Softplus
};
struct UnaryAttrs {
  UnaryOp op = UnaryOp::Copy;
  double alpha = 0.0;  // LeakyRelu slope, Elu alpha; unused otherwise
};

enum class BinaryOp { Add, Sub, Mul, Div, Pow, Min, Max };
// How operand shapes combine. Equal: identical shapes (NNL, TorchLean). NumpyRight: align the
// trailing axes, extents equal or 1 (NumPy, ONNX). NnefLeft: align the leading axes, extents equal
// or 1 (NNEF 1.0).
enum class Broadcast { Equal, NumpyRight, NnefLeft };
struct BinaryAttrs {
  BinaryOp op = BinaryOp::Add;
  Broadcast broadcast = Broadcast::Equal;
};

// Σ of two or more inputs of identical shape, in input order, through sum_of (NNEF add_n, NNL Add).
struct AddNAttrs {};

struct BroadcastToAttrs {
  std::vector<int64_t> dims;
  Broadcast broadcast = Broadcast::NumpyRight;
};

// ---- Helpers shared by the op families (arity, index iteration) ----------------------------

namespace detail {

// The arity obligation every rule starts with; false when the rule cannot go on.
template <class A, class S>
bool require_arity(const A& attrs, size_t given, S& sink) {
  Arity a = arity(attrs);
  bool fits = static_cast<int>(given) >= a.min && (a.max < 0 || static_cast<int>(given) <= a.max);
  std::string expected = a.max == a.min ? std::to_string(a.min)
                         : a.max < 0    ? "at least " + std::to_string(a.min)
                                        : std::to_string(a.min) + " to " + std::to_string(a.max);
  sink.require(fits, "shape.arity",
               op_name(attrs) + " takes " + expected + (a.max == 1 ? " input" : " inputs") + ", got " +
                   std::to_string(given));
  return fits;
}

// Calls f(flat, index) for every index of `shape`, in row-major order.
template <class F>
void for_each_index(const Shape& shape, F&& f) {
  std::vector<int64_t> index(shape.rank(), 0);
  for (int64_t flat = 0; flat < shape.count(); ++flat) {
    f(flat, index);
    for (size_t k = shape.rank(); k-- > 0;) {
      if (++index[k] < shape[k]) break;
      index[k] = 0;
    }
  }
}

inline int64_t offset_of(const std::vector<int64_t>& index, const std::vector<int64_t>& strides) {
  int64_t off = 0;
  for (size_t k = 0; k < index.size(); ++k) off += index[k] * strides[k];
  return off;
}

// ---- Broadcasting ----------------------------------------------------------------------------

inline std::string rule_name(Broadcast rule) {
  switch (rule) {
    case Broadcast::Equal: return "identical shapes required";
    case Broadcast::NumpyRight: return "NumPy rule";
    case Broadcast::NnefLeft: return "NNEF rule";
  }
  return "";
}

// Extent of result axis i (of n) for an operand of shape d: NnefLeft pads d with trailing 1s,
// the others with leading 1s (Equal has no padding: ranks are equal).
template <class Dim>
Dim aligned_extent(const Dims<Dim>& d, size_t i, size_t n, Broadcast rule) {
  if (rule == Broadcast::NnefLeft) return i < d.size() ? d[i] : Dim(int64_t{1});
  size_t pad = n - d.size();
  return i < pad ? Dim(int64_t{1}) : d[i - pad];
}

// The broadcast of extents x and y: the non-1 one. Written with dim_select so that it reads the
// same for symbolic extents; "x and y combine" (x = y, or one is 1) is then exactly
// select(x = 1, y, x) = select(y = 1, x, y).
template <class Dim>
Dim combined_extent(const Dim& x, const Dim& y) {
  return dim_select(x == int64_t{1}, y, x);
}
template <class Dim>
PredOf<Dim> extents_combine(const Dim& x, const Dim& y) {
  return dim_select(x == int64_t{1}, y, x) == dim_select(y == int64_t{1}, x, y);
}

template <class Dim, class S>
std::optional<Dims<Dim>> broadcast_shapes(const Dims<Dim>& a, const Dims<Dim>& b, Broadcast rule, S& sink) {
  std::string what = "operands of shapes " + dims_str(a) + " and " + dims_str(b) + " are not broadcastable (" +
                     rule_name(rule) + ")";
  if (rule == Broadcast::Equal && a.size() != b.size()) {
    sink.require(false, "shape.broadcast.incompatible",
                 what + ": ranks " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " differ");
    return std::nullopt;
  }
  size_t n = std::max(a.size(), b.size());
  Dims<Dim> out;
  for (size_t i = 0; i < n; ++i) {
    Dim x = aligned_extent(a, i, n, rule), y = aligned_extent(b, i, n, rule);
    std::string why = what + ": axis " + std::to_string(i) + " has extents " + dim_str(x) + " and " + dim_str(y);
    if (rule == Broadcast::Equal) {
      sink.require(x == y, "shape.broadcast.incompatible", why);
      out.push_back(x);
    } else {
      sink.require(extents_combine(x, y), "shape.broadcast.incompatible", why);
      out.push_back(combined_extent(x, y));
    }
  }
  return out;
}

// Strides that read an operand of shape `in` at an index of the broadcast result `out`: axes the
// operand lacks or holds at extent 1 get stride 0.
inline std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out, Broadcast rule) {
  std::vector<int64_t> strides(out.rank(), 0);
  std::vector<int64_t> own = in.strides();
  size_t shift = rule == Broadcast::NnefLeft ? 0 : out.rank() - in.rank();
  for (size_t j = 0; j < in.rank(); ++j)
    if (in[j] != 1) strides[j + shift] = own[j];
  return strides;
}

}  // namespace detail

// ---- unary ------------------------------------------------------------------------------------

inline std::string op_name(const UnaryAttrs& a) {
  switch (a.op) {
    case UnaryOp::Copy: return "copy";
    case UnaryOp::Neg: return "neg";
    case UnaryOp::Rcp: return "rcp";
    case UnaryOp::Exp: return "exp";
    case UnaryOp::Log: return "log";
    case UnaryOp::Sin: return "sin";
    case UnaryOp::Cos: return "cos";
    case UnaryOp::Tan: return "tan";
    case UnaryOp::Sinh: return "sinh";
    case UnaryOp::Cosh: return "cosh";
    case UnaryOp::Tanh: return "tanh";
    case UnaryOp::Asin: return "asin";
    case UnaryOp::Acos: return "acos";
    case UnaryOp::Atan: return "atan";
    case UnaryOp::Asinh: return "asinh";
    case UnaryOp::Acosh: return "acosh";
    case UnaryOp::Atanh: return "atanh";
    case UnaryOp::Abs: return "abs";
    case UnaryOp::Sign: return "sign";
    case UnaryOp::Floor: return "floor";
    case UnaryOp::Ceil: return "ceil";
    case UnaryOp::Round: return "round";
    case UnaryOp::Sqr: return "sqr";
    case UnaryOp::Sqrt: return "sqrt";
    case UnaryOp::Rsqr: return "rsqr";
    case UnaryOp::Rsqrt: return "rsqrt";
    case UnaryOp::Log2: return "log2";
    case UnaryOp::Relu: return "relu";
    case UnaryOp::Sigmoid: return "sigmoid";
    case UnaryOp::Elu: return "elu";
    case UnaryOp::LeakyRelu: return "leaky_relu";
    case UnaryOp::Softplus: return "softplus";
  }
  return "unary";
}
inline Arity arity(const UnaryAttrs&) { return {1, 1}; }

template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const UnaryAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (a.op == UnaryOp::Elu || a.op == UnaryOp::LeakyRelu)
    sink.require(std::isfinite(a.alpha), "attr.unary.alpha",
                 op_name(a) + ": alpha must be a finite number, got " + std::to_string(a.alpha));
  if (!detail::require_arity(a, inputs.size(), sink)) return std::nullopt;
  return ShapeOut<Dim>{{inputs[0]}, {}};
}

// The NNEF 1.0 definitions (§4.2, §4.9).
template <Scalar T>
T unary_value(const UnaryAttrs& a, const T& x) {
  const T zero = from_double<T>(0.0), one = from_double<T>(1.0), alpha = from_double<T>(a.alpha);
  switch (a.op) {
    case UnaryOp::Copy: return x;
    case UnaryOp::Neg: return -x;
    case UnaryOp::Rcp: return one / x;
    case UnaryOp::Exp: return sc::exp(x);
    case UnaryOp::Log: return sc::log(x);
    case UnaryOp::Sin: return sc::sin(x);
    case UnaryOp::Cos: return sc::cos(x);
    case UnaryOp::Tan: return sc::tan(x);
    case UnaryOp::Sinh: return sc::sinh(x);
    case UnaryOp::Cosh: return sc::cosh(x);
    case UnaryOp::Tanh: return sc::tanh(x);
    case UnaryOp::Asin: return sc::asin(x);
    case UnaryOp::Acos: return sc::acos(x);
    case UnaryOp::Atan: return sc::atan(x);
    case UnaryOp::Asinh: return sc::asinh(x);
    case UnaryOp::Acosh: return sc::acosh(x);
    case UnaryOp::Atanh: return sc::atanh(x);
    case UnaryOp::Abs: return sc::abs(x);
    case UnaryOp::Sign: return x > zero ? one : x < zero ? -one : x;  // x itself keeps 0 and NaN
    case UnaryOp::Floor: return sc::floor(x);
    case UnaryOp::Ceil: return sc::ceil(x);
    case UnaryOp::Round: return sc::floor(x + from_double<T>(0.5));
    case UnaryOp::Sqr: return x * x;
    case UnaryOp::Sqrt: return sc::sqrt(x);
    case UnaryOp::Rsqr: return one / (x * x);
    case UnaryOp::Rsqrt: return one / sc::sqrt(x);
    case UnaryOp::Log2: return sc::log(x) / sc::log(from_double<T>(2.0));
    case UnaryOp::Relu: return sc::max(x, zero);
    case UnaryOp::Sigmoid: return one / (one + sc::exp(-x));
    case UnaryOp::Elu: return x < zero ? alpha * (sc::exp(x) - one) : x;
    case UnaryOp::LeakyRelu: return x < zero ? alpha * x : x;
    case UnaryOp::Softplus: return sc::log(sc::exp(x) + one);
  }
  return x;
}

template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<UnaryAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  const Tensor<T>& x = *inputs[0];
  Tensor<T> y(op.outputs()[0]);
  for (int64_t i = 0; i < y.size(); ++i) y[i] = unary_value(op.attrs(), x[i]);
  return {std::move(y)};
}

// ---- binary -----------------------------------------------------------------------------------

inline std::string op_name(const BinaryAttrs& a) {
  switch (a.op) {
    case BinaryOp::Add: return "add";
    case BinaryOp::Sub: return "sub";
    case BinaryOp::Mul: return "mul";
    case BinaryOp::Div: return "div";
    case BinaryOp::Pow: return "pow";
    case BinaryOp::Min: return "min";
    case BinaryOp::Max: return "max";
  }
  return "binary";
}
inline Arity arity(const BinaryAttrs&) { return {2, 2}; }

template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const BinaryAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!detail::require_arity(a, inputs.size(), sink)) return std::nullopt;
  auto out = detail::broadcast_shapes(inputs[0], inputs[1], a.broadcast, sink);
  if (!out) return std::nullopt;
  return ShapeOut<Dim>{{std::move(*out)}, {}};
}

template <Scalar T>
T binary_value(BinaryOp op, const T& x, const T& y) {
  switch (op) {
    case BinaryOp::Add: return x + y;
    case BinaryOp::Sub: return x - y;
    case BinaryOp::Mul: return x * y;
    case BinaryOp::Div: return x / y;
    case BinaryOp::Pow: return sc::pow(x, y);
    case BinaryOp::Min: return sc::min(x, y);
    case BinaryOp::Max: return sc::max(x, y);
  }
  return x;
}

template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<BinaryAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  const Tensor<T>&x = *inputs[0], &y = *inputs[1];
  const Shape& shape = op.outputs()[0];
  auto sx = detail::broadcast_strides(x.shape(), shape, op.attrs().broadcast);
  auto sy = detail::broadcast_strides(y.shape(), shape, op.attrs().broadcast);
  Tensor<T> z(shape);
  detail::for_each_index(shape, [&](int64_t flat, const std::vector<int64_t>& index) {
    z[flat] = binary_value(op.attrs().op, x[detail::offset_of(index, sx)], y[detail::offset_of(index, sy)]);
  });
  return {std::move(z)};
}

// ---- add_n ------------------------------------------------------------------------------------

inline std::string op_name(const AddNAttrs&) { return "add_n"; }
inline Arity arity(const AddNAttrs&) { return {2, -1}; }

template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const AddNAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!detail::require_arity(a, inputs.size(), sink)) return std::nullopt;
  const Dims<Dim>& first = inputs[0];
  for (size_t k = 1; k < inputs.size(); ++k) {
    std::string what = "add_n: input " + std::to_string(k) + " has shape " + dims_str(inputs[k]) +
                       ", input 0 has shape " + dims_str(first) + "; all inputs must have the same shape";
    if (inputs[k].size() != first.size()) {
      sink.require(false, "shape.add_n.mismatch", what);
      return std::nullopt;
    }
    for (size_t i = 0; i < first.size(); ++i)
      sink.require(inputs[k][i] == first[i], "shape.add_n.mismatch",
                   what + " (axis " + std::to_string(i) + ": " + dim_str(inputs[k][i]) + " vs " +
                       dim_str(first[i]) + ")");
  }
  return ShapeOut<Dim>{{first}, {}};
}

// y = Σ_k x_k, in input order.
template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<AddNAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  Tensor<T> y(op.outputs()[0]);
  int64_t n = static_cast<int64_t>(inputs.size());
  for (int64_t i = 0; i < y.size(); ++i) y[i] = sum_of<T>(n, [&](int64_t k) { return (*inputs[k])[i]; });
  return {std::move(y)};
}

// ---- broadcast_to -----------------------------------------------------------------------------

inline std::string op_name(const BroadcastToAttrs&) { return "broadcast_to"; }
inline Arity arity(const BroadcastToAttrs&) { return {1, 1}; }

// One-directional: the input broadcasts to `dims`, which is the output shape.
template <class Dim, class S>
std::optional<ShapeOut<Dim>> shape_rule(const BroadcastToAttrs& a, const std::vector<Dims<Dim>>& inputs, S& sink) {
  if (!detail::require_arity(a, inputs.size(), sink)) return std::nullopt;
  bool nonneg = std::all_of(a.dims.begin(), a.dims.end(), [](int64_t d) { return d >= 0; });
  sink.require(nonneg, "attr.broadcast_to.negative-extent",
               "broadcast_to: target shape " + dims_str(a.dims) + " has a negative extent");
  const Dims<Dim>& in = inputs[0];
  std::string what = "broadcast_to: input of shape " + dims_str(in) + " does not broadcast to " + dims_str(a.dims) +
                     " (" + detail::rule_name(a.broadcast) + ")";
  bool rank_ok = a.broadcast == Broadcast::Equal ? in.size() == a.dims.size() : in.size() <= a.dims.size();
  sink.require(rank_ok, "shape.broadcast_to.rank", what + ": the input has rank " + std::to_string(in.size()) +
                                                       ", the target " + std::to_string(a.dims.size()));
  if (!nonneg || !rank_ok) return std::nullopt;
  Dims<Dim> out;
  for (size_t i = 0; i < a.dims.size(); ++i) {
    Dim x = detail::aligned_extent(in, i, a.dims.size(), a.broadcast), t = Dim(a.dims[i]);
    // x must be t, or 1 when broadcasting.
    PredOf<Dim> fits = a.broadcast == Broadcast::Equal ? x == t : detail::combined_extent(x, t) == t;
    sink.require(fits, "shape.broadcast_to.incompatible",
                 what + ": axis " + std::to_string(i) + " has extent " + dim_str(x) + ", target " + dim_str(t));
    out.push_back(t);
  }
  return ShapeOut<Dim>{{std::move(out)}, {}};
}

template <Scalar T>
std::vector<Tensor<T>> evaluate(const Checked<BroadcastToAttrs>& op, const std::vector<const Tensor<T>*>& inputs,
                                const std::vector<const Tensor<T>*>&) {
  const Tensor<T>& x = *inputs[0];
  const Shape& shape = op.outputs()[0];
  auto sx = detail::broadcast_strides(x.shape(), shape, op.attrs().broadcast);
  Tensor<T> y(shape);
  detail::for_each_index(shape, [&](int64_t flat, const std::vector<int64_t>& index) {
    y[flat] = x[detail::offset_of(index, sx)];
  });
  return {std::move(y)};
}

}  // namespace nnref
