// transpose: axes of extent 1 dropped and axes that stay neighbours merged, once at lowering. What
// is left is a copy (no axis moves), rows copied whole (the input's last axis stays last), or a
// blocked 2-D transpose between the input's last axis and the output's (fastpath/transpose_copy.hpp)
// for each position of the other axes, whose offsets are tabled.
#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>

#include "fastpath/lower.hpp"
#include "fastpath/threads.hpp"
#include "fastpath/transpose_copy.hpp"

namespace nnref::fastpath {
namespace {

// Row-major offsets, in the input and the output, of every position of the output axes other
// than `skip` (two at most), as (input, output) pairs.
std::vector<std::pair<int64_t, int64_t>> offsets(const std::vector<int64_t>& out_dims,
                                                 const std::vector<int64_t>& in_strides,
                                                 const std::vector<int64_t>& out_strides,
                                                 const std::vector<size_t>& skip) {
  std::vector<std::pair<int64_t, int64_t>> table{{0, 0}};
  for (size_t a = 0; a < out_dims.size(); ++a) {
    if (std::find(skip.begin(), skip.end(), a) != skip.end()) continue;
    std::vector<std::pair<int64_t, int64_t>> next;
    next.reserve(table.size() * static_cast<size_t>(out_dims[a]));
    for (const auto& [i, o] : table)
      for (int64_t j = 0; j < out_dims[a]; ++j) next.emplace_back(i + j * in_strides[a], o + j * out_strides[a]);
    table = std::move(next);
  }
  return table;
}

}  // namespace

Step lower_op(const Checked<TransposeAttrs>& op, const NodeLowering& node) {
  const Shape& x = op.inputs()[0];
  const int64_t count = x.count();
  // Input axes kept (extent > 1), renumbered, then runs of consecutive axes merged.
  std::vector<int64_t> renumber(x.rank(), -1), dims;
  for (size_t i = 0; i < x.rank(); ++i)
    if (x[i] != 1) {
      renumber[i] = static_cast<int64_t>(dims.size());
      dims.push_back(x[i]);
    }
  std::vector<std::vector<int64_t>> groups;  // output order, each a run of consecutive input axes
  for (int64_t p : op.attrs().perm) {
    const int64_t a = renumber[static_cast<size_t>(p)];
    if (a < 0) continue;
    if (!groups.empty() && groups.back().back() + 1 == a) groups.back().push_back(a);
    else groups.push_back({a});
  }
  std::vector<size_t> order(groups.size());  // the groups in input order
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t l, size_t r) { return groups[l][0] < groups[r][0]; });
  std::vector<int64_t> in_dims(groups.size()), in_strides(groups.size()), out_dims, out_strides(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    in_dims[g] = 1;
    for (int64_t a : groups[g]) in_dims[g] *= dims[static_cast<size_t>(a)];
    out_dims.push_back(in_dims[g]);
  }
  int64_t stride = 1;
  for (size_t k = order.size(); k-- > 0;) {
    in_strides[order[k]] = stride;
    stride *= in_dims[order[k]];
  }
  stride = 1;
  for (size_t g = groups.size(); g-- > 0;) {
    out_strides[g] = stride;
    stride *= out_dims[g];
  }
  const auto in = node.inputs[0], out = node.outputs[0];
  const size_t last = groups.size() - 1;
  return with_element_type<float>(op.attrs().kind, [&]<class E>() -> Step {
    if (groups.size() <= 1 || count == 0)
      return [in, out, count](const Frame& f) {
        std::memcpy(f.at<E>(out), f.at<E>(in), static_cast<size_t>(count) * sizeof(E));
      };
    if (order.back() == last) {  // the input's last axis stays last: whole rows
      auto rows = std::make_shared<const std::vector<std::pair<int64_t, int64_t>>>(
          offsets(out_dims, in_strides, out_strides, {last}));
      return [rows, in, out, run = out_dims[last]](const Frame& f) {
        const E* xs = f.at<E>(in);
        E* ys = f.at<E>(out);
        f.pool->parallel_for(static_cast<int64_t>(rows->size()), 64, [&](int64_t begin, int64_t end) {
          for (int64_t r = begin; r < end; ++r) {
            const auto [i, o] = (*rows)[static_cast<size_t>(r)];
            std::memcpy(ys + o, xs + i, static_cast<size_t>(run) * sizeof(E));
          }
        });
      };
    }
    // Tiles of input rows (the output's last axis, stride in_strides[last]) × the input's last axis
    // (output axis `col`), for each position of the other axes.
    const size_t col = order.back();
    auto planes = std::make_shared<const std::vector<std::pair<int64_t, int64_t>>>(
        offsets(out_dims, in_strides, out_strides, {last, col}));
    const int64_t rows = out_dims[last], cols = out_dims[col];
    const int64_t row_blocks = (rows + kTransposeTile - 1) / kTransposeTile;
    return [=, in_stride = in_strides[last], out_stride = out_strides[col]](const Frame& f) {
      const E* xs = f.at<E>(in);
      E* ys = f.at<E>(out);
      f.pool->parallel_for(static_cast<int64_t>(planes->size()) * row_blocks, 1, [&](int64_t begin, int64_t end) {
        for (int64_t w = begin; w < end; ++w) {
          const auto [i, o] = (*planes)[static_cast<size_t>(w / row_blocks)];
          const int64_t r0 = w % row_blocks * kTransposeTile;
          transpose_rows(xs + i, in_stride, r0, std::min(rows, r0 + kTransposeTile), cols, ys + o, out_stride);
        }
      });
    };
  });
}

}  // namespace nnref::fastpath
