// range (ONNX's Range, opset 11): y[i] = start + i·delta for i in [0, n), n = max(⌈(limit − start)/delta⌉, 0),
// a real result from real start, limit and delta, an integer one from integers (start and limit
// possibly computed from the operands' extents: spec/attrs/range.hpp).
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/attrs/range.hpp"
#include "spec/op_rule.hpp"
#include "spec/real.hpp"
#include "spec/scalar.hpp"
#include "spec/size_program.hpp"

namespace nnref {

// max(⌈(limit − start)/delta⌉, 0) of finite reals, delta ≠ 0, saturated at INT64_MAX: the
// difference and the quotient in 50 decimal digits, where a difference of two doubles is exact and
// a quotient that is an integer stays one.
inline int64_t real_range_count(double start, double limit, double delta) {
  const mp50 q = (mp50(limit) - mp50(start)) / mp50(delta);
  const mp50 c = boost::multiprecision::ceil(q);
  if (c <= 0) return 0;
  if (c >= mp50(9.2e18)) return std::numeric_limits<int64_t>::max();
  return c.convert_to<int64_t>();
}

// A real attribute as text: the file's decimal, or the shortest of 15 and 17 digits that reads back.
inline std::string real_text(const Real& r) {
  if (!r.decimal.empty()) return r.decimal;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", r.value);
  if (std::strtod(buf, nullptr) != r.value) std::snprintf(buf, sizeof buf, "%.17g", r.value);
  return buf;
}

// start and limit of an integer range: the attributes', or its program's two values.
template <class Dim>
std::optional<std::pair<Dim, Dim>> range_bounds(const RangeAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                                ObligationSink<Dim>& sink) {
  if (a.computed.empty()) return std::pair<Dim, Dim>{Dim(a.istart), Dim(a.ilimit)};
  const auto values = run_size_program(a.computed, inputs, sink, "range");
  if (!values) return std::nullopt;
  sink.require(values->size() == 2, kSizeProgram,
               "range: computed sizes leave " + std::to_string(values->size()) + " values, not start and limit");
  if (values->size() != 2) return std::nullopt;
  return std::pair<Dim, Dim>{(*values)[0].value, (*values)[1].value};
}

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const RangeAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  if (a.kind != ElemKind::Integer) {
    const double s = a.start.value, l = a.limit.value, d = a.delta.value;
    const bool finite = std::isfinite(s) && std::isfinite(l) && std::isfinite(d);
    sink.require(finite, kRangeNotFinite,
                 "range: start " + real_text(a.start) + ", limit " + real_text(a.limit) + " and delta " +
                     real_text(a.delta) + " must be finite");
    if (!finite) return std::nullopt;
    sink.require(d != 0.0, kRangeDeltaZero, "range: delta is 0");
    if (d == 0.0) return std::nullopt;
    const int64_t n = real_range_count(s, l, d);
    sink.require(n >= 1, kRangeEmpty,
                 "range: from " + real_text(a.start) + " to " + real_text(a.limit) + " by " + real_text(a.delta) +
                     " has no element");
    return ShapeOut<Dim>{{{Dim(n)}}, {}};
  }
  sink.require(a.idelta != 0, kRangeDeltaZero, "range: delta is 0");
  if (a.idelta == 0) return std::nullopt;
  const auto bounds = range_bounds(a, inputs, sink);
  if (!bounds) return std::nullopt;
  const Dim& start = bounds->first;
  const Dim& limit = bounds->second;
  // ⌈(limit − start)/delta⌉, as ⌈(start − limit)/|delta|⌉ for a negative delta.
  const Dim n = a.idelta > 0 ? ceil_div(limit - start, Dim(a.idelta)) : ceil_div(start - limit, Dim(int64_t{0}) - Dim(a.idelta));
  sink.require(n >= Dim(int64_t{1}), kRangeEmpty,
               "range: from " + dim_str(start) + " to " + dim_str(limit) + " by " + std::to_string(a.idelta) +
                   " has " + dim_str(n) + " elements, which may be below 1");
  return ShapeOut<Dim>{{{n}}, {}};
}

// The integer range's start: the attribute's, or the program's first value over the operands'
// extents (which the witness fixes).
inline int64_t integer_range_start(const RangeAttrs& a, const std::vector<Shape>& operands) {
  if (a.computed.empty()) return a.istart;
  ConcreteSink sink;  // the witness holds: the program reads what it may
  return range_bounds(a, to_cdims(operands), sink)->first.v;
}

// y[i] = start + i·delta: integers in int64 (between start and limit, so exact), reals in T.
template <Scalar T>
void evaluate(const Checked<RangeAttrs>& op, const OpIO<T>& io) {
  const RangeAttrs& a = op.attrs();
  const int64_t n = op.outputs()[0].count();
  if (a.kind == ElemKind::Integer) {
    const auto start = static_cast<uint64_t>(integer_range_start(a, op.inputs()));
    auto& y = io.template out_as<int64_t>(0);
    for (int64_t i = 0; i < n; ++i)
      y[i] = static_cast<int64_t>(start + static_cast<uint64_t>(i) * static_cast<uint64_t>(a.idelta));
    return;
  }
  Tensor<T>& y = io.out(0);
  const T start = real_value<T>(a.start), delta = real_value<T>(a.delta);
  for (int64_t i = 0; i < n; ++i) y[i] = start + from_double<T>(static_cast<double>(i)) * delta;
}

}  // namespace nnref
