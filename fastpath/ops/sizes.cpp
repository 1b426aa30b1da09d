// sizes: the values its program computes from the operands' extents, which the witness fixes: the
// lowering computes them once, and the step writes them.
#include <algorithm>

#include "fastpath/lower.hpp"
#include "spec/size_program.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<SizesAttrs>& op, const NodeLowering& node) {
  ConcreteSink sink;  // the witness holds: the program reads what it may
  const auto program = run_size_program(op.attrs().program, to_cdims(op.inputs()), sink, "sizes");
  std::vector<int64_t> values;
  for (const auto& v : *program) values.push_back(v.value.v);
  return [values, out = node.outputs[0]](const Frame& f) {
    std::copy(values.begin(), values.end(), f.at<int64_t>(out));
  };
}

}  // namespace nnref::fastpath
