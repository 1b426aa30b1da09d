#include "fastpath/broadcast_runs.hpp"

#include <algorithm>

#include "fastpath/threads.hpp"

namespace nnref::fastpath {

namespace {

constexpr int64_t kChunk = 8192;        // elements of one work item at most
constexpr int64_t kItemElements = 32768;  // elements a thread's share holds at least

struct Axis {
  int64_t extent = 1;
  std::array<int64_t, kMaxRunOperands> strides{};
};

}  // namespace

BroadcastRuns::BroadcastRuns(const Shape& out, const std::vector<Shape>& operands, Broadcast rule)
    : operands_(operands.size()) {
  std::array<std::vector<int64_t>, kMaxRunOperands> strides;
  for (size_t k = 0; k < operands_; ++k) strides[k] = broadcast_strides(operands[k], out, rule);
  std::vector<Axis> axes;
  for (size_t a = 0; a < out.rank(); ++a) {
    if (out[a] == 1) continue;  // read at index 0 by every operand
    Axis axis{out[a], {}};
    for (size_t k = 0; k < operands_; ++k) axis.strides[k] = strides[k][a];
    // One axis with the previous when every operand steps over the pair as over one axis.
    const auto joins = [&](const Axis& prev) {
      for (size_t k = 0; k < operands_; ++k)
        if (prev.strides[k] != axis.strides[k] * axis.extent) return false;
      return true;
    };
    if (!axes.empty() && joins(axes.back())) {
      axis.extent *= axes.back().extent;
      axes.back() = axis;
    } else {
      axes.push_back(axis);
    }
  }
  // The last axis is the operand's own last axis (stride 1) or one it broadcasts (stride 0): the
  // axis it aligns with is its last under both rules, as an operand of the result's rank.
  const Axis inner = axes.empty() ? Axis{} : axes.back();
  if (!axes.empty()) axes.pop_back();
  inner_ = inner.extent;
  for (size_t k = 0; k < operands_; ++k) varies_[k] = inner.strides[k] != 0;
  for (const Axis& a : axes) {
    outer_dims_.push_back(a.extent);
    for (size_t k = 0; k < operands_; ++k) outer_strides_[k].push_back(a.strides[k]);
  }
  const int64_t rows = out.count() / std::max<int64_t>(inner_, 1);
  chunk_ = std::clamp<int64_t>(inner_, 1, kChunk);
  chunks_per_row_ = (inner_ + chunk_ - 1) / chunk_;
  items_ = out.count() == 0 ? 0 : rows * chunks_per_row_;
}

Run BroadcastRuns::run(int64_t item) const {
  int64_t row = item / chunks_per_row_;
  const int64_t start = item % chunks_per_row_ * chunk_;
  Run r{row * inner_ + start, std::min(chunk_, inner_ - start), {}};
  for (size_t a = outer_dims_.size(); a-- > 0;) {
    const int64_t index = row % outer_dims_[a];
    row /= outer_dims_[a];
    for (size_t k = 0; k < operands_; ++k) r.in[k] += index * outer_strides_[k][a];
  }
  for (size_t k = 0; k < operands_; ++k)
    if (varies_[k]) r.in[k] += start;
  return r;
}

void BroadcastRuns::parallel(ThreadPool* pool, RangeBody body) const {
  const int64_t grain = std::max<int64_t>(1, kItemElements / chunk_);
  if (pool == nullptr) return body(0, items_);
  pool->parallel_for(items_, grain, body);
}

}  // namespace nnref::fastpath
