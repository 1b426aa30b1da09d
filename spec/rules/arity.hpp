// The one arity check: a node is given a number of inputs its op accepts.
#pragma once

#include <string>

#include "spec/obligation.hpp"
#include "spec/op_types.hpp"

namespace nnref {

inline constexpr ObligationSpec kArity{
    ObligationKind::Graph, "graph.arity",
    "Every node has a number of inputs its op accepts (each op's page in docs/ops/ states its arity; input and "
    "const take none).",
    "min_arity <= inputs && (max_arity == -1 || inputs <= max_arity), max_arity -1 meaning no upper bound",
    "An IR add node (binary: 2 inputs) with one input: error[graph.arity] add takes 2 inputs, got 1 (NNL reports a "
    "wrong input count earlier, as nnl.layer.arity)."};

// "2", "at least 2", "1 to 3".
inline std::string arity_text(Arity a) {
  if (a.max == a.min) return std::to_string(a.min);
  if (a.max < 0) return "at least " + std::to_string(a.min);
  return std::to_string(a.min) + " to " + std::to_string(a.max);
}

inline bool arity_accepts(Arity a, size_t given) {
  const auto n = static_cast<int64_t>(given);
  return n >= a.min && (a.max < 0 || n <= a.max);
}

// False when the op cannot be read with this many inputs.
template <class Dim>
bool require_arity(const std::string& op, Arity a, size_t given, ObligationSink<Dim>& sink) {
  const bool fits = arity_accepts(a, given);
  sink.require(fits, kArity,
               op + " takes " + arity_text(a) + (a.max == 1 ? " input" : " inputs") + ", got " +
                   std::to_string(given));
  return fits;
}

}  // namespace nnref
