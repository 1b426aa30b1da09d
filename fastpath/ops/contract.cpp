// contract: the program of an NNEF 2.0 `@lower` body
// (spec/contract_program.hpp), run in float by the oracle's own interpreter
// over the slots: the program is decoded once, and each step runs its
// statements in order.
#include "spec/ops/contract.hpp"

#include <memory>

#include "fastpath/lower.hpp"

namespace nnref::fastpath {

Step lower_op(const Checked<ContractAttrs>& op, const NodeLowering& node) {
  auto program = std::make_shared<const contract::Program>(*contract::decode(op.attrs().program));
  return [program, inputs = node.inputs, outputs = node.outputs](const Frame& f) {
    std::vector<const float*> in;
    for (const Slot& s : inputs) in.push_back(f.at<float>(s));
    std::vector<float*> out;
    for (const Slot& s : outputs) out.push_back(f.at<float>(s));
    run_contract<float>(*program, in, out);
  };
}

}  // namespace nnref::fastpath
