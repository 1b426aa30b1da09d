// `nnref check --audit-stdlib` (docs/nnef2.md, "The stdlib audit"): every operator of nnref's
// SkriptND standard library bound to inputs whose extents are free sizes, and Z3 asked whether its
// assertions imply that its output extents are non-negative, that every divisor of its size
// arithmetic is at least 1 and that every unguarded access of its @lower body is in bounds.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "formats/nnef2/library.hpp"

namespace nnref {

// What the audit of one operator found: the goals proved, refuted (with a counterexample) and left
// unknown, the parts it could not audit, or why it could not audit the operator at all.
struct OperatorAudit {
  std::string op;  // module.name
  int proved = 0;
  std::vector<std::string> refuted, unknown, skipped;
  std::string not_audited;
  int pinned = 0;  // numbers composition used at the sample: the goals hold where they keep their value
};

// `def` of module `m` bound to inputs of free extents (each at least 1) at a sample of ranks and
// attribute values; its conditions are facts, and its output extents >= 0, its divisors >= 1, its
// unguarded @lower accesses in bounds, its @compose components' assertions and composed output
// shapes are goals.
OperatorAudit audit_operator(const nnef2::Module& m, const nnef2::OpDef& def);

// Prints the audit, one line an operator and what it could not audit; exit code 1 when a goal is
// refuted (a defect of the library), else 0.
int audit_stdlib_command(std::ostream& out, std::ostream& err);

}  // namespace nnref
