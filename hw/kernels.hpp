// The arithmetic of the hardware model, in float32 (docs/hw-model.md, "Arithmetic"): the MAC array's
// own tiled kernels (linear, matmul, conv), the vector unit's own reductions (sum and mean, softmax,
// layer normalization, average pooling) with their stated order, and every other op, an
// element-wise map or data movement, computed element by element with the spec's scalar formula.
#pragma once

#include <cstdint>

#include "hw/config.hpp"
#include "semantics/op.hpp"
#include "spec/op_rule.hpp"

namespace nnref::hw {

void compute(const CheckedOp& op, const OpIO<float>& io, const Config& c);

// The vector unit's sum of term(0..n−1) over `lanes` lanes: lane j adds the terms j, j + lanes,
// j + 2·lanes, ... in increasing order, starting from its first term; then the lanes' partial sums
// are added left to right, lane 0 first. 0 for n = 0.
template <class Term>
float lane_sum(int64_t n, Term&& term, int64_t lanes) {
  float total = 0.0f;
  for (int64_t j = 0; j < std::min(n, lanes); ++j) {
    float partial = term(j);
    for (int64_t i = j + lanes; i < n; i += lanes) partial += term(i);
    total = j == 0 ? partial : total + partial;
  }
  return total;
}

}  // namespace nnref::hw
