// contract: the program of an NNEF 2.0 `@lower` body
// (spec/contract_program.hpp), run in float by the oracle's own interpreter
// over the slots: the program is decoded once, and each step runs its
// statements in order.
#include "spec/ops/contract.hpp"

#include <memory>

#include "fastpath/lower.hpp"

namespace nnref::fastpath {

namespace {

contract_detail::Buffer<float> buffer_of(const Frame& f, const Slot& s) {
  switch (s.kind) {
    case ElemKind::Logical:
      return {s.kind, f.at<uint8_t>(s)};
    case ElemKind::Integer:
      return {s.kind, f.at<int64_t>(s)};
    case ElemKind::Real:
      break;
  }
  return {s.kind, f.at<float>(s)};
}

}  // namespace

Step lower_op(const Checked<ContractAttrs>& op, const NodeLowering& node) {
  auto program = std::make_shared<const contract::Program>(*contract::decode(op.attrs().program));
  return [program, inputs = node.inputs, outputs = node.outputs](const Frame& f) {
    std::vector<contract_detail::Buffer<float>> in, out;
    for (const Slot& s : inputs) in.push_back(buffer_of(f, s));
    for (const Slot& s : outputs) out.push_back(buffer_of(f, s));
    run_contract<float>(*program, in, out);
  };
}

}  // namespace nnref::fastpath
