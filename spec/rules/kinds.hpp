// The element kinds of an op's operands against its signature.
#pragma once

#include <string>
#include <vector>

#include "spec/obligation.hpp"
#include "spec/op_types.hpp"

namespace nnref {

inline constexpr ObligationSpec kOperandKind{
    ObligationKind::Kind, "kind.operand",
    "Every input of an op has the element kind (real, integer, logical) its signature states: real unless the "
    "op's page in docs/ops/ says otherwise.",
    "kind(x_i) == signature(op).operand(i), for every input i",
    "An IR relu of an Input declared logical: error[kind.operand] relu input 0 must be real, got logical."};

// Every operand has its kind; false when one does not. Like the graph's edges (graph.output-index),
// kinds are structural facts, never symbolic: the obligation is raised (and counted) only when it
// fails, for the first operand of the wrong kind.
template <class Dim>
bool require_operand_kinds(const std::string& op, const Signature& sig, const std::vector<ElemKind>& kinds,
                           ObligationSink<Dim>& sink) {
  for (size_t i = 0; i < kinds.size(); ++i)
    if (kinds[i] != sig.operand(i)) {
      sink.require(false, kOperandKind,
                   op + " " + sink.operand(i) + " must be " + elem_kind_name(sig.operand(i)) + ", got " +
                       elem_kind_name(kinds[i]));
      return false;
    }
  return true;
}

}  // namespace nnref
