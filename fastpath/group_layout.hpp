// How the reductions and layer_normalization walk a tensor split into groups over a set of axes
// (spec/axis_groups.hpp), prepared once at lowering: extent-1 axes are dropped and neighbouring
// axes of the same kind (grouped or not) merged, so that the innermost merged block, `run`, is one
// contiguous stretch of memory the kernels cover with whole vectors.
//   run_grouped: position (k, r, j) is x[kept[k] + grouped[r] + j], j < run; group k is over (r, j)
//                and its element (r, j) is the r·run + j-th of the group in row-major order.
//   otherwise:   position (k, i, r) is x[kept[k] + i + grouped[r]], i < run; group (k, i) is over
//                r, and its output (reductions) is k·run + i.
// An empty table (an axis of extent 0) means no positions of that kind.
#pragma once

#include <cstdint>
#include <vector>

#include "spec/shape.hpp"

namespace nnref::fastpath {

struct GroupLayout {
  int64_t run = 1;
  bool run_grouped = false;
  std::vector<int64_t> kept, grouped;  // offsets over the other merged axes, row-major

  // Positions per group and number of groups.
  int64_t group_size() const { return static_cast<int64_t>(grouped.size()) * (run_grouped ? run : 1); }
  int64_t groups() const { return static_cast<int64_t>(kept.size()) * (run_grouped ? 1 : run); }
};

// `grouped[i]`: whether axis i of `shape` is one of the group's axes.
inline GroupLayout group_layout(const Shape& shape, const std::vector<bool>& grouped) {
  std::vector<int64_t> dims;
  std::vector<bool> kinds;
  for (size_t i = 0; i < shape.rank(); ++i) {
    if (shape[i] == 1) continue;
    if (!dims.empty() && kinds.back() == grouped[i]) {
      dims.back() *= shape[i];
    } else {
      dims.push_back(shape[i]);
      kinds.push_back(grouped[i]);
    }
  }
  GroupLayout g;
  if (!dims.empty()) {
    g.run = dims.back();
    g.run_grouped = kinds.back();
    dims.pop_back();
    kinds.pop_back();
  }
  g.kept = {0};
  g.grouped = {0};
  int64_t stride = g.run;
  for (size_t a = dims.size(); a-- > 0;) {  // innermost first: each axis's offsets vary slowest
    std::vector<int64_t>& table = kinds[a] ? g.grouped : g.kept;
    std::vector<int64_t> next;
    next.reserve(table.size() * static_cast<size_t>(dims[a]));
    for (int64_t j = 0; j < dims[a]; ++j)
      for (int64_t o : table) next.push_back(j * stride + o);
    table = std::move(next);
    stride *= dims[a];
  }
  if (g.run == 0) {  // no positions at all: whichever table the run belongs to is empty
    (g.run_grouped ? g.grouped : g.kept).clear();
    g.run = 1;
  }
  return g;
}

}  // namespace nnref::fastpath
