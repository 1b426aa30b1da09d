// avg_roi_pool, max_roi_pool, roi_resample (NNEF 1.0 §4.6): regions of interest cropped out of an
// input [N, C, s...] and brought to a fixed size, one output [C, output_size...] per region. One op
// with three names: the three share their operands, their shape rule and the crop (a row of rois,
// a batch index); they differ only in the value of one output cell, pooled over a rounded cell or
// interpolated at a real point. avg_roi_align and max_roi_align are §4.6.2's compounds (roi_resample
// to output_size·sampling_rate, then a pool of window and stride sampling_rate), lowered so by the
// NNEF reader (formats/nnef/lower_roi.cpp). Every choice the spec leaves open: docs/ops/roi.md.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/roi.hpp"
#include "spec/op_rule.hpp"
#include "spec/orderings.hpp"

namespace nnref {

template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const RoiAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const std::string op = op_name(a);
  const size_t m = a.output_size.size();
  const bool sizes = m >= 1 && std::all_of(a.output_size.begin(), a.output_size.end(), [](int64_t p) { return p >= 1; });
  std::string listed;
  for (size_t k = 0; k < m; ++k) listed += (k ? ", " : "") + std::to_string(a.output_size[k]);
  sink.require(sizes, kRoiOutputSize, op + ": output_size needs one extent of at least 1 per spatial axis, got [" + listed + "]");
  const Dims<Dim>&x = inputs[0], &rois = inputs[1], &index = inputs[2];
  sink.require(x.size() == m + 2, kRoiInputRank,
               op + ": the input must be [N, C] and " + std::to_string(m) + " spatial axes (one per entry of output_size), got " +
                   sink.operand(0) + " of shape " + dims_str(x));
  sink.require(rois.size() == 2, kRoiBoxes, op + ": rois must be [R, 2M], got " + sink.operand(1) + " of shape " + dims_str(rois));
  sink.require(index.size() == 1, kRoiBatchIndex,
               op + ": batch_index must be [R], got " + sink.operand(2) + " of shape " + dims_str(index));
  if (!sizes || x.size() != m + 2 || rois.size() != 2 || index.size() != 1) return std::nullopt;
  const auto coordinates = static_cast<int64_t>(2 * m);
  sink.require(rois[1] == Dim(coordinates), kRoiBoxes,
               op + ": each row of rois holds a start and an end per spatial axis, " + std::to_string(coordinates) +
                   " values, got rois of shape " + dims_str(rois));
  sink.require(index[0] == rois[0], kRoiBatchIndex,
               op + ": batch_index needs one entry per row of rois, got " + dims_str(index) + " for rois " + dims_str(rois));
  Dims<Dim> out{rois[0], x[1]};
  for (int64_t p : a.output_size) out.push_back(Dim(p));
  return ShapeOut<Dim>{{std::move(out)}, {}};
}

