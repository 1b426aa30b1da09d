// Broadcasting: how the shapes of elementwise operands combine, and the strides that read an
// operand at an index of the combined shape.
#pragma once

#include <algorithm>
#include <array>
#include <utility>
#include <optional>
#include <string>
#include <vector>

#include "spec/obligation.hpp"
#include "spec/index.hpp"
#include "spec/shape.hpp"

namespace nnref {

// Equal: identical shapes (NNL, TorchLean). NumpyRight: align the trailing axes, extents equal or
// 1 (NumPy, ONNX). NnefLeft: align the leading axes, extents equal or 1 (NNEF 1.0).
enum class Broadcast { Equal, NumpyRight, NnefLeft };

inline constexpr ObligationSpec kBroadcastIncompatible{
    ObligationKind::Shape, "shape.broadcast.incompatible",
    "The operands of an elementwise op with several operands combine under its broadcast rule: on every aligned "
    "axis the extents are equal or one is 1 (NumpyRight aligns the trailing axes, NnefLeft the leading "
    "ones); under Equal the shapes are identical.",
    "X == Y || X == 1 || Y == 1, for every aligned axis with extents X and Y (Equal: rank(x) == rank(y) && X == Y)",
    "NNL with `preprocess: \"standardize\"` and three preprocess_mean / preprocess_std entries, "
    "`layer input = Input(shape: [32, 32, 3]);`, checked with `nnref check m.nnl --dim input.2=1..8`: the input "
    "[1, 32, 32, input.2] minus the mean [3]: error[shape.broadcast.incompatible], counterexample: input.2 = 2."};

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
  const size_t pad = n - d.size();
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

// The shape of a and b combined under `rule`, each aligned axis an obligation; messages call them
// `a_name` and `b_name`.
template <class Dim>
std::optional<Dims<Dim>> broadcast_pair(const Dims<Dim>& a, const std::string& a_name, const Dims<Dim>& b,
                                        const std::string& b_name, Broadcast rule, ObligationSink<Dim>& sink) {
  const std::string what = a_name + " of shape " + dims_str(a) + " and " + b_name + " of shape " + dims_str(b) +
                           " are not broadcastable (" + rule_name(rule) + ")";
  if (rule == Broadcast::Equal && a.size() != b.size()) {
    sink.require(false, kBroadcastIncompatible,
                 what + ": ranks " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " differ");
    return std::nullopt;
  }
  const size_t n = std::max(a.size(), b.size());
  Dims<Dim> out;
  for (size_t i = 0; i < n; ++i) {
    const Dim x = aligned_extent(a, i, n, rule), y = aligned_extent(b, i, n, rule);
    const std::string why = what + ": axis " + std::to_string(i) + " has extents " + dim_str(x) + " and " + dim_str(y);
    if (rule == Broadcast::Equal) {
      sink.require(x == y, kBroadcastIncompatible, why);
      out.push_back(x);
    } else {
      sink.require(extents_combine(x, y), kBroadcastIncompatible, why);
      out.push_back(combined_extent(x, y));
    }
  }
  return out;
}

// The shape of all the op's inputs combined, left to right, each named as the sink names it.
template <class Dim>
std::optional<Dims<Dim>> broadcast_all(const std::vector<Dims<Dim>>& operands, Broadcast rule, ObligationSink<Dim>& sink) {
  std::optional<Dims<Dim>> out = operands.at(0);
  for (size_t k = 1; k < operands.size() && out; ++k) {
    const std::string so_far = k == 1 ? sink.operand(0) : "inputs 0 to " + std::to_string(k - 1) + " combined";
    out = broadcast_pair(*out, so_far, operands[k], sink.operand(k), rule, sink);
  }
  return out;
}

// Strides that read an operand of shape `in` at an index of the broadcast result `out`: axes the
// operand lacks or holds at extent 1 get stride 0.
inline std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out, Broadcast rule) {
  std::vector<int64_t> strides(out.rank(), 0);
  const std::vector<int64_t> own = in.strides();
  const size_t shift = rule == Broadcast::NnefLeft ? 0 : out.rank() - in.rank();
  for (size_t j = 0; j < in.rank(); ++j)
    if (in[j] != 1) strides[j + shift] = own[j];
  return strides;
}

// f(i, x₀[i₀], x₁[i₁], ...) for every flat index i of `out`, each operand read at the position
// that broadcasts to i: the loop of every elementwise op with several operands.
template <class F, class... Operands>
void broadcast_map(const Shape& out, Broadcast rule, F&& f, const Operands&... xs) {
  const std::array<std::vector<int64_t>, sizeof...(Operands)> strides{broadcast_strides(xs.shape(), out, rule)...};
  [&]<size_t... K>(std::index_sequence<K...>) {
    for_each_index(out, [&](int64_t flat, const std::vector<int64_t>& index) {
      f(flat, xs[offset_of(index, strides[K])]...);
    });
  }(std::index_sequence_for<Operands...>{});
}

}  // namespace nnref
