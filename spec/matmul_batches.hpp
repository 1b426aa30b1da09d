// The batch axes of matmul broadcast as in binary operations (NNEF 1.0 §4.5.1): an axis of extent
// 1 in one operand repeats its one matrix across the other's extent. For each output batch, in
// row-major order over the output's leading axes, the batch of A and of B it reads, as flat batch
// indices. Read by matmul's formula, its fast-path kernel and the hardware model's kernel.
#pragma once

#include <cstdint>
#include <vector>

#include "spec/index.hpp"
#include "spec/rules/broadcast.hpp"
#include "spec/shape.hpp"

namespace nnref {

struct MatMulBatches {
  std::vector<int64_t> a, b;  // one entry per output batch
};

inline MatMulBatches matmul_batches(const Shape& sa, const Shape& sb, const Shape& out) {
  const auto leading = [](const Shape& s) {
    return Shape::make(std::vector<int64_t>(s.dims().begin(), s.dims().end() - 2)).value();
  };
  const Shape batches = leading(out);
  const std::vector<int64_t> a_strides = broadcast_strides(leading(sa), batches, Broadcast::NumpyRight);
  const std::vector<int64_t> b_strides = broadcast_strides(leading(sb), batches, Broadcast::NumpyRight);
  MatMulBatches m;
  for_each_index(batches, [&](int64_t, const std::vector<int64_t>& index) {
    m.a.push_back(offset_of(index, a_strides));
    m.b.push_back(offset_of(index, b_strides));
  });
  return m;
}

}  // namespace nnref