namespace roi {

// A region's geometry is integer arithmetic on integers an enclosure may leave undecided (a
// rounded coordinate, the cell of an interpolation point): each such integer is a range, and the
// value of an output element is the hull of its values over every choice (the same hull `select`
// takes under an unknown condition). More choices than this: the element bounds nothing (NaN).
inline constexpr int64_t kMaxChoices = 64;
// A rounded pool coordinate beyond this magnitude gives NaN elements (far past any image).
inline constexpr double kMaxCoordinate = 2147483648.0;  // 2^31

struct Range {
  int64_t lo = 0, hi = 0;  // inclusive
};

// Π (hi − lo + 1), or nullopt beyond kMaxChoices.
inline std::optional<int64_t> choice_count(const std::vector<Range>& ranges) {
  int64_t n = 1;
  for (const Range& r : ranges) {
    n *= r.hi - r.lo + 1;
    if (n > kMaxChoices) return std::nullopt;
  }
  return n;
}

// f(choice) for every choice of one integer per range, the last range fastest.
template <class F>
void for_each_choice(const std::vector<Range>& ranges, F&& f) {
  std::vector<int64_t> choice(ranges.size());
  for (size_t k = 0; k < ranges.size(); ++k) choice[k] = ranges[k].lo;
  while (true) {
    f(choice);
    size_t k = ranges.size();
    while (k > 0 && choice[k - 1] == ranges[k - 1].hi) choice[k - 1] = ranges[k - 1].lo, --k;
    if (k == 0) return;
    ++choice[k - 1];
  }
}

// The batch items row r may read: its index; every item for an index an enclosure left unknown;
// none (nullopt) for an index outside [0, N).
inline std::optional<Range> batch_range(int64_t index, int64_t batches) {
  if (index == kUnknownInteger) return Range{0, batches - 1};
  if (index < 0 || index >= batches) return std::nullopt;
  return Range{index, index};
}

// The integers an enclosure of an integer-valued real holds (the image of floor), or nullopt when
// it is NaN or reaches beyond `limit` in magnitude.
inline std::optional<Range> integers_in(const Enclosure& e, double limit) {
  if (std::isnan(e.lo) || std::isnan(e.hi) || e.lo < -limit || e.hi > limit) return std::nullopt;
  return Range{static_cast<int64_t>(e.lo), static_cast<int64_t>(e.hi)};
}

// §4.6.1's cell i of p along an axis whose rounded region is [start, end): it begins at
// start + i·⌊r/p⌋ and spans ⌈r/p⌉ positions, r = end − start (none when r ≤ 0).
struct Cell {
  int64_t begin = 0, size = 0;
};
inline Cell pool_cell(int64_t start, int64_t end, int64_t p, int64_t i) {
  const int64_t r = end - start;
  const auto floor_div = [](int64_t a, int64_t b) { return a / b - (a % b != 0 && a < 0 ? 1 : 0); };
  const int64_t step = floor_div(r, p), size = -floor_div(-r, p);
  return {start + i * step, std::max<int64_t>(size, 0)};
}

// Row-major offsets of the positions of the box [begin_k, begin_k + size_k) that lie inside
// extents, with spatial strides.
inline void inside_offsets(const std::vector<Cell>& box, const std::vector<int64_t>& extents,
                           const std::vector<int64_t>& strides, std::vector<int64_t>& out) {
  out.assign(1, 0);
  for (size_t k = 0; k < box.size(); ++k) {
    const int64_t lo = std::max<int64_t>(box[k].begin, 0), hi = std::min(box[k].begin + box[k].size, extents[k]);
    std::vector<int64_t> next;
    for (int64_t base : out)
      for (int64_t p = lo; p < hi; ++p) next.push_back(base + p * strides[k]);
    out = std::move(next);
  }
}

// Mixed-radix walk over the output cells [p_0..p_{M-1}], the last axis fastest: f(index, flat).
template <class F>
void for_each_cell(const std::vector<int64_t>& sizes, F&& f) {
  std::vector<Range> ranges;
  for (int64_t p : sizes) ranges.push_back({0, p - 1});
  int64_t flat = 0;
  for_each_choice(ranges, [&](const std::vector<int64_t>& i) { f(i, flat++); });
}

}  // namespace roi

