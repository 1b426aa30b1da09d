// pad: widens every axis by (before, after) positions, filled by a border rule, or crops it where a
// padding is negative (NNEF 1.0 pad).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "spec/attrs/pad.hpp"
#include "spec/index.hpp"
#include "spec/op_rule.hpp"
#include "spec/real.hpp"
#include "spec/size_program.hpp"
#include "spec/truth.hpp"
#include "spec/value.hpp"

namespace nnref {

// The (before, after) padding of every axis: the attribute's numbers, or the computed program's
// values (every before, then every after); nullopt when the program fails. A computed one must be
// at least 0; a constant one is checked by the rule.
template <class Dim>
std::optional<std::vector<std::pair<SizeValue<Dim>, SizeValue<Dim>>>> pad_widths(const PadAttrs& a,
                                                                                 const std::vector<Dims<Dim>>& inputs,
                                                                                 ObligationSink<Dim>& sink) {
  std::vector<int64_t> numbers;
  for (const auto& p : a.padding) numbers.push_back(p.first);
  for (const auto& p : a.padding) numbers.push_back(p.second);
  auto values = size_entries(numbers, a.computed.code, inputs, sink, "pad");
  if (!values) return std::nullopt;
  const size_t n = values->size() / 2;
  std::vector<std::pair<SizeValue<Dim>, SizeValue<Dim>>> out;
  for (size_t i = 0; i < n; ++i) out.emplace_back((*values)[i], (*values)[n + i]);
  for (size_t i = 0; i < values->size(); ++i)
    if (!(*values)[i].constant)
      sink.require((*values)[i].value >= Dim(int64_t{0}), kPadComputedNegative,
                   "pad: the " + std::string(i < n ? "before" : "after") + " padding " + dim_str((*values)[i].value) +
                       " of axis " + std::to_string(i % std::max<size_t>(n, 1)) + ", computed from extents, may be below 0");
  return out;
}

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const PadAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const auto widths = pad_widths(a, inputs, sink);
  if (!widths) return std::nullopt;
  const bool length = widths->size() == x.size();
  sink.require(length, kPadAttributeLength,
               "pad has " + std::to_string(widths->size()) + " (before, after) pairs for an input of rank " +
                   std::to_string(x.size()));
  if (!length) return std::nullopt;
  const bool fits = pad_value_fits(a);
  sink.require(fits, kPadValueKind,
               "pad's value " + (a.value.decimal.empty() ? std::to_string(a.value.value) : a.value.decimal) + " is not an element of its " + elem_kind_name(a.kind) + " data");
  Dims<Dim> out;
  for (size_t i = 0; i < x.size(); ++i) {
    const auto& [b, e] = (*widths)[i];
    const Dim before = b.value, after = e.value;
    const std::string pair = "(" + dim_str(before) + ", " + dim_str(after) + ")";
    sink.require(x[i] + before + after >= Dim(int64_t{1}), kPadEmpty,
                 "pad " + pair + " of axis " + std::to_string(i) + " crops all of its extent " + dim_str(x[i]));
    const std::string axis = " of axis " + std::to_string(i) + " exceeds its extent " + dim_str(x[i]);
    if (a.border == PadBorder::Reflect)
      for (const Dim& w : {before, after})
        sink.require(x[i] - int64_t{1} >= w, kPadReflectTooWide, "reflect pad " + pair + axis + " minus 1");
    if (a.border == PadBorder::ReflectEven)
      for (const Dim& w : {before, after})
        sink.require(x[i] >= w, kPadReflectEvenTooWide, "reflect-even pad " + pair + axis);
    if (a.border == PadBorder::Replicate)
      sink.require(x[i] >= Dim(int64_t{1}), kPadReplicateEmpty,
                   "replicate pad of axis " + std::to_string(i) + " needs a non-empty axis, extent is " +
                       dim_str(x[i]));
    out.push_back(x[i] + before + after);
  }
  if (!fits) return std::nullopt;
  return ShapeOut<Dim>{{out}, {}};
}

// The before padding of every axis at the op's own extents (the rule has held there).
inline std::vector<int64_t> pad_befores(const Checked<PadAttrs>& op) {
  ConcreteSink sink;
  std::vector<Dims<CDim>> inputs;
  for (const Shape& s : op.inputs()) inputs.emplace_back(s.dims().begin(), s.dims().end());
  const auto widths = pad_widths(op.attrs(), inputs, sink);
  std::vector<int64_t> out;
  if (widths)
    for (const auto& w : *widths) out.push_back(w.first.value.v);
  return out;
}

// The input position an output position p − before reads on an axis of extent n, or -1 for the
// constant value.
inline int64_t pad_source(int64_t p, int64_t n, PadBorder border) {
  if (p >= 0 && p < n) return p;
  switch (border) {
    case PadBorder::Constant: return -1;
    case PadBorder::Reflect: return p < 0 ? -p : 2 * (n - 1) - p;
    case PadBorder::Replicate: return p < 0 ? 0 : n - 1;
    case PadBorder::ReflectEven: return p < 0 ? -p - 1 : 2 * n - 1 - p;
  }
  return -1;
}

// The constant value as an element of type E: the real in the run's scalar, the integer, the truth value.
template <class E, Scalar T>
E pad_value(const Real& v) {
  if constexpr (std::is_same_v<E, int64_t>) return static_cast<int64_t>(v.value);
  else if constexpr (std::is_same_v<E, uint8_t>) return truth_of(v.value != 0.0);
  else return real_value<T>(v);
}

// y[i] = x[j] with j[k] = pad_source(i[k] − before[k]) on every axis, or value when some axis
// reads outside x under Constant. The elements are of the op's kind.
template <Scalar T>
void evaluate(const Checked<PadAttrs>& op, const OpIO<T>& io) {
  const Shape& in = op.inputs()[0];
  const Shape& out = op.outputs()[0];
  const PadAttrs& a = op.attrs();
  const auto strides = in.strides();
  const std::vector<int64_t> before = pad_befores(op);
  with_element_type<T>(a.kind, [&]<class E>() {
    const E value = pad_value<E, T>(a.value);
    const Tensor<E>& x = io.template in_as<E>(0);
    Tensor<E>& y = io.template out_as<E>(0);
    std::vector<int64_t> idx;
    for (int64_t f = 0; f < y.size(); ++f) {
      unflatten(f, out.dims(), idx);
      int64_t src = 0;
      for (size_t k = 0; k < idx.size() && src >= 0; ++k) {
        const int64_t p = pad_source(idx[k] - before[k], in[k], a.border);
        src = p < 0 ? -1 : src + p * strides[k];
      }
      y[f] = src < 0 ? value : x[src];
    }
  });
}

}  // namespace nnref
