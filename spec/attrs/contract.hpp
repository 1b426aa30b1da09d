// The attributes of contract: what the IR, the readers and the writers see of
// it. Its shape rule and formula: spec/ops/contract.hpp, which only its own
// units include (cmake/ops.cmake). The computation of an NNEF 2.0 (SkriptND)
// `@lower` body, its loops enumerated (spec/contract_program.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/op_rule.hpp"

namespace nnref {

struct ContractAttrs {
  int64_t inputs = 0;            // the number of operands the program reads
  std::vector<int64_t> program;  // contract::encode of the program
  std::vector<ElemKind> kinds = {};  // the operands' kinds (none listed: real)
  ElemKind result = ElemKind::Real;  // every output's
};

inline constexpr ObligationSpec kContractProgram{
    ObligationKind::Attribute, "attr.contract.program",
    "A contraction program is well formed: its statements name outputs it has, "
    "its expression trees refer only to "
    "earlier nodes, reads and tables it holds, and every offset lies within "
    "the tensor it indexes.",
    "0 <= offset < size(tensor) for every read and target; every node's "
    "operands precede it",
    "A NAC file whose `nnref.contract` instruction reads element 12 of a [3, "
    "4] operand: error[attr.contract.program]."};

inline constexpr ObligationSpec kContractOperand{
    ObligationKind::Shape, "shape.contract.operand",
    "Each operand of a contraction program has the shape the program was built "
    "for: its offsets were computed at "
    "those extents.",
    "shape(operand j) == the program's shape j",
    "A `nnref.contract` instruction built for x [2, 3] applied to a value [3, "
    "2]: error[shape.contract.operand]."};

template <>
struct OpInfo<ContractAttrs> {
  static std::vector<const ObligationSpec*> obligations() { return {&kContractProgram, &kContractOperand}; }
};

inline std::string op_name(const ContractAttrs&) { return "contract"; }
inline Signature signature(const ContractAttrs& a) { return {a.kinds, ElemKind::Real, a.result}; }
inline Arity arity(const ContractAttrs& a) {
  const int n = static_cast<int>(a.inputs);
  return {n, n};
}

}  // namespace nnref