// For region r with rounded coordinates, batch item b, channel c and output cell i:
//   max_roi_pool:  y = max over the cell of x̃[b, c, ·]            (§4.6.1, as max_pool)
//   avg_roi_pool:  y = Σ over the cell of x̃[b, c, ·] / |cell|     (as avg_pool)
// the cell along axis k starting at s_k + i_k·⌊r_k/p_k⌋ and spanning ⌈r_k/p_k⌉ positions,
// r_k = e_k − s_k, s_k and e_k the region's start and end rounded as NNEF's round (⌊v + ½⌋);
// x̃ is x inside the input and 0 outside (max_pool's and avg_pool's default border 'constant');
// a cell with no position (r_k ≤ 0) is 0.
//   roi_resample:  y = Σ_{corners β ∈ {0,1}^M} Π_k w_k(β_k) · x[b, c, clamp(j_k + β_k)]
// with v_k the sample point of RoiMethod, j_k = ⌊v_k⌋, u_k = v_k − j_k, w_k(0) = 1 − u_k,
// w_k(1) = u_k, indices clamped to [0, s_k − 1] (§4.3.4's 'replicate': the nearest edge).
// A batch index outside [0, N), a NaN coordinate or a rounded pool coordinate beyond 2^31: every
// element of the region is NaN. Under an enclosure, every integer of the geometry (batch index,
// rounded coordinate, j_k) is a range and the element is the hull over every choice (u_k clamped
// to [0, 1], where it lies for its j_k), or NaN beyond roi::kMaxChoices choices.
template <Scalar T>
void evaluate(const Checked<RoiAttrs>& op, const OpIO<T>& io) {
  const RoiAttrs& a = op.attrs();
  const Shape& in = op.inputs()[0];
  const size_t m = a.output_size.size();
  const int64_t batches = in[0], channels = in[1], regions = op.inputs()[1][0];
  const std::vector<int64_t> extents(in.dims().begin() + 2, in.dims().end());
  const std::vector<int64_t> all_strides = in.strides();
  const std::vector<int64_t> strides(all_strides.begin() + 2, all_strides.end());
  const int64_t plane = strides.empty() ? 1 : strides[0] * extents[0];
  int64_t cells = 1;
  for (int64_t p : a.output_size) cells *= p;
  const Tensor<T>&x = io.in(0), &boxes = io.in(1);
  const auto& batch = std::get<Tensor<int64_t>>(*io.inputs[2]);
  Tensor<T>& y = io.out(0);
  const T nan = from_double<T>(std::numeric_limits<double>::quiet_NaN()), zero = from_double<T>(0.0);
  const T one = from_double<T>(1.0), half = from_double<T>(0.5);
  // The first choice sets an element, every later one widens it to the hull.
  const auto put = [&](T& out, const T& v, bool first) { out = first ? v : sc::hull(out, v); };
  std::vector<int64_t> offsets;
  for (int64_t r = 0; r < regions; ++r) {
    const auto at = [&](int64_t c, int64_t cell) -> T& { return y[(r * channels + c) * cells + cell]; };
    const auto fill_nan = [&] { std::fill_n(&at(0, 0), channels * cells, nan); };
    const auto start = [&](size_t k) -> const T& { return boxes[r * 2 * static_cast<int64_t>(m) + static_cast<int64_t>(k)]; };
    const auto end = [&](size_t k) -> const T& { return boxes[r * 2 * static_cast<int64_t>(m) + static_cast<int64_t>(m + k)]; };
    const auto b_range = roi::batch_range(batch[r], batches);
    if (!b_range) {
      fill_nan();
      continue;
    }
    if (a.op != RoiOp::Resample) {
      // Ranges: the batch item, then the rounded start and end of each axis.
      std::vector<roi::Range> ranges{*b_range};
      bool bounded = true;
      for (size_t k = 0; k < m && bounded; ++k)
        for (const T* v : {&start(k), &end(k)}) {
          const auto rounded = roi::integers_in(sc::enclosure(sc::floor(*v + half)), roi::kMaxCoordinate);
          if (!rounded) bounded = false;
          else ranges.push_back(*rounded);
        }
      if (!bounded || !roi::choice_count(ranges)) {
        fill_nan();
        continue;
      }
      bool first = true;
      roi::for_each_choice(ranges, [&](const std::vector<int64_t>& choice) {
        const int64_t b = choice[0];
        std::vector<roi::Cell> box(m);
        roi::for_each_cell(a.output_size, [&](const std::vector<int64_t>& i, int64_t cell) {
          double volume = 1;
          for (size_t k = 0; k < m; ++k) {
            box[k] = roi::pool_cell(choice[1 + 2 * k], choice[2 + 2 * k], a.output_size[k], i[k]);
            volume *= static_cast<double>(box[k].size);
          }
          roi::inside_offsets(box, extents, strides, offsets);
          const auto inside = static_cast<int64_t>(offsets.size());
          const T divisor = from_double<T>(volume);
          for (int64_t c = 0; c < channels; ++c) {
            const int64_t base = (b * channels + c) * plane;
            const auto x_at = [&](int64_t t) -> const T& { return x[base + offsets[static_cast<size_t>(t)]]; };
            T v = zero;
            if (volume == 0) {
              v = zero;
            } else if (a.op == RoiOp::AvgPool) {
              v = sum_of<T>(inside, x_at) / divisor;
            } else if (inside > 0) {
              v = x_at(0);
              for (int64_t t = 1; t < inside; ++t) v = sc::max(v, x_at(t));
              if (static_cast<double>(inside) < volume) v = sc::max(v, zero);
            }
            put(at(c, cell), v, first);
          }
        });
        first = false;
      });
      continue;
    }
    // roi_resample: per output cell, the sample point and its integer part j_k along every axis.
    const bool symmetric = a.method == RoiMethod::Symmetric;
    const int64_t corners = int64_t{1} << m;
    std::vector<T> scale;  // the distance between neighbouring samples
    for (size_t k = 0; k < m; ++k) {
      const auto p = static_cast<double>(a.output_size[k]);
      if (a.method != RoiMethod::Aligned) scale.push_back((end(k) - start(k)) / from_double<T>(p));
      else scale.push_back(p > 1 ? (end(k) - start(k) - one) / from_double<T>(p - 1) : zero);
    }
    std::vector<T> weights(static_cast<size_t>(corners));
    std::vector<int64_t> corner_offsets(static_cast<size_t>(corners));
    std::vector<T> factors(m);
    roi::for_each_cell(a.output_size, [&](const std::vector<int64_t>& i, int64_t cell) {
      std::vector<T> point;
      std::vector<roi::Range> ranges{*b_range};
      for (size_t k = 0; k < m; ++k) {
        const auto ik = static_cast<double>(i[k]);
        if (symmetric) {
          const T terms[3] = {start(k), from_double<T>(ik + 0.5) * scale[k], from_double<T>(-0.5)};
          point.push_back(sum_of<T>(3, [&](int64_t t) -> const T& { return terms[t]; }));
        } else {
          point.push_back(start(k) + from_double<T>(ik) * scale[k]);
        }
        const Enclosure j = sc::enclosure(sc::floor(point[k]));
        if (std::isnan(j.lo) || std::isnan(j.hi)) break;
        // Every j ≤ −1 reads x[0] twice and every j ≥ s − 1 reads x[s − 1] twice: −1 and s − 1 stand for them.
        const auto last = static_cast<double>(extents[k] - 1);
        ranges.push_back({static_cast<int64_t>(std::clamp(j.lo, -1.0, last)), static_cast<int64_t>(std::clamp(j.hi, -1.0, last))});
      }
      if (ranges.size() != m + 1 || !roi::choice_count(ranges)) {
        for (int64_t c = 0; c < channels; ++c) at(c, cell) = nan;
        return;
      }
      bool first = true;
      roi::for_each_choice(ranges, [&](const std::vector<int64_t>& choice) {
        for (int64_t t = 0; t < corners; ++t) {
          int64_t offset = 0;
          for (size_t k = 0; k < m; ++k) {
            const bool up = ((t >> (m - 1 - k)) & 1) != 0;
            const T u = sc::min(sc::max(point[k] - from_double<T>(static_cast<double>(choice[1 + k])), zero), one);
            factors[k] = up ? u : one - u;
            offset += std::clamp<int64_t>(choice[1 + k] + (up ? 1 : 0), 0, extents[k] - 1) * strides[k];
          }
          // The weights' product in any order and tree: a runtime that nests the axes rounds elsewhere
          // (docs/ops/interpolate.md).
          weights[static_cast<size_t>(t)] =
              ScalarOps<T>::prod(static_cast<int64_t>(m), [&](int64_t k) { return factors[static_cast<size_t>(k)]; });
          corner_offsets[static_cast<size_t>(t)] = offset;
        }
        for (int64_t c = 0; c < channels; ++c) {
          const int64_t base = (choice[0] * channels + c) * plane;
          const auto x_at = [&](int64_t t) -> const T& { return x[base + corner_offsets[static_cast<size_t>(t)]]; };
          const auto w_at = [&](int64_t t) -> const T& { return weights[static_cast<size_t>(t)]; };
          put(at(c, cell), dot_of<T>(corners, x_at, w_at), first);
        }
        first = false;
      });
    });
  }
}

}  // namespace nnref
