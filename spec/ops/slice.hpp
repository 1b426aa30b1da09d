// slice: keeps a range [begin, end) on each listed axis (NNEF 1.0 slice).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/attrs/slice.hpp"
#include "spec/index.hpp"
#include "spec/op_rule.hpp"
#include "spec/rules/axes.hpp"
#include "spec/size_program.hpp"

namespace nnref {

// The stride of listed axis i (1 when stride is empty).
inline int64_t slice_stride(const SliceAttrs& a, size_t i) { return a.stride.empty() ? 1 : a.stride[i]; }
inline bool unit_strides(const SliceAttrs& a) {
  for (int64_t s : a.stride)
    if (s != 1) return false;
  return true;
}

// Every begin, then every end: the attributes' numbers, or the values of the computed program
// over the operands after the first; nullopt when the program fails.
template <class Dim>
std::optional<std::vector<SizeValue<Dim>>> slice_bounds(const SliceAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                                        ObligationSink<Dim>& sink) {
  std::vector<int64_t> numbers = a.begin;
  numbers.insert(numbers.end(), a.end.begin(), a.end.end());
  return size_entries(numbers, a.computed, inputs, sink, "slice");
}

// NNEF 1.0 index: negative counts from the end, then clamped to [lo, hi].
template <class Dim>
Dim slice_index(const SizeValue<Dim>& v, const Dim& extent, const Dim& lo, const Dim& hi) {
  const Dim raw = v.constant ? (*v.constant < 0 ? extent + *v.constant : v.value)
                             : dim_select(v.value < Dim(int64_t{0}), extent + v.value, v.value);
  return dim_max(dim_select(raw > hi, hi, raw), lo);
}

// The first index and the count of listed axis i, from begin b and end e, on an axis of this extent.
template <class Dim>
std::pair<Dim, Dim> slice_range(const SliceAttrs& a, size_t i, const SizeValue<Dim>& begin, const SizeValue<Dim>& end,
                                const Dim& extent) {
  const int64_t s = slice_stride(a, i);
  if (s > 0) {
    const Dim b = slice_index(begin, extent, Dim(int64_t{0}), extent);
    const Dim e = end.constant == 0 && unit_strides(a) ? extent : slice_index(end, extent, Dim(int64_t{0}), extent);
    return {b, ceil_div(e - b, Dim(s))};
  }
  const Dim last = extent - int64_t{1};
  const Dim b = slice_index(begin, extent, Dim(int64_t{-1}), last);
  const Dim e = slice_index(end, extent, Dim(int64_t{-1}), last);
  return {b, ceil_div(b - e, Dim(-s))};
}

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const SliceAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const Dims<Dim>& x = inputs[0];
  const auto bounds = slice_bounds(a, inputs, sink);
  if (!bounds) return std::nullopt;
  const size_t n = a.axes.size();
  const bool lengths = bounds->size() == 2 * n && (a.computed.empty() || (a.begin.empty() && a.end.empty())) &&
                       (a.stride.empty() || a.stride.size() == n);
  sink.require(lengths, kSliceAttributeLength,
               "slice has " + std::to_string(n) + " axes but " + std::to_string(bounds->size()) +
                   " begin and end values and " + std::to_string(a.stride.size()) + " stride values");
  if (!lengths || !checked_axes(op_name(a), a.axes, x.size(), true, sink)) return std::nullopt;
  bool strides_ok = true;
  for (size_t i = 0; i < a.stride.size(); ++i)
    if (a.stride[i] == 0) {
      sink.require(false, kSliceStrideZero, "slice has stride 0 on axis " + std::to_string(a.axes[i]));
      strides_ok = false;
    }
  if (!strides_ok) return std::nullopt;
  Dims<Dim> out = x;
  for (size_t i = 0; i < a.axes.size(); ++i) {
    // begin[i] and end[i] go with axes[i]: checked_axes' sorted list loses that pairing.
    const auto ax = static_cast<size_t>(normalize_axis(a.axes[i], x.size()));
    const SizeValue<Dim>&begin = (*bounds)[i], &end = (*bounds)[n + i];
    const auto [b, count] = slice_range(a, i, begin, end, x[ax]);
    out[ax] = count;
    sink.require(count >= Dim(int64_t{1}), kSliceEmpty,
                 "slice of axis " + std::to_string(ax) + " from " + dim_str(begin.value) + " to " +
                     dim_str(end.value) + " by " + std::to_string(slice_stride(a, i)) + " on extent " +
                     dim_str(x[ax]) + " starts at " + dim_str(b) + " and keeps " + dim_str(count) +
                     " elements, none");
  }
  return ShapeOut<Dim>{{out}, {}};
}

// The first input index and the step of every axis: begin and stride on listed axes (as clamped
// by the shape rule), 0 and 1 elsewhere; `inputs` the witness's input shapes.
inline std::pair<std::vector<int64_t>, std::vector<int64_t>> slice_walk(const SliceAttrs& a,
                                                                       const std::vector<Shape>& inputs) {
  const Shape& in = inputs[0];
  ConcreteSink sink;  // the witness holds: the bounds are what the rule read
  const auto bounds = *slice_bounds(a, to_cdims(inputs), sink);
  std::vector<int64_t> begin(in.rank(), 0), step(in.rank(), 1);
  for (size_t i = 0; i < a.axes.size(); ++i) {
    const auto ax = static_cast<size_t>(normalize_axis(a.axes[i], in.rank()));
    begin[ax] = slice_range(a, i, bounds[i], bounds[a.axes.size() + i], CDim(in[ax])).first.v;
    step[ax] = slice_stride(a, i);
  }
  return {begin, step};
}

// y[i] = x[begin + i·stride], per axis.
template <Scalar T>
void evaluate(const Checked<SliceAttrs>& op, const OpIO<T>& io) {
  const Shape& in = op.inputs()[0];
  const auto walk = slice_walk(op.attrs(), op.inputs());
  const std::vector<int64_t>& begin = walk.first;
  const std::vector<int64_t>& step = walk.second;
  const auto strides = in.strides();
  with_element_type<T>(op.attrs().kind, [&]<class E>() {
    gather(io.template out_as<E>(0), io.template in_as<E>(0), [&](const std::vector<int64_t>& i) {
      int64_t f = 0;
      for (size_t k = 0; k < i.size(); ++k) f += (begin[k] + i[k] * step[k]) * strides[k];
      return f;
    });
  });
}

}  // namespace nnref
